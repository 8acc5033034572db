// Model C with the cable attached off the multirotor's centre of mass (Parameters::
// attachment_offset, mechanics.hpp): every form's new derivatives against finite differences,
// the forms against each other, the invariants E, P, pi3 of the coupled system, and that the
// rotation now couples (the body's angular momentum about its centre of mass is exchanged with
// the cable while the total pi3 is kept).

#include <catch2/catch.hpp>

#include <cmath>

#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/model.hpp"
#include "multirotor_test_support.hpp"
#include "test_support.hpp"

using namespace tb;
using namespace tb::multirotor_payload;
using tb::testing::perturbed_state;
using tb::testing::paper_single;
using tb::testing::small_cooperative;
using tb::testing::spinning;

namespace {

// A generic offset (off every body axis) for the derivative tests; the case's is on the axis.
const Vec3 kOffset(0.03, -0.02, 0.08);

Parameters with_offset(Parameters p, const Vec3& rho = kOffset) {
  p.attachment_offset = rho;
  return p;
}

}  // namespace

TEST_CASE("offset: the ODE's flow keeps E, P and pi3 (their rates vanish along rhs)", "[model-c][offset][ode]") {
  // d/dt of each invariant along the vector field, by central differences of Mechanics' own
  // expressions: the equations of motion (ode_form.cpp) and the energies/momenta (mechanics.cpp)
  // are derived separately, so this checks one against the other.
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    OdeForm ode(p, InitialCondition{});
    const Mechanics& mech = ode.mechanics();
    Eigen::VectorXd y, f;
    mech.pack(perturbed_state(mech, 7), y);
    ode.rhs(0.0, y, f);
    const double e = 1e-6;
    const Observation plus = mech.observe(mech.unpack(y + e * f)), minus = mech.observe(mech.unpack(y - e * f)),
                      here = mech.observe(mech.unpack(y));
    const double dE = (plus.energy - minus.energy) / (2 * e), dH = (plus.momentum - minus.momentum) / (2 * e);
    const Vec3 dP = (plus.linear_momentum - minus.linear_momentum) / (2 * e);
    INFO("m = " << p.multirotors << ": dE/dt " << dE << " (T = " << here.kinetic << "), dP/dt " << dP.norm()
                << ", dpi3/dt " << dH);
    CHECK(std::abs(dE) < 1e-7 * (1.0 + here.kinetic));
    CHECK(dP.norm() < 1e-7 * (1.0 + here.linear_momentum.norm()));
    CHECK(std::abs(dH) < 1e-7 * (1.0 + std::abs(here.momentum)));
  }
}

TEST_CASE("offset: the continuous Legendre transform and its O(mn) inverse round-trip", "[model-c][offset][vi]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    LieGroupForm form(p, InitialCondition{});
    const State s = perturbed_state(form.mechanics(), 11);
    const State back = form.to_physical(form.from_physical(s));
    CHECK((back.Vp - s.Vp).norm() < 1e-13);
    for (int a = 0; a < p.multirotors; ++a) {
      CHECK((back.Omega[a] - s.Omega[a]).norm() < 1e-12);
      for (int i = 0; i < p.links; ++i) CHECK((back.omega[a][i] - s.omega[a][i]).norm() < 1e-11);
    }
  }
}

TEST_CASE("offset: the VI's Newton matrix is the derivative of its residual (finite differences)",
          "[model-c][offset][vi][derivatives]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    LieGroupForm form(p, InitialCondition{});
    const Eigen::VectorXd y = form.from_physical(perturbed_state(form.mechanics(), 17));
    auto step = form.make_step();
    const double h = 1e-3;
    step->begin(y, h);
    Eigen::VectorXd x;
    step->initial_guess(x);
    std::srand(19);
    x += 1e-4 * Eigen::VectorXd::Random(x.size());
    const int N = int(x.size());
    Eigen::MatrixXd fd(N, N), inverse(N, N);
    for (int i = 0; i < N; ++i) {
      const double e = 1e-6;
      Eigen::VectorXd xp = x, xm = x, Gp, Gm;
      xp(i) += e;
      xm(i) -= e;
      step->residual(xp, Gp);
      step->residual(xm, Gm);
      fd.col(i) = (Gp - Gm) / (2.0 * e);
      Eigen::VectorXd col;
      REQUIRE(step->newton_correction(x, -Eigen::VectorXd::Unit(N, i), col));
      inverse.col(i) = col;
    }
    const Eigen::MatrixXd analytic = inverse.inverse();
    const double err = (fd - analytic).cwiseAbs().maxCoeff() / analytic.cwiseAbs().maxCoeff();
    INFO("m = " << p.multirotors << ": max |FD - analytic| / max |analytic| = " << err);
    CHECK(err <= 1e-8);
  }
}

