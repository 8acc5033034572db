#pragma once
// Model B's discrete Lagrangian (seed 002 eq. (34)): L_d = h T_k - h/2 V_k - h/2 V_{k+1}, with
// T_k the kinetic energy (29)-(31) with velocities (increments)/h and the mass matrix at the
// configuration g_k + alpha (increments), alpha = Parameters::kinetic_weight() (0: the paper's
// g_k; 1/2: the step's midpoint), and the discrete Carnot and control terms (37), (38).
// The string's mass matrix is affine in (s_p, q), so the configuration gradient of the
// kinetic part does not depend on where it is evaluated. Derived here from L_d (the printed appendix has typos);
// each derivative is tested against central finite differences of discrete_lagrangian().

#include <vector>

#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

struct StepConfiguration {
  double s, ds;                  // s_p,k and its increment
  const std::vector<Vec3>& q;    // nodes at k (q[0] = 0)
  const std::vector<Vec3>& dq;   // increments (dq[0] = 0)
  const Mat3& R;
  const Mat3& F;
  double h;
};

double discrete_lagrangian(const Mechanics& mech, const StepConfiguration& c);

struct DiscreteLagrangianDerivatives {
  double d_ds = 0.0;       // dL_d/d(ds)
  double d_s = 0.0;        // dL_d/ds at fixed increments
  std::vector<Vec3> d_dq;  // dL_d/d(dq_a), a = 1..N+1
  std::vector<Vec3> d_q;   // dL_d/dq_a at fixed increments
  Vec3 d_F;                // left-trivialised T*_I L_F . D_F L_d
  Vec3 d_R;                // left-trivialised T*_I L_R . D_R L_d at fixed F and increments
  // The potential's gradient at the step's end (k+1): it enters d_dq and d_q (d_ds and d_s) as one
  // computed value, and the LGVI step's round-off floor counts its magnitude.
  std::vector<Vec3> grad_next;
  double dVds_next = 0.0;
};

void discrete_lagrangian_derivatives(const Mechanics& mech, const StepConfiguration& c,
                                     DiscreteLagrangianDerivatives& out);

// The reel forcing of one step, f = Q_dk + u_dk with Q_dk = -h/2 (mu ds^2/h^2 + EA) eps^2 (37)
// and u_dk = h u/d (38), eps the strain just outside the guide way (0 while that element is slack,
// tension-only: Mechanics::guide_way_strain) — at step k (the paper's
// rule) or at the step's midpoint (|q_2 + dq_2/2|, l at s + ds/2) — and its derivatives in
// the step unknowns (the rule follows Parameters::discretization). `carnot` is Q_dk alone (for
// the work bookkeeping).
struct DiscreteForcing {
  double f = 0.0, carnot = 0.0;
  double d_ds = 0.0;          // df/d(ds)
  Vec3 d_dq2 = Vec3::Zero();  // df/d(dq_2) (midpoint rule only)
  double weight_before = 1.0, weight_after = 0.0;  // f- = weight_before f, f+ = weight_after f
};
DiscreteForcing discrete_forcing(const Mechanics& mech, const StepConfiguration& c);

}  // namespace tb::reel_pendulum
