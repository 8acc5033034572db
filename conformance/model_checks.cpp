#include "conformance/model_checks.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>

#include "app/input/case.hpp"
#include "app/running/runner.hpp"
#include "conformance/dae_checks.hpp"
#include "core/format.hpp"
#include "core/metrics.hpp"
#include "core/model.hpp"

namespace tb::conformance {

namespace {

// The Baumgarte rates (p, gamma) of the DAE's consistent initial values wherever one b is
// needed (the integrators' default); the DAE checks also use (0, 0).
const BaumgarteParameters kDefaultBaumgarte{10.0, 10.0};

std::string entry_of(const ModelFixture& f) {
  return "model " + f.model + (f.label == f.model ? "" : " (" + f.label + ")");
}

// The fixture's case. A missing file fails naming it; a file naming another model fails.
Case load_fixture(Check& c, const ModelFixture& fixture, const Catalogue& catalogue) {
  c.require(std::filesystem::exists(fixture.file),
            "model " + fixture.model + ": add the fixture case " + fixture.file +
                " (cases/README.md format; small, moving, away from symmetric configurations)");
  Case loaded = load_case(fixture.file, catalogue);
  c.require(loaded.model_name == fixture.model,
            "the fixture " + fixture.file + " names model " + loaded.model_name + ", not " + fixture.model);
  return loaded;
}

struct Offered {
  FormulationKind kind;
  std::unique_ptr<Formulation> form;
  std::string discretisation;
  bool lumped = false;  // a discretisation other than the model's default: another semi-discrete system
  std::string name() const { return to_string(kind) + (discretisation.empty() ? "" : " (" + discretisation + ")"); }
};

// Every formulation the model offers, each discretisation in turn, in FormulationKind order;
// at least one.
std::vector<Offered> offered_formulations(Check& c, const Model& model) {
  std::vector<Offered> out;
  for (const auto& discretisation : model.discretisations())
    for (const FormulationKind kind : kAllFormulationKinds) {
      std::string why_not;
      auto form = model.make_formulation(kind, discretisation, why_not);
      if (!form) {
        // A declined kind says why (shown as "n/a: ..." in the tables).
        c.expect(!why_not.empty(), "declines the " + to_string(kind) + " form without saying why");
        continue;
      }
      c.expect(form->kind() == kind, "asked for the " + to_string(kind) + " form, made a " + to_string(form->kind()) + " one");
      out.push_back({kind, std::move(form), discretisation, discretisation != model.default_discretisation()});
    }
  c.require(!out.empty(), "offers no formulation");
  return out;
}

// What the others are compared against: the default discretisation's embedded ODE (its state
// is the physical state) where offered, else the first formulation.
const Offered& comparison_base(const std::vector<Offered>& forms) {
  for (const auto& f : forms)
    if (f.kind == FormulationKind::EmbeddedOde && !f.lumped) return f;
  return forms.front();
}

// The state a run of this formulation starts from: initial_state(), except for the DAE, whose
// integrator starts from consistent_initial_state (the multipliers solved at t0 for its b).
Eigen::VectorXd start_state(const Formulation& form) {
  if (const auto* dae = dynamic_cast<const DaeFormulation*>(&form)) return dae->consistent_initial_state(kDefaultBaumgarte);
  return form.initial_state();
}

// A deterministic pseudo-random vector with entries in [-1, 1), the same on every platform
// (std::mt19937 is specified exactly; std::uniform_real_distribution is not).
Eigen::VectorXd uniform_vector(int n, std::mt19937& gen) {
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = 2.0 * (double(gen()) / 4294967296.0) - 1.0;
  return v;
}

// x + rel (1 + |x_i|) u_i: a small perturbation of every entry, relative to its size.
Eigen::VectorXd perturbed(const Eigen::VectorXd& x, double rel, std::mt19937& gen) {
  const Eigen::VectorXd u = uniform_vector(int(x.size()), gen);
  return x + rel * (Eigen::VectorXd::Ones(x.size()) + x.cwiseAbs()).cwiseProduct(u);
}
// A configuration near q0, off the constraint manifold (R leaves SO(3), links change length).
Eigen::VectorXd near_configuration(const Eigen::VectorXd& q0, double rel, std::mt19937& gen) { return perturbed(q0, rel, gen); }

bool is_finite(double x) { return std::isfinite(x); }

// Sparse entries as a dense matrix; every entry inside rows x cols.
Eigen::MatrixXd dense_of(Check& c, const std::vector<Eigen::Triplet<double>>& entries, int rows, int cols) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, cols);
  for (const auto& e : entries) {
    const auto where = [&] { return "entry (" + std::to_string(e.row()) + ", " + std::to_string(e.col()) + ") outside " +
                                    std::to_string(rows) + " x " + std::to_string(cols); };
    const bool r0 = e.row() >= 0, r1 = e.row() < rows, c0 = e.col() >= 0, c1 = e.col() < cols;
    c.require(r0, r0 ? std::string() : where());
    c.require(r1, r1 ? std::string() : where());
    c.require(c0, c0 ? std::string() : where());
    c.require(c1, c1 ? std::string() : where());
    A(e.row(), e.col()) += e.value();
  }
  return A;
}

// Runs body(form) on every form of type Form the fixture's model offers; n/a when none.
template <class Form, class Body>
void for_each_form(Check& c, const ModelFixture& fixture, const Catalogue& catalogue, const std::string& what, Body body) {
  const Case loaded = load_fixture(c, fixture, catalogue);
  int checked = 0;
  for (const auto& offered : offered_formulations(c, *loaded.model)) {
    const auto* form = dynamic_cast<const Form*>(offered.form.get());
    if (!form) continue;
    ++checked;
    auto scope = c.context(offered.name());
    body(loaded, offered, *form);
  }
  if (checked == 0) c.not_applicable(fixture.label + " offers no " + what);
}

}  // namespace

Check check_fixture(const ModelFixture& fixture, const Catalogue& catalogue) {
  return Check::run(entry_of(fixture), "fixture case", [&](Check& c) {
    const Case loaded = load_fixture(c, fixture, catalogue);
    c.expect(loaded.model->name() == fixture.model, "the model built is " + loaded.model->name() + ", not " + fixture.model);
    c.expect(loaded.t_end > 0.0, "t_end " + g(loaded.t_end) + " is not > 0");
    c.expect(loaded.h > 0.0, "h " + g(loaded.h) + " is not > 0");
    c.measured(fixture.file + ": t_end " + g(loaded.t_end) + " s, h " + g(loaded.h) + " s");
  });
}

