// The elastic pendulum as a first-order ODE: x' = v, v' = -grad V(x) / m.

#include "models/elastic_pendulum/forms.hpp"

namespace tb::elastic_pendulum {

Eigen::VectorXd OdeForm::initial_state() const {
  Eigen::VectorXd y(6);
  y << ic_.position, ic_.velocity;
  return y;
}

void OdeForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt.resize(6);
  dydt.head<3>() = y.segment<3>(3);
  dydt.tail<3>() = mech_.acceleration(y.head<3>());
}

Observation OdeForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  return mech_.observe(y.head<3>(), y.segment<3>(3));
}

}  // namespace tb::elastic_pendulum

// The constrained mechanical form (no constraint): M x = r is x = r / m.
namespace tb::elastic_pendulum {

namespace {
class PointMassSolver final : public ConstrainedMechanicalSolver {
 public:
  explicit PointMassSolver(double m) : m_(m) {}
  bool factor(const Eigen::VectorXd&, const Eigen::VectorXd&) override { return true; }
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd&, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    x = r / m_;
    lambda.resize(0);
  }

 private:
  double m_;
};
}  // namespace

Eigen::VectorXd ConstrainedForm::initial_state() const {
  Eigen::VectorXd y(6);
  y << ic_.position, ic_.velocity;
  return y;
}

void ConstrainedForm::mass_entries(std::vector<Eigen::Triplet<double>>& entries) const {
  for (int i = 0; i < 3; ++i) entries.emplace_back(i, i, mech_.params().m);
}

std::unique_ptr<ConstrainedMechanicalSolver> ConstrainedForm::make_solver() const {
  return std::make_unique<PointMassSolver>(mech_.params().m);
}

}  // namespace tb::elastic_pendulum
