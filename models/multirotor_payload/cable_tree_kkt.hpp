#pragma once
// The one linear system every Model C formulation solves, in O(m n): joint-coordinate
// "accelerations" x (or velocities, or Newton increments) of a star of m cables hanging from
// the payload joint, together with one scalar multiplier tau_i per link that keeps the link
// rigid (a tension divided by the link length):
//
//   s (M_J x)_0 + sum_a tau_1^a u_1^a                  = r_0      payload joint (3 rows)
//   s (M_J x)_j - tau_j u_j + tau_{j+1} u_{j+1}         = r_j      joint j = 1..n of each cable (tau_{n+1} = 0)
//   t_j . (x_j - x_{j-1})                               = r_j'     link j = 1..n of each cable (1 row)
//
// M_J is the joint mass matrix (Mechanics), s a scale (1 for accelerations, 1/h in the VI's
// Newton matrix), u_j the direction along which link j's multiplier acts and t_j the
// direction of its constraint gradient (both q_j in the continuous equations; the VI's
// Newton matrix has u = q_k, t = q_{k+1}). Ordering each cable's unknowns as blocks
// (tau_j, x_j) makes the matrix block-tridiagonal with 4x4 blocks along a cable, bordered by
// the 3 payload unknowns; it is eliminated from the multirotor end towards the payload
// (block LU with closed-form 4x4 pivot inverses; no pivoting between blocks), so the
// payload's 3x3 Schur complement collects every cable, then back-substituted outwards. Each
// pivot [[0, t^T], [-u, s M_jj I]] (after Schur updates: the same saddle form) is invertible
// as long as t . u != 0, i.e. while no link turns by 90 degrees in one step.
//
// With the multirotor's attachment offset (mechanics.hpp) joint n's row also carries the
// attitude's unknowns; each form eliminates them (a 3x3 solve per multirotor) into an extra 3x3
// block K_a added to joint n's diagonal s m_n I (`top`, optional; absent, nothing is added).
//
// A link may be released (issue 48: a unilateral link gone slack): its row becomes tau_j = r_j'
// and its multiplier leaves the joint rows (u_j = t_j = 0 for it, which the caller passes), so
// the pivot [[1, 0], [0, s M_jj I]] stays invertible and the rest of the elimination is unchanged.
//
// Vector layout (unknowns and right-hand side alike): [x_0 (3), then for cable a = 0..m-1
// and link j = 1..n: (tau_j or link row, x_j (3))] at offset 3 + 4 (a n + j - 1).

#include <Eigen/Dense>
#include <vector>

#include "models/multirotor_payload/mechanics.hpp"

namespace tb::multirotor_payload {

class CableTreeKkt {
 public:
  explicit CableTreeKkt(const Mechanics& mech);
  int size() const { return 3 + 4 * m_ * n_; }
  static int offset(int n, int cable, int joint) { return 3 + 4 * (cable * n + joint - 1); }
  // Factors the matrix for u, t ([cable][link-1]) and scale s, with top[a] added to joint n's
  // 3x3 mass block of cable a if given, and the links where (*released)[a][j-1] released (their
  // u and t zero; header). Returns false if a pivot block is singular.
  bool factor(double s, const std::vector<std::vector<Vec3>>& u, const std::vector<std::vector<Vec3>>& t,
              const std::vector<Mat3>* top = nullptr, const std::vector<std::vector<bool>>* released = nullptr);
  // Solves with the last factorisation (any number of right-hand sides).
  void solve(const Eigen::VectorXd& rhs, Eigen::VectorXd& sol);
  // factor() then solve().
  bool solve(double s, const std::vector<std::vector<Vec3>>& u, const std::vector<std::vector<Vec3>>& t,
             const Eigen::VectorXd& rhs, Eigen::VectorXd& sol, const std::vector<Mat3>* top = nullptr) {
    if (!factor(s, u, t, top)) return false;
    solve(rhs, sol);
    return sol.allFinite();
  }

 private:
  using Mat4 = Eigen::Matrix4d;
  using Vec4 = Eigen::Vector4d;
  const Mechanics& mech_;
  int m_, n_;
  std::vector<Mat4> pivots_;        // [a n + j - 1]: inverse of the Schur-updated diagonal block S_j
  std::vector<Mat4> lower_;         // [a n + j - 1]: L_j, the block of joint j acting on joint j-1 (j >= 2)
  std::vector<Mat4> upper_times_;   // [a n + j - 1]: U_{j-1} S_j^{-1} (j >= 2)
  std::vector<Eigen::Matrix<double, 4, 3>> first_lower_;       // [a]: L_1, acting on the payload joint
  std::vector<Eigen::Matrix<double, 3, 4>> root_upper_times_;  // [a]: U_0 S_1^{-1}
  Mat3 root_inverse_;
  std::vector<Vec4> reduced_rhs_;
};

}  // namespace tb::multirotor_payload
