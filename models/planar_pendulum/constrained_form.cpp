// The planar pendulum as a constrained mechanical system in Cartesian coordinates (forms.hpp).
// The saddle-point system with M = m I2 and one constraint is solved in closed form:
//   x = (r - lambda G_b^T) / m,   lambda = (G_a r / m - s) / (G_a G_b^T / m).

#include <algorithm>
#include <cmath>

#include "models/planar_pendulum/forms.hpp"
#include "models/planar_pendulum/unilateral.hpp"

namespace tb::planar_pendulum {

namespace {
using Vec2 = Eigen::Vector2d;

class Solver final : public ConstrainedMechanicalSolver {
 public:
  explicit Solver(const NaturalCoordinates& nc) : nc_(nc) {}
  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    active_ = true;
    Ga_ = nc_.constraint_gradient(q_a.head<2>());
    Gb_ = nc_.constraint_gradient(q_b.head<2>());
    schur_ = Ga_.dot(Gb_) / nc_.mass();
    return std::isfinite(schur_) && schur_ != 0.0;
  }
  // The one link inactive: M x = r alone.
  bool factor_active(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, const std::vector<bool>& active) override {
    if (active.at(0)) return factor(q_a, q_b);
    active_ = false;
    return true;
  }
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    if (!active_) {
      lambda = Eigen::VectorXd::Zero(1);
      x = r.head<2>() / nc_.mass();
      return;
    }
    const double l = (Ga_.dot(r.head<2>()) / nc_.mass() - s(0)) / schur_;
    lambda = Eigen::VectorXd::Constant(1, l);
    x = (r.head<2>() - l * Gb_) / nc_.mass();
  }

 private:
  const NaturalCoordinates& nc_;
  Vec2 Ga_, Gb_;
  double schur_ = 0.0;
  bool active_ = true;
};

}  // namespace

Eigen::VectorXd ConstrainedForm::initial_state() const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(4 + work_terms());
  y.head<4>() = initial_physical(p_, ic_);
  return y;
}

Observation ConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  const Eigen::Vector4d s = y.head<4>();
  if (p_.unilateral) {
    // The link's tension where it is at its length and pulls; 0 in flight (unilateral.hpp).
    const bool at_limit = s.head<2>().norm() >= p_.l * (1.0 - kAtLimit);
    return observe_unilateral(p_, s, at_limit ? std::max(0.0, taut_tension(p_, s)) : 0.0, y[4]);
  }
  const Vec2 r = s.head<2>(), v = s.tail<2>(), G = nc_.constraint_gradient(r);
  const double m = nc_.mass();
  const double lambda = (G.dot(nc_.force()) / m + nc_.constraint_curvature(v)) / (G.squaredNorm() / m);
  return planar_pendulum::observe(p_, s, lambda * r.norm());
}

void ConstrainedForm::mass_entries(std::vector<Eigen::Triplet<double>>& entries) const {
  for (int i = 0; i < 2; ++i) entries.emplace_back(i, i, nc_.mass());
}

void ConstrainedForm::constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g = Eigen::VectorXd::Constant(1, nc_.constraint(q.head<2>()));
}

void ConstrainedForm::constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const {
  const Vec2 G = nc_.constraint_gradient(q.head<2>());
  for (int i = 0; i < 2; ++i) entries.emplace_back(0, i, G(i));
}

void ConstrainedForm::constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::VectorXd& Gv) const {
  Gv = Eigen::VectorXd::Constant(1, nc_.constraint_gradient(q.head<2>()).dot(v.head<2>()));
}

void ConstrainedForm::constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                          Eigen::VectorXd& GTlambda) const {
  GTlambda = lambda(0) * nc_.constraint_gradient(q.head<2>());
}

std::unique_ptr<ConstrainedMechanicalSolver> ConstrainedForm::make_solver() const { return std::make_unique<Solver>(nc_); }

}  // namespace tb::planar_pendulum
