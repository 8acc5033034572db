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
