// Model B with the reel moving (SPEC "Model B", seeds 001/002) as a constrained mechanical form
// with a configuration-dependent mass matrix (models/reel_pendulum/moving_reel_constrained_form.cpp),
// under rattle, rattle4 and generalized_alpha (their variable-mass paths: integrators/rattle_step.cpp,
// integrators/generalized_alpha/generalized_alpha.cpp), on the two moving-reel cases
// (cases/B_reel_deployment.toml, cases/B_reel_retrieval.toml):
//  1. every derivative the schemes use against central differences (df/dq, df/dv, d(M(q) a)/dq,
//     dT/dq), the exact increment (M(q + dq) - M(q)) v, the split f = f_a + dT/dq - (dM/dq v) v,
//     and the work terms' power against the energy rate (f_a + grad V) . v;
//  2. measured orders: rattle and generalized_alpha against the reference solver's tight
//     solution of the ODE form (T = 0.2 s), rattle4 by self-convergence (T = 0.1 s);
//  3. RATTLE's step: symmetric (h then -h returns), the attachment and R^T R = I at round-off;
//  4. the energy balance E - E0 - W_carnot - W_control over 0.5 s: bounded and falling at the
//     method's order;
//  5. a reel that runs out of string fails with the form's reason, not a clamp.
// Set TB_DERIV_REPORT=1 to print the measured figures.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "integrators/rattle_step.hpp"
#include "models/reel_pendulum/forms.hpp"
#include "models/reel_pendulum/model.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;
namespace rp = tb::reel_pendulum;

namespace {

const std::string kCases = TETHERBENCH_CASES_DIR;
const char* const kMovingReelCases[] = {"B_reel_deployment", "B_reel_retrieval"};

void report(const char* format, double a, double b = 0.0, double c = 0.0) {
  static const bool on = std::getenv("TB_DERIV_REPORT") != nullptr;
  if (on) {
    std::printf(format, a, b, c);
    std::printf("\n");
  }
}

double max_abs(const Eigen::VectorXd& v) { return v.lpNorm<Eigen::Infinity>(); }

Case moving_reel_case(const std::string& name) { return load_case(kCases + "/" + name + ".toml"); }

std::unique_ptr<Formulation> constrained_form(const Case& c) {
  std::string why_not;
  auto form = c.model->make_formulation(FormulationKind::ConstrainedMechanical, why_not);
  INFO(why_not);
  REQUIRE(form);
  return form;
}
const ConstrainedMechanicalFormulation& as_cm(const Formulation& f) {
  return dynamic_cast<const ConstrainedMechanicalFormulation&>(f);
}

Eigen::MatrixXd dense(const std::vector<Eigen::Triplet<double>>& e, int n) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (const auto& t : e) A(t.row(), t.col()) += t.value();
  return A;
}

// max over rows of max |A - B| / (largest entry of the row, of either).
double row_relative_error(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  double worst = 0.0;
  for (int i = 0; i < A.rows(); ++i) {
    const double scale = std::max(A.row(i).cwiseAbs().maxCoeff(), B.row(i).cwiseAbs().maxCoeff());
    const double err = (A.row(i) - B.row(i)).cwiseAbs().maxCoeff();
    worst = std::max(worst, scale > 0.0 ? err / scale : err);
  }
  return worst;
}

}  // namespace

