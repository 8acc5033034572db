#pragma once
// Model B with the reel locked is Model A (the string pendulum on a fixed pivot) with a string of
// length L - s_p0 (SPEC "Model B"; tested to 1e-12 in tests/test_reel_pendulum.cpp): the
// guide way's entrance r_p = 0 is Model A's pivot, the N deployed elements of length
// (L - s_p0)/N are Model A's, and the body, gravity and initial string direction are the same.
// The reel's locked forms reuse Model A's forms through this map, and report Model B's physical
// state, in which s = s_p0, sdot = 0 and no Carnot or control work is done.

#include <Eigen/Dense>

#include "mechanics/string_pendulum/mechanics.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

// Model A's parameters and initial condition for the locked reel at s_p = s0.
string_pendulum::Parameters locked_reel_as_model_a(const Parameters& p, double s0);
string_pendulum::InitialCondition locked_reel_as_model_a(const InitialCondition& ic);

// Model B's physical state [s0, 0, Model A's physical state, carnot_work = 0, control_work = 0].
Eigen::VectorXd locked_reel_physical_state(double s0, const Eigen::VectorXd& model_a_physical);

}  // namespace tb::reel_pendulum
