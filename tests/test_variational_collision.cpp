// The variational collision integrator (integrators/variational_collision; issue 48) on problems
// with exact answers:
//  - on a taut string it is the LGVI on S^1: the same discrete map as lgvi on the bilateral
//    pendulum (the trapezoidal discrete Lagrangian restricted to |r| = l), to round-off; on Model C
//    with every link taut it is RATTLE on the bilateral cable (whose discrete equations are the
//    LGVI's, tests/test_lgvi_roundoff.cpp) to its position stage's tolerance (that stage being the
//    one-sided projection);
//  - without gravity a mass flies straight until the string is taut, so the collision time, point
//    and the radial speed taken there are known exactly, and after it the mass turns uniformly on
//    the circle: the collision solved inside the step puts the jump at the exact collision point
//    whatever the hit's place in the step (the loss booked is 1/2 m v_r^2 to round-off, where a
//    jump at a step's end would take the radial speed of another point), the angular momentum about
//    the pivot is kept to round-off across it (the impulse is radial: FMOW's Noether theorem for
//    collisions), and the angle after it is RATTLE's, second order.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "models/multirotor_payload/model.hpp"
#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/model.hpp"
#include "tests/multirotor_test_support.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;
namespace pp = tb::planar_pendulum;

TEST_CASE("variational collision on a taut string is the LGVI on S^1 to round-off", "[unilateral][variational-collision]") {
  pp::Parameters p;
  p.m = 0.8;
  p.l = 1.3;
  const pp::InitialCondition swing{M_PI / 3.0, 0.5};  // tension m (l w^2 + g cos theta) > 0 throughout
  const double h = 1e-3, T = 2.0;
  const auto bilateral = pp::make_model(p, swing);
  const IntegratorInfo& lgvi = integrator("lgvi");
  auto group_form = formulation_for(*bilateral, lgvi);
  const IntegrationOutcome a = integrate(*group_form, lgvi, settings_of(lgvi, h), T, T, [](double, const Eigen::VectorXd&) {});
  REQUIRE(a.ok());

  p.unilateral = true;
  const pp::ConstrainedForm form(p, swing);
  const IntegratorInfo& vci = integrator("variational_collision");
  REQUIRE(vci.why_not(form).empty());
  double lost = 0.0;
  const IntegrationOutcome b = integrate(form, vci, settings_of(vci, h), T, h, [&](double t, const Eigen::VectorXd& y) {
    lost = std::max(lost, std::abs(form.observe(t, y).external_work));
  });
  REQUIRE(b.ok());
  const Eigen::VectorXd sa = group_form->physical_state(a.final_state), sb = form.physical_state(b.final_state);
  const double diff = (sa - sb.head<4>()).lpNorm<Eigen::Infinity>() / sa.lpNorm<Eigen::Infinity>();
  std::printf("variational collision vs LGVI on the taut string after %.0f steps: %.1e (relative)\n", T / h, diff);
  CHECK(diff < 1e-12);
  CHECK(lost == 0.0);  // no collision booked: the string never went slack
}