TEST_CASE("moving reel constrained form: derivatives, the force split and the power against differences",
          "[reel_pendulum][constrained][derivatives]") {
  for (const char* name : kMovingReelCases) {
    DYNAMIC_SECTION(name) {
      const Case c = moving_reel_case(name);
      const auto form_ptr = constrained_form(c);
      const auto& form = dynamic_cast<const rp::MovingReelConstrainedForm&>(*form_ptr);
      REQUIRE(form.mass_depends_on_configuration());
      const int n = form.positions(), N = form.mechanics().params().N;
      // A stretched, moving state: the initial one with the nodes moved by up to 2 % of an
      // element, every velocity random (|v| ~ 1 m/s, sdot ~ 1 m/s).
      std::mt19937 gen(31415u);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      const Eigen::VectorXd y0 = form.initial_state();
      Eigen::VectorXd q = y0.head(n), v(n), a(n), dq(n);
      const double l = form.mechanics().element_length(q(form.reel()));
      for (int i = 0; i < 3 * N; ++i) q(i) += 0.02 * l * u(gen);
      for (int i = 0; i < n; ++i) {
        v(i) = u(gen);
        a(i) = 5.0 * u(gen);
        dq(i) = 1e-3 * u(gen);
      }
      const double t = 0.1;
      // Central differences: f is quadratic in v (exact differences with a large step); positions 1e-6 of their size.
      auto fd = [&](auto&& F, bool in_v) {
        Eigen::MatrixXd J(n, n);
        for (int k = 0; k < n; ++k) {
          const double e = in_v ? 1e-2 : 1e-6 * (1.0 + std::abs(q(k)));
          Eigen::VectorXd qp = q, qm = q, vp = v, vm = v;
          (in_v ? vp : qp)(k) += e;
          (in_v ? vm : qm)(k) -= e;
          J.col(k) = (F(qp, vp) - F(qm, vm)) / (2.0 * e);
        }
        return J;
      };
      auto force = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
        Eigen::VectorXd f;
        form.force(t, qq, vv, f);
        return f;
      };
      auto mass_a = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd&) {
        Eigen::VectorXd Ma;
        form.mass_times_at(qq, a, Ma);
        return Ma;
      };
      std::vector<Eigen::Triplet<double>> dfdq, dfdv, dMa, dMv;
      form.force_jacobian_entries(t, q, v, dfdq, dfdv);
      form.mass_times_jacobian_entries(q, a, dMa);
      form.mass_times_jacobian_entries(q, v, dMv);
      const double e_fq = row_relative_error(dense(dfdq, n), fd(force, false));
      const double e_fv = row_relative_error(dense(dfdv, n), fd(force, true));
      const double e_ma = row_relative_error(dense(dMa, n), fd(mass_a, false));
      // dT/dq against differences of T = 1/2 v^T M(q) v.
      Eigen::VectorXd dT, dT_fd(n);
      form.kinetic_gradient(q, v, dT);
      for (int k = 0; k < n; ++k) {
        const double e = 1e-6 * (1.0 + std::abs(q(k)));
        Eigen::VectorXd qp = q, qm = q, Mp, Mm;
        qp(k) += e;
        qm(k) -= e;
        form.mass_times_at(qp, v, Mp);
        form.mass_times_at(qm, v, Mm);
        dT_fd(k) = 0.25 * v.dot(Mp - Mm) / e;
      }
      const double e_dT = max_abs(dT - dT_fd) / max_abs(dT);
      // M is affine in q: the increment is exact.
      Eigen::VectorXd M0, M1, change;
      form.mass_times_at(q, a, M0);
      form.mass_times_at(q + dq, a, M1);
      form.mass_change_times(q, dq, a, change);
      const double e_change = max_abs(change - (M1 - M0)) / max_abs(M1 - M0);
      // f = f_a + dT/dq - (dM/dq v) v.
      Eigen::VectorXd f, fa;
      form.force(t, q, v, f);
      form.applied_force(t, q, v, fa);
      const double e_split = max_abs(fa + dT - dense(dMv, n) * v - f) / max_abs(f);
      // The work terms carry the power of the non-conservative forces: (f_a + grad V) . v.
      Eigen::VectorXd gradV(n), P;
      for (int k = 0; k < n; ++k) {
        const double e = 1e-6 * (1.0 + std::abs(q(k)));
        Eigen::VectorXd qp = q, qm = q;
        qp(k) += e;
        qm(k) -= e;
        gradV(k) = (form.potential_energy(qp) - form.potential_energy(qm)) / (2.0 * e);
      }
      form.power(t, q, v, P);
      const double nonconservative = (fa + gradV).dot(v);
      // Relative to the applied forces' power sum |f_a,i v_i| (of which the non-conservative part
      // is a small remainder on the deployment, u = 0: the differences of V are rounded at |V|).
      const double e_power = std::abs(P.sum() - nonconservative) / fa.cwiseProduct(v).cwiseAbs().sum();
      report("  df/dq %.2e   df/dv %.2e   d(M a)/dq %.2e", e_fq, e_fv, e_ma);
      report("  dT/dq %.2e   (M(q+dq) - M(q)) a %.2e   split %.2e", e_dT, e_change, e_split);
      report("  power %.2e (P = %.6g W)", e_power, P.sum());
      CHECK(e_fq < 1e-6);
      CHECK(e_fv < 1e-9);
      CHECK(e_ma < 1e-7);
      CHECK(e_dT < 1e-7);
      CHECK(e_change < 1e-9);
      CHECK(e_split < 1e-13);
      CHECK(e_power < 1e-8);
    }
  }
}

