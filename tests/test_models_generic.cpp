// Properties every registered model must have, checked for each model of the suite's catalogue
// on small fixture cases in tests/model_fixtures (the case format of cases/README.md):
// <model>.toml for every model (a model without one fails here, naming the file to add), plus
// optional variants <model>.<variant>.toml for what one case file cannot select (the
// hanging tether's lumped discretisation, the reel locked). For every formulation a fixture's
// model offers:
//   1. the physical state at t0 is the same in every formulation;
//   2. the observations at t0 are finite, with one extra value per extra column, and the same
//      in every formulation of the same semi-discrete system (all but the lumped-mass ones);
//   3. every index-1 DAE's analytic iteration matrix dF/dy + cj dF/dy' matches central
//      differences of its residual, inside the declared band;
//   4. every DAE's consistent initial values solve its residual to round-off;
//   5. every discrete Lie group step's Newton correction inverts the derivative of its
//      residual;
//   6. the model's ODE form under tight RK45 keeps the model's invariants (energy balance,
//      constraints, orthonormality, momenta).
// A new model is covered by adding it to the registry and its fixture here. Every discretisation
// a model offers is covered (its formulations compared within the discretisation's system). The fixtures are
// small (N = 4..6 elements, 2 cables x 3 links) and start moving, away from rest and from
// symmetric configurations, so that every derivative is exercised.
//
// Set TB_GENERIC_REPORT=1 to print every measured value.

#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "app/case.hpp"
#include "core/metrics.hpp"
#include "core/model.hpp"
#include "app/runner.hpp"
#include "core/integrator.hpp"
#include "tests/dae_checks.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {


// The Baumgarte rates (p, gamma) of the DAE's consistent initial values wherever one b is
// needed (the integrators' default); checks 3 and 4 also use (0, 0).
const BaumgarteParameters kDefaultBaumgarte{10.0, 10.0};

bool reporting() {
  static const bool on = std::getenv("TB_GENERIC_REPORT") != nullptr;
  return on;
}

void report(const std::string& fixture, const std::string& what, double value) {
  if (reporting()) std::printf("  %-21s %-72s %.3e\n", fixture.c_str(), what.c_str(), value);
}

void note(const std::string& fixture, const std::string& what) {
  if (reporting()) std::printf("  %-21s %s\n", fixture.c_str(), what.c_str());
}

std::string fixture_path(const std::string& model) {
  return std::string(TETHERBENCH_MODEL_FIXTURES_DIR) + "/" + model + ".toml";
}

// The model's fixture files: <model>.toml first (listed even when absent, so that loading it
// fails naming it), then its variants <model>.<variant>.toml in name order.
std::vector<std::string> fixture_files(const std::string& model) {
  std::vector<std::string> variants;
  const std::string prefix = model + ".";
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".toml" && name.rfind(prefix, 0) == 0 && name != model + ".toml")
      variants.push_back(entry.path().string());
  }
  std::sort(variants.begin(), variants.end());
  variants.insert(variants.begin(), fixture_path(model));
  return variants;
}

struct Fixture {
  const ModelInfo* info;
  std::string file;
  std::string label;  // the file name without .toml: <model> or <model>.<variant>
};

// Every registered model's fixtures, in registry order.
std::vector<Fixture> all_fixtures() {
  std::vector<Fixture> out;
  for (const auto& info : testing::catalogue().models)
    for (const auto& file : fixture_files(info.name))
      out.push_back({&info, file, std::filesystem::path(file).stem().string()});
  return out;
}

// A fixture's case; fails the current section (naming the file to add) when it is absent.
Case load_fixture(const Fixture& fixture) {
  INFO("model " << fixture.info->name << ": add the fixture case " << fixture.file
                << " (cases/README.md format; small, moving, away from symmetric configurations)");
  REQUIRE(std::filesystem::exists(fixture.file));
  Case c = testing::load_case(fixture.file);
  REQUIRE(c.model_name == fixture.info->name);
  return c;
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
std::vector<Offered> offered_formulations(const Model& model) {
  std::vector<Offered> out;
  for (const auto& discretisation : model.discretisations())
    for (const FormulationKind kind : kAllFormulationKinds) {
      std::string why_not;
      auto form = model.make_formulation(kind, discretisation, why_not);
      if (!form) {
        CHECK_FALSE(why_not.empty());  // a declined kind says why (shown as "n/a: ..." in the tables)
        continue;
      }
      CHECK(form->kind() == kind);
      out.push_back({kind, std::move(form), discretisation, discretisation != model.default_discretisation()});
    }
  REQUIRE_FALSE(out.empty());
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
  if (const auto* dae = dynamic_cast<const DaeFormulation*>(&form))
    return dae->consistent_initial_state(kDefaultBaumgarte);
  return form.initial_state();
}

// A deterministic pseudo-random vector with entries in [-1, 1), the same on every platform
// (std::mt19937 is specified exactly; std::uniform_real_distribution is not).
Eigen::VectorXd uniform_vector(int n, std::mt19937& g) {
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = 2.0 * (double(g()) / 4294967296.0) - 1.0;
  return v;
}

// x + rel (1 + |x_i|) u_i: a small perturbation of every entry, relative to its size.
Eigen::VectorXd perturbed(const Eigen::VectorXd& x, double rel, std::mt19937& g) {
  const Eigen::VectorXd u = uniform_vector(int(x.size()), g);
  return x + rel * (Eigen::VectorXd::Ones(x.size()) + x.cwiseAbs()).cwiseProduct(u);
}

bool is_finite(double x) { return std::isfinite(x); }

}  // namespace

TEST_CASE("every registered model has a fixture case", "[models-generic]") {
  REQUIRE_FALSE(testing::catalogue().models.empty());
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const Case c = load_fixture(fixture);
      CHECK(c.model->name() == fixture.info->name);
      CHECK(c.t_end > 0.0);
      CHECK(c.h > 0.0);
    }
  }
}

TEST_CASE("every fixture case names a registered model", "[models-generic]") {
  // Every file is <model>.toml or <model>.<variant>.toml of a registered model (a misspelt or
  // renamed model's fixture would otherwise be silently skipped).
  for (const auto& entry : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = entry.path().filename().string();
    const std::string model = name.substr(0, name.find('.'));
    INFO("fixture " << entry.path().string() << " does not name a registered model");
    CHECK(std::any_of(testing::catalogue().models.begin(), testing::catalogue().models.end(),
                      [&](const ModelInfo& info) { return info.name == model; }));
  }
}

