#pragma once
// The formulations of the planar pendulum (seed 004): the minimal-coordinate ODE in the
// angle, the Cartesian index-1 DAE with the rod force as a Lagrange multiplier, the Cartesian
// constrained mechanical system and the Lie group variational integrator's form on S^1. All
// report the physical state [x, z, vx, vz] and the same observables (mechanics.hpp).

#include "core/zeno_guard.hpp"
#include "models/planar_pendulum/mechanics.hpp"

namespace tb::planar_pendulum {

// State [theta, omega]; theta'' = -(g/l) sin(theta) (seed 004 "Example: Pendulum", with
// theta from the downward vertical).
class PolarForm final : public OdeFormulation {
 public:
  // The polar angle is a minimal coordinate: the rod length holds by construction.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  PolarForm(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic) {}
  int state_size() const override { return 2; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

 private:
  Parameters p_;
  InitialCondition ic_;
};

// The unilateral link's hybrid ODE (issue 48, for the event-driven methods: an adaptive method
// that locates the switches of this form's own event functions and restarts after the jump).
// State y = [x, z, vx, vz, W, mode]: W the energy the impacts took (J), mode 1 while the link
// holds and 0 while it is slack (a constant between events: every Runge-Kutta and BDF method
// keeps a component with zero derivative exactly). The equations of each mode:
//   slack: r'' = g e_z                                   (free flight)
//   taut:  m r'' = m g e_z - lambda r,  lambda from g'' + 2p g' + p^2 g = 0 (seed 004 §3, as
//          CartesianDaeForm::multiplier), p = 4 sqrt(g / l): the drift of the index-1 reduction
//          decays four times faster than the swing's own rate, and the explicit methods' stability
//          needs h p below ~3, far above the steps their tolerances take.
// Event functions (switching_values): taut, the tension lambda |r| over m g / l (the link opens
// where it falls through 0); slack, |r| - l (it closes where that reaches 0). apply_jump changes
// the mode, and at a closing applies Newton's impact law (unilateral.hpp) and adds its loss to W.
class HybridOdeForm final : public OdeFormulation {
 public:
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  HybridOdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 6; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y.head<4>(); }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;
  bool apply_jump(double t, Eigen::VectorXd& y) const override;
  const JumpLog* jump_log() const override { return &log_; }
  // The taut mode's rod tension lambda |r| (N), Baumgarte-stabilised as its equations use it.
  double stabilised_tension(const Eigen::VectorXd& y) const;
  double baumgarte_rate() const;

 private:
  Parameters p_;
  InitialCondition ic_;
  double time_scale_;       // motion_time_scale: Zeno's unit
  mutable ZenoGuard zeno_;  // one form object per run
  mutable JumpLog log_;
};

// The unilateral link's penalty regularisation (issue 48's "no events" baseline, unilateral.hpp
// PenaltyLink), as an ODE every explicit and implicit ODE method takes without events: state
// y = [x, z, vx, vz, D], D the energy the dashpot took (J, D' = c delta'^2 while stretched), booked as the
// impacts' work. E = 1/2 m |v|^2 - m g z + 1/2 k delta+^2, so E - E0 + D is the invariant. Its switching
// function is its force's kink, the stretch delta = |r| - l (the dashpot's force steps there): a method
// that locates kinks (its locate_events setting; the reference solver always) stops there, the others step
// through it. No jump: there is no impact law to apply.
class PenaltyOdeForm final : public OdeFormulation {
 public:
  // The overstretch delta > 0 is the regularisation's own; it is observed, as a violation of |r| <= l.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  PenaltyOdeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 5; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y.head<4>(); }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;
  // The spring-dashpot's pull along r-hat (N; 0 while slack, negative where the dashpot pushes) and the
  // dashpot's power c delta'^2 (W).
  double link_force(const Eigen::Vector4d& s) const;
  double dashpot_power(const Eigen::Vector4d& s) const;

