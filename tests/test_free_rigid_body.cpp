// The torque-free rigid body (seed 004 §§2-3): analytic derivatives of its LGVI step and of
// its DAE residual against central differences; the Baumgarte orthonormality correction of
// the DAE (seed 004 §3); conservation of energy, of the spatial angular momentum vector and
// of orthogonality by the LGVI and by rk45; the LGVI's order; the case file's input checks.

#include <algorithm>
#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
#include <cstdio>

#include "models/free_rigid_body/model.hpp"
#include "tests/case_variant.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

namespace {

const std::string kCase = TETHERBENCH_CASES_DIR "/T_free_rigid_body.toml";

// A full (non-diagonal) inertia, so that no derivative test leans on a diagonal J.
free_rigid_body::Parameters full_inertia() {
  free_rigid_body::Parameters p;
  const Mat3 Q = so3::exp(Vec3(0.4, -0.3, 0.7));
  p.J = Q * Vec3(1.0, 2.0, 2.6).asDiagonal() * Q.transpose();
  return p;
}

free_rigid_body::InitialCondition tumbling() {
  free_rigid_body::InitialCondition ic;
  ic.R0 = so3::exp(Vec3(0.3, -0.2, 0.5));
  ic.Omega0 = Vec3(0.7, -1.3, 0.9);
  return ic;
}

template <class Kind>
std::unique_ptr<Kind> form_of(const Model& model, FormulationKind kind) {
  std::string why_not;
  auto f = model.make_formulation(kind, why_not);
  REQUIRE(f);
  return std::unique_ptr<Kind>(dynamic_cast<Kind*>(f.release()));
}

// Dense dF/dy + cj dF/dy' from the model's triplets (repeated entries summed).
Eigen::MatrixXd dense_jacobian(const DaeFormulation& dae, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                               const BaumgarteParameters& b) {
  std::vector<Eigen::Triplet<double>> entries;
  dae.jacobian(0.0, y, yp, cj, b, entries);
  Eigen::MatrixXd Jm = Eigen::MatrixXd::Zero(y.size(), y.size());
  for (const auto& e : entries) {
    REQUIRE(e.row() - e.col() <= dae.lower_bandwidth());
    REQUIRE(e.col() - e.row() <= dae.upper_bandwidth());
    Jm(e.row(), e.col()) += e.value();
  }
  return Jm;
}

// An attitude with R^T R = I + E for a given small symmetric E: R = Q (I + E)^{1/2}.
Mat3 non_orthogonal(const Mat3& Q, const Mat3& E) {
  return Q * Eigen::SelfAdjointEigenSolver<Mat3>(Mat3::Identity() + E).operatorSqrt();
}

Eigen::VectorXd pack(const Mat3& R, const Vec3& Omega) {
  Eigen::VectorXd y(12);
  free_rigid_body::write_attitude(R, y);
  y.tail<3>() = Omega;
  return y;
}

// y' with F(y, y') = 0: F is affine in y', F = F(y, 0) + (dF/dy') y'.
Eigen::VectorXd solve_for_derivative(const DaeFormulation& dae, const Eigen::VectorXd& y, const BaumgarteParameters& b) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(y.size());
  Eigen::VectorXd F0;
  dae.residual(0.0, y, zero, b, F0);
  const Eigen::MatrixXd M = dense_jacobian(dae, y, zero, 1.0, b) - dense_jacobian(dae, y, zero, 0.0, b);
  return M.partialPivLu().solve(-F0);
}

struct RunExtremes {
  double energy_err = 0.0, pi_vector_err = 0.0, orthogonality = 0.0, kinetic = 0.0;
  Vec3 pi0 = Vec3::Zero();
};

