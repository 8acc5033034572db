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

std::vector<bool> closed_links(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                               const std::vector<bool>& held) {
  std::vector<bool> closed(form.constraints());
  for (int i = 0; i < form.constraints(); ++i)
    closed[i] = form.one_sided(i) && !held[i] && solution.active[i] && solution.impulse[i] > 0.0;
  return closed;
}

std::vector<ClosedLink> closed_link_list(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                                         const std::vector<bool>& held) {
  const std::vector<bool> closed = closed_links(form, solution, held);
  const Eigen::VectorXd scale = form.constraint_scale();
  std::vector<ClosedLink> out;
  int element = 0;  // the row's index among the one-sided rows
  for (int i = 0; i < form.constraints(); ++i) {
    if (!form.one_sided(i)) continue;
    if (closed[i]) out.push_back({element, solution.rate_minus.size() == form.constraints() ? solution.rate_minus[i] / scale[i] : 0.0});
    ++element;
  }
  return out;
}

int links_closed(const ConstrainedMechanicalFormulation& form, const ImpulseSolution& solution,
                 const std::vector<bool>& held) {
  const std::vector<bool> closed = closed_links(form, solution, held);
  return static_cast<int>(std::count(closed.begin(), closed.end(), true));
}

ImpulseSolution solve_impulses(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                               const Eigen::VectorXd& q, const Eigen::VectorXd& v_free, const Eigen::VectorXd& v_minus,
                               double restitution, const std::vector<bool>& candidates) {
  const int m = form.constraints();
  ImpulseSolution out;
  Eigen::VectorXd Gv_free, Gv_minus, Gv_plus, Mv_free;
  form.constraint_jacobian_times(q, v_free, Gv_free);
  form.constraint_jacobian_times(q, v_minus, Gv_minus);
  out.rate_minus = Gv_minus;
  form.mass_times(v_free, Mv_free);
  // The right-hand side's rows: G_A v+ = -e G_A v- on the active set.
  // Equality rows: G_i v+ = 0, always active, never pivoted (header).
  const std::vector<bool> equality = equality_rows(form);
  Eigen::VectorXd s = -restitution * Gv_minus;
  for (int i = 0; i < m; ++i)
    if (equality[i]) s[i] = 0.0;
  // Round-off of a rate w_i: its terms' size times a few eps. The terms of G_i v are the gradient's
  // entries (sqrt of the row's constraint_scale: |d| ~ l on a link) times the velocities, not their
  // sum: links at rest along themselves have rates of 0 made of terms of size l |v| (a ten-link
  // chain's whole set of rates at 1e-16 m^2/s once read a -2e-16 as a violation, against a
  // tolerance formed from those rates themselves).
  const Eigen::VectorXd scale = form.constraint_scale();
  const double speed = std::max(v_free.cwiseAbs().maxCoeff(), restitution * v_minus.cwiseAbs().maxCoeff());
  double rate_scale = 0.0;
  for (int i = 0; i < m; ++i)
    if (candidates[i] && !equality[i]) rate_scale = std::max(rate_scale, std::sqrt(scale[i]) * speed);
  const double rate_tol = 64.0 * std::numeric_limits<double>::epsilon() * rate_scale;
  // The LCP as the convex problem it is (W symmetric positive definite on the candidates): the
  // impulses minimise 1/2 P^T W P + P^T (G v_free + e G v-) over P >= 0. Solved by the active-set
  // method of Lawson & Hanson (Solving Least Squares Problems, 1974, ch. 23, NNLS) in the impulses:
  // from P = 0 the candidate with the most negative rate condition joins the active set; where
  // the solve on the new set makes an active impulse non-positive, P moves along the segment to
  // the first one that reaches 0 and drops it. The objective falls strictly at each pass, so no
  // set repeats and the method ends in finitely many passes (a few per closing link on a cable:
  // Murty's least-index pivoting took more than 4 m + 8 on a ten-link chain, and block pivoting
  // did not settle in 20 m + 20 on one). Every solve is on the form's structured solver.
  std::vector<bool> active = equality;
  Eigen::VectorXd x, lambda, x_new, lambda_new;
  const auto solve_on = [&](Eigen::VectorXd& xs, Eigen::VectorXd& ls) {
    ++out.pivots;
    if (!solver.factor_active(q, q, active)) return false;
    solver.solve(Mv_free, s, xs, ls);
    for (int i = 0; i < m; ++i)
      if (!active[i]) ls[i] = 0.0;
    return xs.allFinite() && ls.allFinite();
  };
  const std::string singular =
      "the impulse problem's saddle-point matrix is singular on the active set (dependent constraint gradients)";
  if (!solve_on(x, lambda)) {
    out.why_not = singular;
    return out;
  }
  int unknowns = 0;
  for (int i = 0; i < m; ++i) unknowns += candidates[i] && !equality[i];
  const int max_passes = 3 * unknowns + 10;
  std::vector<bool> unresolved(m, false);
  for (int pass = 0;; ++pass) {
    form.constraint_jacobian_times(q, x, Gv_plus);
    int join = -1;
    double most = -rate_tol;
    for (int i = 0; i < m; ++i) {
      if (!candidates[i] || equality[i] || active[i] || unresolved[i]) continue;
      const double w = -(Gv_plus[i] + restitution * Gv_minus[i]);
      if (w < most) most = w, join = i;
    }
    if (join < 0) break;  // every rate condition holds, every active impulse positive: the solution
    if (pass >= max_passes) {
      out.why_not = "the impulse problem's active-set method did not settle in " + std::to_string(max_passes) + " passes";
      return out;
    }
    active[join] = true;
    for (int inner = 0; inner <= unknowns; ++inner) {
      if (!solve_on(x_new, lambda_new)) {
        out.why_not = singular;
        return out;
      }
      if (inner == 0 && !(lambda_new[join] > 0.0)) {
        // A violated rate must take a positive impulse when it joins (its Schur complement in W is
        // positive); where round-off says otherwise the violation is below what the system resolves
        // (rates of 1e-13 m^2/s on a ten-link chain whose held links' own rates are of that size):
        // Lawson and Hanson's safeguard, the index is set aside and the set kept.
        active[join] = false;
        unresolved[join] = true;
        break;
      }
      double alpha = 1.0;
      for (int i = 0; i < m; ++i)
        if (active[i] && !equality[i] && lambda_new[i] <= 0.0)
          alpha = std::min(alpha, lambda[i] / (lambda[i] - lambda_new[i]));
      if (alpha >= 1.0) {
        x = x_new, lambda = lambda_new;
        break;
      }
      x += alpha * (x_new - x);
      lambda += alpha * (lambda_new - lambda);
      double impulse_size = 0.0;
      for (int i = 0; i < m; ++i)
        if (active[i] && !equality[i]) impulse_size = std::max(impulse_size, std::abs(lambda[i]));
      for (int i = 0; i < m; ++i)
        if (active[i] && !equality[i] && lambda[i] <= 64.0 * std::numeric_limits<double>::epsilon() * impulse_size)
          active[i] = false, lambda[i] = 0.0;
    }
  }
  out.ok = true;
  out.v_plus = x;
  out.impulse = Eigen::VectorXd::Zero(m);
  for (int i = 0; i < m; ++i)
    if (active[i]) out.impulse[i] = lambda[i];
  out.active = active;
  out.energy_taken = 0.5 * out.impulse.dot(Gv_plus + Gv_free);
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
