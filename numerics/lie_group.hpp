// SO(3) and S^2 primitives for tetherbench (hat/vee, Cayley, exp/log, inertia maps, error metrics).
// Conventions: hat(x) y = x × y; variations on SO(3) are left-trivialised (body frame): δR = R hat(η).
#pragma once

#include <Eigen/Core>

namespace tb {
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
// The seeds' e3: the vertical unit vector, along gravity, in every model (one definition for all
// of them rather than one per source file).
inline const Vec3 e3 = Vec3::UnitZ();
}  // namespace tb

namespace tb::so3 {

// hat(x) is the skew matrix with hat(x) y = x × y (so(3) ≅ R^3 isomorphism).
Mat3 hat(const Vec3& x);

// Inverse of hat: reads (A(2,1), A(0,2), A(1,0)); only meaningful if A is skew (the symmetric part is ignored unchecked).
Vec3 vee(const Mat3& A);

// vee of the skew part ½(A − Aᵀ); use this for non-skew input (e.g. F − Fᵀ, log, finite differences).
Vec3 vee_skew(const Mat3& A);

// Cayley transform F = (I + ĉ)(I − ĉ)⁻¹ (seed 002 eq. (52)), closed form I + 2(ĉ + ĉ²)/(1+|c|²); rotation by 2·atan|c| about c.
Mat3 cayley(const Vec3& c);

// F − I for F = cayley(c), formed from c: 2(ĉ + ĉ²)/(1+|c|²). An update by a small rotation is an
// O(|c|) increment; forming F and subtracting I would round it relative to 1, not to itself.
Mat3 cayley_minus_identity(const Vec3& c);

// R F for F = cayley(c), as R + R (F − I): the same product, rounded relative to the increment
// R (F − I) rather than to R, so that a step of size h moves R by an increment known to
// eps·|c| and a step forward then back returns R to round-off of its own size.
Mat3 times_cayley(const Mat3& R, const Vec3& c);

// Fᵀ p − p for F = cayley(c) (the change of a body-frame covector under R ← R F, e.g.
// Π_{k+1} = F_kᵀ Π_k), formed from c: (F − I)ᵀ p.
Vec3 cayley_transpose_increment(const Vec3& c, const Vec3& p);

// Inverse Cayley map c = vee(F − Fᵀ)/(1 + tr F) (seed 002 eq. (52)); throws std::domain_error if 1 + tr F <= kCayleyTiny (angle ≈ π).
Vec3 cayley_inverse(const Mat3& F);

// Threshold on 1 + tr F below which cayley_inverse refuses (|c| ≳ 2e6; relative accuracy of c degrades like eps·|c|²).
inline constexpr double kCayleyTiny = 1e-12;

// Left-trivialised Cayley Jacobian T(c) with F(c)ᵀ dF = hat(T(c) dc); closed form 2/(1+|c|²)(I − ĉ) (verified by finite differences).
Mat3 cayley_left_jacobian(const Vec3& c);

// Exponential map (Rodrigues) R = I + (sinθ/θ) ŵ + ((1−cosθ)/θ²) ŵ², Taylor coefficients for θ = |w| < 1e-3.
Mat3 exp(const Vec3& w);

// exp(w) − I formed from w (A ŵ + B ŵ² of the same formula): the increment of a small rotation,
// rounded relative to itself (R exp(w) as R + R (exp(w) − I), as times_cayley does for Cayley).
Mat3 exp_minus_identity(const Vec3& w);
// (exp(w) − I) v = A w×v + B w×(w×v), without forming the matrix (a direction's increment).
Vec3 exp_minus_identity_times(const Vec3& w, const Vec3& v);

// Logarithm, inverse of exp with angle in [0, π]; θ = atan2 (no acos), Taylor branch near 0, symmetric-part branch near π.
Vec3 log(const Mat3& R);

// Orthogonality defect ‖I − RᵀR‖_F (Frobenius), the project's standard drift metric.
double orthogonality_error(const Mat3& R);

// Non-standard inertia Jd = ½ tr(J) I − J, so that hat(J ω) = hat(ω) Jd + Jd hat(ω).
Mat3 nonstandard_inertia(const Mat3& J);

// Inverse of nonstandard_inertia: J = tr(Jd) I − Jd (since tr Jd = ½ tr J).
Mat3 inertia_from_nonstandard(const Mat3& Jd);

// True iff ‖I − RᵀR‖_F <= tol and det R > 0 (excludes reflections).
bool is_rotation(const Mat3& R, double tol);

// d/dc of (1/h) vee(F Jd - Jd F^T) at F = cayley(c): the rotational block of the Newton
// matrix of a Lie group variational integrator (seed 000 eq. (32)). Column i of the
// left-trivialised derivative is (1/h) vee(F hat(e_i) Jd + Jd hat(e_i) F^T); times
// cayley_left_jacobian(c) for the Cayley parameter.
Mat3 rotational_momentum_jacobian(const Mat3& F, const Mat3& Jd, const Vec3& c, double h);

// The same momentum (1/h) vee(F Jd - Jd F^T) at F = cayley(c) in closed vector form, without
// forming F (Lee-Leok-McClamroch's discrete Legendre transform in Cayley parameters; Kobilarov
// et al.): with F = I + 2(hat(c) + hat(c)^2)/s, s = 1 + |c|^2, and J = tr(Jd) I - Jd,
//   F Jd - Jd F^T = (2/s) (hat(c) Jd + Jd hat(c) + hat(c)^2 Jd - Jd hat(c)^2)
//                 = (2/s) hat(J c + c x J c),
// since hat(c) Jd + Jd hat(c) = hat(J c) and hat(c)^2 Jd - Jd hat(c)^2 = [hat(c), hat(J c)]
// = hat(c x J c). Takes the STANDARD inertia J. tests/test_lie_group.cpp checks it against the
// matrix form and its Jacobian against finite differences.
Vec3 cayley_momentum(const Mat3& J, const Vec3& c, double h);
// The magnitudes of the products that make a × b, component-wise, from |a| and |b| (for
// round-off floors): (|a_1||b_2| + |a_2||b_1|, ...).
Vec3 cross_product_magnitude(const Vec3& a_abs, const Vec3& b_abs);
// The magnitudes of the terms that make cayley_momentum, component-wise:
// (2/(|h| s)) (|J| |c| + |c × J c| as a sum of its products' magnitudes): eps times this is the
// round-off floor of a residual cayley_momentum(J, c, h) − Π (add |Π|), for Newton's stopping rule.
Vec3 cayley_momentum_magnitude(const Mat3& J, const Vec3& c, double h);
// d/dc of cayley_momentum: (2/(h s)) (J + hat(c) J - hat(J c) - (2/s) (J c + c x J c) c^T).
Mat3 cayley_momentum_jacobian(const Mat3& J, const Vec3& c, double h);
// One Newton correction of a Cayley parameter: solves cayley_momentum_jacobian(J, c, h) dc = -g.
// False when the Jacobian is singular (det = 0) or dc is not finite. Cramer's rule on the
// columns a_i of the Jacobian times h s^2 / 2 (which needs no division; the factor moves to the
// right-hand side b): dc_i = b . (a_{i+1} x a_{i+2}) / det, one division in all, cheaper than
// forming the inverse; this solve runs in every Newton iteration of every body (issue 12).
bool cayley_momentum_correction(const Mat3& J, const Vec3& c, double h, const Vec3& g, Vec3& dc);

}  // namespace tb::so3

