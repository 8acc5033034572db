// The planar pendulum as a constrained mechanical system in Cartesian coordinates (forms.hpp).
// The saddle-point system with M = m I2 and one constraint is solved in closed form:
//   x = (r - lambda G_b^T) / m,   lambda = (G_a r / m - s) / (G_a G_b^T / m).

#include <cmath>

#include "models/planar_pendulum/forms.hpp"

namespace tb::planar_pendulum {

namespace {
using Vec2 = Eigen::Vector2d;

class Solver final : public ConstrainedMechanicalSolver {
 public:
  explicit Solver(const NaturalCoordinates& nc) : nc_(nc) {}
  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    Ga_ = nc_.constraint_gradient(q_a.head<2>());
    Gb_ = nc_.constraint_gradient(q_b.head<2>());
    schur_ = Ga_.dot(Gb_) / nc_.mass();
    return std::isfinite(schur_) && schur_ != 0.0;
  }
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    const double l = (Ga_.dot(r.head<2>()) / nc_.mass() - s(0)) / schur_;
    lambda = Eigen::VectorXd::Constant(1, l);
    x = (r.head<2>() - l * Gb_) / nc_.mass();
  }

 private:
  const NaturalCoordinates& nc_;
  Vec2 Ga_, Gb_;
  double schur_ = 0.0;
};

}  // namespace

Observation ConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  const Vec2 r = y.head<2>(), v = y.tail<2>(), G = nc_.constraint_gradient(r);
  const double m = nc_.mass();
  const double lambda = (G.dot(nc_.force()) / m + nc_.constraint_curvature(v)) / (G.squaredNorm() / m);
  return planar_pendulum::observe(p_, y.head<4>(), lambda * r.norm());
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