Check check_initial_state(const ModelFixture& fixture, const Catalogue& catalogue) {
  // Against the embedded ODE where offered (else the first formulation); tolerance 1e-12
  // relative to the largest entry of the physical state: the conversions at t0 (a Legendre
  // transform and its inverse, a body's centre of mass to its attachment point) are exact up to
  // round-off. A lumped-mass form is another semi-discrete system but takes the same initial
  // condition, so it must agree here too.
  return Check::run(entry_of(fixture), "formulations start alike", [&](Check& c) {
    const Case loaded = load_fixture(c, fixture, catalogue);
    const auto forms = offered_formulations(c, *loaded.model);
    const Offered* base = &comparison_base(forms);
    const Eigen::VectorXd reference = base->form->physical_state(start_state(*base->form));
    const double scale = reference.lpNorm<Eigen::Infinity>();
    c.require(scale > 0.0, "the physical state at t0 is zero");
    double worst = 0.0;
    for (const auto& offered : forms) {
      const auto& form = offered.form;
      auto scope = c.context(offered.name() + " against " + base->name());
      const Eigen::VectorXd y0 = start_state(*form);
      c.require(y0.size() == form->state_size(), "the start state has " + std::to_string(y0.size()) +
                                                     " entries, state_size() says " + std::to_string(form->state_size()));
      const Eigen::VectorXd s = form->physical_state(y0);
      c.require(s.size() == reference.size(), "the physical state has " + std::to_string(s.size()) + " entries, the base's " +
                                                  std::to_string(reference.size()));
      const double err = (s - reference).lpNorm<Eigen::Infinity>() / scale;
      worst = std::max(worst, err);
      c.note("physical state at t0, " + offered.name() + ": relative difference " + g(err));
      c.expect(err <= 1e-12, "|difference|_inf / |physical state|_inf = " + g(err) + " (bound 1e-12)");
      // A DAE's initial_state() (multipliers for some default b) and its consistent initial
      // state for the integrator's b differ only in the algebraic components.
      if (const auto* dae = dynamic_cast<const DaeFormulation*>(form.get())) {
        const Eigen::VectorXd plain = dae->initial_state();
        c.require(plain.size() == y0.size(), "initial_state() and consistent_initial_state() differ in size");
        const double err_plain = (form->physical_state(plain) - reference).lpNorm<Eigen::Infinity>() / scale;
        c.note("physical state at t0, index-1-dae initial_state(): relative difference " + g(err_plain));
        c.expect(err_plain <= 1e-12, "initial_state(): |difference| / |physical state| = " + g(err_plain) + " (bound 1e-12)");
        const Eigen::VectorXd differential = dae->differential_components();
        const double err_diff = (plain - y0).cwiseProduct(differential).lpNorm<Eigen::Infinity>() / scale;
        c.note("index-1-dae initial_state() against consistent_initial_state(b), differential part " + g(err_diff));
        c.expect(err_diff <= 1e-12, "initial_state() and consistent_initial_state(b) differ in a differential component by " +
                                        g(err_diff) + " (bound 1e-12)");
      }
    }
    c.measured(std::to_string(forms.size()) + " forms, worst relative difference " + g(worst));
  });
}

Check check_observations_finite(const ModelFixture& fixture, const Catalogue& catalogue) {
  return Check::run(entry_of(fixture), "observations finite", [&](Check& c) {
    const Case loaded = load_fixture(c, fixture, catalogue);
    int forms = 0;
    for (const auto& offered : offered_formulations(c, *loaded.model)) {
      ++forms;
      const auto& form = offered.form;
      auto scope = c.context(offered.name());
      const Observation o = form->observe(0.0, start_state(*form));
      const auto finite = [&](double x, const char* what) {
        c.expect(is_finite(x), std::string(what) + " = " + g(x) + " at t0");
      };
      finite(o.energy, "energy");
      finite(o.kinetic, "kinetic energy");
      c.expect(o.kinetic >= 0.0, "kinetic energy " + g(o.kinetic) + " < 0 at t0");
      finite(o.momentum, "momentum");
      finite(o.constraint_err, "constraint error");
      finite(o.constraint_rate_err, "constraint rate error");
      finite(o.orthogonality_err, "orthogonality error");
      finite(o.external_work, "external work");
      // Linear momentum: NaN in all three components by design where the model does not
      // conserve it, else all three finite; never a mix.
      const int nan_components = int(o.linear_momentum.array().isNaN().count());
      c.expect(nan_components == 0 || nan_components == 3,
               "linear momentum (" + g(o.linear_momentum(0)) + ", " + g(o.linear_momentum(1)) + ", " +
                   g(o.linear_momentum(2)) + ") mixes NaN and numbers");
      c.expect(o.linear_momentum.array().isInf().count() == 0, "linear momentum is infinite");
      const auto names = form->extra_column_names();
      c.require(o.extra.size() == names.size(), std::to_string(o.extra.size()) + " extra values for " +
                                                    std::to_string(names.size()) + " extra columns");
      for (std::size_t i = 0; i < o.extra.size(); ++i)
        c.expect(is_finite(o.extra[i]), "extra column " + names[i] + " = " + g(o.extra[i]));
    }
    c.measured(std::to_string(forms) + " forms observed at t0");
  });
}

Check check_observations_agree(const ModelFixture& fixture, const Catalogue& catalogue) {
  // Energy, kinetic energy, momentum, linear momentum and every extra column at t0, against the
  // embedded ODE where offered (else the first formulation), to 1e-12 relative: energy and
  // kinetic energy against max(|E|, T), the momentum against |pi| (plus 1e-15 N m s for momenta
  // that vanish), P and the extra columns against max(1, |value|). Not for the lumped-mass forms:
  // a different mass matrix gives another kinetic energy and momentum for the same velocities,
  // and a lumped form may leave out a constant potential; they are only required to be finite.
  return Check::run(entry_of(fixture), "formulations observe alike", [&](Check& c) {
    const Case loaded = load_fixture(c, fixture, catalogue);
    const auto forms = offered_formulations(c, *loaded.model);
    const Offered* base = &comparison_base(forms);
    const Observation ob = base->form->observe(0.0, start_state(*base->form));
    const std::vector<std::string> names = base->form->extra_column_names();
    const double e_scale = std::max(std::abs(ob.energy), ob.kinetic);
    double worst_all = 0.0;
    for (const auto& offered : forms) {
      const auto& form = offered.form;
      const Observation o = form->observe(0.0, start_state(*form));
      c.require(o.extra.size() == ob.extra.size(), offered.name() + ": " + std::to_string(o.extra.size()) +
                                                       " extra values, the base has " + std::to_string(ob.extra.size()));
      c.require(form->extra_column_names() == names, offered.name() + ": other extra columns than " + base->name());
      if (offered.lumped) {
        c.note("observations at t0, lumped-mass: |dE| / max(|E|, T) " + g(std::abs(o.energy - ob.energy) / e_scale));
        continue;
      }
      auto scope = c.context(offered.name() + " against " + base->name());
      double worst = 0.0;
      auto agree = [&](const std::string& what, double a, double b, double scale) {
        const double rel = std::abs(a - b) / scale;
        worst = std::max(worst, rel);
        c.expect(rel <= 1e-12, what + ": " + g(a, 17) + " against " + g(b, 17) + " (relative " + g(rel) + ", bound 1e-12)");
      };
      agree("energy", o.energy, ob.energy, e_scale);
      agree("kinetic energy", o.kinetic, ob.kinetic, e_scale);
      {
        const double dpi = std::abs(o.momentum - ob.momentum);
        if (ob.momentum != 0.0) worst = std::max(worst, dpi / std::abs(ob.momentum));
        c.expect(dpi <= 1e-12 * std::abs(ob.momentum) + 1e-15,
                 "momentum: " + g(o.momentum, 17) + " against " + g(ob.momentum, 17));
      }
      c.expect(o.linear_momentum.array().isNaN().count() == ob.linear_momentum.array().isNaN().count(),
               "linear momentum reported in one form and not in the other");
      if (ob.linear_momentum.allFinite())
        agree("linear momentum", (o.linear_momentum - ob.linear_momentum).norm(), 0.0, std::max(1.0, ob.linear_momentum.norm()));
      for (std::size_t i = 0; i < ob.extra.size(); ++i)
        agree(names[i], o.extra[i], ob.extra[i], std::max({1.0, std::abs(o.extra[i]), std::abs(ob.extra[i])}));
      c.note("observations at t0, " + offered.name() + ": worst relative difference " + g(worst));
      worst_all = std::max(worst_all, worst);
    }
    c.measured("worst relative difference " + g(worst_all) + " (bound 1e-12)");
  });
}