TEST_CASE("every model's formulations start from the same physical state", "[models-generic]") {
  // Against the embedded ODE where offered (else the first formulation); tolerance 1e-12
  // relative to the largest entry of the physical state. The conversions at t0 (the continuous
  // Legendre transform and its O(N) inverse for the LGVI forms; the body's centre of mass to
  // the attachment point for the DAE forms) are exact up to round-off. Measured:
  //   LGVI: elastic_pendulum 0, free_rigid_body 2.0e-16, multirotor_payload 7.8e-14 (its
  //     momenta-to-velocities solve; M_q's eigenvalues span l^2 m_i to the payload mass),
  //     reel_pendulum 1.5e-15 (both fixtures), string_pendulum 8.9e-16;
  //   DAE: free_rigid_body 0, multirotor_payload 1.1e-16, planar_pendulum 0,
  //     reel_pendulum 3.7e-17 (both), string_pendulum 1.9e-17; the DAE's initial_state()
  //     against its consistent_initial_state(b): the same physical state, differential part
  //     identical (0).
  // The lumped-mass forms (string_pendulum, reel_pendulum.locked; hanging_tether.lumped offers
  // only that one) are a different semi-discrete system with a different mass matrix, but take
  // the same initial condition (node positions and velocities, R, Omega), so they must agree
  // here too; they do, exactly (0).
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      const auto forms = offered_formulations(*c.model);
      const Offered* base = &comparison_base(forms);
      const Eigen::VectorXd reference = base->form->physical_state(start_state(*base->form));
      const double scale = reference.lpNorm<Eigen::Infinity>();
      REQUIRE(scale > 0.0);
      for (const auto& offered : forms) {
        const auto& form = offered.form;
        [[maybe_unused]] const bool lumped = offered.lumped;
        INFO("fixture " << label << ": " << offered.name() << " against " << base->name());
        const Eigen::VectorXd y0 = start_state(*form);
        REQUIRE(y0.size() == form->state_size());
        const Eigen::VectorXd s = form->physical_state(y0);
        REQUIRE(s.size() == reference.size());
        const double err = (s - reference).lpNorm<Eigen::Infinity>() / scale;
        report(label, "physical state at t0, " + offered.name() + ": relative difference", err);
        INFO("|difference|_inf / |physical state|_inf = " << err);
        CHECK(err <= 1e-12);
        // A DAE's initial_state() (multipliers for some default b) and its consistent initial
        // state for the integrator's b differ only in the algebraic components.
        if (const auto* dae = dynamic_cast<const DaeFormulation*>(form.get())) {
          const Eigen::VectorXd plain = dae->initial_state();
          REQUIRE(plain.size() == y0.size());
          const double err_plain = (form->physical_state(plain) - reference).lpNorm<Eigen::Infinity>() / scale;
          report(label, "physical state at t0, index-1-dae initial_state(): relative difference", err_plain);
          CHECK(err_plain <= 1e-12);
          const Eigen::VectorXd differential = dae->differential_components();
          const double err_diff = (plain - y0).cwiseProduct(differential).lpNorm<Eigen::Infinity>() / scale;
          report(label, "index-1-dae initial_state() against consistent_initial_state(b), differential part", err_diff);
          CHECK(err_diff <= 1e-12);
        }
      }
    }
  }
}

TEST_CASE("every model's observations at t0 are finite in every formulation", "[models-generic]") {
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      for (const auto& offered : offered_formulations(*c.model)) {
        const auto& form = offered.form;
        INFO("fixture " << label << ", " << offered.name());
        const Observation o = form->observe(0.0, start_state(*form));
        CHECK(is_finite(o.energy));
        CHECK(is_finite(o.kinetic));
        CHECK(o.kinetic >= 0.0);
        CHECK(is_finite(o.momentum));
        CHECK(is_finite(o.constraint_err));
        CHECK(is_finite(o.constraint_rate_err));
        CHECK(is_finite(o.orthogonality_err));
        CHECK(is_finite(o.external_work));
        // Linear momentum: NaN in all three components by design where the model does not
        // conserve it, else all three finite; never a mix.
        const int nan_components = int(o.linear_momentum.array().isNaN().count());
        INFO("linear momentum " << o.linear_momentum.transpose());
        CHECK((nan_components == 0 || nan_components == 3));
        CHECK(o.linear_momentum.array().isInf().count() == 0);
        const auto names = form->extra_column_names();
        REQUIRE(o.extra.size() == names.size());
        for (std::size_t i = 0; i < o.extra.size(); ++i) {
          INFO("extra column " << names[i] << " = " << o.extra[i]);
          CHECK(is_finite(o.extra[i]));
        }
      }
    }
  }
}

