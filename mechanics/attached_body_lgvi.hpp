#pragma once
// The rigid body hanging from a string's end in the Lie group variational integrator's step of
// Models A and B (seed 000 (17)-(19) and (25)-(29); seed 002 (34)-(38), whose body is seed
// 000's), in increment form (issue 23). F_k = I + E with E = F - I formed from the Cayley
// parameter c (so3::cayley_minus_identity), never as a difference of O(1) products of F:
//  * the translational row of the body's node gains (M/h) R (F - I) rho_c = (M/h) R (E rho_c)
//    ((25): D_dr L_d depends on F only through it, D_r L_d not at all);
//  * the rotational row: by (28), F (T*L_F D_F L_d) = (1/h) vee(F Jd - Jd F^T) + (F rho_c) x A
//    with A = (M/h) R^T d + (h/2) M g R^T e3 (d the body node's increment), and by (29)
//    T*L_R D_R L_d = (M/h) (E rho_c) x R^T d + (h/2) M g (rho_c + F rho_c) x R^T e3; with
//    F rho_c = rho_c + E rho_c their F-dependent parts cancel identically, leaving
//      (1/h) vee(F Jd - Jd F^T) + rho_c x ((M/h) R^T d - (h/2) M g R^T e3) - Pi_k = 0,
//    whose first term so3::cayley_momentum forms from c (vee(F Jd - Jd F^T) is O(h) while F Jd
//    and Jd F^T are O(1): formed from F it costs eps |Jd| / h in an O(|J Omega|) momentum);
//  * the update Pi_{k+1} = F^T (Pi_k + T*L_R D_R L_d) = w + E^T w (attitude_derivative below).
// The steps evaluate the string's derivatives at F = I (where these terms vanish) and add them.

#include "numerics/lie_group.hpp"

namespace tb {

struct AttachedBody {
  double M = 0.0;          // mass (kg)
  Mat3 J = Mat3::Zero();   // inertia about the attachment point, body frame (kg m^2)
  Vec3 rho_c = Vec3::Zero();  // centre of mass from the attachment point, body frame (m)
  double g = 0.0;          // gravity (m/s^2), along e3 (down); any sign: Model C's multirotor feels its thrust too
};

// The body's terms of one step's residual at (R_k, d = the body node's increment, c, E = F - I,
// h), and the magnitudes of their terms (component-wise, for the round-off floor).
struct AttachedBodyStepTerms {
  Vec3 translational = Vec3::Zero();  // added to the body node's row: (M/h) R (E rho_c)
  Vec3 rotational = Vec3::Zero();     // the rotational row less Pi_k
  Vec3 translational_magnitude = Vec3::Zero(), rotational_magnitude = Vec3::Zero();
};
AttachedBodyStepTerms attached_body_step_terms(const AttachedBody& body, const Mat3& R, const Vec3& d, const Vec3& c,
                                               const Mat3& E, double h);

// T*L_R D_R L_d of seed 000 (29): (M/h) (E rho_c) x R^T d + (h/2) M g (rho_c + F rho_c) x R^T e3,
// with F rho_c = rho_c + E rho_c: O(h), formed from E.
Vec3 attached_body_attitude_derivative(const AttachedBody& body, const Mat3& R, const Vec3& d, const Mat3& E, double h);

}  // namespace tb