TEST_CASE("offset: the DAE's Jacobian is dF/dy + cj dF/dy' by central differences, within its bandwidths",
          "[model-c][offset][dae][derivatives]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    const DaeForm dae(p, spinning());
    const int N = dae.state_size();
    Eigen::VectorXd y = dae.from_physical(perturbed_state(dae.mechanics(), 23));
    dae.solve_index_one(y, {});
    std::srand(29);
    y += 0.02 * Eigen::VectorXd::Random(N);  // off every constraint, R not orthogonal
    const Eigen::VectorXd yp = Eigen::VectorXd::Random(N);
    const BaumgarteParameters b{3.7, 2.5};
    const double delta = 1e-6;
    Eigen::MatrixXd dFdy(N, N), dFdyp(N, N);
    Eigen::VectorXd Fp, Fm;
    for (int j = 0; j < N; ++j) {
      Eigen::VectorXd y1 = y, y2 = y, yp1 = yp, yp2 = yp;
      y1[j] += delta, y2[j] -= delta;
      dae.residual(0.0, y1, yp, b, Fp);
      dae.residual(0.0, y2, yp, b, Fm);
      dFdy.col(j) = (Fp - Fm) / (2 * delta);
      yp1[j] += delta, yp2[j] -= delta;
      dae.residual(0.0, y, yp1, b, Fp);
      dae.residual(0.0, y, yp2, b, Fm);
      dFdyp.col(j) = (Fp - Fm) / (2 * delta);
    }
    const double scale = 1.0 + dFdy.cwiseAbs().maxCoeff();
    for (double cj : {0.0, 37.5, 2.0e4}) {
      std::vector<Eigen::Triplet<double>> entries;
      dae.jacobian(0.0, y, yp, cj, b, entries);
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(N, N);
      int lower = 0, upper = 0;
      for (const auto& e : entries) {
        J(e.row(), e.col()) += e.value();
        if (e.value() != 0.0) lower = std::max(lower, e.row() - e.col()), upper = std::max(upper, e.col() - e.row());
      }
      const double err = (J - (dFdy + cj * dFdyp)).cwiseAbs().maxCoeff() / (scale * (1.0 + cj));
      INFO("m = " << p.multirotors << ", cj = " << cj << ": max |analytic - FD| / (scale (1 + cj)) = " << err);
      CHECK(err <= 1e-7);
      CHECK(lower <= dae.lower_bandwidth());
      CHECK(upper <= dae.upper_bandwidth());
      if (cj > 0.0) CHECK((lower == dae.lower_bandwidth() && upper == dae.upper_bandwidth()));
    }
  }
}

TEST_CASE("offset: the DAE's consistent start is the ODE's accelerations, and its multiplier rates their derivative",
          "[model-c][offset][dae]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    const DaeForm dae(p, spinning());
    const OdeForm ode(p, spinning());
    const Mechanics& mech = dae.mechanics();
    const State s = perturbed_state(mech, 31);
    const BaumgarteParameters b{0.0, 0.0};
    Eigen::VectorXd y = dae.from_physical(s);
    const Eigen::VectorXd yp = dae.solve_index_one(y, b);
    Eigen::VectorXd x, f;
    mech.pack(s, x);
    ode.rhs(0.0, x, f);
    // Omega' and the payload's acceleration against the ODE's.
    for (int a = 0; a < p.multirotors; ++a) {
      const int k = 6 + a * (12 + 6 * p.links) + 9;
      CHECK((yp.segment<3>(dae.angular_velocity_index(a)) - f.segment<3>(k)).norm() < 1e-10 * (1.0 + f.segment<3>(k).norm()));
    }
    CHECK((yp.segment<3>(3) - f.segment<3>(3)).norm() < 1e-10 * (1.0 + f.segment<3>(3).norm()));
    // lambda' by central differences of the index-1 solve along y' (Baumgarte off: the rates of
    // the exact motion's multipliers).
    const double e = 1e-6;
    Eigen::VectorXd y_plus = y + e * yp, y_minus = y - e * yp;
    dae.solve_index_one(y_plus, b);
    dae.solve_index_one(y_minus, b);
    double worst = 0.0, size = 0.0;
    for (int a = 0; a < p.multirotors; ++a)
      for (int j = 1; j <= p.links; ++j) {
        const int i = dae.multiplier_index(a, j);
        worst = std::max(worst, std::abs((y_plus(i) - y_minus(i)) / (2 * e) - yp(i)));
        size = std::max(size, std::abs(yp(i)));
      }
    INFO("m = " << p.multirotors << ": max |lambda' FD - analytic| = " << worst << " of " << size);
    CHECK(worst <= 1e-6 * size);
  }
}

