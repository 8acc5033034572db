#pragma once
// The linear elastic element every string and tether of the suite is made of (SPEC "Model A",
// F_a): one definition, so Model A's string, Model B's string and the hanging tether are the
// same material law.

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "core/switching.hpp"

namespace tb {

// Elastic force of a linear element of axial stiffness kappa = EA/u and unstretched length u,
// as a function of its chord x = r_{a+1} - r_a: F = kappa (|x| - u) x / |x|, the gradient of
// the strain energy 1/2 kappa (|x| - u)^2 with respect to r_{a+1}. Two-sided (it also pushes
// when |x| < u), as in the SPEC's finite-element model.
inline Eigen::Vector3d linear_element_force(double kappa, double u, const Eigen::Vector3d& x) {
  const double len = x.norm();
  return kappa * (len - u) / len * x;
}

// The same element as a cable that cannot push (issue 47, [model] cable = "tension_only"): slack
// while shorter than u, with no force and no stiffness; taut, the linear law above. Its strain
// energy 1/2 kappa max(0, |x| - u)^2 is C^1 at |x| = u (the force is continuous, 0 on both sides),
// not C^2 (the stiffness jumps from 0 to kappa xhat xhat^T). Exactly |x| = u counts as taut: the
// one-sided stiffness a Newton iteration landing on the kink needs. element_slack_length is the same
// test for a caller that has |x| already (a force loop that needs the norm anyway takes it once).
inline bool element_slack_length(double u, double length, bool tension_only) { return tension_only && length < u; }
inline bool element_slack(double u, const Eigen::Vector3d& x, bool tension_only) {
  return tension_only && element_slack_length(u, x.norm(), tension_only);
}
inline Eigen::Vector3d element_force(double kappa, double u, const Eigen::Vector3d& x, bool tension_only) {
  return element_slack(u, x, tension_only) ? Eigen::Vector3d::Zero() : linear_element_force(kappa, u, x);
}
inline double element_strain_energy(double kappa, double u, const Eigen::Vector3d& x, bool tension_only) {
  if (element_slack(u, x, tension_only)) return 0.0;
  const double stretch = x.norm() - u;
  return 0.5 * kappa * stretch * stretch;
}

// The switching functions of a chain of such elements (core/switching.hpp): the stretch
// s_a = |x_a| - u of each element's chord x_a = p_{a+1} - p_a and its rate x_a . (v_{a+1} - v_a) / |x_a|,
// from the chain's points p_0 .. p_N and their velocities (columns; an anchor's velocity 0).
inline void chain_stretches(const Eigen::Matrix3Xd& points, const Eigen::Matrix3Xd& velocities, double u,
                            Eigen::VectorXd& s, Eigen::VectorXd& rate) {
  const Eigen::Index elements = points.cols() - 1;
  s.resize(elements);
  rate.resize(elements);
  for (Eigen::Index a = 0; a < elements; ++a) {
    const Eigen::Vector3d x = points.col(a + 1) - points.col(a);
    const double len = x.norm();
    s[a] = len - u;
    rate[a] = x.dot(velocities.col(a + 1) - velocities.col(a)) / len;
  }
}
inline std::string chain_stretch_meaning() {
  return "the stretch |x| - u of each element (m): taut >= 0, slack < 0";
}

// The fastest axial mode of a string of such elements, each of mass mu u (Model::max_frequency):
// with the consistent mass matrix (mu u / 6)(2 1; 1 2) one element's largest stiffness/mass
// eigenvalue is 12 kappa / (mu u), with a diagonal (lumped) mass 4 kappa / (mu u) (neighbouring
// nodes moving in opposition); by Irons' bound no assembled mode is faster. kappa = EA/u:
//   omega_max = 2 sqrt(3) sqrt(EA / (mu u^2))  (consistent),  2 sqrt(EA / (mu u^2))  (lumped).
inline double string_max_frequency(double EA, double mu, double u, bool lumped) {
  return (lumped ? 2.0 : 2.0 * std::sqrt(3.0)) * std::sqrt(EA / (mu * u * u));
}

}  // namespace tb
