#include "models/multirotor_payload/first_snap.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/format.hpp"

namespace tb::multirotor_payload {

namespace {

// Joint numbering of the tree: 0 the payload, then cable a's joints 1..n.
int joint_index(const Parameters& p, int cable, int joint) { return joint == 0 ? 0 : 1 + cable * p.links + (joint - 1); }

// The smallest t > 0 where |d0 + dv t + da t^2 / 2| = l, starting inside (|d0| < l); NaN where none.
// |d(t)|^2 - l^2 is the quartic c4 t^4 + c3 t^3 + c2 t^2 + c1 t + c0; its real roots come from the
// companion matrix's eigenvalues, and the smallest positive one is polished by Newton on the gap
// itself, |d(t)| - l, in increments, until the step is below 4 ulps of t.
double first_reach(const Vec3& d0, const Vec3& dv, const Vec3& da, double l) {
  const double c[5] = {d0.squaredNorm() - l * l, 2.0 * d0.dot(dv), dv.squaredNorm() + d0.dot(da), dv.dot(da),
                       0.25 * da.squaredNorm()};
  int degree = 4;
  const double size = std::max({std::abs(c[0]), std::abs(c[1]), std::abs(c[2]), std::abs(c[3]), std::abs(c[4])});
  while (degree > 0 && std::abs(c[degree]) <= 1e-300 * std::max(size, 1e-300)) --degree;
  if (degree == 0) return std::numeric_limits<double>::quiet_NaN();
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(degree, degree);
  for (int k = 0; k < degree; ++k) companion(0, k) = -c[degree - 1 - k] / c[degree];
  for (int k = 1; k < degree; ++k) companion(k, k - 1) = 1.0;
  const Eigen::VectorXcd roots = Eigen::EigenSolver<Eigen::MatrixXd>(companion, false).eigenvalues();
  double t = std::numeric_limits<double>::infinity();
  for (const auto& r : roots)
    if (std::abs(r.imag()) <= 1e-8 * std::max(1.0, std::abs(r.real())) && r.real() > 0.0) t = std::min(t, r.real());
  if (!std::isfinite(t)) return std::numeric_limits<double>::quiet_NaN();
  for (int it = 0; it < 20; ++it) {
    const Vec3 d = d0 + t * (dv + 0.5 * t * da), rate = dv + t * da;
    const double slope = d.dot(rate) / d.norm();
    if (!(std::abs(slope) > 0.0)) break;
    const double step = (d.norm() - l) / slope;
    t -= step;
    if (std::abs(step) <= 4.0 * std::numeric_limits<double>::epsilon() * t) break;
  }
  return t;
}

}  // namespace

std::optional<FirstSwitchClosedForm> first_snap_closed_form(const Parameters& p, const InitialCondition& ic,
                                                            std::string& why_not) {
  if (!p.unilateral) return why_not = "its links are bilateral", std::nullopt;
  if (!(ic.cable_span < 1.0)) return why_not = "its cables start taut (cable_span = 1)", std::nullopt;
  const Mechanics mech(p);
  const int n = p.links, m = p.multirotors, joints = 1 + m * n;
  const double l = p.link_length();
  // M_s and phi (mechanics.hpp): the payload joint collects every cable's first half-link. A dense
  // factorisation of this (1 + m n)-square matrix is done once per case, for the closed form only.
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(joints, joints);
  Eigen::MatrixXd phi(joints, 3);
  M(0, 0) = mech.payload_joint_mass();
  phi.row(0) = mech.payload_joint_force().transpose();
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) {
      const int k = joint_index(p, a, j), before = joint_index(p, a, j - 1);
      M(k, k) = mech.joint_mass(j);
      M(k, before) = M(before, k) = mech.joint_coupling(j);
      phi.row(k) = mech.joint_force(j).transpose();
    }
  const Eigen::LDLT<Eigen::MatrixXd> factor(M);
  const Eigen::MatrixXd A = factor.solve(phi);
  const Eigen::MatrixXd Minv = factor.solve(Eigen::MatrixXd::Identity(joints, joints));
  // The start: every joint moves with the payload (the links at rest relative to it, State::omega = 0),
  // so the gaps see no relative velocity and the payload's own velocity drops out.
  const State start = mech.initial_state(ic);
  Eigen::MatrixXd J0(joints, 3);
  J0.row(0) = start.Xp.transpose();
  std::vector<Vec3> J;
  for (int a = 0; a < m; ++a) {
    mech.joints(start.Xp, start.q[size_t(a)], J);
    for (int j = 1; j <= n; ++j) J0.row(joint_index(p, a, j)) = J[size_t(j)].transpose();
  }
  // Each link's first reach of its length; the first snap is the earliest, with every link that
  // reaches within 1e-12 of it (the cooperative case's cables close together by symmetry).
  struct Link {
    int element, top, bottom;
    double t;
  };
  std::vector<Link> links;
  double t1 = std::numeric_limits<double>::infinity();
  for (int a = 0; a < m; ++a)
    for (int i = 1; i <= n; ++i) {
      const int top = joint_index(p, a, i), bottom = joint_index(p, a, i - 1);
      const Vec3 d0 = (J0.row(top) - J0.row(bottom)).transpose();
      const Vec3 da = (A.row(top) - A.row(bottom)).transpose();
      const double t = first_reach(d0, Vec3::Zero(), da, l);  // every joint starts at V0: no relative velocity
      links.push_back({a * n + (i - 1), top, bottom, t});
      if (t < t1) t1 = t;
    }
  if (!std::isfinite(t1)) return why_not = "no link reaches its length in free flight", std::nullopt;
  std::vector<Link> closing;
  for (const Link& k : links)
    if (std::isfinite(k.t) && k.t <= t1 * (1.0 + 1e-12)) closing.push_back(k);
  // The impulse problem over the closing links at t1: directions, opening speeds w and K.
  const int c = int(closing.size());
  std::vector<Vec3> dir(static_cast<size_t>(c));
  Eigen::VectorXd w(c);
  for (int k = 0; k < c; ++k) {
    const Link& L = closing[size_t(k)];
    const Vec3 d = (J0.row(L.top) - J0.row(L.bottom)).transpose() + 0.5 * t1 * t1 * (A.row(L.top) - A.row(L.bottom)).transpose();
    dir[size_t(k)] = d.normalized();
    w[k] = dir[size_t(k)].dot(t1 * (A.row(L.top) - A.row(L.bottom)).transpose());
  }
  Eigen::MatrixXd K(c, c);
  for (int k = 0; k < c; ++k)
    for (int r = 0; r < c; ++r) {
      const Link &x = closing[size_t(k)], &y = closing[size_t(r)];
      const double scalar = Minv(x.top, y.top) - Minv(x.top, y.bottom) - Minv(x.bottom, y.top) + Minv(x.bottom, y.bottom);
      K(k, r) = dir[size_t(k)].dot(dir[size_t(r)]) * scalar;
    }
  const Eigen::VectorXd Lambda = K.ldlt().solve((1.0 + p.restitution) * w);
  if (!(Lambda.minCoeff() > 0.0))
    return why_not = "the impulse problem at the first snap is not solved by all its links pulling", std::nullopt;
  FirstSwitchClosedForm out;
  out.name = "the free flight to the first snap";
  out.basis = "every link slack, the joints fly under constant forces with constant accelerations (M_s A = phi, one "
              "solve), each link's gap a quartic in t: the first snap is its smallest positive root, and Newton's law "
              "over the links that close there takes 1/2 (1 - e^2) w^T (G M^-1 G^T)^-1 w (w their opening speeds). The "
              "model keeps each link's mass at its chord's midpoint between massless joints, as the bilateral cable's "
              "link centres: a slack link carries no tension, but its mass couples its two joints' accelerations, so "
              "the joints do not fall freely (the payload's acceleration along e3 below, against g = " + format_g(p.g, 4) +
              " m/s^2): a chain of point masses at the links' centres, not of free beads";
  out.t = t1;
  for (const Link& k : closing) out.elements.push_back(k.element);
  out.impact_loss = 0.5 * (1.0 - p.restitution * p.restitution) * w.dot(K.ldlt().solve(w));
  out.quantities = {{"links closing together", double(c)},
                    {"opening speed of the closing link (m/s)", w[0]},
                    {"payload joint's acceleration along e3 (m/s^2)", A(0, 2)},
                    {"top joint's acceleration along e3 (m/s^2)", A(joint_index(p, 0, n), 2)}};
  return out;
}

}  // namespace tb::multirotor_payload