RunExtremes run_extremes(const Model& model, const std::string& name, double t_end, double h, double rtol = 1e-8,
                         double atol = 1e-10) {
  const IntegratorInfo& info = integrator(name);
  auto form = formulation_for(model, info);
  IntegratorSettings s = settings_of(info, h);
  set_if_declared(s, "rtol", rtol);
  set_if_declared(s, "atol", atol);
  RunExtremes r;
  double e0 = 0.0;
  bool first = true;
  const IntegrationOutcome out = integrate(*form, info, s, t_end, 1e-2, [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    const Vec3 pi(o.extra[0], o.extra[1], o.extra[2]);
    if (first) e0 = o.energy, r.pi0 = pi, first = false;
    r.energy_err = std::max(r.energy_err, std::abs(o.energy - e0));
    r.pi_vector_err = std::max(r.pi_vector_err, (pi - r.pi0).norm());
    r.orthogonality = std::max(r.orthogonality, o.orthogonality_err);
    r.kinetic = std::max(r.kinetic, o.kinetic);
  });
  REQUIRE(out.ok());
  return r;
}

}  // namespace

TEST_CASE("free rigid body: the LGVI Newton matrix is the derivative of the discrete Legendre transform", "[free-rigid-body][derivatives]") {
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const auto form = form_of<DiscreteLieGroupFormulation>(*model, FormulationKind::DiscreteLieGroup);
  auto step = form->make_step();
  REQUIRE(step->unknowns() == 3);
  for (const double h : {1e-3, 0.05}) {
    step->begin(form->initial_state(), h);
    // At the initial guess and far from it (a rotation of ~60 degrees).
    Eigen::VectorXd guess;
    step->initial_guess(guess);
    for (const Eigen::VectorXd& c : {guess, Eigen::VectorXd(Vec3(0.3, -0.25, 0.4))}) {
      const double eps = 1e-6;
      Eigen::Matrix3d fd;
      for (int j = 0; j < 3; ++j) {
        Eigen::VectorXd cp = c, cm = c, Gp, Gm;
        cp(j) += eps;
        cm(j) -= eps;
        step->residual(cp, Gp);
        step->residual(cm, Gm);
        fd.col(j) = (Gp - Gm) / (2.0 * eps);
      }
      // newton_correction(c, G) = -J(c)^{-1} G, so fd * correction(e_i) = -e_i.
      for (int i = 0; i < 3; ++i) {
        Eigen::VectorXd dc;
        REQUIRE(step->newton_correction(c, Eigen::VectorXd(Vec3::Unit(i)), dc));
        const double err = (fd * dc + Vec3::Unit(i)).norm();
        INFO("h " << h << ", c " << c.transpose() << ", column " << i);
        CHECK(err < 1e-7);
      }
    }
  }
}

TEST_CASE("free rigid body: the LGVI step solves h hat(Pi_k) = F Jd - Jd F^T and keeps R Pi", "[free-rigid-body][lgvi]") {
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const auto form = form_of<DiscreteLieGroupFormulation>(*model, FormulationKind::DiscreteLieGroup);
  auto step = form->make_step();
  const double h = 0.02;
  const Eigen::VectorXd y = form->initial_state();
  step->begin(y, h);
  Eigen::VectorXd c, G, dc;
  step->initial_guess(c);
  for (int it = 0; it < 20; ++it) {
    step->residual(c, G);
    REQUIRE(step->newton_correction(c, G, dc));
    c += dc;
  }
  step->residual(c, G);
  CHECK(G.norm() < 1e-13);
  const Mat3 F = so3::cayley(c);
  const Mat3 Jd = so3::nonstandard_inertia(full_inertia().J);
  const Vec3 Pi = y.tail<3>();
  CHECK((so3::hat(Pi) * h - (F * Jd - Jd * F.transpose())).norm() < 1e-13);
  Eigen::VectorXd y_next;
  step->complete(c, y_next);
  const Mat3 R = free_rigid_body::read_attitude(y), R_next = free_rigid_body::read_attitude(y_next);
  CHECK((R_next - R * F).norm() < 1e-15);
  CHECK((R_next * y_next.tail<3>() - R * Pi).norm() < 1e-14);  // spatial momentum
  // The step is a consistent approximation: F ~ exp(h Omega), an O(h^2)-accurate rotation.
  const Vec3 Omega = full_inertia().J.inverse() * Pi;
  CHECK((so3::log(F) - h * Omega).norm() < 10.0 * h * h * Omega.squaredNorm());
}