Check check_dae_iteration_matrix(const ModelFixture& fixture, const Catalogue& catalogue) {
  // At the consistent initial values plus a deterministic perturbation of 1e-3 (1 + |y_i|) of
  // every entry of y and y' (the constraints and multipliers off their consistent values), for
  // cj in {0, 1e3} and (p, gamma) in {(10, 10), (0, 0)}. Error: each row against its largest
  // entry (conformance/dae_checks.hpp). Bound 1e-6: the suite's models measure at most ~1e-8,
  // and one term scaled by 1.01 measures ~1e-3.
  const double bound = 1e-6;
  return Check::run(entry_of(fixture), "DAE iteration matrix vs differences", [&](Check& c) {
    double worst_all = 0.0;
    for_each_form<DaeFormulation>(c, fixture, catalogue, "index-1 DAE", [&](const Case&, const Offered&, const DaeFormulation& dae) {
      const int n = dae.state_size();
      const int lower = dae.lower_bandwidth(), upper = dae.upper_bandwidth();
      c.require(lower >= 0, "lower bandwidth " + std::to_string(lower) + " < 0");
      c.require(upper >= 0, "upper bandwidth " + std::to_string(upper) + " < 0");
      c.require(lower < n, "lower bandwidth " + std::to_string(lower) + " >= the size " + std::to_string(n));
      c.require(upper < n, "upper bandwidth " + std::to_string(upper) + " >= the size " + std::to_string(n));
      c.require(dae.differential_components().size() == n, "differential_components() is not of the state's size");
      std::mt19937 gen(20240601u);
      const Eigen::VectorXd y = perturbed(dae.consistent_initial_state(kDefaultBaumgarte), 1e-3, gen);
      const Eigen::VectorXd yp = perturbed(dae.consistent_initial_derivative(kDefaultBaumgarte), 1e-3, gen);
      c.require(y.size() == n, "consistent_initial_state() is not of the state's size");
      c.require(yp.size() == n, "consistent_initial_derivative() is not of the state's size");
      double worst = 0.0;
      for (const BaumgarteParameters b : {BaumgarteParameters{10.0, 10.0}, BaumgarteParameters{0.0, 0.0}}) {
        for (const double cj : {0.0, 1e3}) {
          const double t = 0.0;
          const Eigen::MatrixXd J = dae_jacobian_dense(dae, t, y, yp, cj, b);
          const Eigen::MatrixXd Jfd = dae_jacobian_fd(dae, t, y, yp, cj, b);
          const double err = dae_jacobian_row_relative_error(J, Jfd);
          worst = std::max(worst, err);
          auto scope = c.context("p = " + g(b.p) + ", gamma = " + g(b.gamma) + ", cj = " + g(cj));
          c.expect(J.allFinite(), "the analytic matrix is not finite");
          c.expect(err < bound, "row-relative error " + g(err) + " against central differences (bound 1e-6)");
          // The analytic matrix exactly inside the band; the differences up to their noise
          // (1e-8 of the matrix's largest entry, far above round-off of the 1e-6 steps, far
          // below any real coupling).
          const int outside = entries_outside_band(J, lower, upper, 0.0);
          c.expect(outside == 0, std::to_string(outside) + " analytic entries outside the declared half-bandwidths " +
                                     std::to_string(lower) + ", " + std::to_string(upper));
          const double fd_noise = 1e-8 * std::max(1.0, Jfd.cwiseAbs().maxCoeff());
          const int outside_fd = entries_outside_band(Jfd, lower, upper, fd_noise);
          c.expect(outside_fd == 0, std::to_string(outside_fd) + " entries of the differences outside the declared half-bandwidths " +
                                        std::to_string(lower) + ", " + std::to_string(upper));
        }
      }
      c.note("DAE iteration matrix: row-relative error against central differences " + g(worst));
      const auto [measured_lower, measured_upper] = measured_bandwidths(dae_jacobian_dense(dae, 0.0, y, yp, 1e3, kDefaultBaumgarte), 0.0);
      c.note("DAE size " + std::to_string(n) + ", declared half-bandwidths " + std::to_string(lower) + "/" +
             std::to_string(upper) + ", attained " + std::to_string(measured_lower) + "/" + std::to_string(measured_upper));
      worst_all = std::max(worst_all, worst);
    });
    c.measured("row-relative error " + g(worst_all) + " (bound 1e-6)");
  });
}

Check check_dae_consistent_values(const ModelFixture& fixture, const Catalogue& catalogue) {
  // |F(t0, y0, y0')|_inf relative to the residual's scale |F(t0, y0, 0)|_inf, the size of the
  // terms that y0' must cancel, for (p, gamma) in {(10, 10), (0, 0)}. Bound 1e-12.
  return Check::run(entry_of(fixture), "DAE consistent initial values", [&](Check& c) {
    double worst = 0.0;
    for_each_form<DaeFormulation>(c, fixture, catalogue, "index-1 DAE", [&](const Case&, const Offered&, const DaeFormulation& dae) {
      for (const BaumgarteParameters b : {BaumgarteParameters{10.0, 10.0}, BaumgarteParameters{0.0, 0.0}}) {
        const Eigen::VectorXd y0 = dae.consistent_initial_state(b);
        const Eigen::VectorXd yp0 = dae.consistent_initial_derivative(b);
        Eigen::VectorXd F, F_scale;
        dae.residual(0.0, y0, yp0, b, F);
        dae.residual(0.0, y0, Eigen::VectorXd::Zero(y0.size()), b, F_scale);
        c.require(F.size() == y0.size(), "the residual is not of the state's size");
        const double scale = F_scale.lpNorm<Eigen::Infinity>();
        c.require(scale > 0.0, "the residual at y' = 0 vanishes: no scale");
        const double rel = F.lpNorm<Eigen::Infinity>() / scale;
        worst = std::max(worst, rel);
        c.note("consistent initial values, p = " + std::to_string(int(b.p)) + ": |F|/|F(y0, 0)| " + g(rel));
        c.expect(rel < 1e-12, "p = " + g(b.p) + ", gamma = " + g(b.gamma) + ": |F|_inf = " + g(F.lpNorm<Eigen::Infinity>()) +
                                  ", scale " + g(scale) + " (relative " + g(rel) + ", bound 1e-12)");
      }
    });
    c.measured("|F| / |F(y0, 0)| " + g(worst) + " (bound 1e-12)");
  });
}

