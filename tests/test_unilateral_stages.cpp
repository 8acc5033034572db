// Issue 48: the stages that the time-stepping schemes for unilateral links share, on problems with
// exact answers (the pendulum's one link, of length l, mass m, at the origin's distance |r|):
//  - the one-sided position projection (integrators/one_sided_positions.hpp): from beyond the circle
//    along the radius through q_dir, onto the circle with a pull L > 0; from inside, untouched;
//  - the alpha Newton matrix with an active set (integrators/alpha_iteration_matrix.hpp): a row off
//    the set keeps its multiplier and the rest solves as the system without that row.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/integrator.hpp"
#include "integrators/alpha_iteration_matrix.hpp"
#include "integrators/one_sided_positions.hpp"
#include "models/planar_pendulum/forms.hpp"

using namespace tb;
namespace pp = tb::planar_pendulum;

namespace {

pp::Parameters stages_string() {
  pp::Parameters p;
  p.unilateral = true;
  return p;
}

}  // namespace

TEST_CASE("one-sided position projection: onto the circle from beyond it, untouched from inside", "[unilateral]") {
  const pp::Parameters p = stages_string();
  pp::ConstrainedForm form(p, pp::InitialCondition{});
  auto solver = form.make_solver();
  OneSidedPositionProjection projection(form, *solver, 1e-14, 25, "the start");
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(2);
  for (double angle : {0.2, 1.9, -2.7}) {
    const Eigen::Vector2d r_hat(std::sin(angle), std::cos(angle));
    INFO("angle " << angle);
    {  // 3 % beyond, projected along G(q_dir) = the radius itself: lands at l r_hat.
      const Eigen::VectorXd q = 1.03 * p.l * r_hat;
      std::vector<bool> active{false};
      StepCounters counters;
      StepFailure failure;
      REQUIRE(projection.solve(q, none, q, q, active, counters, failure));
      CHECK(active[0]);
      CHECK(projection.multipliers()[0] > 0.0);
      CHECK((projection.configuration() - p.l * r_hat).norm() <= 1e-13 * p.l);
      CHECK((projection.displacement() - (projection.configuration() - q)).norm() <= 1e-15 * p.l);
      CHECK(counters.newton_iters >= 2);  // one pivot to take the link, Newton on its multiplier
    }
    {  // 3 % inside, started with the link held: it pushes, so it is dropped and nothing moves.
      const Eigen::VectorXd q = 0.97 * p.l * r_hat;
      std::vector<bool> active{true};
      StepCounters counters;
      StepFailure failure;
      REQUIRE(projection.solve(q, none, q, q, active, counters, failure));
      CHECK_FALSE(active[0]);
      CHECK(projection.multipliers()[0] == 0.0);
      CHECK((projection.configuration() - q).norm() == 0.0);
    }
  }
}

TEST_CASE("alpha Newton matrix with an active set: the row off the set keeps its multiplier", "[unilateral]") {
  // The pendulum's link is g = (|r|^2 - l^2)/2 (G = r^T, required below), under gravity alone: M = m I,
  // df/dq = df/dv = 0 and d(G^T lambda)/dq = lambda I, so the dynamic block is (m + lambda/beta') I.
  const pp::Parameters p = stages_string();
  pp::ConstrainedForm form(p, pp::InitialCondition{});
  const Eigen::VectorXd q = Eigen::Vector2d(0.3 * p.l, 0.9 * p.l), v = Eigen::Vector2d(0.4, -0.1),
                        qdd = Eigen::Vector2d(0.2, -9.0);
  Eigen::VectorXd Gq;
  form.constraint_jacobian_times(q, Eigen::Vector2d(1.0, 0.0), Gq);
  REQUIRE(Gq[0] == q[0]);
  const double lambda0 = 5.0, beta_p = 4.0, gamma_p = 2e3;
  const Eigen::VectorXd lambda = Eigen::VectorXd::Constant(1, lambda0);
  const Eigen::Vector3d rhs(1.5, -2.0, 0.7);
  const double k = p.m + lambda0 / beta_p;
  AlphaIterationMatrix held(form), released(form);
  const std::vector<bool> off{false};
  REQUIRE(held.factor(0.0, q, v, qdd, lambda, beta_p, gamma_p));
  REQUIRE(released.factor(0.0, q, v, qdd, lambda, beta_p, gamma_p, &off));
  const Eigen::VectorXd x = held.solve(rhs), y = released.solve(rhs);
  // Off the set: the dynamic block alone, and the multiplier's increment its right-hand side.
  CHECK((y.head(2) - rhs.head(2) / k).norm() <= 1e-14 * rhs.head(2).norm() / k);
  CHECK(y[2] == rhs[2]);
  // Held: k x + r dlambda = rhs, r . x = rhs[2] (the closed-form solution of the 3x3 system).
  const double dl = (q.dot(rhs.head(2)) - k * rhs[2]) / q.squaredNorm();
  CHECK(std::abs(x[2] - dl) <= 1e-13 * std::abs(dl));
  CHECK((x.head(2) - (rhs.head(2) - q * dl) / k).norm() <= 1e-13 * rhs.head(2).norm() / k);
}
