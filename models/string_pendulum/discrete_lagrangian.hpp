#pragma once
// Model A's discrete Lagrangian (seed 000 eqs. (17)-(19), with SPEC's correction of the
// last term of (17): -1/4 h kappa (|r_{k+1,a+1} - r_{k+1,a}| - u)^2) and its derivatives,
// derived here from L_d rather than transcribed from the paper (each is tested against
// central finite differences of discrete_lagrangian()).
//
// Arguments: nodes r[0..N] at step k (r[0] = pivot), increments dr[0..N] with
// r_{k+1} = r_k + dr (dr[0] = 0), attitude R_k and its update F_k (R_{k+1} = R_k F_k).

#include <vector>

#include "mechanics/string_pendulum/mechanics.hpp"

namespace tb::string_pendulum {

struct StepConfiguration {
  const std::vector<Vec3>& r;
  const std::vector<Vec3>& dr;
  const Mat3& R;
  const Mat3& F;
  double h;
};

double discrete_lagrangian(const Parameters& p, const StepConfiguration& c);

struct DiscreteLagrangianDerivatives {
  std::vector<Vec3> d_dr;  // dL_d/d(dr_a), a = 1..N+1 (index a-1)            paper (22),(23),(25)
  std::vector<Vec3> d_r;   // dL_d/d(r_a) at fixed dr                           paper (24),(26)
  Vec3 d_F;                // left-trivialised T*_I L_F . D_F L_d: d/de L_d(F exp(e hat(z))) = d_F . z   (27)
  Vec3 d_R;                // left-trivialised T*_I L_R . D_R L_d at fixed F and dr                 (29)
};

void discrete_lagrangian_derivatives(const Parameters& p, const StepConfiguration& c, DiscreteLagrangianDerivatives& out);

}  // namespace tb::string_pendulum