Check check_lie_group_newton(const ModelFixture& fixture, const Catalogue& catalogue) {
  // newton_correction(x, v) returns dx with J(x) dx = -v. The directional central difference
  // D(e) = (G(x + e dx) - G(x - e dx)) / (2e) is J(x) dx up to O(e^2) and round-off, so it must
  // equal -v: this checks the model's structured J^{-1} against its residual without forming J.
  // x: the initial guess at the fixture's initial state and step h, plus a perturbation of 1e-2
  // of |x|_inf; v: three pseudo-random right-hand sides. Error: |D(e) + v|_inf / |v|_inf, the
  // smallest over |e dx|_inf = eta |x|_inf with eta in {1e-2, 1e-3, 1e-4} (round-off dominates
  // small steps, truncation large ones; a wrong Jacobian is wrong at every step). Bound 1e-6.
  const double bound = 1e-6;
  return Check::run(entry_of(fixture), "Lie group step's Newton correction", [&](Check& c) {
    double worst_all = 0.0;
    for_each_form<DiscreteLieGroupFormulation>(
        c, fixture, catalogue, "discrete Lie group form",
        [&](const Case& loaded, const Offered&, const DiscreteLieGroupFormulation& lg) {
          auto step = lg.make_step();
          c.require(step != nullptr, "make_step() returned no step");
          step->begin(lg.initial_state(), loaded.h);
          Eigen::VectorXd x;
          step->initial_guess(x);
          const int n = step->unknowns();
          c.require(x.size() == n, "the initial guess has " + std::to_string(x.size()) + " entries, unknowns() " + std::to_string(n));
          c.require(x.allFinite(), "the initial guess is not finite");
          const double x_size = std::max(x.lpNorm<Eigen::Infinity>(), 1e-12);
          std::mt19937 gen(777u);
          x += 1e-2 * x_size * uniform_vector(n, gen);
          double worst = 0.0;
          for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd v = uniform_vector(n, gen);
            Eigen::VectorXd dx;
            c.require(step->newton_correction(x, v, dx), "newton_correction() failed");
            c.require(dx.size() == n, "the correction is not of the unknowns' size");
            c.require(dx.allFinite(), "the correction is not finite");
            c.require(dx.lpNorm<Eigen::Infinity>() > 0.0, "the correction is zero");
            double err = std::numeric_limits<double>::infinity();
            for (const double eta : {1e-2, 1e-3, 1e-4}) {
              const double e = eta * x_size / dx.lpNorm<Eigen::Infinity>();
              Eigen::VectorXd Gp, Gm;
              step->residual(x + e * dx, Gp);
              step->residual(x - e * dx, Gm);
              c.require(Gp.size() == n, "the residual is not of the unknowns' size");
              c.require(Gm.size() == n, "the residual is not of the unknowns' size");
              const Eigen::VectorXd directional = (Gp - Gm) / (2.0 * e);
              err = std::min(err, (directional + v).lpNorm<Eigen::Infinity>() / v.lpNorm<Eigen::Infinity>());
            }
            worst = std::max(worst, err);
            c.expect(err < bound, "right-hand side " + std::to_string(trial) + ": |J_fd dx + v| / |v| = " + g(err) + " (bound 1e-6)");
          }
          c.note("discrete Lie group Newton correction: |J_fd dx + v|_inf / |v|_inf " + g(worst));
          worst_all = std::max(worst_all, worst);
        });
    c.measured("|J_fd dx + v| / |v| " + g(worst_all) + " (bound 1e-6)");
  });
}

Check check_invariants_under_reference(const ModelFixture& fixture, const Catalogue& catalogue) {
  // The catalogue's reference solver at rtol 1e-10, atol 1e-12 over the fixture's t_end, metrics
  // as the runner computes them (core/metrics.hpp), sampled on the fixture's grid. Conserved:
  // the energy balance E(t) - E(0) - W(t) (bound 1e-8 relative to the kinetic energy), the
  // constraints not satisfied by construction (1e-9), the orthonormality of R (1e-9), the
  // `momentum` observation (the model's conserved momentum, or identically 0) relative to its
  // largest magnitude (1e-9), and the total linear momentum where the model reports it (1e-9).
  // The fixture must move (max kinetic energy > 0), else the energy check is void.
  const double energy_bound = 1e-8, constraint_bound = 1e-9, orthogonality_bound = 1e-9, momentum_bound = 1e-9,
               linear_momentum_bound = 1e-9;
  return Check::run(entry_of(fixture), "invariants under the reference solver", [&](Check& c) {
    const IntegratorInfo* solver = &catalogue.reference();
    const Case loaded = load_fixture(c, fixture, catalogue);
    // The ODE form of the model's default discretisation (what the reference solver consumes).
    std::string why_not;
    std::unique_ptr<Formulation> form = loaded.model->make_formulation(solver->consumes, why_not);
    c.require(form != nullptr, "offers no " + to_string(solver->consumes) + " form for the reference solver: " + why_not);
    c.note(solver->name + " on the " + to_string(form->kind()) + " form");
    IntegratorSettings s = IntegratorSettings::defaults(solver->settings, loaded.h);
    s.set("rtol", 1e-10);
    s.set("atol", 1e-12);
    MetricsAccumulator acc;
    double momentum_scale = 0.0, linear_momentum_scale = 0.0;
    const IntegrationOutcome out =
        integrate(*form, *solver, s, loaded.t_end, loaded.sample_interval, [&](double t, const Eigen::VectorXd& y) {
          const Observation o = form->observe(t, y);
          acc.add(t, o);
          momentum_scale = std::max(momentum_scale, std::abs(o.momentum));
          if (o.linear_momentum.allFinite()) linear_momentum_scale = std::max(linear_momentum_scale, o.linear_momentum.norm());
        });
    c.require(out.ok(), out.outcome.describe());
    c.require(out.t_final == loaded.t_end, "ended at t = " + g(out.t_final, 17) + " s, not t_end");
    const ConservationMetrics m = acc.result();
    const double momentum_rel = momentum_scale > 0.0 ? m.momentum_err_max / momentum_scale : m.momentum_err_max;
    c.note("steps " + std::to_string(out.counters.steps));
    c.note("energy_err_rel_ke " + g(m.energy_err_rel_ke));
    c.note("kinetic_max (J) " + g(m.kinetic_max));
    c.note("constraint_err_max " + g(m.constraint_err_max));
    c.note("orthogonality_err_max " + g(m.orthogonality_err_max));
    c.note("momentum_err_max / max |momentum| " + g(momentum_rel));
    c.note("max |momentum| " + g(momentum_scale));
    c.measured(solver->name + " " + std::to_string(out.counters.steps) + " steps: energy_err_rel_ke " + g(m.energy_err_rel_ke) +
               ", constraint " + g(m.constraint_err_max) + ", orthogonality " + g(m.orthogonality_err_max) +
               ", momentum (relative) " + g(momentum_rel));
    c.expect(m.kinetic_max > 0.0, "the fixture does not move (max kinetic energy 0): the energy check is void");
    c.expect(m.energy_err_rel_ke < energy_bound, "energy balance error " + g(m.energy_err_rel_ke) + " of the kinetic energy (bound 1e-8)");
    c.expect(m.constraint_err_max < constraint_bound, "constraint error " + g(m.constraint_err_max) + " (bound 1e-9)");
    c.expect(m.orthogonality_err_max < orthogonality_bound, "orthogonality error " + g(m.orthogonality_err_max) + " (bound 1e-9)");
    if (momentum_scale > 0.0)
      c.expect(momentum_rel < momentum_bound, "momentum error " + g(momentum_rel) + " of its largest magnitude (bound 1e-9)");
    else
      c.expect(m.momentum_err_max == 0.0, "a momentum identically 0 changed by " + g(m.momentum_err_max));
    if (std::isfinite(m.linear_momentum_err_max)) {
      const double rel =
          linear_momentum_scale > 0.0 ? m.linear_momentum_err_max / linear_momentum_scale : m.linear_momentum_err_max;
      c.note("linear_momentum_err_max / max |P| " + g(rel));
      c.expect(rel < linear_momentum_bound, "linear momentum error " + g(rel) + " of its largest magnitude (bound 1e-9)");
    }
  });
}