TEST_CASE("every model's formulations observe the same state alike at t0", "[models-generic]") {
  // Energy, kinetic energy, momentum, linear momentum and every extra column at t0, against the
  // embedded ODE where offered (else the first formulation), to 1e-12 relative: energy and
  // kinetic energy against max(|E|, T), the momentum against |pi| (plus 1e-15 N m s for momenta
  // that vanish), P and the extra columns against max(1, |value|). Measured (worst quantity):
  // the LGVI forms (velocities through the inverse Legendre transform) free_rigid_body 3.7e-16,
  // multirotor_payload 2.4e-15, reel_pendulum 4.4e-15 (both fixtures), string_pendulum 1.3e-15;
  // the DAE forms <= 3.5e-16 (planar_pendulum 1.2e-16); elastic_pendulum 0.
  // Not for the lumped-mass forms: a different mass matrix gives another kinetic energy and
  // momentum for the same velocities (string_pendulum: |dE| / max(|E|, T) = 1.2e-4), and the
  // locked reel's lumped form (Model A's lumped string of length L - s_p) leaves out the reel's
  // potential V_r(s_p) = -mu g [(s_p - b) r_d.e3 + d^2 (cos((s_p - b)/d) - 1)], a constant while
  // the reel is locked (0.339 J here, |dE| / max(|E|, T) = 0.21): harmless to every energy
  // metric (differences from t0), but its E column is offset from the other formulations'.
  // Lumped forms are only required to be finite (previous test).
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      const auto forms = offered_formulations(*c.model);
      const Offered* base = &comparison_base(forms);
      const Observation ob = base->form->observe(0.0, start_state(*base->form));
      const std::vector<std::string> names = base->form->extra_column_names();
      const double e_scale = std::max(std::abs(ob.energy), ob.kinetic);
      for (const auto& offered : forms) {
        const auto& form = offered.form;
        [[maybe_unused]] const bool lumped = offered.lumped;
        const Observation o = form->observe(0.0, start_state(*form));
        REQUIRE(o.extra.size() == ob.extra.size());
        REQUIRE(form->extra_column_names() == names);
        if (lumped) {
          report(label, "observations at t0, lumped-mass: |dE| / max(|E|, T)",
                 std::abs(o.energy - ob.energy) / e_scale);
          continue;
        }
        INFO("fixture " << label << ": " << offered.name() << " against " << base->name());
        double worst = 0.0;
        auto agree = [&](const char* what, double a, double b, double scale) {
          const double rel = std::abs(a - b) / scale;
          worst = std::max(worst, rel);
          INFO(what << ": " << a << " against " << b);
          CHECK(rel <= 1e-12);
        };
        agree("energy", o.energy, ob.energy, e_scale);
        agree("kinetic energy", o.kinetic, ob.kinetic, e_scale);
        {
          const double dpi = std::abs(o.momentum - ob.momentum);
          if (ob.momentum != 0.0) worst = std::max(worst, dpi / std::abs(ob.momentum));
          INFO("momentum: " << o.momentum << " against " << ob.momentum);
          CHECK(dpi <= 1e-12 * std::abs(ob.momentum) + 1e-15);
        }
        CHECK(o.linear_momentum.array().isNaN().count() == ob.linear_momentum.array().isNaN().count());
        if (ob.linear_momentum.allFinite())
          agree("linear momentum", (o.linear_momentum - ob.linear_momentum).norm(), 0.0,
                std::max(1.0, ob.linear_momentum.norm()));
        for (std::size_t i = 0; i < ob.extra.size(); ++i)
          agree(names[i].c_str(), o.extra[i], ob.extra[i],
                std::max({1.0, std::abs(o.extra[i]), std::abs(ob.extra[i])}));
        report(label, "observations at t0, " + offered.name() + ": worst relative difference", worst);
      }
    }
  }
}

TEST_CASE("every DAE's iteration matrix matches central differences inside its declared band", "[models-generic]") {
  // At the consistent initial values plus a deterministic perturbation of 1e-3 (1 + |y_i|) of
  // every entry of y and y' (R leaves SO(3), so Xi != 0; the constraints and multipliers are
  // off their consistent values), for cj in {0, 1e3} and (p, gamma) in {(10, 10), (0, 0)}.
  // Error: each row against its largest entry (tests/dae_checks.hpp). Measured (max over the
  // four combinations): free_rigid_body 1.3e-10, multirotor_payload 9.3e-9,
  // planar_pendulum 8.5e-11, reel_pendulum 1.2e-10 (free reel, dense border),
  // reel_pendulum.locked 1.1e-10, string_pendulum 7.9e-11 (over 12 other seeds: at most
  // 9.1e-9). Bound 1e-6 (100x the worst): one Baumgarte term of planar_pendulum's matrix
  // scaled by 1.01 measured 1.7e-3.
  const double bound = 1e-6;
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      int checked = 0;
      for (const auto& offered : offered_formulations(*c.model)) {
        const auto& form = offered.form;
        const auto* dae = dynamic_cast<const DaeFormulation*>(form.get());
        if (!dae) continue;
        ++checked;
        const int n = dae->state_size();
        const int lower = dae->lower_bandwidth(), upper = dae->upper_bandwidth();
        REQUIRE(lower >= 0);
        REQUIRE(upper >= 0);
        REQUIRE(lower < n);
        REQUIRE(upper < n);
        REQUIRE(dae->differential_components().size() == n);
        std::mt19937 g(20240601u);
        const Eigen::VectorXd y = perturbed(dae->consistent_initial_state(kDefaultBaumgarte), 1e-3, g);
        const Eigen::VectorXd yp = perturbed(dae->consistent_initial_derivative(kDefaultBaumgarte), 1e-3, g);
        REQUIRE(y.size() == n);
        REQUIRE(yp.size() == n);
        double worst = 0.0;
        for (const BaumgarteParameters b : {BaumgarteParameters{10.0, 10.0}, BaumgarteParameters{0.0, 0.0}}) {
          for (const double cj : {0.0, 1e3}) {
            const double t = 0.0;
            const Eigen::MatrixXd J = testing::dae_jacobian_dense(*dae, t, y, yp, cj, b);
            const Eigen::MatrixXd Jfd = testing::dae_jacobian_fd(*dae, t, y, yp, cj, b);
            const double err = testing::dae_jacobian_row_relative_error(J, Jfd);
            worst = std::max(worst, err);
            INFO("fixture " << label << ", p = " << b.p << ", gamma = " << b.gamma << ", cj = " << cj
                            << ": row-relative error " << err << ", declared half-bandwidths " << lower << ", " << upper
                            << " of " << n);
            CHECK(J.allFinite());
            CHECK(err < bound);
            // The analytic matrix exactly inside the band; the differences up to their noise
            // (1e-8 of the matrix's largest entry, far above round-off of the 1e-6 steps at
            // these scales, far below any real coupling).
            CHECK(testing::entries_outside_band(J, lower, upper, 0.0) == 0);
            const double fd_noise = 1e-8 * std::max(1.0, Jfd.cwiseAbs().maxCoeff());
            CHECK(testing::entries_outside_band(Jfd, lower, upper, fd_noise) == 0);
          }
        }
        report(label, "DAE iteration matrix: row-relative error against central differences", worst);
        {
          const auto [measured_lower, measured_upper] =
              testing::measured_bandwidths(testing::dae_jacobian_dense(*dae, 0.0, y, yp, 1e3, kDefaultBaumgarte), 0.0);
          note(label, "DAE size " + std::to_string(n) + ", declared half-bandwidths " + std::to_string(lower) + "/" +
                          std::to_string(upper) + ", attained " + std::to_string(measured_lower) + "/" +
                          std::to_string(measured_upper));
        }
      }
      if (checked == 0) SUCCEED(label << " offers no index-1 DAE");
    }
  }
}

