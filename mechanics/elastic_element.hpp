#pragma once
// The linear elastic element every string and tether of the suite is made of (SPEC "Model A",
// F_a): one definition, so Model A's string, Model B's string and the hanging tether are the
// same material law.

#include <Eigen/Core>

namespace tb {

// Elastic force of a linear element of axial stiffness kappa = EA/u and unstretched length u,
// as a function of its chord x = r_{a+1} - r_a: F = kappa (|x| - u) x / |x|, the gradient of
// the strain energy 1/2 kappa (|x| - u)^2 with respect to r_{a+1}. Two-sided (it also pushes
// when |x| < u), as in the SPEC's finite-element model.
inline Eigen::Vector3d linear_element_force(double kappa, double u, const Eigen::Vector3d& x) {
  const double len = x.norm();
  return kappa * (len - u) / len * x;
}

}  // namespace tb