TEST_CASE("variational collision: without gravity the collision is at its exact point whatever its place in the step, the "
          "angular momentum kept across it, the turn after it second order",
          "[unilateral][variational-collision]") {
  pp::Parameters p;
  p.m = 0.7;
  p.l = 1.0;
  p.g = 0.0;
  p.unilateral = true;
  p.restitution = 0.0;
  const Eigen::Vector2d r0(0.2, -0.1), v0(0.9, 1.3);  // [x, z]
  pp::InitialCondition start;
  start.cartesian = Eigen::Vector4d(r0.x(), r0.y(), v0.x(), v0.y());
  // |r0 + v0 t| = l: the hit time, point and radial speed.
  const double qa = v0.squaredNorm(), qb = 2.0 * r0.dot(v0), qc = r0.squaredNorm() - p.l * p.l;
  const double t_hit = (-qb + std::sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa);
  const Eigen::Vector2d r_hit = r0 + t_hit * v0, n = r_hit / p.l;
  const double v_r = v0.dot(n), v_t = n.x() * v0.y() - n.y() * v0.x();  // radial and tangential speeds at the hit
  const double lost_exact = 0.5 * p.m * v_r * v_r;
  const double L0 = p.m * (r0.x() * v0.y() - r0.y() * v0.x());
  // After the hit: uniform turning on the circle at |v_t| / l, from the hit point, in L0's sense.
  const double T = 1.5, omega = L0 / (p.m * p.l * p.l), turned = omega * (T - t_hit);
  const Eigen::Vector2d r_end(r_hit.x() * std::cos(turned) - r_hit.y() * std::sin(turned),
                              r_hit.x() * std::sin(turned) + r_hit.y() * std::cos(turned));
  REQUIRE(std::abs(v_t - L0 / (p.m * p.l)) < 1e-14);  // the straight flight keeps r x v

  const pp::ConstrainedForm form(p, start);
  const IntegratorInfo& vci = integrator("variational_collision");
  REQUIRE(vci.why_not(form).empty());
  // Steps that put the hit at the phases 0.1, 0.37, 0.64, 0.91 of its step, at two step sizes.
  double error_over_h2[2] = {0.0, 0.0};
  const double base[2] = {1e-2, 5e-3};
  for (int k = 0; k < 2; ++k)
    for (double phase : {0.1, 0.37, 0.64, 0.91}) {
      const double h = t_hit / (std::floor(t_hit / base[k]) + phase);
      double L_drift = 0.0, balance = 0.0, lost = 0.0, E0 = 0.0;
      bool first = true;
      const IntegrationOutcome out = integrate(form, vci, settings_of(vci, h), T, h, [&](double t, const Eigen::VectorXd& y) {
        const Observation o = form.observe(t, y);
        const Eigen::Vector4d s = form.physical_state(y).head<4>();
        if (first) E0 = o.energy, first = false;
        L_drift = std::max(L_drift, std::abs(p.m * (s(0) * s(3) - s(1) * s(2)) - L0));
        balance = std::max(balance, std::abs(o.energy - E0 - o.external_work));
        lost = std::abs(o.external_work);
      });
      REQUIRE(out.ok());
      const Eigen::Vector4d s = form.physical_state(out.final_state).head<4>();
      INFO("h = " << h << ", the hit at " << phase << " of its step");
      CHECK(L_drift <= 1e-14 * std::abs(L0) * T / h);          // round-off a step, no O(h) term
      CHECK(std::abs(lost - lost_exact) <= 1e-9 * lost_exact);  // the jump at the exact point
      CHECK(balance <= 1e-12 * lost_exact * T / h);
      CHECK(std::abs(s.head<2>().norm() - p.l) <= 1e-10 * p.l);
      error_over_h2[k] = std::max(error_over_h2[k], (s.head<2>() - r_end).norm() / (h * h));
    }
  // RATTLE's turn on the circle is second order: the error over h^2 tends to a constant.
  std::printf("variational collision, no gravity: position error / h^2 at t = %.1f s: %.4g, %.4g\n", T, error_over_h2[0],
              error_over_h2[1]);
  CHECK(error_over_h2[1] == Approx(error_over_h2[0]).epsilon(0.05));
  CHECK(error_over_h2[1] > 0.0);
}

TEST_CASE("variational collision on Model C with every link taut is RATTLE on the bilateral cable to its position tolerance",
          "[unilateral][variational-collision][model-c]") {
  // The paper's single case from rest: the straight cable hangs the payload, every link in tension
  // over the 0.1 s run, so no link opens or closes and the one-sided projection holds all ten.
  multirotor_payload::Parameters p = testing::paper_single();
  const auto bilateral = multirotor_payload::make_model(p, multirotor_payload::InitialCondition{});
  p.unilateral = true;
  const auto unilateral = multirotor_payload::make_model(p, multirotor_payload::InitialCondition{});
  const double h = 1e-3, T = 0.1;
  const IntegratorInfo& rattle = integrator("rattle");
  auto rattle_form = formulation_for(*bilateral, rattle);
  IntegratorSettings rs = settings_of(rattle, h);
  rs.set("newton_tol", 1e-18);  // both to their round-off floors (tests/test_lgvi_roundoff.cpp)
  const IntegrationOutcome a = integrate(*rattle_form, rattle, rs, T, T, [](double, const Eigen::VectorXd&) {});
  REQUIRE(a.ok());
  const IntegratorInfo& vci = integrator("variational_collision");
  auto vci_form = formulation_for(*unilateral, vci);
  const IntegratorSettings vs = settings_of(vci, h);
  double lost = 0.0;
  const IntegrationOutcome b = integrate(*vci_form, vci, vs, T, h, [&](double t, const Eigen::VectorXd& y) {
    lost = std::max(lost, std::abs(vci_form->observe(t, y).external_work));
  });
  REQUIRE(b.ok());
  const Eigen::VectorXd sa = rattle_form->physical_state(a.final_state), sb = vci_form->physical_state(b.final_state);
  REQUIRE(sa.size() <= sb.size());
  const double diff = (sa - sb.head(sa.size())).lpNorm<Eigen::Infinity>();
  std::printf("variational collision vs RATTLE on Model C, every link taut, %.0f steps: %.2e (physical state, max-norm); "
              "booked %.3g J\n", T / h, diff, lost);
  // Not round-off: its one-sided projection stops Newton at newton_tol = 1e-14 (or, after a first
  // correction, at its 1e-10 floor), so its positions sit up to that far off the lengths a step and its
  // velocities part from RATTLE's at its floor by ~1e-11 a step (RATTLE itself at that tolerance parts
  // from the LGVI by 2.5e-9 over 1000 steps: tests/test_lgvi_roundoff.cpp). Measured 3.3e-10 over these
  // 100 steps; a link released or a collision taken would part them by the motion's own size.
  CHECK(diff <= 2e-9);
  CHECK(lost == 0.0);
}
