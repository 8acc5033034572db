#pragma once
// The linear elastic element every string and tether of the suite is made of (SPEC "Model A",
// F_a): one definition, so Model A's string, Model B's string and the hanging tether are the
// same material law.

#include <Eigen/Core>
#include <cmath>

namespace tb {

// Elastic force of a linear element of axial stiffness kappa = EA/u and unstretched length u,
// as a function of its chord x = r_{a+1} - r_a: F = kappa (|x| - u) x / |x|, the gradient of
// the strain energy 1/2 kappa (|x| - u)^2 with respect to r_{a+1}. Two-sided (it also pushes
// when |x| < u), as in the SPEC's finite-element model.
inline Eigen::Vector3d linear_element_force(double kappa, double u, const Eigen::Vector3d& x) {
  const double len = x.norm();
  return kappa * (len - u) / len * x;
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