namespace tb::s2 {

// Deviation from the unit sphere | |q| − 1 |.
double unit_length_error(const Vec3& q);

// Tangent-space projection (I − q qᵀ) v; assumes |q| = 1.
Vec3 project_tangent(const Vec3& q, const Vec3& v);

// Exact-unit-length S² update q_{k+1} = F q_k with F = so3::exp(w) (only round-off changes |q|).
Vec3 rotate(const Vec3& q, const Vec3& w);

// Tangent projector I − q qᵀ (equals −hat(q)² for unit q).
Mat3 tangent_projector(const Vec3& q);

// The increment F q − q of the unit vector q under the Cayley rotation F = cayley(c) that takes q
// onto the direction of q + e (about q × e, by the angle between q and q + e), formed from the
// increment e alone: with c = q × e / (|q + e| + 1 + q·e) (orthogonal to q, |c| = tan(φ/2)),
//   F q − q = 2 (c × q − |c|² q) / (1 + |c|²),
// and |q + e| = sqrt(1 + (2 q·e + |e|²)). Never forms q + e: adding an O(h) increment to a unit
// vector and subtracting the vector again would keep only the increment's leading digits
// (issue 23). Requires |q| = 1 and q + e not opposite to q.
Vec3 rotation_onto_increment(const Vec3& q, const Vec3& e);

}  // namespace tb::s2
