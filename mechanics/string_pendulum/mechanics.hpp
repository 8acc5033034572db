#pragma once
// Model A, the 3D elastic string pendulum (seed 000; SPEC "Model A"): the finite-element
// semi-discrete system that every formulation of this model integrates. Parameters, the
// mass matrix, elastic forces, energy, angular momentum about e3 and the observables live
// here once, so every integrator is measured by the same code.
//
// Two string mass models share this code (StringMass): the consistent linear-element mass
// (SPEC "Model A", the default, used by the ODE and Lie group forms) and the lumped mass of
// the papers' baseline (SPEC "Model B", "Lumped-mass model", after Driscoll et al.; used by
// LumpedForm). Springs, gravity loads, rigid body and the right-hand sides of the equations
// of motion are the same for both; only the string's kinetic energy differs.
//
// Nodes: r_1 = 0 (pivot, fixed), r_2 ... r_{N+1} (r_{N+1} = attachment point on the body).
// Vectors of nodes are indexed from 0: r[a-1] is node a, so r[0] is the pivot.

#include <Eigen/Dense>
#include <vector>

#include "numerics/block_tridiagonal.hpp"
#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"
#include "mechanics/elastic_element.hpp"

namespace tb::string_pendulum {

struct Parameters {
  int N = 20;              // number of string elements
  double mu = 0.0;         // string mass per unstretched length (kg/m)
  double length = 0.0;     // unstretched string length l (m)
  double EA = 0.0;         // axial stiffness (N)
  double M = 0.0;          // rigid body mass (kg)
  Vec3 rho_c = Vec3::Zero();  // attachment point -> centre of mass, body frame (m)
  Mat3 J = Mat3::Zero();   // body inertia about the attachment point, body frame (kg m^2)
  double g = 9.81;         // gravity along +e3 (down)
  // Elements that cannot push ([model] cable = "tension_only", issue 47; mechanics/
  // elastic_element.hpp): a slack element has no force, stiffness or strain energy. The seed's
  // string (false) pushes when shorter than u. Model A has no damper to keep or drop.
  bool tension_only = false;

  double u() const { return length / N; }    // unstretched element length
  double m() const { return mu * u(); }      // element mass
  double kappa() const { return EA / u(); }  // element stiffness
};

// How the string's kinetic energy is discretised.
//  Consistent: T_string = sum_a m/6 (v_a.v_a + v_a.v_{a+1} + v_{a+1}.v_{a+1}), mass matrix
//              m/6 (1 4 1) per interior node, m/3 on the attachment node.
//  Lumped:     each element's mass m = mu u split half-and-half onto its two nodes:
//              T_string = sum_{a=2}^{N} 1/2 m |v_a|^2 + 1/2 (m/2) |v_{N+1}|^2 (the pivot's half
//              never moves), a diagonal string mass matrix.
// Both give the same gravity loads (m g e3 per interior node, m/2 g e3 on the attachment).
enum class StringMass { Consistent, Lumped };

// Physical state: what every formulation maps its own state to.
struct State {
  std::vector<Vec3> r;  // N+1 nodes, r[0] = pivot = 0
  std::vector<Vec3> v;  // node velocities, v[0] = 0
  Mat3 R = Mat3::Identity();
  Vec3 Omega = Vec3::Zero();
};

struct InitialCondition {
  Vec3 string_direction = Vec3::UnitX();  // straight, unstretched string along this unit vector
  Vec3 body_velocity = Vec3::Zero();      // velocity of the attachment point (m/s); the string's
                                          // nodes start at rest
  Mat3 R0 = Mat3::Identity();
  Vec3 Omega0 = Vec3::Zero();
};

class Mechanics {
 public:
  explicit Mechanics(const Parameters& p, StringMass string_mass = StringMass::Consistent);
  const Parameters& params() const { return p_; }
  StringMass string_mass() const { return string_mass_; }
  int nodes() const { return p_.N + 1; }

  State initial_state(const InitialCondition& ic) const;

  // Elastic force of element a: F = kappa (|x| - u) x / |x|, x = r_{a+1} - r_a (the gradient
  // of the element's strain energy with respect to r_{a+1}).
  Vec3 element_force(const Vec3& x) const;
  // Its Jacobian dF/dx = kappa [(1 - u/|x|) I + u/|x|^3 x x^T] (symmetric): the stiffness the
  // index-1 DAE's Newton matrix needs.
  Mat3 element_stiffness(const Vec3& x) const;

  // Generalised forces -dV_string/dr_a on the string nodes a = 2..N+1 (3N entries, node a at
  // 3(a-2)): the gravity of the adjacent element halves (m g e3 inside, m/2 g e3 on the
  // attachment node) and the elastic forces F_a - F_{a-1}. The body's weight is not included:
  // the ODE form adds it at the attachment node, the DAE form applies it at the centre of mass.
  void string_forces(const std::vector<Vec3>& r, Eigen::VectorXd& f) const;

  // The string's own mass matrix over (rdot_2..rdot_{N+1}): N blocks, block-tridiagonal
  // (consistent) or block-diagonal (lumped), without the body. assemble_mass_matrix adds the
  // body to it; the DAE form, whose body is a separate rigid body, uses it alone.
  void assemble_string_mass_matrix(BlockTridiagonal3& A) const;

  // Mass matrix over (rdot_2 ... rdot_{N+1}, Omega): N+1 blocks of 3x3, block-tridiagonal
  // (SPEC equations of motion, left-hand sides; block-diagonal in the string for the lumped
  // mass). Depends on R through the body coupling.
  void assemble_mass_matrix(const Mat3& R, BlockTridiagonal3& A) const;

  // Generalised momenta (p_2..p_{N+1}, Pi) = M(R) (v_2..v_{N+1}, Omega): the continuous
  // Legendre transform.
  Eigen::VectorXd momenta(const State& s) const;
  // Inverse Legendre transform: fills s.v and s.Omega from momenta at s.r, s.R. O(N).
  void set_velocities_from_momenta(const Eigen::VectorXd& momenta, State& s) const;

  // Accelerations (rddot_2..rddot_{N+1}, Omegadot) from the equations of motion; NaN if the
  // mass matrix cannot be factored. Both string mass models have the same right-hand sides
  // (the string mass matrix is constant, so it contributes no velocity terms); they differ
  // by the mass matrix alone.
  void accelerations(const State& s, Eigen::VectorXd& acc) const;

  double kinetic_energy(const State& s) const;
  double potential_energy(const State& s) const;
  // Angular momentum about e3 (SPEC pi3), conserved by the exact flow: the momentum map
  // e3 . (sum_a r_a x p_a + R Pi) of this mass model.
  double angular_momentum_e3(const State& s) const;
  double stretched_length(const State& s) const;

  Observation observe(const State& s) const;
  static std::vector<std::string> extra_column_names();

  // Physical state vector layout, shared by every formulation of this model:
  // [r_2..r_{N+1}, v_2..v_{N+1}, R (row-major), Omega], size 6N + 12.
  Eigen::VectorXd pack(const State& s) const;
  State unpack(const Eigen::VectorXd& y) const;
  void unpack_into(const Eigen::VectorXd& y, State& s) const;  // reuses s's storage

 private:
  Parameters p_;
  StringMass string_mass_;
  // Workspace for the mass matrix, reused across calls so a step allocates nothing. A
  // Mechanics belongs to one formulation object, which belongs to one run (one thread).
  mutable BlockTridiagonal3 mass_;
  mutable BlockTridiagonal3 string_mass_work_;
  mutable Eigen::VectorXd forces_;
};

}  // namespace tb::string_pendulum
