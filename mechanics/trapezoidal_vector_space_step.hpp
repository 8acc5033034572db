#pragma once
// The variational integrator of a mechanical system on a vector space Q = R^n with a constant
// mass matrix M, a potential V(q) and an optional viscous force F = -zeta M qdot, in the
// position-momentum form the Lie group variational integrators use (seed 003 Algorithm 1 with no
// group component; DiscreteLieGroupStep). Shared by every model whose configuration space is a
// vector space (the elastic pendulum's point mass, the hanging tether's free nodes).
//
// Discrete Lagrangian: the trapezoidal rule (Marsden & West 2001, Acta Numerica 10, §2.2.1 and
// §2.6; the quadrature seed 000 (17) uses for Model A's string),
//   L_d(q_k, q_{k+1}) = 1/(2h) dq^T M dq - h/2 (V(q_k) + V(q_{k+1})),   dq = q_{k+1} - q_k.
// Forcing: the discrete Lagrange-d'Alembert principle (Marsden & West 2001 §3.2, (3.2.3)-(3.2.6);
// Kane, Marsden, Ortiz & West 2000, IJNME 49, §4), with the left and right discrete forces the
// midpoint rule of F split evenly between the two ends,
//   f_d^-(q_k, q_{k+1}) = f_d^+(q_k, q_{k+1}) = h/2 F(q_mid, dq/h) = -(zeta/2) M dq.
// The discrete forced Legendre transforms (Marsden & West (3.2.7)),
//   p_k     = -D_1 L_d - f_d^- = M dq / h + h/2 grad V(q_k) + (zeta/2) M dq,
//   p_{k+1} =  D_2 L_d + f_d^+ = M dq / h - h/2 grad V(q_{k+1}) - (zeta/2) M dq,
// give the step: the first is the implicit equation G(dq) = 0 for the unknowns dq,
//   G(dq) = (1/h + zeta/2) M dq + h/2 grad V(q_k) - p_k,
// linear in dq with the Newton matrix (1/h + zeta/2) M (one structured solve with the factored
// M: block-tridiagonal along a string, O(N)); the second, in increment form (subtracting the
// two at the solution),
//   p_{k+1} = p_k - h/2 (grad V(q_k) + grad V(q_{k+1})) - zeta M dq,
// the O(1) momentum plus the step's O(h) impulse, never re-formed from dq / h (which would carry
// the residual Newton stopped at into the momentum). With zeta = 0 this is Stoermer-Verlet.
//
// Symmetry (lgvi4 composes the step, DiscreteLieGroupFormulation::why_not_time_symmetric):
// L_d(q_1, q_0, -h) = -L_d(q_0, q_1, h), and f_d^-(q_1, q_0, -h) = -f_d^+(q_0, q_1, h) (the
// midpoint force at the chord velocity is even under the swap with h -> -h, and the factor h/2
// odd), so the step of size -h from (q_{k+1}, p_{k+1}) solves the same two equations read
// backwards and returns (q_k, p_k): the step is symmetric (HLW II.3 Def. 3.1) for any zeta.
// (A force evaluated at one end, F(q_k, .), would not be.)
//
// The work of the discrete forces along the step (the energy balance's W, Observation::
// external_work): the forces' impulse f_d^- + f_d^+ = h F(q_mid, dq/h) against the step's
// displacement over its duration, (f_d^- + f_d^+) . dq / h = -zeta dq^T M dq / h, i.e. the
// dissipated work grows by
//   W_{k+1} = W_k + zeta dq^T M dq / h,
// the midpoint rule of the dissipated power zeta v^T M v = 2 zeta T at the chord velocity dq/h
// (second order, like the step; negative for h < 0, so the round trip restores W too).
//
// A driven point (a system whose kinetic energy also holds prescribed coordinates a(t), e.g. the
// tether's moving anchor: T = 1/2 qdot^T M qdot + qdot^T M_qa adot + 1/2 adot^T M_aa adot, and
// V(q, a(t))): the trapezoidal L_d over q and a, with a_k = a(t_k) given, adds M_qa da / h to the
// step's M dq / h (da = a(t_{k+1}) - a(t_k)), and the damping's chord velocity likewise, so
//   G(dq) = (1/h + zeta/2) (M dq + M_qa da) + h/2 grad V(t_k, q_k) - p_k,
// with p_k = p~_k + M_qa adot(t_k) the conjugate momentum. The state carries p~ = p - M_qa adot
// (= M qdot, so that the layout does not depend on t), whose update in increment form is
//   p~_{k+1} = p~_k - h/2 (grad V_k + grad V_{k+1}) - zeta (M dq + M_qa da) - M_qa (adot(t_{k+1}) - adot(t_k)),
// da and the velocity change from the system in increment form. The change of variables at both
// ends of a step keeps the step symmetric (the step of -h from t_{k+1} solves the same equations).
// The dissipated work becomes zeta dq.(M dq + M_qa da) / h, the drag on the free coordinates at
// the chord velocity; the driver's integrated work W~ (the system's drive_power P~, see e.g.
// models/hanging_tether/mechanics.hpp) advances by the midpoint rule at the chord velocity,
//   W~_{k+1} = W~_k + h P~(t_k + h/2, q_k + dq/2, dq/h),
// second order and odd under the step's reversal, like the step.
//
// State layout: y = [q (n), p (n)] and, when the system carries it, the dissipated work W after
// them, and W~ after W where the system drives a point.

