#pragma once
// The torque-free rigid body (seed 004 §2, "Modelling the Rotation Dynamics", with no forces):
// attitude R in SO(3) (body to inertial), body angular velocity Omega, inertia J (body frame):
//   R' = R hat(Omega),   J Omega' = (J Omega) × Omega   (Euler's equations, seed 004:
//   J omega' + omega × J omega = 0).
// The exact flow conserves the kinetic energy 1/2 Omega.J Omega and the spatial angular
// momentum pi = R J Omega (all three components), and keeps R orthogonal. Observables live
// here once so every formulation is measured by the same code.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"

namespace tb::free_rigid_body {

struct Parameters {
  Mat3 J = Mat3::Identity();  // inertia about the centre of mass, body frame (kg m^2), symmetric positive definite
};

struct InitialCondition {
  Mat3 R0 = Mat3::Identity();
  Vec3 Omega0 = Vec3::Zero();  // rad/s, body frame
};

// R as 9 numbers, row-major, at offset 0 of a state vector (the layout of every formulation).
Mat3 read_attitude(const Eigen::VectorXd& y);
void write_attitude(const Mat3& R, Eigen::VectorXd& y);

// Physical state layout shared by every formulation: [R (9, row-major), Omega (3)].
class Mechanics {
 public:
  explicit Mechanics(const Parameters& p) : p_(p), J_inv_(p.J.inverse()) {}  // 3x3: closed-form inverse
  const Parameters& params() const { return p_; }
  const Mat3& inverse_inertia() const { return J_inv_; }

  // Omega' = J^{-1} ((J Omega) × Omega).
  Vec3 angular_acceleration(const Vec3& Omega) const { return J_inv_ * (p_.J * Omega).cross(Omega); }

  // energy = kinetic = 1/2 Omega.J Omega; momentum = e3 . pi with pi = R J Omega (the spatial
  // angular momentum), whose three components are the extra columns pi_x, pi_y, pi_z (with
  // Omega); orthogonality_err = ||I - R^T R||_F; the invariant "casimir" = |Pi| = |J Omega|.
  // No constraints: constraint errors are 0.
  Observation observe(const Mat3& R, const Vec3& Omega) const;
  static std::vector<std::string> extra_column_names();

  Eigen::VectorXd pack(const Mat3& R, const Vec3& Omega) const;

 private:
  Parameters p_;
  Mat3 J_inv_;
};

}  // namespace tb::free_rigid_body