TEST_CASE("offset: the constrained form's M, forces and saddle-point solve are the Lagrangian's",
          "[model-c][offset][constrained][derivatives]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    const ConstrainedForm form(p, spinning());
    const Mechanics& mech = form.mechanics();
    const int nq = form.positions(), nc = form.constraints();
    // A state on the constraints: joints and R' = R hat(Omega) of a generic physical state.
    const State s = perturbed_state(mech, 41);
    const Joints joints = joints_of(mech, s);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nq);
    for (int a = 0; a < p.multirotors; ++a) {
      for (int j = 0; j <= p.links; ++j) {
        y.segment<3>(form.joint_index(a, j)) = joints.J[a][j];
        y.segment<3>(nq + form.joint_index(a, j)) = joints.V[a][j];
      }
      NaturalRigidBody::write(s.R[a], y, form.rotation_index(a));
      NaturalRigidBody::write(s.R[a] * so3::hat(s.Omega[a]), y, nq + form.rotation_index(a));
    }
    const Eigen::VectorXd q = y.head(nq), v = y.tail(nq);
    // 1/2 v^T M v is Mechanics' kinetic energy; mass_times and mass_entries agree.
    Eigen::VectorXd Mv;
    form.mass_times(v, Mv);
    CHECK(0.5 * v.dot(Mv) == Approx(mech.kinetic_energy(s)).epsilon(1e-12));
    std::vector<Eigen::Triplet<double>> entries;
    form.mass_entries(entries);
    Eigen::SparseMatrix<double> M(nq, nq);
    M.setFromTriplets(entries.begin(), entries.end());
    CHECK((M * v - Mv).norm() < 1e-13 * Mv.norm());
    // The force is -dU/dq of Mechanics' potential (linear in q: central differences are exact
    // up to round-off), at q off SO(3) too.
    Eigen::VectorXd f;
    form.force(0.0, q, v, f);
    auto potential = [&](const Eigen::VectorXd& qq) {
      Eigen::VectorXd yy = y;
      yy.head(nq) = qq;
      return mech.potential_energy(form.to_physical(yy));
    };
    double worst = 0.0;
    for (int i = 0; i < nq; ++i) {
      Eigen::VectorXd qp = q, qm = q;
      qp(i) += 1e-4, qm(i) -= 1e-4;
      worst = std::max(worst, std::abs(-(potential(qp) - potential(qm)) / 2e-4 - f(i)));
    }
    INFO("max |f + dU/dq| = " << worst);
    CHECK(worst < 1e-9 * (1.0 + f.cwiseAbs().maxCoeff()));
    // The O(mn) saddle-point solve against a dense one of [M, G(q_b)^T; G(q_a), 0].
    std::srand(43);
    const Eigen::VectorXd q_b = q + 1e-3 * Eigen::VectorXd::Random(nq);
    std::vector<Eigen::Triplet<double>> Ga, Gb;
    form.constraint_jacobian(q, Ga);
    form.constraint_jacobian(q_b, Gb);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(nq + nc, nq + nc);
    K.topLeftCorner(nq, nq) = Eigen::MatrixXd(M);
    for (const auto& t : Ga) K(nq + t.row(), t.col()) += t.value();
    for (const auto& t : Gb) K(t.col(), nq + t.row()) += t.value();
    const Eigen::VectorXd r = Eigen::VectorXd::Random(nq), sv = Eigen::VectorXd::Random(nc);
    Eigen::VectorXd rhs(nq + nc);
    rhs << r, sv;
    const Eigen::VectorXd dense = K.fullPivLu().solve(rhs);
    auto solver = form.make_solver();
    REQUIRE(solver->factor(q, q_b));
    Eigen::VectorXd x, lambda;
    solver->solve(r, sv, x, lambda);
    INFO("|x - dense| = " << (x - dense.head(nq)).norm() << ", |lambda - dense| = " << (lambda - dense.tail(nc)).norm());
    CHECK((x - dense.head(nq)).norm() < 1e-9 * dense.head(nq).norm());
    CHECK((lambda - dense.tail(nc)).norm() < 1e-9 * dense.tail(nc).norm());
  }
}

