#include "mechanics/trapezoidal_vector_space_step.hpp"

#include <cmath>
#include <utility>

namespace tb {

TrapezoidalVectorSpaceStep::TrapezoidalVectorSpaceStep(std::shared_ptr<const VectorSpaceLagrangian> system)
    : keep_(std::move(system)), system_(*keep_), n_(system_.size()), zeta_(system_.damping_rate()) {}

void TrapezoidalVectorSpaceStep::begin(const Eigen::VectorXd& y, double h) {
  h_ = h;
  q_ = y.head(n_);
  p_ = y.segment(n_, n_);
  work_ = system_.carries_work() ? y(2 * n_) : 0.0;
  system_.potential_gradient(q_, grad_k_, magnitude_);  // does not depend on dq
  S_fixed_ = p_.cwiseAbs() + (0.5 * std::abs(h)) * magnitude_;
}

void TrapezoidalVectorSpaceStep::initial_guess(Eigen::VectorXd& dq) const {
  dq = p_ - 0.5 * h_ * grad_k_;
  system_.mass_solve_in_place(dq);
  dq /= inertia_factor();
}

void TrapezoidalVectorSpaceStep::residual(const Eigen::VectorXd& dq, Eigen::VectorXd& G) {
  system_.mass_times(dq, Mdq_);
  G = inertia_factor() * Mdq_ + 0.5 * h_ * grad_k_ - p_;
  system_.mass_times(dq.cwiseAbs(), M_abs_dq_);
  S_ = (1.0 / std::abs(h_) + 0.5 * zeta_) * M_abs_dq_ + S_fixed_;  // M dq / h and zeta/2 M dq, term by term
}

bool TrapezoidalVectorSpaceStep::newton_correction(const Eigen::VectorXd& /*dq*/, const Eigen::VectorXd& G,
                                                   Eigen::VectorXd& correction) {
  // dG/d(dq) = (1/h + zeta/2) M, singular only at zeta h = -2 (a backward substep that undoes
  // the damping completely).
  const double factor = inertia_factor();
  if (!(std::isfinite(factor) && factor != 0.0)) return false;
  correction = -G;
  system_.mass_solve_in_place(correction);
  correction /= factor;
  return true;
}

void TrapezoidalVectorSpaceStep::complete(const Eigen::VectorXd& dq, Eigen::VectorXd& y_next) {
  y_next.resize(2 * n_ + (system_.carries_work() ? 1 : 0));
  y_next.head(n_) = q_ + dq;
  system_.potential_gradient(y_next.head(n_), grad_next_, magnitude_);
  // p_{k+1} = p_k - h/2 (grad V_k + grad V_{k+1}) - zeta M dq (header: increment form).
  y_next.segment(n_, n_) = p_ - 0.5 * h_ * (grad_k_ + grad_next_);
  if (zeta_ != 0.0 || system_.carries_work()) system_.mass_times(dq, Mdq_);
  if (zeta_ != 0.0) y_next.segment(n_, n_) -= zeta_ * Mdq_;
  // W_{k+1} = W_k + zeta dq^T M dq / h: the work the discrete forces dissipate (header).
  if (system_.carries_work()) y_next(2 * n_) = work_ + zeta_ * dq.dot(Mdq_) / h_;
}

}  // namespace tb
