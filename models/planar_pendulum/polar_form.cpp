// The planar pendulum in its one minimal coordinate (seed 004 "Example: Pendulum"):
// m l^2 theta'' = -m g l sin(theta). The rod length holds by construction.

#include <cmath>

#include "models/planar_pendulum/forms.hpp"

namespace tb::planar_pendulum {

Eigen::VectorXd PolarForm::initial_state() const { return Eigen::Vector2d(ic_.theta, ic_.omega); }

void PolarForm::rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt.resize(2);
  dydt[0] = y[1];
  dydt[1] = -p_.g / p_.l * std::sin(y[0]);
}

Eigen::VectorXd PolarForm::physical_state(const Eigen::VectorXd& y) const {
  return physical_from_polar(p_, y[0], y[1]);
}

Observation PolarForm::observe(double /*t*/, const Eigen::VectorXd& y) const {
  // Tension from the radial equation (seed 004 "Constrained Pendulum": lambda = m l theta'^2 + m g cos theta).
  const double tension = p_.m * (p_.l * y[1] * y[1] + p_.g * std::cos(y[0]));
  return planar_pendulum::observe(p_, physical_from_polar(p_, y[0], y[1]), tension);
}

}  // namespace tb::planar_pendulum