TEST_CASE("moving reel: measured orders rattle 2, generalized_alpha 2 (against the reference), rattle4 4",
          "[reel_pendulum][constrained][order]") {
  // Final physical state at T = 0.2 s against the reference solver's tight solution of the ODE
  // form; the deployment starts with 5 cm elements (fastest axial mode ~2800 rad/s): its
  // asymptotic range starts below h ~ 1e-4 (as the LGVI's, tests/test_reel_pendulum.cpp).
  for (const char* name : kMovingReelCases) {
    DYNAMIC_SECTION(name) {
      const Case c = moving_reel_case(name);
      const bool deployment = std::string(name) == "B_reel_deployment";
      const double T = 0.2;
      const Eigen::VectorXd reference = reference_solution(*c.model, T);
      const std::vector<double> hs = deployment ? std::vector<double>{1e-4, 5e-5, 2.5e-5, 1.25e-5}
                                                : std::vector<double>{2e-4, 1e-4, 5e-5, 2.5e-5};
      for (const std::string method : {"rattle", "generalized_alpha"}) {
        std::vector<double> errs;
        for (double h : hs) {
          const auto run = run_to(*c.model, method, T, h);
          INFO(method << " h = " << h << ": " << run.outcome.outcome.describe());
          REQUIRE(run.outcome.ok());
          errs.push_back(max_abs(run.physical - reference));
        }
        const double order = fitted_order(hs, errs);
        std::printf("%s %s vs tight reference at T = 0.2 s: errors %.3e .. %.3e, measured order %.3f\n", name,
                    method.c_str(), errs.front(), errs.back(), order);
        CHECK(std::abs(order - 2.0) < 0.25);
      }
      // rattle4 by self-convergence, e(h) = |y_h(T) - y_{h/2}(T)|_inf over a fixed sequence inside the
      // stability interval of its largest substep (Suzuki's |1 - 4p| h = 0.66 h; on the deployment the
      // 5 cm elements' axial mode ~2800 rad/s), T = 0.1 s: the errors stay far above round-off.
      // (tests/self_convergence.hpp doubles h until the difference reaches 1e-6, which on the
      // deployment lands on a step past that interval.)
      const std::vector<double> h4 = deployment ? std::vector<double>{4e-4, 2e-4, 1e-4, 5e-5}
                                                : std::vector<double>{1.6e-3, 8e-4, 4e-4, 2e-4};
      std::vector<Eigen::VectorXd> finals;
      for (double h : h4) {
        const auto run = run_to(*c.model, "rattle4", 0.1, h);
        INFO("rattle4 h = " << h << ": " << run.outcome.outcome.describe());
        REQUIRE(run.outcome.ok());
        finals.push_back(run.physical);
      }
      std::vector<double> hd, diffs;
      for (std::size_t i = 0; i + 1 < finals.size(); ++i) {
        hd.push_back(h4[i]);
        diffs.push_back(max_abs(finals[i] - finals[i + 1]));
      }
      const double order4 = fitted_order(hd, diffs);
      std::printf("%s rattle4 self-convergence at T = 0.1 s: differences %.3e .. %.3e, measured order %.3f\n", name,
                  diffs.front(), diffs.back(), order4);
      CHECK(std::abs(order4 - 4.0) < 0.3);
    }
  }
}

TEST_CASE("moving reel: rattle's step is symmetric and keeps the attachment and R^T R = I at round-off",
          "[reel_pendulum][constrained][rattle]") {
  // 400 steps of the case's h: after each a step of -h from the new state gives back the old one
  // (relative to |y|_inf), and |g_i| / scale_i (attachment / L, orthonormality) and |G v| stay
  // at round-off.
  for (const char* name : kMovingReelCases) {
    DYNAMIC_SECTION(name) {
      const Case c = moving_reel_case(name);
      const auto form = constrained_form(c);
      const auto& cm = as_cm(*form);
      const int n = cm.positions();
      RattleStep forward(cm, 1e-14, 25), backward(cm, 1e-14, 25);
      Eigen::VectorXd y = cm.initial_state(), next, back, g, Gv;
      const Eigen::VectorXd scale = cm.constraint_scale();
      double worst_sym = 0.0, worst_g = 0.0, worst_Gv = 0.0, worst_orth = 0.0;
      int iters = 0;
      for (int k = 0; k < 400; ++k) {
        const auto r = forward.step(k * c.h, c.h, y, next);
        INFO(r.failure.reason);
        REQUIRE(r.ok);
        iters = std::max(iters, r.newton_iters);
        REQUIRE(backward.step((k + 1) * c.h, -c.h, next, back).ok);
        worst_sym = std::max(worst_sym, max_abs(back - y) / max_abs(y));
        y = next;
        cm.constraint(y.head(n), g);
        cm.constraint_jacobian_times(y.head(n), y.segment(n, n), Gv);
        worst_g = std::max(worst_g, max_abs(g.head<3>().cwiseQuotient(scale.head<3>())));
        worst_orth = std::max(worst_orth, max_abs(g.tail<6>()));
        worst_Gv = std::max(worst_Gv, max_abs(Gv) / max_abs(y.segment(n, n)));
      }
      std::printf("%s rattle: symmetry %.3g, attachment |C|/L %.3g, R^T R - I %.3g, |G v|/|v| %.3g, Newton iterations <= %d\n",
                  name, worst_sym, worst_g, worst_orth, worst_Gv, iters);
      CHECK(worst_sym < 1e-12);
      CHECK(worst_g < 1e-13);
      CHECK(worst_orth < 1e-13);
      CHECK(worst_Gv < 1e-13);
    }
  }
}