TEST_CASE("free rigid body: DAE Jacobian dF/dy + cj dF/dy' matches central differences", "[free-rigid-body][derivatives][dae]") {
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const auto dae = form_of<DaeFormulation>(*model, FormulationKind::IndexOneDae);
  Mat3 E;
  E << 0.02, 0.005, -0.01, 0.005, -0.015, 0.008, -0.01, 0.008, 0.03;
  const Eigen::VectorXd y = pack(non_orthogonal(so3::exp(Vec3(0.3, -0.2, 0.5)), E), Vec3(0.7, -1.3, 0.9));
  Eigen::VectorXd yp(12);
  yp << 0.3, -0.1, 0.7, 0.2, 0.5, -0.4, -0.6, 0.1, 0.25, 1.5, -0.8, 0.35;  // anything: F is affine in y'
  for (const double gamma : {0.0, 2.5}) {
    const BaumgarteParameters b{0.0, gamma};
    for (const double cj : {0.0, 1.0, 37.5, 2.0e3}) {
      const Eigen::MatrixXd Jm = dense_jacobian(*dae, y, yp, cj, b);
      const double eps = 1e-6;
      Eigen::MatrixXd fd(12, 12);
      for (int j = 0; j < 12; ++j) {
        Eigen::VectorXd Fp, Fm, Gp, Gm;
        Eigen::VectorXd yP = y, yM = y, ypP = yp, ypM = yp;
        yP(j) += eps, yM(j) -= eps, ypP(j) += eps, ypM(j) -= eps;
        dae->residual(0.0, yP, yp, b, Fp);
        dae->residual(0.0, yM, yp, b, Fm);
        dae->residual(0.0, y, ypP, b, Gp);
        dae->residual(0.0, y, ypM, b, Gm);
        fd.col(j) = (Fp - Fm) / (2.0 * eps) + cj * (Gp - Gm) / (2.0 * eps);
      }
      const double err = (Jm - fd).lpNorm<Eigen::Infinity>() / std::max(1.0, cj);
      INFO("gamma " << gamma << ", cj " << cj << ", max error " << err);
      CHECK(err < 1e-8);
    }
  }
}

TEST_CASE("free rigid body: the DAE's initial values are consistent", "[free-rigid-body][dae]") {
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const auto dae = form_of<DaeFormulation>(*model, FormulationKind::IndexOneDae);
  const BaumgarteParameters b{0.0, 5.0};
  const Eigen::VectorXd y0 = dae->consistent_initial_state(b), yp0 = dae->consistent_initial_derivative(b);
  Eigen::VectorXd F;
  dae->residual(0.0, y0, yp0, b, F);
  CHECK(F.lpNorm<Eigen::Infinity>() < 1e-14);
  CHECK(dae->differential_components() == Eigen::VectorXd::Ones(12));
  // The same derivative as the ODE form's right-hand side (R0 is orthogonal: Xi = 0).
  const auto ode = form_of<OdeFormulation>(*model, FormulationKind::EmbeddedOde);
  Eigen::VectorXd f;
  ode->rhs(0.0, y0, f);
  CHECK((f - yp0).lpNorm<Eigen::Infinity>() < 1e-14);
}

