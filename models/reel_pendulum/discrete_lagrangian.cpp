#include "models/reel_pendulum/discrete_lagrangian.hpp"
#include "numerics/lie_group.hpp"  // e3

namespace tb::reel_pendulum {

using so3::hat;

namespace {

// Potential energy (33) of a configuration.
double potential(const Mechanics& mech, double s, const std::vector<Vec3>& q, const Mat3& R) {
  State st;
  st.s = s;
  st.q = q;
  st.R = R;
  return mech.potential_energy(st);
}
}  // namespace

double discrete_lagrangian(const Mechanics& mech, const StepConfiguration& c) {
  const Parameters& p = mech.params();
  const int N = p.N;
  const double h = c.h, mu = p.mu, alpha = p.kinetic_weight();
  const double s_e = c.s + alpha * c.ds, l = mech.element_length(s_e);  // where the mass matrix is evaluated
  // h T_k with velocities = increments / h.
  double twice_hT = (mu * s_e + p.kappa_d) * c.ds * c.ds;
  for (int a = 1; a <= N; ++a) {
    const Vec3 &da = c.dq[a - 1], &db = c.dq[a];
    const Vec3 e = c.q[a - 1] - c.q[a] + alpha * (da - db);
    twice_hT += mu * l / 3.0 * (da.dot(da) + da.dot(db) + db.dot(db)) + mu * l * mech.m3(a) * c.ds * c.ds +
                2.0 * c.ds * mu * (mech.c23(a) * e.dot(db) + mech.c31(a) * e.dot(da));
  }
  const Vec3& d = c.dq[N];
  const Mat3 Jd = so3::nonstandard_inertia(p.J);
  const Mat3 I = Mat3::Identity();
  double L = twice_hT / (2.0 * h) + p.M / (2.0 * h) * d.dot(d) + ((I - c.F) * Jd).trace() / h +
             p.M / h * d.dot(c.R * (c.F - I) * p.rho_c);
  std::vector<Vec3> q_next(c.q.size());
  for (size_t i = 0; i < c.q.size(); ++i) q_next[i] = c.q[i] + c.dq[i];
  L -= h / 2.0 * potential(mech, c.s, c.q, c.R) + h / 2.0 * potential(mech, c.s + c.ds, q_next, c.R * c.F);
  return L;
}

void discrete_lagrangian_derivatives(const Mechanics& mech, const StepConfiguration& c,
                                     DiscreteLagrangianDerivatives& out) {
  const Parameters& p = mech.params();
  const int N = p.N;
  const double h = c.h, mu = p.mu, ds = c.ds;
  out.d_dq.assign(N + 1, Vec3::Zero());
  out.d_q.assign(N + 1, Vec3::Zero());
  // Potential at both ends of the step (trapezoidal rule).
  std::vector<Vec3> q_next(N + 1), grad_now;
  std::vector<Vec3>& grad_next = out.grad_next;
  for (int i = 0; i <= N; ++i) q_next[i] = c.q[i] + c.dq[i];
  const double dVds_now = mech.potential_gradient(c.s, c.q, grad_now);
  const double dVds_next = out.dVds_next = mech.potential_gradient(c.s + ds, q_next, grad_next);

  // Kinetic part K = increments' A(g_e) increments / (2h), g_e = g_k + alpha increments:
  // d/d(increments) = A(g_e) increments / h + alpha Gamma, d/d(configuration) = Gamma, with
  // Gamma the configuration gradient of K (independent of g_e: A is affine in (s, q)).
  const double alpha = p.kinetic_weight();
  const double s_e = c.s + alpha * ds, l = mech.element_length(s_e);
  double d_ds = (mu * s_e + p.kappa_d + mu * l * mech.m3_sum()) * ds / h;
  double gamma_s = mu * ds * ds / (2.0 * h);
  std::vector<Vec3> gamma_q(N + 1, Vec3::Zero());
  for (int a = 1; a <= N; ++a) {
    const Vec3 &da = c.dq[a - 1], &db = c.dq[a];
    const Vec3 e = c.q[a - 1] - c.q[a] + alpha * (da - db);
    const double c23 = mech.c23(a), c31 = mech.c31(a);
    out.d_dq[a - 1] += mu * l / (6.0 * h) * (2.0 * da + db) + ds * mu * c31 * e / h;
    out.d_dq[a] += mu * l / (6.0 * h) * (da + 2.0 * db) + ds * mu * c23 * e / h;
    d_ds += mu * (c23 * e.dot(db) + c31 * e.dot(da)) / h;
    // l = (L - s)/N: dl/ds = -1/N.
    gamma_s -= (mu / (6.0 * N * h)) * (da.dot(da) + da.dot(db) + db.dot(db)) + mu * mech.m3(a) * ds * ds / (2.0 * N * h);
    // e = q_a - q_{a+1}.
    const Vec3 de_coeff = ds * mu * (c23 * db + c31 * da) / h;
    gamma_q[a - 1] += de_coeff;
    gamma_q[a] -= de_coeff;
  }
  double d_s = gamma_s;
  d_ds += alpha * gamma_s;
  for (int a = 0; a <= N; ++a) {
    out.d_q[a] += gamma_q[a];
    out.d_dq[a] += alpha * gamma_q[a];
  }
  // Rigid body (as seed 000 (18)).
  const Vec3& d = c.dq[N];
  const Mat3 Jd = so3::nonstandard_inertia(p.J);
  const Mat3 I = Mat3::Identity();
  const Mat3 Rt = c.R.transpose();
  out.d_dq[N] += p.M / h * d + p.M / h * c.R * (c.F - I) * p.rho_c;
  // Potential: -h/2 (V_k + V_{k+1}); V_{k+1} depends on the increments as on the configuration.
  for (int a = 0; a <= N; ++a) {
    out.d_dq[a] -= h / 2.0 * grad_next[a];
    out.d_q[a] -= h / 2.0 * (grad_now[a] + grad_next[a]);
  }
  d_ds -= h / 2.0 * dVds_next;
  d_s -= h / 2.0 * (dVds_now + dVds_next);
  out.d_ds = d_ds;
  out.d_s = d_s;
  // Attitude (seed 000 (27), (29)); the body's gravity is in V through R rho_c.
  const Vec3 A = p.M / h * Rt * d + h / 2.0 * p.M * p.g * Rt * e3;
  out.d_F = so3::vee(Jd * c.F - c.F.transpose() * Jd) / h + hat(p.rho_c) * c.F.transpose() * A;
  out.d_R = p.M / h * hat((c.F - I) * p.rho_c) * Rt * d +
            h / 2.0 * p.M * p.g * (hat(p.rho_c) + hat(c.F * p.rho_c)) * Rt * e3;
}

DiscreteForcing discrete_forcing(const Mechanics& mech, const StepConfiguration& c) {
  const Parameters& p = mech.params();
  const bool midpoint = p.discretization == Parameters::Discretization::Midpoint;
  const double h = c.h, N = p.N;
  const double l = mech.element_length(c.s + (midpoint ? 0.5 * c.ds : 0.0));
  const Vec3 x = midpoint ? Vec3(c.q[1] + 0.5 * c.dq[1]) : c.q[1];
  const double len = x.norm();
  // Tension-only and the guide way's element slack where eps is taken: eps = 0, so Q_dk = 0 and its
  // derivatives vanish (Mechanics::carnot_force says why), the semi-discrete Q's rule at that point.
  const bool slack = element_slack_length(l, len, p.tension_only);
  const double eps = slack ? 0.0 : (len - l) / l;
  const double weight = p.mu * c.ds * c.ds / (h * h) + p.EA;
  DiscreteForcing out;
  out.carnot = -0.5 * h * weight * eps * eps;
  out.f = out.carnot + h * p.u / p.d;
  out.d_ds = -p.mu * c.ds / h * eps * eps;
  if (midpoint) {
    if (!slack) {
      out.d_ds += -h * weight * eps * len / (2.0 * N * l * l);  // d eps/d(ds) = |x| / (2 N l^2)
      out.d_dq2 = -h * weight * eps * (0.5 / (l * len)) * x;    // d eps/d(dq_2) = x / (2 l |x|)
    }
    out.weight_before = out.weight_after = 0.5;
  }
  return out;
}

}  // namespace tb::reel_pendulum
