#include "core/unilateral_impulse.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tb {

std::vector<bool> equality_rows(const ConstrainedMechanicalFormulation& form) {
  std::vector<bool> rows(form.constraints());
  for (int i = 0; i < form.constraints(); ++i) rows[i] = !form.one_sided(i);
  return rows;
}

ImpulseSolution solve_impulses(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                               const Eigen::VectorXd& q, const Eigen::VectorXd& v_free, const Eigen::VectorXd& v_minus,
                               double restitution, const std::vector<bool>& candidates) {
  const int m = form.constraints();
  ImpulseSolution out;
  Eigen::VectorXd Gv_free, Gv_minus, Gv_plus, Mv_free;
  form.constraint_jacobian_times(q, v_free, Gv_free);
  form.constraint_jacobian_times(q, v_minus, Gv_minus);
  form.mass_times(v_free, Mv_free);
  // The right-hand side's rows: G_A v+ = -e G_A v- on the active set.
  // Equality rows: G_i v+ = 0, always active, never pivoted (header).
  const std::vector<bool> equality = equality_rows(form);
  Eigen::VectorXd s = -restitution * Gv_minus;
  for (int i = 0; i < m; ++i)
    if (equality[i]) s[i] = 0.0;
  // Round-off of a rate w_i: its terms' size, |G_i v_free| + e |G_i v-|, times a few eps.
  double rate_scale = 0.0;
  for (int i = 0; i < m; ++i)
    if (candidates[i] && !equality[i]) rate_scale = std::max(rate_scale, std::abs(Gv_free[i]) + restitution * std::abs(Gv_minus[i]));
  const double rate_tol = 64.0 * std::numeric_limits<double>::epsilon() * rate_scale;
  // Start from the candidates whose free velocity already violates their rate condition.
  std::vector<bool> active(m, false);
  for (int i = 0; i < m; ++i)
    active[i] = equality[i] || (candidates[i] && -(Gv_free[i] + restitution * Gv_minus[i]) < -rate_tol);
  Eigen::VectorXd x, lambda;
  // Block principal pivoting (Júdice & Pires 1994, Comput. Oper. Res. 21; Kostreva 1978): every
  // infeasible index is flipped at once while their number falls; where it has not fallen for
  // kBlockTries passes, one pivot by Murty's least-index rule (finite for a P-matrix) instead. A
  // chain of links snapping one after the other needs a few passes, where least-index pivots alone
  // took more than 4 m + 8 on a ten-link cable. 20 m + 20 passes without settling are reported,
  // never looped on.
  constexpr int kBlockTries = 3;
  const int max_pivots = 20 * m + 20;
  int fewest = m + 1, tries = kBlockTries;
  std::vector<int> infeasible;
  for (out.pivots = 0; out.pivots <= max_pivots; ++out.pivots) {
    if (!solver.factor_active(q, q, active)) {
      out.why_not = "the impulse problem's saddle-point matrix is singular on the active set (dependent constraint gradients)";
      return out;
    }
    solver.solve(Mv_free, s, x, lambda);
    form.constraint_jacobian_times(q, x, Gv_plus);
    double impulse_scale = 0.0;
    for (int i = 0; i < m; ++i)
      if (active[i] && !equality[i]) impulse_scale = std::max(impulse_scale, std::abs(lambda[i]));
    const double impulse_tol = 64.0 * std::numeric_limits<double>::epsilon() * impulse_scale;
    infeasible.clear();
    for (int i = 0; i < m; ++i) {
      if (!candidates[i] || equality[i]) continue;
      if (active[i] ? lambda[i] < -impulse_tol : -(Gv_plus[i] + restitution * Gv_minus[i]) < -rate_tol) infeasible.push_back(i);
    }
    if (infeasible.empty()) {
      out.ok = true;
      out.v_plus = x;
      out.impulse = Eigen::VectorXd::Zero(m);
      for (int i = 0; i < m; ++i)
        if (active[i]) out.impulse[i] = lambda[i];
      out.active = active;
      out.energy_taken = 0.5 * out.impulse.dot(Gv_plus + Gv_free);
      return out;
    }
    const int count = static_cast<int>(infeasible.size());
    if (count < fewest) fewest = count, tries = kBlockTries;
    if (tries > 0) {
      --tries;
      for (int i : infeasible) active[i] = !active[i];
    } else {
      active[infeasible.front()] = !active[infeasible.front()];  // Murty's least index
    }
  }
  out.why_not = "the impulse problem's block principal pivoting did not settle in " + std::to_string(max_pivots) + " passes";
  return out;
}

double energy_taken_by_impulses(const ConstrainedMechanicalFormulation& form, double t, const Eigen::VectorXd& y_next,
                                const Eigen::VectorXd& q_free, const Eigen::VectorXd& v_free) {
  const int n = form.positions();
  Eigen::VectorXd y_free = y_next;
  y_free.head(n) = q_free;
  y_free.segment(n, n) = v_free;
  return form.observe(t, y_free).energy - form.observe(t, y_next).energy;
}

}  // namespace tb