namespace {
// The paper's single case with the C_single_multirotor_spinning hook: 2 cm below the centre of mass.
std::shared_ptr<const Model> hooked_case(const Vec3& rho = Vec3(0.0, 0.0, 0.02)) {
  return make_model(with_offset(paper_single(), rho), spinning());
}
}  // namespace

TEST_CASE("offset: the ODE, DAE, constrained and Lie group forms agree on the final state at small h",
          "[model-c][offset][forms]") {
  // Four formulations, derived separately, of one Lagrangian: each method's final physical state
  // after 0.2 s against a tight RK45 reference of the embedded ODE.
  const auto model = make_model(with_offset(small_cooperative()), spinning());
  const double T = 0.2;
  const Eigen::VectorXd ref = testing::reference_solution(*model, T);
  for (const auto& [name, h, bound] : {std::tuple<std::string, double, double>{"rk4", 2.5e-4, 3e-7},
                                        std::tuple<std::string, double, double>{"lgvi", 2.5e-4, 5e-4},
                                        std::tuple<std::string, double, double>{"rattle", 2.5e-4, 5e-4},
                                        std::tuple<std::string, double, double>{"rkmk4", 2.5e-4, 3e-7},
                                        std::tuple<std::string, double, double>{"ida", 1e-3, 1e-7}}) {
    const auto run = testing::run_to(*model, name, T, h, 1e-10, 1e-12);
    const double err = (run.physical - ref).norm() / ref.norm();
    INFO(name << " at h = " << h << ": relative final-state error " << err);
    CHECK(err < bound);
  }
  // The LGVI (joint coordinates, Cayley parameters, momenta) and RATTLE (natural coordinates,
  // R as 9 numbers) solve the same discrete equations: their final states agree to round-off
  // amplified by the steps, not to their O(h^2) error.
  const auto lgvi = testing::run_to(*model, "lgvi", T, 2.5e-4), rattle = testing::run_to(*model, "rattle", T, 2.5e-4);
  const double apart = (lgvi.physical - rattle.physical).norm() / ref.norm();
  INFO("lgvi against rattle at h = 2.5e-4: " << apart);
  CHECK(apart < 1e-9);
}

TEST_CASE("offset: the VI and RATTLE converge at order 2 and RK4 at order 4 on the coupled case", "[model-c][offset][convergence]") {
  const auto model = make_model(with_offset(small_cooperative()), spinning());
  const double T = 0.2;
  const Eigen::VectorXd ref = testing::reference_solution(*model, T);
  for (const auto& [name, order, steps] :
       {std::tuple<std::string, double, std::vector<double>>{"lgvi", 2.0, {4e-3, 2e-3, 1e-3, 5e-4}},
        std::tuple<std::string, double, std::vector<double>>{"rattle", 2.0, {4e-3, 2e-3, 1e-3, 5e-4}},
        std::tuple<std::string, double, std::vector<double>>{"rk4", 4.0, {4e-3, 2e-3, 1e-3}}}) {
    std::vector<double> errs;
    for (double h : steps) errs.push_back((testing::run_to(*model, name, T, h).physical - ref).norm());
    const double measured = testing::fitted_order(steps, errs);
    INFO(name << " measured order " << measured);
    CHECK(std::abs(measured - order) < 0.25);
  }
}

