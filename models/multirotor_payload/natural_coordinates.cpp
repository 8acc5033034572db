// Model C's natural coordinates (see natural_coordinates.hpp).

#include "models/multirotor_payload/natural_coordinates.hpp"

#include <algorithm>
#include <cmath>

namespace tb::multirotor_payload {

Joints joints_of(const Mechanics& mech, const State& s) {
  const int m = mech.params().multirotors, n = mech.params().links;
  const double l = mech.params().link_length();
  Joints out;
  out.J.assign(m, std::vector<Vec3>(n + 1));
  out.V.assign(m, std::vector<Vec3>(n + 1));
  for (int a = 0; a < m; ++a) {
    out.J[a][0] = s.Xp;
    out.V[a][0] = s.Vp;
    for (int j = 1; j <= n; ++j) {
      out.J[a][j] = out.J[a][j - 1] + l * s.q[a][j - 1];
      out.V[a][j] = out.V[a][j - 1] + l * mech.link_rate(s.q[a][j - 1], s.omega[a][j - 1]);
    }
  }
  return out;
}

void cable_state_from_joints(const Mechanics& mech, const Joints& joints, State& s) {
  const int m = mech.params().multirotors, n = mech.params().links;
  const double l = mech.params().link_length();
  s.Xp = joints.J[0][0];
  s.Vp = joints.V[0][0];
  s.q.assign(m, std::vector<Vec3>(n));
  s.omega.assign(m, std::vector<Vec3>(n));
  for (int a = 0; a < m; ++a)
    for (int j = 1; j <= n; ++j) {
      const Vec3 q = (joints.J[a][j] - joints.J[a][j - 1]) / l;
      const Vec3 qdot = (joints.V[a][j] - joints.V[a][j - 1]) / l;
      s.q[a][j - 1] = q;
      s.omega[a][j - 1] = mech.link_angular_velocity(q, qdot);
    }
}

double link_length_rate_error(const Mechanics& mech, const Joints& joints) {
  const double l = mech.params().link_length();
  double worst = 0.0;
  for (std::size_t a = 0; a < joints.J.size(); ++a)
    for (std::size_t j = 1; j < joints.J[a].size(); ++j) {
      const Vec3 d = joints.J[a][j] - joints.J[a][j - 1], dv = joints.V[a][j] - joints.V[a][j - 1];
      const double rate = d.dot(dv) / (d.norm() * l);
      if (!mech.params().unilateral) worst = std::max(worst, std::abs(rate));
      else if (d.norm() >= l * (1.0 - kLinkAtLength)) worst = std::max(worst, rate);
    }
  return worst;
}

}  // namespace tb::multirotor_payload