TEST_CASE("every DAE's consistent initial values solve its residual to round-off", "[models-generic]") {
  // |F(t0, y0, y0')|_inf relative to the residual's scale |F(t0, y0, 0)|_inf, the size of the
  // terms that y0' must cancel (velocities in the kinematic rows, forces in the dynamic ones),
  // for (p, gamma) in {(10, 10), (0, 0)}. Measured (worst of the two): free_rigid_body 2.0e-16,
  // multirotor_payload 1.8e-15, planar_pendulum 1.7e-16, reel_pendulum 9.6e-15 (both fixtures,
  // at p = 10), string_pendulum 1.4e-15. Bound 1e-12.
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      int checked = 0;
      for (const auto& offered : offered_formulations(*c.model)) {
        const auto& form = offered.form;
        const auto* dae = dynamic_cast<const DaeFormulation*>(form.get());
        if (!dae) continue;
        ++checked;
        for (const BaumgarteParameters b : {BaumgarteParameters{10.0, 10.0}, BaumgarteParameters{0.0, 0.0}}) {
          const Eigen::VectorXd y0 = dae->consistent_initial_state(b);
          const Eigen::VectorXd yp0 = dae->consistent_initial_derivative(b);
          Eigen::VectorXd F, F_scale;
          dae->residual(0.0, y0, yp0, b, F);
          dae->residual(0.0, y0, Eigen::VectorXd::Zero(y0.size()), b, F_scale);
          REQUIRE(F.size() == y0.size());
          const double scale = F_scale.lpNorm<Eigen::Infinity>();
          REQUIRE(scale > 0.0);
          const double rel = F.lpNorm<Eigen::Infinity>() / scale;
          report(label, "consistent initial values, p = " + std::to_string(int(b.p)) + ": |F|/|F(y0, 0)|", rel);
          INFO("fixture " << label << ", p = " << b.p << ", gamma = " << b.gamma
                          << ": |F|_inf = " << F.lpNorm<Eigen::Infinity>() << ", scale " << scale);
          CHECK(rel < 1e-12);
        }
      }
      if (checked == 0) SUCCEED(label << " offers no index-1 DAE");
    }
  }
}

TEST_CASE("every discrete Lie group step's Newton correction inverts the derivative of its residual",
          "[models-generic]") {
  // newton_correction(x, v) returns dx with J(x) dx = -v. The directional central difference
  // D(e) = (G(x + e dx) - G(x - e dx)) / (2e) is J(x) dx up to O(e^2) and round-off, so it must
  // equal -v: this checks the model's structured J^{-1} against its residual without forming J.
  // x: the initial guess at the fixture's initial state and step h, plus a perturbation of 1e-2
  // of its size |x|_inf; v: three pseudo-random right-hand sides with entries in [-1, 1]. No
  // residual(x) call precedes newton_correction(x, ...): the interface passes x explicitly.
  // Error: |D(e) + v|_inf / |v|_inf, the smallest over |e dx|_inf = eta |x|_inf with eta in
  // {1e-2, 1e-3, 1e-4}: the unknowns are tiny (h v, h Omega / 2 ~ 1e-6..1e-3) and the residuals
  // nearly linear in them, so round-off dominates small steps (measured at eta = 1e-6: up to
  // 1e-4 for multirotor_payload) while truncation shows only for the rigid body at 1e-2 (6e-9);
  // a wrong Jacobian is wrong at every step, so the best step is the right measure. Measured
  // (worst of the three v): elastic_pendulum 6.6e-15, free_rigid_body 6.4e-12,
  // multirotor_payload 7.4e-9, reel_pendulum 5.0e-10, reel_pendulum.locked 7.8e-10,
  // string_pendulum 4.2e-10 (over 12 other seeds: at most 1.4e-8). Bound 1e-6 (70x the
  // worst): elastic_pendulum's correction scaled by 1.001 measured 1.0e-3.
  const double bound = 1e-6;
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      int checked = 0;
      for (const auto& offered : offered_formulations(*c.model)) {
        const auto& form = offered.form;
        const auto* lg = dynamic_cast<const DiscreteLieGroupFormulation*>(form.get());
        if (!lg) continue;
        ++checked;
        auto step = lg->make_step();
        REQUIRE(step);
        step->begin(lg->initial_state(), c.h);
        Eigen::VectorXd x;
        step->initial_guess(x);
        const int n = step->unknowns();
        REQUIRE(x.size() == n);
        REQUIRE(x.allFinite());
        const double x_size = std::max(x.lpNorm<Eigen::Infinity>(), 1e-12);
        std::mt19937 g(777u);
        x += 1e-2 * x_size * uniform_vector(n, g);
        double worst = 0.0;
        for (int trial = 0; trial < 3; ++trial) {
          const Eigen::VectorXd v = uniform_vector(n, g);
          Eigen::VectorXd dx;
          REQUIRE(step->newton_correction(x, v, dx));
          REQUIRE(dx.size() == n);
          REQUIRE(dx.allFinite());
          REQUIRE(dx.lpNorm<Eigen::Infinity>() > 0.0);
          double err = std::numeric_limits<double>::infinity();
          for (const double eta : {1e-2, 1e-3, 1e-4}) {
            const double e = eta * x_size / dx.lpNorm<Eigen::Infinity>();
            Eigen::VectorXd Gp, Gm;
            step->residual(x + e * dx, Gp);
            step->residual(x - e * dx, Gm);
            REQUIRE(Gp.size() == n);
            REQUIRE(Gm.size() == n);
            const Eigen::VectorXd directional = (Gp - Gm) / (2.0 * e);
            err = std::min(err, (directional + v).lpNorm<Eigen::Infinity>() / v.lpNorm<Eigen::Infinity>());
          }
          worst = std::max(worst, err);
          INFO("fixture " << label << ", right-hand side " << trial << ": |J_fd dx + v| / |v| = " << err);
          CHECK(err < bound);
        }
        report(label, "LGVI Newton correction: |J_fd dx + v|_inf / |v|_inf", worst);
      }
      if (checked == 0) SUCCEED(label << " offers no discrete Lie group form");
    }
  }
}