namespace {

// The initial state on the constraints: its positions by g, its velocities by G.
void check_initial_state_on_constraints(Check& c, const ConstrainedMechanicalFormulation* cm, const Eigen::VectorXd& y0,
                                        const Eigen::VectorXd& scale, int n, int m) {
  Eigen::VectorXd g0, Gv0;
  cm->constraint(y0.head(n), g0);
  cm->constraint_jacobian_times(y0.head(n), y0.segment(n, n), Gv0);
  c.require(g0.size() == m, "constraint() is not of constraints()' size");
  c.require(Gv0.size() == m, "constraint_jacobian_times() is not of constraints()' size");
  std::vector<Eigen::Triplet<double>> entries;
  cm->constraint_jacobian(y0.head(n), entries);
  const Eigen::MatrixXd G0 = dense_of(c, entries, m, n);
  const double g_rel = m > 0 ? g0.cwiseQuotient(scale).lpNorm<Eigen::Infinity>() : 0.0;
  const double Gv_rel =
      m > 0 ? Gv0.lpNorm<Eigen::Infinity>() / std::max(1e-300, G0.norm() * y0.segment(n, n).norm()) : 0.0;
  c.note("constrained form: initial |g|/scale " + g(g_rel));
  c.note("constrained form: initial |G v| / (|G| |v|) " + g(Gv_rel));
  c.expect(g_rel <= 1e-13, "the initial state is off the constraints: |g|/scale = " + g(g_rel) + " (bound 1e-13)");
  c.expect(Gv_rel <= 1e-13, "the initial velocity is off the constraints: |G v| / (|G| |v|) = " + g(Gv_rel) + " (bound 1e-13)");
}

// The work terms' power against the work rate of the velocity-dependent forces, where the mass
// matrix is constant (with M(q) the model's own tests check it).
void check_work_terms_power(Check& c, const ConstrainedMechanicalFormulation* cm, const Eigen::VectorXd& q, int n, int w,
                            std::mt19937& gen) {
  if (w > 0 && cm->mass_depends_on_configuration()) {
    // With M(q), f(q, v) - f(q, 0) holds M's velocity-quadratic terms as well, and the
    // identity below does not isolate the non-conservative power: the model's own tests
    // check the work terms against the energy rate.
    c.note("constrained form: M(q): the work terms' power is checked by the model's tests");
  } else if (w > 0) {
    // The work terms are the work of the velocity-dependent forces: their power is
    // -(f(q, v) - f(q, 0)) . v, for the dissipation a form carries.
    const Eigen::VectorXd v = uniform_vector(n, gen);
    Eigen::VectorXd f_v, f_0, P;
    cm->force(0.0, q, v, f_v);
    cm->force(0.0, q, Eigen::VectorXd::Zero(n), f_0);
    cm->power(0.0, q, v, P);
    c.require(P.size() == w, "power() is not of work_terms()' size");
    const double work_rate = -(f_v - f_0).dot(v);
    const double rel = std::abs(P.sum() - work_rate) / std::abs(work_rate);
    c.note("constrained form: power against -(f(v) - f(0)).v (relative) " + g(rel));
    c.expect(cm->force_depends_on_velocity(), "work terms, but force_depends_on_velocity() is false");
    c.expect(std::abs(P.sum() - work_rate) <= 1e-12 * std::abs(work_rate),
             "power " + g(P.sum(), 17) + " against -(f(v) - f(0)).v = " + g(work_rate, 17));
  }
}

// G's largest row-relative error against central differences of g at q (returned, not reported:
// the caller keeps the worst over every form before it notes this one).
double constraint_jacobian_row_error(const ConstrainedMechanicalFormulation* cm, const Eigen::VectorXd& q,
                                     const Eigen::MatrixXd& G, int n, int m) {
  Eigen::MatrixXd Gfd(m, n);
  for (int k = 0; k < n; ++k) {
    const double e = 1e-6 * (1.0 + std::abs(q(k)));
    Eigen::VectorXd qp = q, qm = q, gp, gm;
    qp(k) += e;
    qm(k) -= e;
    cm->constraint(qp, gp);
    cm->constraint(qm, gm);
    Gfd.col(k) = (gp - gm) / (2.0 * e);
  }
  double worst = 0.0;
  for (int i = 0; i < m; ++i) {
    const double row_scale = std::max(G.row(i).cwiseAbs().maxCoeff(), 1e-300);
    worst = std::max(worst, (G.row(i) - Gfd.row(i)).cwiseAbs().maxCoeff() / row_scale);
  }
  return worst;
}

// G v, G^T lambda and M v against the dense products of their entries; M symmetric and positive
// semi-definite.
void check_structured_products(Check& c, const ConstrainedMechanicalFormulation* cm, const Eigen::VectorXd& q,
                               const Eigen::MatrixXd& G, int n, int m, std::mt19937& gen) {
  // Structured products against the entries.
  const Eigen::VectorXd v = uniform_vector(n, gen), lambda = uniform_vector(m, gen);
  Eigen::VectorXd Gv, GTl, Mv;
  cm->constraint_jacobian_times(q, v, Gv);
  cm->constraint_jacobian_transpose_times(q, lambda, GTl);
  cm->mass_times(v, Mv);
  c.require(Gv.size() == m, "constraint_jacobian_times() is not of constraints()' size");
  c.require(GTl.size() == n, "constraint_jacobian_transpose_times() is not of positions()' size");
  c.require(Mv.size() == n, "mass_times() is not of positions()' size");
  std::vector<Eigen::Triplet<double>> mass;
  cm->mass_entries(mass);
  const Eigen::MatrixXd M = dense_of(c, mass, n, n);
  const double G_scale = m > 0 ? std::max(1.0, G.cwiseAbs().maxCoeff()) : 1.0;  // maxCoeff of an empty matrix is undefined
  if (m > 0) {
    const double e1 = (Gv - G * v).lpNorm<Eigen::Infinity>(), e2 = (GTl - G.transpose() * lambda).lpNorm<Eigen::Infinity>();
    c.expect(e1 <= 1e-13 * G_scale * n, "G v differs from the entries' product by " + g(e1));
    c.expect(e2 <= 1e-13 * G_scale * m, "G^T lambda differs from the entries' product by " + g(e2));
  }
  const double e3 = (Mv - M * v).lpNorm<Eigen::Infinity>();
  c.expect(e3 <= 1e-13 * M.cwiseAbs().maxCoeff() * n, "M v differs from the mass entries' product by " + g(e3));
  c.expect((M - M.transpose()).cwiseAbs().maxCoeff() == 0.0, "the mass matrix is not symmetric");
  // Positive semi-definite (a flat body's inertia is singular; the saddle-point check
  // sees that M is definite where it must be, on the constraints' tangent space).
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues();
  c.expect(eig.minCoeff() >= -1e-14 * eig.maxCoeff(), "the mass matrix has the eigenvalue " + g(eig.minCoeff()));
  c.expect(eig.maxCoeff() > 0.0, "the mass matrix is zero");
}

}  // namespace

