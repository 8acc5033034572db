#pragma once
// The work of dissipative forces on a constrained mechanical form (y = [q, v, W], the form's
// work_terms(), core/formulation.hpp), advanced over one step by the trapezoidal rule on its
// power:  W_{k+1} = W_k + h/2 (P(t_k, q_k, v_k) + P(t_{k+1}, q_{k+1}, v_{k+1})).
// Symmetric and of order 2, like the fixed-step schemes that share it (rattle, rattle4,
// generalized_alpha); the energy balance E(t) - E(0) + W(t) is then measured to the scheme's
// order, not to a cruder quadrature of the dissipation.

#include <Eigen/Dense>

#include "core/formulation.hpp"

namespace tb {

class TrapezoidalWork {
 public:
  explicit TrapezoidalWork(const ConstrainedMechanicalFormulation& form) : form_(form), w_(form.work_terms()) {}
  int terms() const { return w_; }
  // Writes W_{k+1} into the last terms() entries of y_next from W_k, the last terms() entries
  // of y (nothing when the form has no work terms).
  void advance(double t, double h, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0, const Eigen::VectorXd& q1,
               const Eigen::VectorXd& v1, const Eigen::VectorXd& y, Eigen::VectorXd& y_next) {
    if (w_ == 0) return;
    form_.power(t, q0, v0, P0_);
    form_.power(t + h, q1, v1, P1_);
    y_next.tail(w_) = y.tail(w_) + 0.5 * h * (P0_ + P1_);
  }

 private:
  const ConstrainedMechanicalFormulation& form_;
  int w_;
  Eigen::VectorXd P0_, P1_;
};

}  // namespace tb