TEST_CASE("every model's ODE form keeps its invariants under tight RK45", "[models-generic]") {
  // RK45 at rtol 1e-10, atol 1e-12 over the fixture's t_end, metrics as the runner computes them
  // (core/metrics.hpp), sampled on the fixture's grid. What is conserved:
  //  - the energy balance E(t) - E(0) - W(t) (W: control, Carnot and damping work), for every
  //    model: measured energy_err_rel_ke elastic_pendulum 5.7e-11, free_rigid_body 1.6e-13,
  //    hanging_tether 3.4e-10, hanging_tether.lumped 7.9e-11, multirotor_payload 7.4e-12,
  //    planar_pendulum 1.6e-10, reel_pendulum 2.4e-13, reel_pendulum.locked 1.1e-12,
  //    string_pendulum 6.1e-13. Bound 1e-8 (30x the worst; elastic_pendulum's kinetic energy
  //    scaled by 1.001 in observe() measured 3.6e-4).
  //  - the constraints not satisfied by construction: only Model C's ODE has one (|q_i| = 1,
  //    q_i integrated as 3-vectors), measured 1.1e-13; planar_pendulum's polar form 2.2e-16
  //    (round-off of |r| - l), 0 elsewhere. Bound 1e-9 (dimensionless, or m at l ~ 1 m).
  //  - orthonormality of R (models with a rigid body): measured free_rigid_body 3.9e-11,
  //    multirotor_payload 6.6e-15, reel_pendulum 7.7e-13, reel_pendulum.locked 9.7e-14,
  //    string_pendulum 3.6e-14. Bound 1e-9 (25x the worst).
  //  - the `momentum` observation, which core/formulation.hpp defines as "the model's conserved
  //    momentum" (pi3 or pi.e3 where the model conserves it, identically 0 for the planar
  //    pendulum and the fixed-support tether): so it is checked for every model, relative to its
  //    largest magnitude over the run (a momentum that is not conserved has an error of that
  //    size; one that is identically 0 must stay exactly 0). Measured relative errors:
  //    elastic_pendulum 2.7e-11, free_rigid_body 3.3e-11, hanging_tether 0 (momentum 0, both
  //    fixtures), multirotor_payload 2.0e-14, planar_pendulum 0 (momentum 0), reel_pendulum
  //    3.8e-13, reel_pendulum.locked 2.1e-13, string_pendulum 3.4e-14. Bound 1e-9 (30x the
  //    worst). The bundled envelopes (reference/envelopes.csv) claim the same: every bundled
  //    case bounds rk45's momentum_err_max, at <= 1e-13 N m s or (T_free_rigid_body, 20 s
  //    gate run at rtol 1e-10) 9e-11 N m s.
  //  - the total linear momentum where the model reports it (finite: zero net external force;
  //    Model C), relative to its largest magnitude: measured multirotor_payload 1.5e-11.
  //    Bound 1e-9.
  // Each fixture must actually move (max kinetic energy > 0), else the energy check is void.
  const double energy_bound = 1e-8, constraint_bound = 1e-9, orthogonality_bound = 1e-9, momentum_bound = 1e-9,
               linear_momentum_bound = 1e-9;
  const IntegratorInfo* rk45 = &testing::catalogue().reference();  // the suite's tight ODE solver
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const std::string& label = fixture.label;
      const Case c = load_fixture(fixture);
      // The ODE form of the model's default discretisation (what the reference solver consumes).
      std::string why_not;
      std::unique_ptr<Formulation> form = c.model->make_formulation(rk45->consumes, why_not);
      {
        INFO("fixture " << label << ": offers no " << to_string(rk45->consumes) << " form for the reference solver: "
                        << why_not);
        REQUIRE(form);
      }
      note(label, rk45->name + " on the " + to_string(form->kind()) + " form");
      IntegratorSettings s = testing::settings_of(*rk45, c.h);
      s.set("rtol", 1e-10);
      s.set("atol", 1e-12);
      MetricsAccumulator acc;
      double momentum_scale = 0.0, linear_momentum_scale = 0.0;
      const IntegrationOutcome out =
          integrate(*form, *rk45, s, c.t_end, c.sample_interval, [&](double t, const Eigen::VectorXd& y) {
            const Observation o = form->observe(t, y);
            acc.add(t, o);
            momentum_scale = std::max(momentum_scale, std::abs(o.momentum));
            if (o.linear_momentum.allFinite())
              linear_momentum_scale = std::max(linear_momentum_scale, o.linear_momentum.norm());
          });
      INFO(out.outcome.describe());
      REQUIRE(out.ok());
      REQUIRE(out.t_final == c.t_end);
      const ConservationMetrics m = acc.result();
      const double momentum_rel = momentum_scale > 0.0 ? m.momentum_err_max / momentum_scale : m.momentum_err_max;
      report(label, "RK45: steps", double(out.counters.steps));
      report(label, "RK45: energy_err_rel_ke", m.energy_err_rel_ke);
      report(label, "RK45: kinetic_max (J)", m.kinetic_max);
      report(label, "RK45: constraint_err_max", m.constraint_err_max);
      report(label, "RK45: orthogonality_err_max", m.orthogonality_err_max);
      report(label, "RK45: momentum_err_max / max |momentum|", momentum_rel);
      report(label, "RK45: max |momentum|", momentum_scale);
      INFO("fixture " << label << ": " << out.counters.steps << " steps; energy_err_rel_ke " << m.energy_err_rel_ke
                      << ", kinetic_max " << m.kinetic_max << ", constraint_err_max " << m.constraint_err_max
                      << ", orthogonality_err_max " << m.orthogonality_err_max << ", momentum_err_max "
                      << m.momentum_err_max << " (max |momentum| " << momentum_scale << "), linear_momentum_err_max "
                      << m.linear_momentum_err_max << " (max |P| " << linear_momentum_scale << ")");
      CHECK(m.kinetic_max > 0.0);
      CHECK(m.energy_err_rel_ke < energy_bound);
      CHECK(m.constraint_err_max < constraint_bound);
      CHECK(m.orthogonality_err_max < orthogonality_bound);
      if (momentum_scale > 0.0)
        CHECK(momentum_rel < momentum_bound);
      else
        CHECK(m.momentum_err_max == 0.0);
      if (std::isfinite(m.linear_momentum_err_max)) {
        const double rel =
            linear_momentum_scale > 0.0 ? m.linear_momentum_err_max / linear_momentum_scale : m.linear_momentum_err_max;
        report(label, "RK45: linear_momentum_err_max / max |P|", rel);
        CHECK(rel < linear_momentum_bound);
      }
    }
  }
}