TEST_CASE("free rigid body: with gamma > 0 the DAE damps the orthonormality defect, with gamma = 0 it does not", "[free-rigid-body][dae][baumgarte]") {
  // R^T R = I + E with E small and symmetric. Seed 004 §3: with Xi = gamma/2 ((R^T R)^{-1} - I),
  // d/dt (R^T R - I) = R^T R hat(Omega) + hat(Omega)^T R^T R - gamma (R^T R - I); the first two
  // terms equal E hat(Omega) - hat(Omega) E, which rotates E without changing |E|_F, so
  // d/dt |E|_F^2 = -2 gamma |E|_F^2.
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const auto dae = form_of<DaeFormulation>(*model, FormulationKind::IndexOneDae);
  Mat3 E;
  E << 2e-4, 5e-5, -1e-4, 5e-5, -1.5e-4, 8e-5, -1e-4, 8e-5, 3e-4;
  const Mat3 R = non_orthogonal(so3::exp(Vec3(0.3, -0.2, 0.5)), E);
  REQUIRE((R.transpose() * R - Mat3::Identity() - E).norm() < 1e-15);
  E = R.transpose() * R - Mat3::Identity();  // the defect as computed, so round-off in E does not count
  for (const Vec3& Omega : {Vec3(0.0, 0.0, 0.0), Vec3(0.7, -1.3, 0.9)}) {
    const Mat3 W = so3::hat(Omega);
    for (const double gamma : {0.0, 4.0}) {
      const Eigen::VectorXd yp = solve_for_derivative(*dae, pack(R, Omega), BaumgarteParameters{0.0, gamma});
      const Mat3 Rdot = free_rigid_body::read_attitude(yp);
      const Mat3 Edot = R.transpose() * Rdot + Rdot.transpose() * R;
      INFO("Omega " << Omega.transpose() << ", gamma " << gamma);
      // The slide's identity, exactly (up to the round-off of R' ~ |Omega| |R| against |E| ~ 4e-4).
      CHECK((Edot - (E * W - W * E - gamma * E)).norm() < 1e-11 * E.norm());
      // With Omega = 0 (the brief's first-order statement, exact here): d/dt (R^T R - I) = -gamma (R^T R - I).
      if (Omega.isZero()) CHECK((Edot + gamma * E).norm() < 1e-11 * E.norm());
      // The decay rate of |E|_F^2 / 2 relative to |E|_F^2: -gamma, and zero without correction.
      const double rate = (E.cwiseProduct(Edot)).sum() / E.squaredNorm();
      CHECK(std::abs(rate + gamma) < 1e-9);
    }
  }
}

TEST_CASE("free rigid body: rk45 at tight tolerance conserves energy and the spatial momentum vector", "[free-rigid-body][rk45]") {
  const Case c = load_case(kCase);
  const RunExtremes r = run_extremes(*c.model, "rk45", c.t_end, c.h, 1e-12, 1e-14);
  std::printf("free rigid body case, rk45 rtol 1e-12: max |dE| %.3e J, max |dpi| %.3e N m s, orth %.3e\n", r.energy_err,
              r.pi_vector_err, r.orthogonality);
  CHECK(r.energy_err < 1e-10);
  CHECK(r.pi_vector_err < 1e-10);
  CHECK(r.orthogonality < 1e-10);
}

TEST_CASE("free rigid body: the LGVI keeps the spatial momentum vector, orthogonality and energy to round-off", "[free-rigid-body][lgvi]") {
  const Case c = load_case(kCase);
  const double h = 1e-3;  // many steps: 20000 over the case's 20 s
  const RunExtremes r = run_extremes(*c.model, "lgvi", c.t_end, h);
  std::printf("free rigid body case, T = %.0f s, h = %.0e (%ld steps): lgvi max |dE| %.3e J (KE %.3f J), |dpi| %.3e "
              "(|pi| %.3f), orth %.3e\n",
              c.t_end, h, long(c.t_end / h), r.energy_err, r.kinetic, r.pi_vector_err, r.pi0.norm(), r.orthogonality);
  // R_{k+1} Pi_{k+1} = R_k F_k F_k^T Pi_k and R_{k+1} = R_k cay(c): exact up to round-off, which
  // accumulates over the 20000 steps to a few 1e-13.
  CHECK(r.pi_vector_err < 1e-12);
  CHECK(r.orthogonality < 1e-12);
  // Measured: the energy 1/2 Pi.J^{-1} Pi is kept to round-off too (not merely bounded), at this
  // step and at h = 0.05 below; the Moser-Veselov discrete rigid body is integrable.
  CHECK(r.energy_err < 1e-12 * r.kinetic);

  // A tumbling body with a full inertia and a coarse step, against RK4 at the same step.
  const auto tumbling_body = free_rigid_body::make_model(full_inertia(), tumbling());
  for (const double h : {1e-2, 5e-2}) {
    const RunExtremes lgvi = run_extremes(*tumbling_body, "lgvi", 20.0, h);
    const RunExtremes rk4 = run_extremes(*tumbling_body, "rk4", 20.0, h);
    std::printf("tumbling full-inertia body, T = 20 s, h = %.0e: lgvi |dE| %.3e, |dpi| %.3e, orth %.3e;"
                " rk4 |dE| %.3e, |dpi| %.3e, orth %.3e\n",
                h, lgvi.energy_err, lgvi.pi_vector_err, lgvi.orthogonality, rk4.energy_err, rk4.pi_vector_err,
                rk4.orthogonality);
    CHECK(lgvi.energy_err < 1e-12 * lgvi.kinetic);
    CHECK(lgvi.pi_vector_err < 1e-12);
    CHECK(lgvi.orthogonality < 1e-12);
    // RK4 integrates R as 9 numbers: its truncation error shows in all three.
    CHECK(rk4.energy_err > 1e3 * lgvi.energy_err);
    CHECK(rk4.pi_vector_err > 1e3 * lgvi.pi_vector_err);
    CHECK(rk4.orthogonality > 1e3 * lgvi.orthogonality);
  }
}

