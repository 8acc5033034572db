#include "models/reel_pendulum/locked_reel.hpp"

namespace tb::reel_pendulum {

string_pendulum::Parameters locked_reel_as_model_a(const Parameters& p, double s0) {
  string_pendulum::Parameters a;
  a.N = p.N;
  a.mu = p.mu;
  a.length = p.L - s0;
  a.EA = p.EA;
  a.M = p.M;
  a.rho_c = p.rho_c;
  a.J = p.J;
  a.g = p.g;
  a.tension_only = p.tension_only;  // the same element law (issue 47), so Model A's forms follow it
  return a;
}

string_pendulum::InitialCondition locked_reel_as_model_a(const InitialCondition& ic) {
  string_pendulum::InitialCondition a;
  a.string_direction = ic.string_direction;
  a.body_velocity = ic.body_velocity;
  a.R0 = ic.R0;
  a.Omega0 = ic.Omega0;
  return a;
}

Eigen::VectorXd locked_reel_physical_state(double s0, const Eigen::VectorXd& model_a_physical) {
  Eigen::VectorXd out(model_a_physical.size() + 4);
  out << s0, 0.0, model_a_physical, 0.0, 0.0;
  return out;
}

}  // namespace tb::reel_pendulum