namespace {

Eigen::MatrixXd dense_of(const std::vector<Eigen::Triplet<double>>& entries, int rows, int cols) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, cols);
  for (const auto& e : entries) {
    REQUIRE(e.row() >= 0);
    REQUIRE(e.row() < rows);
    REQUIRE(e.col() >= 0);
    REQUIRE(e.col() < cols);
    A(e.row(), e.col()) += e.value();
  }
  return A;
}

// A configuration near q0, off the constraint manifold (R leaves SO(3), links change length).
Eigen::VectorXd near_configuration(const Eigen::VectorXd& q0, double rel, std::mt19937& g) { return perturbed(q0, rel, g); }

}  // namespace

// Runs check(label, form) on every constrained mechanical form the model of every fixture
// offers, one section per fixture; a fixture whose model offers none succeeds with that note.
template <class Check>
void for_each_constrained_form(Check check) {
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const Case c = load_fixture(fixture);
      int checked = 0;
      for (const auto& offered : offered_formulations(*c.model)) {
        const auto* cm = dynamic_cast<const ConstrainedMechanicalFormulation*>(offered.form.get());
        if (!cm) continue;
        ++checked;
        check(fixture.label, cm);
      }
      if (checked == 0) SUCCEED(fixture.label << " offers no constrained mechanical form");
    }
  }
}

TEST_CASE("every constrained mechanical form's pieces are consistent: g, G, M and the initial state",
          "[models-generic]") {
  // At the initial configuration plus a deterministic perturbation of 1e-3 (1 + |q_i|) (off the
  // constraints, so that the checks are not special to g = 0):
  //  - G(q) as entries against central differences of g (step 1e-6 (1 + |q_i|)), each row
  //    against its largest entry: the constraints are quadratic, so central differences are
  //    exact up to round-off. Measured: free_rigid_body 4.6e-11, multirotor_payload 6.1e-11,
  //    planar_pendulum 3.1e-11, string_pendulum 2.8e-11 (elastic_pendulum has none). Bound 1e-7.
  //  - G v and G^T lambda (the structured products) against the entries' dense products, and
  //    M v against the mass entries, to 1e-13 relative; M symmetric, positive semi-definite.
  //  - the initial state on the constraints: |g_i| / scale_i and |G v| / (|G| |v|) at round-off
  //    (<= 1e-13; measured <= 2.2e-16).
  for_each_constrained_form([&](const std::string& label, const ConstrainedMechanicalFormulation* cm) {
    const int n = cm->positions(), m = cm->constraints(), w = cm->work_terms();
    REQUIRE(cm->state_size() == 2 * n + w);
    const Eigen::VectorXd y0 = cm->initial_state();
    REQUIRE(y0.size() == 2 * n + w);
    const Eigen::VectorXd scale = cm->constraint_scale();
    REQUIRE(scale.size() == m);
    if (m > 0) REQUIRE(scale.minCoeff() > 0.0);
    // The initial state on the constraints.
    {
      Eigen::VectorXd g0, Gv0;
      cm->constraint(y0.head(n), g0);
      cm->constraint_jacobian_times(y0.head(n), y0.segment(n, n), Gv0);
      REQUIRE(g0.size() == m);
      REQUIRE(Gv0.size() == m);
      std::vector<Eigen::Triplet<double>> entries;
      cm->constraint_jacobian(y0.head(n), entries);
      const Eigen::MatrixXd G0 = dense_of(entries, m, n);
      const double g_rel = m > 0 ? g0.cwiseQuotient(scale).lpNorm<Eigen::Infinity>() : 0.0;
      const double Gv_rel =
          m > 0 ? Gv0.lpNorm<Eigen::Infinity>() / std::max(1e-300, G0.norm() * y0.segment(n, n).norm()) : 0.0;
      report(label, "constrained form: initial |g|/scale", g_rel);
      report(label, "constrained form: initial |G v| / (|G| |v|)", Gv_rel);
      CHECK(g_rel <= 1e-13);
      CHECK(Gv_rel <= 1e-13);
    }
    std::mt19937 gen(4242u);
    const Eigen::VectorXd q = near_configuration(y0.head(n), 1e-3, gen);
    if (w > 0) {
      // The work terms are the work of the velocity-dependent forces: their power is
      // -(f(q, v) - f(q, 0)) . v, for the dissipation a form carries (the tether's damping).
      const Eigen::VectorXd v = uniform_vector(n, gen);
      Eigen::VectorXd f_v, f_0, P;
      cm->force(0.0, q, v, f_v);
      cm->force(0.0, q, Eigen::VectorXd::Zero(n), f_0);
      cm->power(0.0, q, v, P);
      REQUIRE(P.size() == w);
      const double work_rate = -(f_v - f_0).dot(v);
      report(label, "constrained form: power against -(f(v) - f(0)).v (relative)",
             std::abs(P.sum() - work_rate) / std::abs(work_rate));
      CHECK(cm->force_depends_on_velocity());
      CHECK(std::abs(P.sum() - work_rate) <= 1e-12 * std::abs(work_rate));
    }
    std::vector<Eigen::Triplet<double>> entries;
    cm->constraint_jacobian(q, entries);
    const Eigen::MatrixXd G = dense_of(entries, m, n);
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
    report(label, "constrained form: G against central differences of g (row-relative)", worst);
    INFO("fixture " << label << ": G row-relative error " << worst);
    CHECK(worst < 1e-7);
    // Structured products against the entries.
    const Eigen::VectorXd v = uniform_vector(n, gen), lambda = uniform_vector(m, gen);
    Eigen::VectorXd Gv, GTl, Mv;
    cm->constraint_jacobian_times(q, v, Gv);
    cm->constraint_jacobian_transpose_times(q, lambda, GTl);
    cm->mass_times(v, Mv);
    REQUIRE(Gv.size() == m);
    REQUIRE(GTl.size() == n);
    REQUIRE(Mv.size() == n);
    std::vector<Eigen::Triplet<double>> mass;
    cm->mass_entries(mass);
    const Eigen::MatrixXd M = dense_of(mass, n, n);
    const double G_scale = m > 0 ? std::max(1.0, G.cwiseAbs().maxCoeff()) : 1.0;  // maxCoeff of an empty matrix is undefined
    if (m > 0) {
      CHECK((Gv - G * v).lpNorm<Eigen::Infinity>() <= 1e-13 * G_scale * n);
      CHECK((GTl - G.transpose() * lambda).lpNorm<Eigen::Infinity>() <= 1e-13 * G_scale * m);
    }
    CHECK((Mv - M * v).lpNorm<Eigen::Infinity>() <= 1e-13 * M.cwiseAbs().maxCoeff() * n);
    CHECK((M - M.transpose()).cwiseAbs().maxCoeff() == 0.0);
    // Positive semi-definite (a flat body's J_d is singular; the saddle-point test below checks
    // that M is definite where it must be, on the constraints' tangent space).
    const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues();
    CHECK(eig.minCoeff() >= -1e-14 * eig.maxCoeff());
    CHECK(eig.maxCoeff() > 0.0);
  });
}