TEST_CASE("free rigid body: the LGVI converges to the rk45 solution at order 2", "[free-rigid-body][lgvi][convergence]") {
  const Case c = load_case(kCase);
  const double T = 2.0;
  const Eigen::VectorXd reference = reference_solution(*c.model, T);
  std::vector<double> hs = {4e-3, 2e-3, 1e-3, 5e-4}, errs;
  for (double h : hs) {
    const FinalState run = run_to(*c.model, "lgvi", T, h);
    REQUIRE(run.outcome.ok());
    errs.push_back((run.physical - reference).lpNorm<Eigen::Infinity>());
  }
  const double order = fitted_order(hs, errs);
  std::printf("free rigid body lgvi vs rk45 reference at T = 2 s: errors %.3e .. %.3e, order %.3f\n", errs.front(),
              errs.back(), order);
  CHECK(std::abs(order - 2.0) < 0.1);
}

TEST_CASE("free rigid body: inertia keys are checked", "[free-rigid-body][input]") {
  const std::string key = "inertia_diagonal = [1.0, 2.0, 3.0]";
  CHECK(input_error_of_variant(kCase, key, "inertia_diagonal = [1.0, 2.0, 3.5]").find("triangle inequality") !=
        std::string::npos);
  CHECK(input_error_of_variant(kCase, key, "inertia_diagonal = [1.0, -2.0, 3.0]").find("not positive definite") !=
        std::string::npos);
  CHECK(input_error_of_variant(kCase, key, "inertia = [[2.0, 0.1, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]")
            .find("model.inertia' (line 15): expected the inertia of a physical body, got a matrix that is not symmetric "
                  "(J - J^T has an entry 0.1)") !=
        std::string::npos);
  CHECK(input_error_of_variant(kCase, key, key + "\ninertia = [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]")
            .find("exactly one of") != std::string::npos);
  CHECK(input_error_of_variant(kCase, key, "").find("exactly one of") != std::string::npos);
  // A full symmetric inertia is accepted, and gives the same body as its diagonal form.
  CHECK(input_error_of_variant(kCase, key, "inertia = [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]") ==
        "<no InputError thrown>");
}

namespace {

// Max orthogonality error over consecutive 20 s windows of an ida run of the case with the
// given gamma (the case's other ida settings: rtol 1e-10, atol 1e-12).
std::vector<double> ida_orthogonality_windows(const Case& c, double gamma, double t_end) {
  const IntegratorInfo& info = integrator("ida");
  auto form = formulation_for(*c.model, info);
  IntegratorSettings s = c.settings.at("ida");
  set_if_declared(s, "baumgarte_gamma", gamma);
  std::vector<double> windows(int(t_end / 20.0 + 0.5), 0.0);
  const IntegrationOutcome out = integrate(*form, info, s, t_end, c.sample_interval, [&](double t, const Eigen::VectorXd& y) {
    const int w = std::min(int(windows.size()) - 1, int(t / 20.0));
    windows[w] = std::max(windows[w], form->observe(t, y).orthogonality_err);
  });
  REQUIRE(out.ok());
  return windows;
}

}  // namespace