Check check_constrained_pieces(const ModelFixture& fixture, const Catalogue& catalogue) {
  // At the initial configuration plus a deterministic perturbation of 1e-3 (1 + |q_i|) (off the
  // constraints, so that the checks are not special to g = 0):
  //  - G(q) as entries against central differences of g (step 1e-6 (1 + |q_i|)), each row
  //    against its largest entry (bound 1e-7; quadratic constraints are differenced exactly up
  //    to round-off);
  //  - G v and G^T lambda against the entries' dense products, and M v against the mass
  //    entries, to 1e-13 relative; M symmetric, positive semi-definite;
  //  - the work terms' power against -(f(q, v) - f(q, 0)) . v;
  //  - the initial state on the constraints: |g_i| / scale_i and |G v| / (|G| |v|) <= 1e-13.
  return Check::run(entry_of(fixture), "constrained form: g, G, M, initial state", [&](Check& c) {
    double worst_G = 0.0;
    for_each_form<ConstrainedMechanicalFormulation>(
        c, fixture, catalogue, "constrained mechanical form",
        [&](const Case&, const Offered&, const ConstrainedMechanicalFormulation& form) {
          const auto* cm = &form;
          const int n = cm->positions(), m = cm->constraints(), w = cm->work_terms();
          c.require(cm->state_size() == 2 * n + w, "state_size() is not 2 positions() + work_terms()");
          const Eigen::VectorXd y0 = cm->initial_state();
          c.require(y0.size() == 2 * n + w, "the initial state is not 2 positions() + work_terms() long");
          const Eigen::VectorXd scale = cm->constraint_scale();
          c.require(scale.size() == m, "constraint_scale() is not of constraints()' size");
          if (m > 0) c.require(scale.minCoeff() > 0.0, "a constraint scale is not > 0");
          check_initial_state_on_constraints(c, cm, y0, scale, n, m);
          std::mt19937 gen(4242u);
          const Eigen::VectorXd q = near_configuration(y0.head(n), 1e-3, gen);
          check_work_terms_power(c, cm, q, n, w, gen);
          std::vector<Eigen::Triplet<double>> entries;
          cm->constraint_jacobian(q, entries);
          const Eigen::MatrixXd G = dense_of(c, entries, m, n);
          const double worst = constraint_jacobian_row_error(cm, q, G, n, m);
          worst_G = std::max(worst_G, worst);
          c.note("constrained form: G against central differences of g (row-relative) " + g(worst));
          c.expect(worst < 1e-7, "G row-relative error " + g(worst) + " against central differences of g (bound 1e-7)");
          check_structured_products(c, cm, q, G, n, m, gen);
        });
    c.measured("G against differences of g: " + g(worst_G) + " (bound 1e-7)");
  });
}

Check check_constrained_saddle_point(const ModelFixture& fixture, const Catalogue& catalogue) {
  // [M, G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] at two different configurations near the
  // initial one (as in a constrained scheme's Newton: q_a the iterate, q_b = q_k), r and s pseudo-random; the
  // residual of the structured solution in the dense matrix built from the entries, relative to
  // |K| |[x; lambda]| + |[r; s]|. Bound 1e-10: a wrong block gives O(1).
  return Check::run(entry_of(fixture), "constrained form: saddle-point solver", [&](Check& c) {
    double worst_all = 0.0;
    for_each_form<ConstrainedMechanicalFormulation>(
        c, fixture, catalogue, "constrained mechanical form",
        [&](const Case&, const Offered&, const ConstrainedMechanicalFormulation& form) {
          const auto* cm = &form;
          const int n = cm->positions(), m = cm->constraints();
          const Eigen::VectorXd y0 = cm->initial_state();
          std::mt19937 gen(99u);
          const Eigen::VectorXd qa = near_configuration(y0.head(n), 1e-2, gen);
          const Eigen::VectorXd qb = near_configuration(y0.head(n), 1e-2, gen);
          std::vector<Eigen::Triplet<double>> mass, Ga, Gb;
          cm->mass_entries_at(qa, mass);  // the solver factors M(q_a) (the constant M unless the form says otherwise)
          cm->constraint_jacobian(qa, Ga);
          cm->constraint_jacobian(qb, Gb);
          Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
          K.topLeftCorner(n, n) = dense_of(c, mass, n, n);
          K.topRightCorner(n, m) = dense_of(c, Gb, m, n).transpose();
          K.bottomLeftCorner(m, n) = dense_of(c, Ga, m, n);
          auto solver = cm->make_solver();
          c.require(solver != nullptr, "make_solver() returned no solver");
          c.require(solver->factor(qa, qb), "the solver failed to factor the saddle-point matrix");
          double worst = 0.0;
          for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd r = uniform_vector(n, gen), s = uniform_vector(m, gen);
            Eigen::VectorXd x, lambda;
            solver->solve(r, s, x, lambda);
            c.require(x.size() == n, "the solution x is not of positions()' size");
            c.require(lambda.size() == m, "the multipliers are not of constraints()' size");
            Eigen::VectorXd sol(n + m), rhs(n + m);
            sol << x, lambda;
            rhs << r, s;
            const double rel = (K * sol - rhs).lpNorm<Eigen::Infinity>() /
                               (K.cwiseAbs().maxCoeff() * sol.lpNorm<Eigen::Infinity>() + rhs.lpNorm<Eigen::Infinity>());
            worst = std::max(worst, rel);
          }
          c.note("constrained form: saddle-point solve, relative residual " + g(worst));
          c.expect(worst < 1e-10, "relative residual " + g(worst) + " of the structured solution (bound 1e-10)");
          worst_all = std::max(worst_all, worst);
        });
    c.measured("relative residual " + g(worst_all) + " (bound 1e-10)");
  });
}

