#include "integrators/step_end_impulses.hpp"

namespace tb {

bool impulses_at_step_end(const ConstrainedMechanicalFormulation& form, ConstrainedMechanicalSolver& solver,
                          const Eigen::VectorXd& q1, const Eigen::VectorXd& v_free, const Eigen::VectorXd& v0,
                          const std::vector<bool>& engaged, double tol, Eigen::VectorXd& next, StepEndImpulses& out,
                          StepFailure& failure) {
  const int n = form.positions(), m = form.constraints();
  const Eigen::VectorXd scale_inverse = form.constraint_scale().cwiseInverse();
  Eigen::VectorXd g, Gv0;
  form.constraint(q1, g);
  form.constraint_jacobian_times(q1, v0, Gv0);
  out.at_limit.assign(m, false);
  out.closing = false;
  for (int i = 0; i < m; ++i) {
    out.at_limit[i] = g[i] * scale_inverse[i] >= -tol;
    out.closing = out.closing || (out.at_limit[i] && form.one_sided(i) && Gv0[i] > 0.0 && !engaged[i]);
  }
  out.impulses = solve_impulses(form, solver, q1, v_free, v0, form.restitution(), out.at_limit);
  if (!out.impulses.ok) {
    failure = {StepFailure::Kind::SolverFailed, out.impulses.why_not};
    return false;
  }
  out.closed = closed_link_list(form, out.impulses, engaged);
  out.closings = static_cast<int>(out.closed.size());
  next.resize(form.state_size());
  next.head(n) = q1;
  next.segment(n, n) = out.impulses.v_plus;
  if (!all_finite(next.head(2 * n))) {
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }
  return true;
}

}  // namespace tb