#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

// What the step needs of the system (the model implements it).
class VectorSpaceLagrangian {
 public:
  virtual ~VectorSpaceLagrangian() = default;
  virtual int size() const = 0;  // n = dim Q
  // M a, and M^{-1} b in place (a factored, structured M).
  virtual void mass_times(const Eigen::VectorXd& a, Eigen::VectorXd& Ma) const = 0;
  virtual void mass_solve_in_place(Eigen::VectorXd& b) const = 0;
  // grad V(t, q), and the magnitudes of the terms that make each of its components (differences
  // inside a term counted by their operands), for the residual's round-off floor (t: where a
  // driven point is).
  virtual void potential_gradient(double t, const Eigen::VectorXd& q, Eigen::VectorXd& grad,
                                  Eigen::VectorXd& magnitude) const = 0;
  // zeta >= 0 of the viscous force -zeta M qdot.
  virtual double damping_rate() const { return 0.0; }
  // Whether the state carries the dissipated work W after [q, p] (one trailing entry).
  virtual bool carries_work() const { return false; }
  // Whether the system drives a point (header); it then carries W and W~ after [q, p].
  virtual bool driven() const { return false; }
  // M_qa times the driven point's displacement a(t1) - a(t0), its velocity change
  // adot(t1) - adot(t0) (both in increment form) and its velocity adot(t0).
  virtual void driven_inertia(double /*t0*/, double /*t1*/, Eigen::VectorXd& displacement, Eigen::VectorXd& velocity_change,
                              Eigen::VectorXd& start_velocity) const {
    displacement.setZero(size());
    velocity_change.setZero(size());
    start_velocity.setZero(size());
  }
  // P~(t, q, qdot), the driver's power that the state integrates (header).
  virtual double drive_power(double /*t*/, const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/) const { return 0.0; }
};

class TrapezoidalVectorSpaceStep final : public DiscreteLieGroupStep {
 public:
  // M's entries must be non-negative (a lumped or consistent linear-element mass): |M| |a| = M |a|
  // is then the floor's magnitude of M a.
  explicit TrapezoidalVectorSpaceStep(std::shared_ptr<const VectorSpaceLagrangian> system);
  int unknowns() const override { return n_; }
  void set_start_time(double t) override { t_ = t; }
  void begin(const Eigen::VectorXd& y, double h) override;
  // The solution of the (linear) step equation: dq = (1/h + zeta/2)^{-1} M^{-1} (p_k - h/2 grad V(q_k)).
  void initial_guess(Eigen::VectorXd& dq) const override;
  void residual(const Eigen::VectorXd& dq, Eigen::VectorXd& G) override;
  // (1/|h| + zeta/2) M |dq| + h/2 |grad V(q_k)| (by operands) + |p_k|, component by component.
  void residual_magnitudes(Eigen::VectorXd& S) const override { S = S_; }
  // The position increments are one group (the configuration's units).
  void unknown_groups(std::vector<int>& group) const override { group.assign(n_, 0); }
  bool newton_correction(const Eigen::VectorXd& dq, const Eigen::VectorXd& G, Eigen::VectorXd& correction) override;
  void complete(const Eigen::VectorXd& dq, Eigen::VectorXd& y_next) override;

 private:
  double inertia_factor() const { return 1.0 / h_ + 0.5 * zeta_; }  // of M dq in G: 1/h + zeta/2

  std::shared_ptr<const VectorSpaceLagrangian> keep_;  // the system, shared with the form
  const VectorSpaceLagrangian& system_;
  const int n_;
  const double zeta_;
  double t_ = 0.0, h_ = 0.0, work_ = 0.0, drive_work_ = 0.0;
  Eigen::VectorXd q_, p_, grad_k_, grad_next_, magnitude_, S_fixed_, S_, Mdq_, M_abs_dq_;
  // A driven point's M_qa da, M_qa (adot_{k+1} - adot_k), M_qa adot_k, and G's constant part
  // (1/h + zeta/2) M_qa da - M_qa adot_k (zero without one).
  Eigen::VectorXd Ma_displacement_, Ma_velocity_change_, Ma_start_velocity_, driven_constant_;
};

}  // namespace tb