TEST_CASE("every constrained mechanical form's structured solver solves its saddle-point system", "[models-generic]") {
  // [M, G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] at two different configurations near the
  // initial one (as in RATTLE's Newton: q_a the iterate, q_b = q_k), r and s pseudo-random;
  // the residual of the structured solution in the dense matrix built from the entries,
  // relative to |K| |[x; lambda]| + |[r; s]|. Measured: elastic_pendulum 0, free_rigid_body
  // 9.6e-17, multirotor_payload 5.8e-12 (CableTreeKkt eliminates without pivoting between
  // blocks, and q_a, q_b 1e-2 apart here are farther than any step: the link masses 0.01 kg
  // against the multirotor's 1.1 kg, and the link rows against the mass rows, spread the
  // pivots), planar_pendulum 2.3e-16, string_pendulum 1.1e-16. Bound 1e-10: a wrong block
  // gives O(1).
  for_each_constrained_form([&](const std::string& label, const ConstrainedMechanicalFormulation* cm) {
    const int n = cm->positions(), m = cm->constraints();
    const Eigen::VectorXd y0 = cm->initial_state();
    std::mt19937 gen(99u);
    const Eigen::VectorXd qa = near_configuration(y0.head(n), 1e-2, gen);
    const Eigen::VectorXd qb = near_configuration(y0.head(n), 1e-2, gen);
    std::vector<Eigen::Triplet<double>> mass, Ga, Gb;
    cm->mass_entries(mass);
    cm->constraint_jacobian(qa, Ga);
    cm->constraint_jacobian(qb, Gb);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
    K.topLeftCorner(n, n) = dense_of(mass, n, n);
    K.topRightCorner(n, m) = dense_of(Gb, m, n).transpose();
    K.bottomLeftCorner(m, n) = dense_of(Ga, m, n);
    auto solver = cm->make_solver();
    REQUIRE(solver);
    REQUIRE(solver->factor(qa, qb));
    double worst = 0.0;
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd r = uniform_vector(n, gen), s = uniform_vector(m, gen);
      Eigen::VectorXd x, lambda;
      solver->solve(r, s, x, lambda);
      REQUIRE(x.size() == n);
      REQUIRE(lambda.size() == m);
      Eigen::VectorXd sol(n + m), rhs(n + m);
      sol << x, lambda;
      rhs << r, s;
      const double rel = (K * sol - rhs).lpNorm<Eigen::Infinity>() /
                         (K.cwiseAbs().maxCoeff() * sol.lpNorm<Eigen::Infinity>() + rhs.lpNorm<Eigen::Infinity>());
      INFO("trial " << trial << ": relative residual " << rel);
      worst = std::max(worst, rel);
    }
    report(label, "constrained form: saddle-point solve, relative residual", worst);
    INFO("fixture " << label << ": relative residual " << worst);
    CHECK(worst < 1e-10);
  });
}

TEST_CASE("every constrained mechanical form's tangents match central differences", "[models-generic]") {
  // The tangents the index-3 alpha methods' Newton needs (generalized_alpha): K_f = df/dq,
  // C_f = df/dv and K_g = d(G(q)^T lambda)/dq, as entries, against central differences (step
  // 1e-6 (1 + |x_k|)) of force() and constraint_jacobian_transpose_times() at a configuration
  // and velocity off the initial ones (1e-3 (1 + |q_i|), v + 1e-1 (1 + |v_i|)) and a
  // pseudo-random lambda; error relative to the largest entry of the matrix, or to
  // |f|_inf / (1 + |q|_inf) where the tangent vanishes (a constant force: the differences must
  // then vanish too). Every model with the form provides them (why_not_tangents() empty), so
  // generalized_alpha runs every constrained form.
  // Measured (K_f / C_f / K_g): elastic_pendulum 4.5e-11 / 0 / 0 (no constraints),
  // free_rigid_body 0 / 0 / 2.6e-11, multirotor_payload 0 / 0 / 5.0e-11, planar_pendulum
  // 0 / 0 / 1.9e-11, string_pendulum 5.8e-11 / 0 / 5.9e-11, hanging_tether 4.6e-11 / 2.8e-10 / 0,
  // hanging_tether.lumped 4.0e-11 / 2.4e-10 / 0 (no constraints) (zero: constant forces, the
  // differences vanish exactly). Bound 1e-6: a wrong or missing term gives O(1).
  for_each_constrained_form([&](const std::string& label, const ConstrainedMechanicalFormulation* cm) {
    INFO("fixture " << label);
    REQUIRE(cm->why_not_tangents().empty());
    const int n = cm->positions(), m = cm->constraints();
    const Eigen::VectorXd y0 = cm->initial_state();
    std::mt19937 gen(2718u);
    const Eigen::VectorXd q = near_configuration(y0.head(n), 1e-3, gen);
    const Eigen::VectorXd v = perturbed(y0.tail(n), 1e-1, gen), lambda = uniform_vector(m, gen);
    const double t = 0.3;
    std::vector<Eigen::Triplet<double>> dfdq, dfdv, kg;
    cm->force_jacobian_entries(t, q, v, dfdq, dfdv);
    cm->constraint_force_jacobian_entries(q, lambda, kg);
    const Eigen::MatrixXd Kf = dense_of(dfdq, n, n), Cf = dense_of(dfdv, n, n), Kg = dense_of(kg, n, n);
    Eigen::MatrixXd Kf_fd(n, n), Cf_fd(n, n), Kg_fd(n, n);
    for (int k = 0; k < n; ++k) {
      Eigen::VectorXd fp, fm, gp, gm;
      const double eq = 1e-6 * (1.0 + std::abs(q(k)));
      Eigen::VectorXd qp = q, qm = q;
      qp(k) += eq;
      qm(k) -= eq;
      cm->force(t, qp, v, fp);
      cm->force(t, qm, v, fm);
      Kf_fd.col(k) = (fp - fm) / (2.0 * eq);
      cm->constraint_jacobian_transpose_times(qp, lambda, gp);
      cm->constraint_jacobian_transpose_times(qm, lambda, gm);
      Kg_fd.col(k) = (gp - gm) / (2.0 * eq);
      const double ev = 1e-6 * (1.0 + std::abs(v(k)));
      Eigen::VectorXd vp = v, vm = v;
      vp(k) += ev;
      vm(k) -= ev;
      cm->force(t, q, vp, fp);
      cm->force(t, q, vm, fm);
      Cf_fd.col(k) = (fp - fm) / (2.0 * ev);
    }
    Eigen::VectorXd f;
    cm->force(t, q, v, f);
    const double floor = f.lpNorm<Eigen::Infinity>() / (1.0 + q.lpNorm<Eigen::Infinity>());
    auto relative = [&](const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double size_floor) {
      if (A.size() == 0) return 0.0;
      const double size = std::max({A.cwiseAbs().maxCoeff(), size_floor, 1e-300});
      return (A - B).cwiseAbs().maxCoeff() / size;
    };
    const double e_kf = relative(Kf, Kf_fd, floor), e_cf = relative(Cf, Cf_fd, floor),
                 e_kg = relative(Kg, Kg_fd, lambda.size() > 0 ? 0.0 : 1.0);
    report(label, "constrained form: df/dq against central differences", e_kf);
    report(label, "constrained form: df/dv against central differences", e_cf);
    report(label, "constrained form: d(G^T lambda)/dq against central differences", e_kg);
    CHECK(e_kf < 1e-6);
    CHECK(e_cf < 1e-6);
    CHECK(e_kg < 1e-6);
    if (m > 0) CHECK(Kg_fd.cwiseAbs().maxCoeff() > 0.0);  // the constraints are not all linear: K_g is tested
  });
}