TEST_CASE("offset: the rotation couples: the body's angular momentum is exchanged, pi3, P, E and R^T R kept",
          "[model-c][offset][conservation]") {
  // 10 s of the case's physics (the hook 2 cm below the centre of mass) with the LGVI and RATTLE.
  const auto model = hooked_case();
  for (const std::string name : {"lgvi", "rattle"}) {
    const auto& info = testing::integrator(name);
    auto form = testing::formulation_for(*model, info);
    IntegratorSettings settings = testing::settings_of(name, 1e-3);
    auto stepper = info.make(*form, settings, 0.0);
    const auto names = form->extra_column_names();
    const int spin_e3 = int(std::find(names.begin(), names.end(), "multirotor_spin_ang_mom_e3") - names.begin());
    const int spin_b3 = int(std::find(names.begin(), names.end(), "multirotor_spin_ang_mom_b3") - names.begin());
    REQUIRE(spin_e3 < int(names.size()));
    REQUIRE(spin_b3 < int(names.size()));
    const Observation o0 = form->observe(0.0, stepper->state());
    double exchange = 0.0, dH = 0.0, dP = 0.0, dE = 0.0, orth = 0.0, db3 = 0.0;
    StepFailure failure;
    while (stepper->time() < 10.0 - 1e-9) {
      REQUIRE(stepper->step(10.0, failure));
      const Observation o = form->observe(stepper->time(), stepper->state());
      exchange = std::max(exchange, std::abs(o.extra[spin_e3] - o0.extra[spin_e3]));
      db3 = std::max(db3, std::abs(o.extra[spin_b3] - o0.extra[spin_b3]));
      dH = std::max(dH, std::abs(o.momentum - o0.momentum));
      dP = std::max(dP, (o.linear_momentum - o0.linear_momentum).norm());
      dE = std::max(dE, std::abs(o.energy - o0.energy));
      orth = std::max(orth, o.orthogonality_err);
    }
    INFO(name << ": body's e3 angular momentum exchanged " << exchange << " of pi3 " << o0.momentum << "; |d pi3| "
              << dH << ", |dP| " << dP << ", |dE| " << dE << ", (J_Q Omega)_3 " << db3 << ", ||I - R^T R|| " << orth);
    CHECK(exchange > 0.2 * std::abs(o0.extra[spin_e3]));  // the spin's share of pi3 moves by a fifth or more
    CHECK(dH < 1e-11);                                    // while the total is kept to round-off
    CHECK(dP < 1e-11);
    CHECK(dE < 1e-4);                                     // bounded, O(h^2)
    CHECK(db3 < 1e-12);                                   // the Lagrange top's (J_Q Omega)_3
    CHECK(orth < 1e-12);
  }
  // The energy error is no longer C_single_multirotor's: the same cable without the offset.
  const auto rk4_hooked = testing::run_to(*hooked_case(), "rk4", 2.0, 1e-3);
  const auto rk4_centred = testing::run_to(*hooked_case(Vec3::Zero()), "rk4", 2.0, 1e-3);
  auto ode = testing::formulation_for(*hooked_case(), testing::integrator("rk4"));
  auto ode0 = testing::formulation_for(*hooked_case(Vec3::Zero()), testing::integrator("rk4"));
  const double dE_hooked = std::abs(ode->observe(2.0, rk4_hooked.physical).energy - ode->observe(0.0, ode->initial_state()).energy);
  const double dE_centred =
      std::abs(ode0->observe(2.0, rk4_centred.physical).energy - ode0->observe(0.0, ode0->initial_state()).energy);
  INFO("rk4 energy error over 2 s: hooked " << dE_hooked << ", centred " << dE_centred);
  CHECK(std::abs(dE_hooked - dE_centred) > 1e-3 * dE_centred);
}

TEST_CASE("offset: the declared slowest period includes the body's swing about its hook", "[model-c][offset]") {
  // The hook's compound pendulum: I = J_A about an axis perpendicular to rho, m_Q, d = |rho|,
  // in |F_Q| / m_Q, F_Q the net vertical force at the centre of mass ((m_p + n m_i) g upward).
  const Parameters base = paper_single();
  const double F = (base.payload_mass + base.links * base.link_mass) * base.g;
  auto hook_period = [&](double d) {
    return 2.0 * M_PI * std::sqrt((base.J_Q(0, 0) + base.multirotor_mass * d * d) / (F * d));
  };
  // 2 cm (the bundled case): 2.3 s, faster than the spin's 5.9 s, which stays the slowest.
  CHECK(hook_period(0.02) == Approx(2.28).epsilon(0.01));
  CHECK(make_model(with_offset(base, Vec3(0, 0, 0.02)), spinning())->slowest_period_s() ==
        Approx(make_model(base, spinning())->slowest_period_s()).epsilon(1e-15));
  // 1 mm: a weak lever, 10 s, slower than the spin: the linearisation about the hanging
  // equilibrium (core/linear_modes.hpp) finds it as a mode. The formula holds the hook fixed; in
  // the linear mode it moves with the cable top, by d theta = 1 mm x theta: within 1 %.
  CHECK(make_model(with_offset(base, Vec3(0, 0, 0.001)), spinning())->slowest_period_s() ==
        Approx(hook_period(0.001)).epsilon(0.01));
}
