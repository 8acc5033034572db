#include "models/string_pendulum/discrete_lagrangian.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::string_pendulum {

using so3::hat;

namespace {

// Trapezoidal strain energy of one element: 1/4 h kappa (|x| - u)^2 at each end of the step.
// A slack tension-only element stores none (mechanics/elastic_element.hpp).
double strain_term(const Parameters& p, const Vec3& x) {
  if (element_slack(p.u(), x, p.tension_only)) return 0.0;
  const double s = x.norm() - p.u();
  return 0.25 * p.kappa() * s * s;
}
}  // namespace

double discrete_lagrangian(const Parameters& p, const StepConfiguration& c) {
  const double m = p.m(), h = c.h;
  double L = 0.0;
  for (int a = 1; a <= p.N; ++a) {  // element a between nodes a and a+1, eq. (17)
    const Vec3 &ra = c.r[a - 1], &rb = c.r[a], &da = c.dr[a - 1], &db = c.dr[a];
    L += m / (6.0 * h) * (da.dot(da) + da.dot(db) + db.dot(db));
    L += h / 4.0 * m * p.g * (2.0 * ra + 2.0 * rb + da + db).dot(e3);
    L -= h * strain_term(p, rb - ra);
    L -= h * strain_term(p, rb + db - ra - da);
  }
  // Rigid body, eq. (18); Jd the non-standard inertia.
  const Vec3& r = c.r[p.N];
  const Vec3& d = c.dr[p.N];
  const Mat3 Jd = so3::nonstandard_inertia(p.J);
  const Mat3 I = Mat3::Identity();
  L += p.M / (2.0 * h) * d.dot(d) + ((I - c.F) * Jd).trace() / h;
  L += p.M / h * d.dot(c.R * (c.F - I) * p.rho_c);
  L += h / 2.0 * p.M * p.g * (r + c.R * p.rho_c).dot(e3);
  L += h / 2.0 * p.M * p.g * (r + d + c.R * c.F * p.rho_c).dot(e3);
  return L;
}

void discrete_lagrangian_derivatives(const Parameters& p, const StepConfiguration& c, DiscreteLagrangianDerivatives& out) {
  const int N = p.N;
  const double m = p.m(), h = c.h, kappa = p.kappa(), u = p.u();
  out.d_dr.assign(N + 1, Vec3::Zero());
  out.d_r.assign(N + 1, Vec3::Zero());
  auto grad = [&](const Vec3& x) -> Vec3 {  // nabla V^e = kappa (|x| - u) x / |x|, 0 while slack
    return element_force(kappa, u, x, p.tension_only);
  };
  for (int a = 1; a <= N; ++a) {
    const int ia = a - 1, ib = a;
    const Vec3 &da = c.dr[ia], &db = c.dr[ib];
    const Vec3 g_now = grad(c.r[ib] - c.r[ia]);                    // at step k
    const Vec3 g_next = grad(c.r[ib] + db - c.r[ia] - da);         // at step k+1
    const Vec3 gravity = h / 4.0 * m * p.g * e3;
    // eq. (22): derivative of element a's L_d with respect to its two node increments.
    out.d_dr[ia] += m / (6.0 * h) * (2.0 * da + db) + gravity + h / 2.0 * g_next;
    out.d_dr[ib] += m / (6.0 * h) * (da + 2.0 * db) + gravity - h / 2.0 * g_next;
    // Position derivatives at fixed increments: both strain terms depend on r.
    out.d_r[ia] += 2.0 * gravity + h / 2.0 * (g_now + g_next);
    out.d_r[ib] += 2.0 * gravity - h / 2.0 * (g_now + g_next);
  }
  const Vec3& d = c.dr[N];
  const Mat3 Jd = so3::nonstandard_inertia(p.J);
  const Mat3 I = Mat3::Identity();
  const Mat3 Rt = c.R.transpose();
  // Rigid body part of (25) and (26).
  out.d_dr[N] += p.M / h * d + p.M / h * c.R * (c.F - I) * p.rho_c + h / 2.0 * p.M * p.g * e3;
  out.d_r[N] += h * p.M * p.g * e3;
  // eq. (27): (1/h) vee(Jd F - F^T Jd) + hat(rho_c) F^T A, A = M/h R^T dr + h/2 M g R^T e3.
  const Vec3 A = p.M / h * Rt * d + h / 2.0 * p.M * p.g * Rt * e3;
  out.d_F = so3::vee(Jd * c.F - c.F.transpose() * Jd) / h + hat(p.rho_c) * c.F.transpose() * A;
  // eq. (29): M/h hat((F - I) rho_c) R^T dr + h/2 M g (hat(rho_c) + hat(F rho_c)) R^T e3.
  out.d_R = p.M / h * hat((c.F - I) * p.rho_c) * Rt * d +
            h / 2.0 * p.M * p.g * (hat(p.rho_c) + hat(c.F * p.rho_c)) * Rt * e3;
}

}  // namespace tb::string_pendulum