 private:
  double engaged(double stretch) const;  // the dashpot's share over its first 1e-9 l of stretch (penalty_form.cpp)
  Parameters p_;
  InitialCondition ic_;
  double k_ = 0.0, c_ = 0.0;
};

// State y = [x, z, vx, vz, lambda] (lambda algebraic). Seed 004 "Pendulum in Cartesian
// Coordinates" with L = T - V - lambda C, C = (x^2 + z^2 - l^2)/2, and the constraint
// replaced by its Baumgarte-stabilised second derivative (seed 004 §3):
//   F0 = x'  - vx
//   F1 = z'  - vz
//   F2 = m vx' + lambda x                      (m x'' = -lambda dC/dx)
//   F3 = m vz' + lambda z - m g                (m z'' = m g - lambda dC/dz; e3 down)
//   F4 = x vx' + z vz' + vx^2 + vz^2 + 2p (x vx + z vz) + p^2 C   (C'' + 2p C' + p^2 C)
// The rod tension is lambda |r|. gamma does not enter (no rotation matrix).
class CartesianDaeForm final : public DaeFormulation {
 public:
  // |r| = l and its rate r.v = 0, kept by Baumgarte stabilisation only.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  CartesianDaeForm(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic) {}
  int state_size() const override { return 5; }
  Eigen::VectorXd initial_state() const override { return consistent_initial_state({}); }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y.head<4>(); }

  Eigen::VectorXd differential_components() const override;
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const override;
  // Row 4 reaches back to column 0; rows 0, 2 reach forward two columns.
  int lower_bandwidth() const override { return 4; }
  int upper_bandwidth() const override { return 2; }

  // The multiplier that makes F2..F4 vanish at the physical state s = [x, z, vx, vz]:
  // lambda = m (g z + |v|^2 + 2p C' + p^2 C) / |r|^2, and its rate along the motion.
  double multiplier(const Eigen::Vector4d& s, const BaumgarteParameters& b) const;
  double multiplier_rate(const Eigen::Vector4d& s, const BaumgarteParameters& b) const;

 private:
  Parameters p_;
  InitialCondition ic_;
};

// The unilateral link's hybrid index-1 DAE (issue 48, for IDA: a BDF method on the DAE that locates
// the switches of this form's event functions, applies the jump and re-solves consistent values).
// State y = [x, z, vx, vz, lambda, W, mode]: lambda algebraic; W the energy the impacts took (J) and
// mode (1 taut, 0 slack) differential with zero derivative, constant between events. Residual:
//   F0,1 = r' - v;   F2,3 = m v' - m g e_z + lambda r;   F5 = W';   F6 = mode';
//   F4 taut:  r.v' + |v|^2 + 2p r.v + p^2 C   (CartesianDaeForm's Baumgarte row, seed 004 §3)
//   F4 slack: lambda                           (no tension: free flight)
// Event functions (switching_values): taut, the tension lambda |r| over tension_scale (IDA's own
// multiplier: the link opens where it falls through 0); slack, |r| - l. apply_jump is the hybrid
// ODE's (hybrid_jump: Newton's impact law, its loss added to W, the mode changed), and
// consistent_after_jump re-solves lambda and y' at the new mode before IDA restarts.
class HybridDaeForm final : public DaeFormulation {
 public:
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  HybridDaeForm(const Parameters& p, const InitialCondition& ic);
  int state_size() const override { return 7; }
  Eigen::VectorXd initial_state() const override { return consistent_initial_state({}); }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y.head<4>(); }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;
  bool apply_jump(double t, Eigen::VectorXd& y) const override;
  const JumpLog* jump_log() const override { return &log_; }

  Eigen::VectorXd differential_components() const override;
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override;
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override;
  bool consistent_after_jump(double t, Eigen::VectorXd& y, Eigen::VectorXd& yp, const BaumgarteParameters& b) const override;
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override;
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const override;
  // As CartesianDaeForm's; W and mode only on their diagonal.
  int lower_bandwidth() const override { return 4; }
  int upper_bandwidth() const override { return 2; }

 private:
  Parameters p_;
  InitialCondition ic_;
  CartesianDaeForm taut_;  // the taut mode's multiplier and its rate (its equations are this form's while taut)
  double time_scale_;       // motion_time_scale: Zeno's unit
  mutable ZenoGuard zeno_;  // one form object per run
  mutable JumpLog log_;
};

