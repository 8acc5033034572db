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
  drive_work_ = system_.driven() ? y(2 * n_ + 1) : 0.0;
  system_.potential_gradient(t_, q_, grad_k_, magnitude_);  // does not depend on dq
  S_fixed_ = p_.cwiseAbs() + (0.5 * std::abs(h)) * magnitude_;
  if (system_.driven()) {
    system_.driven_inertia(t_, t_ + h, Ma_displacement_, Ma_velocity_change_, Ma_start_velocity_);
    driven_constant_ = inertia_factor() * Ma_displacement_ - Ma_start_velocity_;
    S_fixed_ += (1.0 / std::abs(h) + 0.5 * zeta_) * Ma_displacement_.cwiseAbs() + Ma_start_velocity_.cwiseAbs();
  } else {
    driven_constant_.setZero(n_);
  }
}

void TrapezoidalVectorSpaceStep::initial_guess(Eigen::VectorXd& dq) const {
  dq = p_ - 0.5 * h_ * grad_k_ - driven_constant_;
  system_.mass_solve_in_place(dq);
  dq /= inertia_factor();
}

void TrapezoidalVectorSpaceStep::residual(const Eigen::VectorXd& dq, Eigen::VectorXd& G) {
  system_.mass_times(dq, Mdq_);
  G = inertia_factor() * Mdq_ + 0.5 * h_ * grad_k_ - p_ + driven_constant_;
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
  const bool driven = system_.driven();
  y_next.resize(2 * n_ + (system_.carries_work() ? 1 : 0) + (driven ? 1 : 0));
  y_next.head(n_) = q_ + dq;
  system_.potential_gradient(t_ + h_, y_next.head(n_), grad_next_, magnitude_);
  // p_{k+1} = p_k - h/2 (grad V_k + grad V_{k+1}) - zeta M dq (header: increment form), with a
  // driven point's terms.
  y_next.segment(n_, n_) = p_ - 0.5 * h_ * (grad_k_ + grad_next_);
  if (zeta_ != 0.0 || system_.carries_work() || driven) system_.mass_times(dq, Mdq_);
  if (driven) {
    Mdq_ += Ma_displacement_;  // M dq + M_qa da: the chord velocity's momentum, times h
    y_next.segment(n_, n_) -= Ma_velocity_change_;
  }
  if (zeta_ != 0.0) y_next.segment(n_, n_) -= zeta_ * Mdq_;
  // W_{k+1} = W_k + zeta dq^T M dq / h: the work the discrete forces dissipate (header).
  if (system_.carries_work()) y_next(2 * n_) = work_ + zeta_ * dq.dot(Mdq_) / h_;
  if (driven)
    y_next(2 * n_ + 1) = drive_work_ + h_ * system_.drive_power(t_ + 0.5 * h_, q_ + 0.5 * dq, dq / h_);
}

}  // namespace tb