TEST_CASE("moving reel: the energy balance is bounded and falls at the method's order",
          "[reel_pendulum][constrained][energy]") {
  // max |E(t) - E(0) - W_carnot - W_control| over 0.5 s at h and h/2 (h = 1e-4 on the deployment,
  // 2e-4 on the retrieval; rattle4 at 4 h and 8 h): a ratio of 2^p, p the method's order.
  for (const char* name : kMovingReelCases) {
    DYNAMIC_SECTION(name) {
      const Case c = moving_reel_case(name);
      const bool deployment = std::string(name) == "B_reel_deployment";
      Case shortened = c;
      shortened.t_end = 0.5;
      const double h = deployment ? 1e-4 : 2e-4;
      for (const std::string method : {"rattle", "rattle4", "generalized_alpha"}) {
        std::vector<double> residual;
        // rattle4 at 4 h (deployment) and 8 h (retrieval): at h its residual is near the balance's
        // round-off (1e-12 J).
        const double h_method = method == "rattle4" ? (deployment ? 4 : 8) * h : h;
        for (double step : {h_method, h_method / 2}) {
          RunOptions options;
          options.h = step;
          const SummaryRow row = run_case(shortened, integrator(method), options);
          INFO(method << " h = " << step << ": " << row.outcome.reason);
          REQUIRE(row.outcome.ok());
          residual.push_back(row.metrics.energy_err_max);
          CHECK(row.metrics.orthogonality_err_max < 1e-13);
        }
        const double ratio = residual[0] / residual[1];
        const double expected = std::pow(2.0, integrator(method).order);
        std::printf("%s %s energy balance over 0.5 s: %.3e (h = %.2g), %.3e (h/2), ratio %.2f (2^p = %.0f)\n", name,
                    method.c_str(), residual[0], h_method, residual[1], ratio, expected);
        CHECK(ratio > 0.7 * expected);
        CHECK(ratio < 1.4 * expected);
      }
    }
  }
}

TEST_CASE("moving reel: a reel that runs out of string fails with the form's reason", "[reel_pendulum][constrained]") {
  // A short reel (L = 5 m, 1 m deployed, hanging) under a control moment that winds the whole
  // string in within a third of a second. generalized_alpha (unconditionally stable) follows it
  // until s_p passes L and fails with the form's reason; rattle fails earlier, as the shrinking
  // elements' axial frequency (EA/mu)^(1/2)/l passes its stability interval h w < 2 (measured:
  // t = 0.292 s against generalized_alpha's 0.317 s). Neither clamps s_p.
  rp::Parameters p;
  p.N = 4;
  p.mu = 0.025;
  p.L = 5.0;
  p.EA = 40.0;
  p.M = 0.1;
  p.rho_c = Vec3(0.1, 0.0, 0.1);
  p.J = Mat3::Identity() * 0.01 + p.M * (p.rho_c.squaredNorm() * Mat3::Identity() - p.rho_c * p.rho_c.transpose());
  p.b = 0.5;
  p.d = 0.5;
  p.kappa_d = 0.2;
  p.u = 5.0;
  rp::InitialCondition ic;
  ic.s0 = 4.0;
  ic.string_direction = Vec3::UnitZ();
  const auto model = rp::make_model(p, ic);
  const auto alpha = run_to(*model, "generalized_alpha", 3.0, 1e-3);
  const auto rattle = run_to(*model, "rattle", 3.0, 1e-3);
  const std::string why_alpha = alpha.outcome.outcome.describe(), why_rattle = rattle.outcome.outcome.describe();
  std::printf("reel running out of string under generalized_alpha: %s\n", why_alpha.c_str());
  std::printf("reel running out of string under rattle: %s\n", why_rattle.c_str());
  CHECK_FALSE(alpha.outcome.ok());
  CHECK(why_alpha.find("fully reeled in") != std::string::npos);
  CHECK_FALSE(rattle.outcome.ok());
}