// The constrained mechanical system in Cartesian coordinates (RATTLE): q = r = (x, z),
// v = r', and M, f, g, G of NaturalCoordinates (mechanics.hpp), the same pieces the DAE uses.
// State [x, z, vx, vz] (the physical layout). The tension column is the rod force of the
// index-1 multiplier at the state (lambda = (G M^{-1} f + |v|^2) / (G M^{-1} G^T), times |r|).
class ConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  // |r| = l and r.v = 0, solved to the scheme's tolerance each step.
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  ConstrainedForm(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic), nc_(p) {}
  Eigen::VectorXd initial_state() const override;
  // Issue 48: with Parameters::unilateral the rod is a unilateral link (|r| <= l, tension >= 0, the
  // impact law with e = restitution), and the state carries the impacts' loss W after [q, v].
  bool unilateral() const override { return p_.unilateral; }
  double restitution() const override { return p_.restitution; }
  int work_terms() const override { return p_.unilateral ? 1 : 0; }
  void power(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& P) const override {
    P = Eigen::VectorXd::Zero(work_terms());  // the loss accrues only at impacts, from the integrator
  }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y.head<4>(); }

  int positions() const override { return 2; }
  int constraints() const override { return 1; }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override { Mv = nc_.mass() * v; }
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override;
  void force(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& f) const override {
    f = nc_.force();
  }
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override;
  Eigen::VectorXd constraint_scale() const override { return Eigen::VectorXd::Constant(1, nc_.constraint_scale()); }
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override;
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override;
  bool constraint_curvature(const Eigen::VectorXd&, const Eigen::VectorXd& v, Eigen::VectorXd& Hvv) const override {
    Hvv = Eigen::VectorXd::Constant(1, nc_.constraint_curvature(v.head<2>()));  // |v|^2
    return true;
  }
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& GTlambda) const override;
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override;
  // Tangents: constant gravity (K_f = C_f = 0), K_g = lambda I2 (NaturalCoordinates).
  std::string why_not_tangents() const override { return ""; }
  void constraint_force_jacobian_entries(const Eigen::VectorXd&, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override {
    for (int i = 0; i < 2; ++i) entries.emplace_back(i, i, nc_.constraint_force_tangent(lambda(0)));
  }

 private:
  Parameters p_;
  InitialCondition ic_;
  NaturalCoordinates nc_;
};

// The Lie group variational integrator on S^1 = SO(2) (lie_group_form.cpp): state
// y = [q_x, q_z, pi], q = r / l the rod's unit direction (sin theta, cos theta), moved only by
// planar rotations q_{k+1} = F_k q_k, and pi = m l^2 theta' its angular momentum about the pivot.
class LieGroupForm final : public DiscreteLieGroupFormulation {
 public:
  // |q| = 1 kept by q_{k+1} = F_k q_k to round-off, which the metric measures; the velocity
  // l omega (q_z, -q_x) is normal to q identically, so its rate holds by construction.
  IntegratedConstraints integrated_constraints() const override { return {true, false}; }
  LieGroupForm(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic) {}
  int state_size() const override { return 3; }
  Eigen::VectorXd initial_state() const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return planar_pendulum::extra_column_names(); }
  // [l q, l omega (q_z, -q_x)] with omega = pi / (m l^2): the inverse Legendre transform.
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;
  std::unique_ptr<DiscreteLieGroupStep> make_step() const override;
  const Parameters& params() const { return p_; }

 private:
  Parameters p_;
  InitialCondition ic_;
};

}  // namespace tb::planar_pendulum
