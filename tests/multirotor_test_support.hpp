#pragma once
// Model C set-ups shared by its tests: the paper's single case (SPEC "Model C", seed 003 §5.1),
// a small cooperative variant, and the spinning multirotor of C_single_multirotor_spinning.

#include <cstdlib>

#include "models/multirotor_payload/mechanics.hpp"

namespace tb::testing {

inline multirotor_payload::Parameters paper_single() {
  multirotor_payload::Parameters p;  // defaults: m_Q 1.2, m_p 0.5, 10 links of 0.005 kg, 1 m
  p.J_Q = Eigen::Vector3d(1.367e-2, 1.367e-2, 2.586e-2).asDiagonal();
  return p;
}

inline multirotor_payload::Parameters small_cooperative() {
  multirotor_payload::Parameters p = paper_single();
  p.multirotors = 3;
  p.links = 4;
  p.link_mass = 0.01;
  return p;
}

inline multirotor_payload::InitialCondition spinning() {
  multirotor_payload::InitialCondition ic;
  ic.Omega0 = Vec3(0.3, -0.2, 1.0);
  return ic;
}

// A generic state: directions and link rates off the straight line, omega_i . q_i = 0, R tilted
// (the same for a seed; shared by the Model C derivative tests).
inline multirotor_payload::State perturbed_state(const multirotor_payload::Mechanics& mech, unsigned seed) {
  std::srand(seed);
  multirotor_payload::InitialCondition ic = spinning();
  ic.R0 = so3::exp(Vec3(0.2, 0.1, -0.3));
  multirotor_payload::State s = mech.initial_state(ic);
  s.Vp = Vec3::Random();
  for (auto& cable : s.q)
    for (auto& q : cable) q = (q + 0.3 * Vec3(Vec3::Random())).normalized();
  for (size_t a = 0; a < s.q.size(); ++a)
    for (size_t i = 0; i < s.q[a].size(); ++i) s.omega[a][i] = s2::project_tangent(s.q[a][i], 2.0 * Vec3(Vec3::Random()));
  return s;
}

}  // namespace tb::testing