TEST_CASE("every model's physical state splits into configuration and rates, and the split is kinematic",
          "[models-generic][trajectory]") {
  // Model::physical_parts (the trajectory norms of the work-precision study measure the two
  // parts separately): one entry per number of every formulation's physical state, with at
  // least one configuration and one rate entry. Kinematics: on an embedded ODE whose state is
  // the physical state, setting every rate entry to zero must stop every configuration entry
  // (x' = v, R' = R hat(Omega), q' = omega x q, s' = sdot), to round-off (|x'| <= 1e-12 of the
  // state's scale); with every rate non-zero the configuration moves. A rate labelled as
  // configuration (moved by gravity at rest) or a configuration labelled as a rate fails it.
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const Case c = load_fixture(fixture);
      const std::vector<PhysicalPart> parts = c.model->physical_parts();
      INFO("fixture " << fixture.label << ": the model must declare physical_parts()");
      REQUIRE_FALSE(parts.empty());
      CHECK(std::count(parts.begin(), parts.end(), PhysicalPart::Configuration) > 0);
      CHECK(std::count(parts.begin(), parts.end(), PhysicalPart::Rate) > 0);
      for (const auto& offered : offered_formulations(*c.model)) {
        INFO(offered.name());
        const Eigen::VectorXd y0 = start_state(*offered.form);
        const Eigen::VectorXd x0 = offered.form->physical_state(y0);
        CHECK(size_t(x0.size()) == parts.size());
        const auto* ode = dynamic_cast<const OdeFormulation*>(offered.form.get());
        if (!ode || y0.size() != x0.size() || y0 != x0) continue;
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
        report(fixture.label, "max |configuration'| with the rates zeroed, " + offered.name(), config_rate_at_rest);
        CHECK(config_rate_at_rest <= 1e-12 * scale);
        CHECK(config_rate_moving > 1e-6);
        note(fixture.label, "kinematic split checked on " + offered.name());
      }
    }
  }
}

TEST_CASE("every Lie group ODE form's field, acting on its state, is its embedded ODE's right-hand side",
          "[models-generic]") {
  // The Lie group form reads the rates of R, q and the positions from the state and acts with
  // them (R' = R hat(Omega), q' = omega x q, x' = v); the embedded ODE computes the same rows
  // itself. Equal to round-off at t0 and at a perturbed state (on the manifold: the perturbation
  // moves R and q by the group) for every discretisation that offers both, so a factor declared
  // at the wrong offset, or a rate that is not the one the ODE uses, fails here. The forms that
  // decline say why.
  std::mt19937 g(2026);
  for (const Fixture& fixture : all_fixtures()) {
    DYNAMIC_SECTION(fixture.label) {
      const Case c = load_fixture(fixture);
      for (const auto& discretisation : c.model->discretisations()) {
        std::string why_not;
        auto group_form = c.model->make_formulation(FormulationKind::LieGroupOde, discretisation, why_not);
        auto ode_form = c.model->make_formulation(FormulationKind::EmbeddedOde, discretisation, why_not);
        if (!group_form) {
          CHECK_FALSE(why_not.empty());
          continue;
        }
        REQUIRE(ode_form);
        const auto& group = dynamic_cast<const LieGroupOdeFormulation&>(*group_form);
        const auto& ode = dynamic_cast<const OdeFormulation&>(*ode_form);
        const lie::HomogeneousProduct& manifold = group.manifold();
        REQUIRE(manifold.state_size() == group.state_size());
        CHECK_FALSE(manifold.is_vector_space());
        Eigen::VectorXd y0 = group.initial_state(), y1;
        manifold.act(0.3 * uniform_vector(int(manifold.algebra_size()), g), y0, y1);  // another point, on the manifold
        for (const Eigen::VectorXd& y : {y0, y1}) {
          Eigen::VectorXd xi, embedded, dydt;
          group.field(0.0, y, xi);
          manifold.embedded_velocity(y, xi, embedded);
          ode.rhs(0.0, y, dydt);
          const double scale = std::max(1.0, dydt.lpNorm<Eigen::Infinity>());
          INFO(fixture.label << " (" << discretisation << "): max |embedded - rhs| " << (embedded - dydt).lpNorm<Eigen::Infinity>());
          CHECK((embedded - dydt).lpNorm<Eigen::Infinity>() <= 1e-13 * scale);
        }
        CHECK(manifold.rotation_defect(y1) < 1e-14);
        CHECK(manifold.direction_defect(y1) < 1e-14);
      }
    }
  }
}
