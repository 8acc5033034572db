// The differential of the exponential map of SO(3) and its inverse: what Runge-Kutta-Munthe-Kaas
// and other Lie group methods of the ODE y' = hat(f(y)) y integrate. With y = exp(u) y0 the
// equation for the algebra element u is u' = dexp_u^{-1}(f(exp(u) y0)) (Munthe-Kaas 1999,
// "High order Runge-Kutta methods on manifolds", Appl. Numer. Math. 29, eq. (2.6); Iserles,
// Munthe-Kaas, Norsett & Zanna 2000, Acta Numerica, section 2.3).
// Conventions: right trivialisation, d/de exp(u + e v)|_0 = hat(dexp(u) v) exp(u); in so(3)
// ad_u v = [u, v] = u x v = hat(u) v.
#pragma once

#include "numerics/lie_group.hpp"

namespace tb::so3 {

// dexp_u = sum_k ad_u^k / (k+1)! = I + (1 - cos t)/t^2 hat(u) + (t - sin t)/t^3 hat(u)^2, t = |u|
// (the "left Jacobian" of SO(3)); Taylor coefficients for t < 1e-3.
Mat3 dexp(const Vec3& u);

// Its inverse, sum_k B_k / k! ad_u^k (Bernoulli numbers B_k) =
// I - hat(u)/2 + (1 - (t/2) cot(t/2)) / t^2 hat(u)^2, for |u| < 2 pi; Taylor coefficients for t < 1e-3.
Mat3 dexp_inv(const Vec3& u);

// The series of dexp_inv truncated after the term in ad_u^q: v - [u,v]/2 + [u,[u,v]]/12 -
// [u,[u,[u,[u,v]]]]/720 (B_3 = 0). An RKMK method of order p needs q = p - 2 (Munthe-Kaas 1999,
// Thm. 2): the error is O(|u|^(q+1) |v|) = O(h^(q+1)), one order more where B_(q+1) = 0 (q = 2,
// 4). q in [0, 4].
Vec3 dexp_inv_series(const Vec3& u, const Vec3& v, int q);

}  // namespace tb::so3