namespace {

// The largest entry of A - B relative to A's largest entry, or to size_floor where that is larger.
double tangent_relative_error(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double size_floor) {
  if (A.size() == 0) return 0.0;
  const double size = std::max({A.cwiseAbs().maxCoeff(), size_floor, 1e-300});
  return (A - B).cwiseAbs().maxCoeff() / size;
}

// Central differences, column by column, of f in q (K_f) and in v (C_f) and of G(q)^T lambda in q (K_g).
void force_tangent_differences(const ConstrainedMechanicalFormulation* cm, double t, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& v, const Eigen::VectorXd& lambda, int n, Eigen::MatrixXd& Kf_fd,
                               Eigen::MatrixXd& Cf_fd, Eigen::MatrixXd& Kg_fd) {
  // (g(x + e u_k) - g(x - e u_k)) / 2e, e = 1e-6 (1 + |x_k|).
  auto central = [](Eigen::VectorXd x, int k, const auto& g) {
    const double xk = x(k), e = 1e-6 * (1.0 + std::abs(xk));
    Eigen::VectorXd plus, minus;
    x(k) = xk + e;
    g(x, plus);
    x(k) = xk - e;
    g(x, minus);
    return Eigen::VectorXd((plus - minus) / (2.0 * e));
  };
  for (int k = 0; k < n; ++k) {
    Kf_fd.col(k) = central(q, k, [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { cm->force(t, x, v, f); });
    Kg_fd.col(k) = central(
        q, k, [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) { cm->constraint_jacobian_transpose_times(x, lambda, g); });
    Cf_fd.col(k) = central(v, k, [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { cm->force(t, q, x, f); });
  }
}

// M(q): d(M(q) a)/dq against central differences of mass_times_at; dT/dq against those
// of 1/2 v^T M(q) v; mass_change_times(q, dq, v) against M(q + dq) v - M(q) v (dq small:
// exact for an M affine in q, O(|dq|^2) otherwise); and the split of f:
// f = applied_force + dT/dq - (dM/dq v) v.
void check_mass_tangents(Check& c, const ConstrainedMechanicalFormulation* cm, double t, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& v, const Eigen::VectorXd& f, int n, std::mt19937& gen, double& worst_all) {
  const Eigen::VectorXd a = uniform_vector(n, gen), dq = 1e-4 * uniform_vector(n, gen);
  std::vector<Eigen::Triplet<double>> dMa;
  cm->mass_times_jacobian_entries(q, a, dMa);
  const Eigen::MatrixXd Km = dense_of(c, dMa, n, n);
  Eigen::MatrixXd Km_fd(n, n);
  Eigen::VectorXd dT_fd(n);
  for (int k = 0; k < n; ++k) {
    const double e = 1e-6 * (1.0 + std::abs(q(k)));
    Eigen::VectorXd qp = q, qm = q, Mp, Mm, Vp, Vm;
    qp(k) += e;
    qm(k) -= e;
    cm->mass_times_at(qp, a, Mp);
    cm->mass_times_at(qm, a, Mm);
    Km_fd.col(k) = (Mp - Mm) / (2.0 * e);
    cm->mass_times_at(qp, v, Vp);
    cm->mass_times_at(qm, v, Vm);
    dT_fd(k) = 0.5 * v.dot(Vp - Vm) / (2.0 * e);
  }
  Eigen::VectorXd dT, Ma0, Ma1, change, fa;
  cm->kinetic_gradient(q, v, dT);
  cm->mass_times_at(q, a, Ma0);
  cm->mass_times_at(q + dq, a, Ma1);
  cm->mass_change_times(q, dq, a, change);
  cm->applied_force(t, q, v, fa);
  std::vector<Eigen::Triplet<double>> dMv;
  cm->mass_times_jacobian_entries(q, v, dMv);
  const Eigen::VectorXd split = fa + dT - dense_of(c, dMv, n, n) * v;
  const double e_km = tangent_relative_error(Km, Km_fd, 0.0);
  const double e_dt = (dT - dT_fd).lpNorm<Eigen::Infinity>() / std::max(dT.lpNorm<Eigen::Infinity>(), 1e-300);
  const double e_ch = (change - (Ma1 - Ma0)).lpNorm<Eigen::Infinity>() /
                      std::max((Ma1 - Ma0).lpNorm<Eigen::Infinity>(), 1e-300);
  const double e_split = (split - f).lpNorm<Eigen::Infinity>() / std::max(f.lpNorm<Eigen::Infinity>(), 1e-300);
  c.note("constrained form: d(M(q) a)/dq against central differences " + g(e_km));
  c.note("constrained form: dT/dq against central differences " + g(e_dt));
  c.note("constrained form: mass_change_times against M(q + dq) a - M(q) a " + g(e_ch));
  c.note("constrained form: f against applied + dT/dq - (dM/dq v) v " + g(e_split));
  c.expect(Km_fd.cwiseAbs().maxCoeff() > 0.0, "mass_depends_on_configuration(), but M(q) a does not change with q");
  c.expect(e_km < 1e-6, "d(M(q) a)/dq: relative error " + g(e_km) + " against central differences (bound 1e-6)");
  c.expect(e_dt < 1e-6, "dT/dq: relative error " + g(e_dt) + " against central differences (bound 1e-6)");
  c.expect(e_ch < 1e-3, "mass_change_times: relative error " + g(e_ch) + " against M(q + dq) a - M(q) a (bound 1e-3)");
  c.expect(e_split < 1e-12, "f differs from applied + dT/dq - (dM/dq v) v by " + g(e_split) + " of |f| (bound 1e-12)");
  worst_all = std::max({worst_all, e_km, e_dt});
}

}  // namespace

Check check_constrained_tangents(const ModelFixture& fixture, const Catalogue& catalogue) {
  // The tangents an index-3 alpha method's Newton needs: K_f = df/dq, C_f = df/dv and
  // K_g = d(G(q)^T lambda)/dq, as entries, against central differences (step 1e-6 (1 + |x_k|))
  // of force() and constraint_jacobian_transpose_times() at a configuration and velocity off the
  // initial ones (1e-3 (1 + |q_i|), v + 1e-1 (1 + |v_i|)) and a pseudo-random lambda; error
  // relative to the largest entry of the matrix, or to |f|_inf / (1 + |q|_inf) where the tangent
  // vanishes (a constant force: the differences must vanish too). Every constrained form
  // provides them (why_not_tangents() empty). Bound 1e-6: a wrong or missing term gives O(1).
  return Check::run(entry_of(fixture), "constrained form: tangents vs differences", [&](Check& c) {
    double worst_all = 0.0;
    for_each_form<ConstrainedMechanicalFormulation>(
        c, fixture, catalogue, "constrained mechanical form",
        [&](const Case&, const Offered&, const ConstrainedMechanicalFormulation& form) {
          const auto* cm = &form;
          c.require(cm->why_not_tangents().empty(), "provides no tangents: " + cm->why_not_tangents());
          const int n = cm->positions(), m = cm->constraints();
          const Eigen::VectorXd y0 = cm->initial_state();
          std::mt19937 gen(2718u);
          const Eigen::VectorXd q = near_configuration(y0.head(n), 1e-3, gen);
          const Eigen::VectorXd v = perturbed(y0.segment(n, n), 1e-1, gen), lambda = uniform_vector(m, gen);
          const double t = 0.3;
          std::vector<Eigen::Triplet<double>> dfdq, dfdv, kg;
          cm->force_jacobian_entries(t, q, v, dfdq, dfdv);
          cm->constraint_force_jacobian_entries(q, lambda, kg);
          const Eigen::MatrixXd Kf = dense_of(c, dfdq, n, n), Cf = dense_of(c, dfdv, n, n), Kg = dense_of(c, kg, n, n);
          Eigen::MatrixXd Kf_fd(n, n), Cf_fd(n, n), Kg_fd(n, n);
          force_tangent_differences(cm, t, q, v, lambda, n, Kf_fd, Cf_fd, Kg_fd);
          Eigen::VectorXd f;
          cm->force(t, q, v, f);
          const double floor = f.lpNorm<Eigen::Infinity>() / (1.0 + q.lpNorm<Eigen::Infinity>());
          const double e_kf = tangent_relative_error(Kf, Kf_fd, floor), e_cf = tangent_relative_error(Cf, Cf_fd, floor),
                       e_kg = tangent_relative_error(Kg, Kg_fd, lambda.size() > 0 ? 0.0 : 1.0);
          c.note("constrained form: df/dq against central differences " + g(e_kf));
          c.note("constrained form: df/dv against central differences " + g(e_cf));
          c.note("constrained form: d(G^T lambda)/dq against central differences " + g(e_kg));
          c.expect(e_kf < 1e-6, "df/dq: relative error " + g(e_kf) + " against central differences (bound 1e-6)");
          c.expect(e_cf < 1e-6, "df/dv: relative error " + g(e_cf) + " against central differences (bound 1e-6)");
          c.expect(e_kg < 1e-6, "d(G^T lambda)/dq: relative error " + g(e_kg) + " against central differences (bound 1e-6)");
          if (m > 0)  // the constraints are not all linear: K_g is tested
            c.expect(Kg_fd.cwiseAbs().maxCoeff() > 0.0, "d(G^T lambda)/dq vanishes: linear constraints, K_g untested");
          worst_all = std::max({worst_all, e_kf, e_cf, e_kg});
          if (!cm->mass_depends_on_configuration()) return;
          check_mass_tangents(c, cm, t, q, v, f, n, gen, worst_all);
        });
    c.measured("worst relative error " + g(worst_all) + " (bound 1e-6)");
  });
}

Check check_physical_parts(const ModelFixture& fixture, const Catalogue& catalogue) {
  // Model::physical_parts: one entry per number of every formulation's physical state, with at
  // least one configuration and one rate entry. Kinematics: on an embedded ODE whose state is
  // the physical state, setting every rate entry to zero must stop every configuration entry, to
  // round-off (|x'| <= 1e-12 of the state's scale); with every rate non-zero the configuration
  // moves. A rate labelled as configuration (moved by gravity at rest) or a configuration
  // labelled as a rate fails it.
  return Check::run(entry_of(fixture), "physical state: configuration and rates", [&](Check& c) {
    const Case loaded = load_fixture(c, fixture, catalogue);
    const std::vector<PhysicalPart> parts = loaded.model->physical_parts();
    c.require(!parts.empty(), "the model declares no physical_parts()");
    c.expect(std::count(parts.begin(), parts.end(), PhysicalPart::Configuration) > 0, "physical_parts() has no configuration entry");
    c.expect(std::count(parts.begin(), parts.end(), PhysicalPart::Rate) > 0, "physical_parts() has no rate entry");
    double worst = 0.0;
    for (const auto& offered : offered_formulations(c, *loaded.model)) {
      auto scope = c.context(offered.name());
      const Eigen::VectorXd y0 = start_state(*offered.form);
      const Eigen::VectorXd x0 = offered.form->physical_state(y0);
      c.expect(size_t(x0.size()) == parts.size(), "the physical state has " + std::to_string(x0.size()) +
                                                      " entries, physical_parts() " + std::to_string(parts.size()));
      const auto* ode = dynamic_cast<const OdeFormulation*>(offered.form.get());
      if (!ode || y0.size() != x0.size() || y0 != x0 || size_t(x0.size()) != parts.size()) continue;
      const double scale = std::max(1.0, x0.lpNorm<Eigen::Infinity>());
      Eigen::VectorXd at_rest = y0, pushed = y0, dy(y0.size()), moving(y0.size());
      for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i] == PhysicalPart::Rate) at_rest(Eigen::Index(i)) = 0.0, pushed(Eigen::Index(i)) += 0.1 * (1.0 + i % 3);
      ode->rhs(0.0, at_rest, dy);
      ode->rhs(0.0, pushed, moving);  // every rate non-zero (a fixture may start at rest)
      double config_rate_at_rest = 0.0, config_rate_moving = 0.0;
      for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i] == PhysicalPart::Configuration) {
          config_rate_at_rest = std::max(config_rate_at_rest, std::abs(dy(Eigen::Index(i))));
          config_rate_moving = std::max(config_rate_moving, std::abs(moving(Eigen::Index(i))));
        }
      c.note("max |configuration'| with the rates zeroed, " + offered.name() + " " + g(config_rate_at_rest));
      c.expect(config_rate_at_rest <= 1e-12 * scale, "with every rate zeroed a configuration entry moves at " +
                                                         g(config_rate_at_rest) + " (a rate labelled configuration?)");
      c.expect(config_rate_moving > 1e-6, "with every rate non-zero no configuration entry moves (a configuration labelled rate?)");
      c.note("kinematic split checked on " + offered.name());
      worst = std::max(worst, config_rate_at_rest);
    }
    c.measured(std::to_string(parts.size()) + " entries; max |configuration'| at zero rates " + g(worst));
  });
}

