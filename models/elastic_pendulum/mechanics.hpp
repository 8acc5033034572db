#pragma once
// The elastic (spring) pendulum of seed 004 ("Example: Elastic Pendulum"), in 3D Cartesian
// coordinates: a point mass m at x on a linear spring (stiffness k, rest length l0) from a
// fixed pivot at the origin, gravity along +e3 (down, SPEC "Conventions"). Parameters, the
// potential, its gradient and the observables live here once, so every formulation of this
// model is measured by the same code.
//
// Known answers (linearisation about the equilibrium x* = L e3, L = l0 + m g / k):
//   vertical (spring) mode   omega^2 = k / m        (exact at any amplitude: the motion along
//                                                    e3 is linear while |x| > 0)
//   pendulum (swing) mode    omega^2 = g / L
// and the exact flow conserves E = T + V and the angular momentum about e3.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"

namespace tb::elastic_pendulum {

struct Parameters {
  double m = 1.0;   // mass (kg)
  double k = 1.0;   // spring stiffness (N/m)
  double l0 = 1.0;  // spring rest length (m)
  double g = 9.81;  // gravity along +e3 (m/s^2)
  // A spring that cannot push (issue 47, [model] cable = "tension_only"): its force is
  // k max(0, |x| - l0), zero while slack (|x| < l0). The seed's spring (false) pushes when shorter
  // than l0. The potential 1/2 k max(0, |x| - l0)^2 is C^1 at |x| = l0, not C^2: its Hessian jumps
  // there from 0 (slack) to k x x^T/|x|^2 (taut), and every form takes V, grad V and Hess V from
  // here, so each form's pieces follow on both sides of the kink. There is no damper to keep or
  // drop on this model.
  bool tension_only = false;

  // Spring length at rest under gravity, L = l0 + m g / k.
  double equilibrium_length() const { return l0 + m * g / k; }
};

struct InitialCondition {
  Vec3 position = Vec3::UnitZ();  // x0, must not be the pivot (m)
  Vec3 velocity = Vec3::Zero();   // v0 (m/s)
};

// Physical state layout shared by every formulation: [x (3), v (3)].
class Mechanics {
 public:
  explicit Mechanics(const Parameters& p) : p_(p) {}
  const Parameters& params() const { return p_; }

  // V(x) = 1/2 k s^2 - m g x.e3, s = |x| - l0 (seed 004: U = -m g l cos(theta) + k/2 (l - l0)^2), or
  // s = max(0, |x| - l0) for a tension-only spring.
  double potential_energy(const Vec3& x) const;
  // grad V = k s x/|x| - m g e3; NaN at the pivot, where the spring direction is undefined (a slack
  // tension-only spring pulls with nothing there: gravity alone).
  Vec3 potential_gradient(const Vec3& x) const;
  // Hessian of V: k [(1 - l0/|x|) I + l0/|x|^3 x x^T] (the spring's tangent stiffness) where it acts;
  // 0 for a slack tension-only spring (|x| < l0). At |x| = l0 the taut side's (the one-sided limit
  // k x x^T / l0^2, which a Newton iteration stepping onto the kink uses).
  Mat3 potential_hessian(const Vec3& x) const;
  // The spring's tension k s (N): >= 0 when tension-only, negative where the seed's spring pushes.
  double tension(const Vec3& x) const;
  // A tension-only spring shorter than its rest length (|x| < l0): no axial force.
  bool slack(const Vec3& x) const { return p_.tension_only && x.norm() < p_.l0; }
  // x'' = -grad V / m (Newton; the seed's polar equations are its projection on (l, theta)).
  Vec3 acceleration(const Vec3& x) const { return -potential_gradient(x) / p_.m; }

  // energy = 1/2 m |v|^2 + V(x); momentum = e3 . (m x × v); extra columns below.
  Observation observe(const Vec3& x, const Vec3& v) const;
  static std::vector<std::string> extra_column_names();

 private:
  double acting_stretch(const Vec3& x) const;
  Parameters p_;
};

}  // namespace tb::elastic_pendulum