TEST_CASE("free rigid body, ida end to end: with gamma > 0 the orthogonality error stays bounded, with gamma = 0 it drifts", "[free-rigid-body][dae][ida][baumgarte]") {
  const Case c = load_case(kCase);
  REQUIRE(c.settings.at("ida").get("baumgarte_gamma") == 10.0);
  const std::vector<double> corrected = ida_orthogonality_windows(c, 10.0, 60.0);
  const std::vector<double> plain = ida_orthogonality_windows(c, 0.0, 60.0);
  std::printf("free rigid body, ida rtol 1e-10, max ||I - R^T R||_F over 0-20, 20-40, 40-60 s: gamma = 10: %.2e %.2e %.2e;"
              " gamma = 0: %.2e %.2e %.2e\n",
              corrected[0], corrected[1], corrected[2], plain[0], plain[1], plain[2]);
  const double corrected_max = *std::max_element(corrected.begin(), corrected.end());
  const double plain_max = *std::max_element(plain.begin(), plain.end());
  // gamma = 10/s: the defect is damped as fast as IDA's local errors feed it, at ~10 rtol.
  CHECK(corrected_max < 5e-9);
  CHECK(corrected[2] < 2.0 * corrected[0]);  // no growth
  // gamma = 0: the local errors accumulate, growing roughly linearly in time.
  CHECK(plain[2] > 2.0 * plain[0]);
  CHECK(plain_max > 10.0 * corrected_max);
}

TEST_CASE("free rigid body: continuation in h' solves a step Newton alone cannot, to the same discrete solution",
          "[free-rigid-body][lgvi][globalisation]") {
  // A large rotation per step (h |Omega| ~ 0.9 rad) and only 3 Newton iterations: from the
  // model's guess Newton needs 5, so the integrator follows the branch from h' = 0, each
  // continuation stage converging within the 3 iterations, to the root plain Newton finds.
  // (At h = 0.75 the two differ: the branch through the previous state folds near 0.8 h, while
  // 50 unrestricted iterations from the guess land on another root of the Moser-Veselov
  // equation.)
  const auto model = free_rigid_body::make_model(full_inertia(), tumbling());
  const IntegratorInfo& info = integrator("lgvi");
  const auto form = formulation_for(*model, info);
  const double h = 0.5;
  IntegratorSettings few = settings_of(info, h), many = settings_of(info, h);
  few.set("max_newton_iters", 3);
  many.set("max_newton_iters", 50);
  StepFailure failure;
  // Check the premise: plain Newton from the guess needs more than 3 iterations here.
  {
    auto step = dynamic_cast<const DiscreteLieGroupFormulation&>(*form).make_step();
    step->begin(form->initial_state(), h);
    Eigen::VectorXd c, G, dc;
    step->initial_guess(c);
    for (int it = 0; it < 3; ++it) {
      step->residual(c, G);
      REQUIRE(step->newton_correction(c, G, dc));
      c += dc;
    }
    CHECK(dc.lpNorm<Eigen::Infinity>() > 1e-13 * c.lpNorm<Eigen::Infinity>());
  }
  auto rescued = info.make(*form, few, 0.0);
  auto direct = info.make(*form, many, 0.0);
  const bool ok = rescued->step(h, failure);
  INFO(failure.reason);
  REQUIRE(ok);
  REQUIRE(direct->step(h, failure));
  INFO("rescued after " << rescued->counters().newton_iters << " iterations, direct " << direct->counters().newton_iters);
  CHECK(rescued->counters().newton_iters > 3);  // the continuation's stages are counted as work
  CHECK((rescued->state() - direct->state()).lpNorm<Eigen::Infinity>() < 1e-13);
}