Check check_lie_group_field(const ModelFixture& fixture, const Catalogue& catalogue) {
  // The Lie group form reads the rates from the state and acts with them; the embedded ODE
  // computes the same rows itself. Equal to round-off (1e-13 of |rhs|) at t0 and at a state moved
  // on the manifold, for every discretisation that offers both; the forms that decline say why.
  return Check::run(entry_of(fixture), "Lie group ODE field = ODE right-hand side", [&](Check& c) {
    std::mt19937 gen(2026);
    const Case loaded = load_fixture(c, fixture, catalogue);
    int checked = 0;
    double worst = 0.0;
    for (const auto& discretisation : loaded.model->discretisations()) {
      std::string why_not;
      auto group_form = loaded.model->make_formulation(FormulationKind::LieGroupOde, discretisation, why_not);
      auto ode_form = loaded.model->make_formulation(FormulationKind::EmbeddedOde, discretisation, why_not);
      if (!group_form) {
        c.expect(!why_not.empty(), "declines the Lie group ODE form without saying why");
        continue;
      }
      ++checked;
      auto scope = c.context(discretisation.empty() ? "default discretisation" : discretisation);
      c.require(ode_form != nullptr, "offers the Lie group ODE form but no embedded ODE");
      const auto& group = dynamic_cast<const LieGroupOdeFormulation&>(*group_form);
      const auto& ode = dynamic_cast<const OdeFormulation&>(*ode_form);
      const lie::HomogeneousProduct& manifold = group.manifold();
      c.require(manifold.state_size() == group.state_size(), "the manifold's state size is not the form's");
      c.expect(!manifold.is_vector_space(), "the manifold is a vector space (use the embedded ODE)");
      Eigen::VectorXd y0 = group.initial_state(), y1;
      manifold.act(0.3 * uniform_vector(int(manifold.algebra_size()), gen), y0, y1);  // another point, on the manifold
      for (const Eigen::VectorXd& y : {y0, y1}) {
        Eigen::VectorXd xi, embedded, dydt;
        group.field(0.0, y, xi);
        manifold.embedded_velocity(y, xi, embedded);
        ode.rhs(0.0, y, dydt);
        const double scale = std::max(1.0, dydt.lpNorm<Eigen::Infinity>());
        const double diff = (embedded - dydt).lpNorm<Eigen::Infinity>();
        worst = std::max(worst, diff / scale);
        c.expect(diff <= 1e-13 * scale, "max |embedded field - rhs| " + g(diff) + " (bound 1e-13 of |rhs| " + g(scale) + ")");
      }
      c.expect(manifold.rotation_defect(y1) < 1e-14, "the group's action left the rotations: " + g(manifold.rotation_defect(y1)));
      c.expect(manifold.direction_defect(y1) < 1e-14, "the group's action left the directions: " + g(manifold.direction_defect(y1)));
    }
    if (checked == 0) c.not_applicable(fixture.label + " offers no Lie group ODE form");
    c.measured("max |embedded field - rhs| / |rhs| " + g(worst));
  });
}

std::vector<Check> check_model(const ModelFixture& fixture, const Catalogue& catalogue) {
  return {check_fixture(fixture, catalogue),
          check_initial_state(fixture, catalogue),
          check_observations_finite(fixture, catalogue),
          check_observations_agree(fixture, catalogue),
          check_dae_iteration_matrix(fixture, catalogue),
          check_dae_consistent_values(fixture, catalogue),
          check_lie_group_newton(fixture, catalogue),
          check_invariants_under_reference(fixture, catalogue),
          check_constrained_pieces(fixture, catalogue),
          check_constrained_saddle_point(fixture, catalogue),
          check_constrained_tangents(fixture, catalogue),
          check_physical_parts(fixture, catalogue),
          check_lie_group_field(fixture, catalogue)};
}

}  // namespace tb::conformance
