// Symplectic Euler (Hairer-Lubich-Wanner, Geometric Numerical Integration, VI.3, Thm. 3.3), a
// PARTITIONED method: it treats positions and velocities differently,
//   v_{n+1} = v_n + h M^-1 f(t_n, q_n, v_n),   q_{n+1} = q_n + h v_{n+1},
// so it needs a form whose state is split into q and v with q' = v. The suite's embedded ODE
// form is not: its state is one vector y' = f(t, y), and on a rigid body the rotation's rows obey
// R' = R hat(Omega), not q' = v. The form with the split is the constrained mechanical system in
// natural coordinates (core/formulation.hpp, ConstrainedMechanicalFormulation): y = [q, v, W],
// q' = v, M v' = f(t, q, v) - G^T lambda, g(q) = 0, with a constant mass matrix M. With no
// constraints (constraints() == 0: the elastic pendulum, the hanging tether) it is the plain
// second-order system this method integrates; with constraints it would need RATTLE's projection,
// so it declines those forms (IntegratorInfo::why_not: the run is "n/a: ...", not a failure).
//
// Order 1, explicit, symplectic for a force that does not depend on v (Thm. VI.3.3): its energy
// error stays bounded (a modified energy is conserved, HLW IX.8), unlike explicit Euler's. Not
// symmetric: its adjoint is the other symplectic Euler (q first); their composition is
// Stormer-Verlet, the built-in rattle on these forms.
#include "symplectic_euler.hpp"

#include "core/fixed_step.hpp"

namespace my_methods {
namespace {

using namespace tb;

class SymplecticEulerStepper final : public FixedStepStepper {
 public:
  SymplecticEulerStepper(const ConstrainedMechanicalFormulation& form, double h, double t0)
      : FixedStepStepper(t0, h, form.initial_state()), form_(form), n_(form.positions()), solver_(form.make_solver()) {
    // M is constant: one factorisation of the (unconstrained) system [M] serves every step.
    const Eigen::VectorXd q0 = y_.head(n_);
    if (!solver_->factor(q0, q0)) throw std::invalid_argument("symplectic_euler: the mass matrix is singular");
  }

 private:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    const auto q = y_.head(n_), v = y_.segment(n_, n_);
    form_.force(t_, q, v, f_);
    solver_->solve(f_, no_constraints_, a_, lambda_);  // a = M^-1 f
    counters_.rhs_evals += 1;
    next.resize(y_.size());
    next.segment(n_, n_) = v + dt * a_;
    next.head(n_) = q + dt * next.segment(n_, n_);
    // The work of dissipative forces (the energy balance's W) by the trapezoidal rule, as the
    // form asks of every scheme (core/formulation.hpp, work_terms()).
    if (const int w = form_.work_terms(); w > 0) {
      form_.power(t_, q, v, p0_);
      form_.power(t_ + dt, next.head(n_), next.segment(n_, n_), p1_);
      next.tail(w) = y_.tail(w) + dt / 2 * (p0_ + p1_);
    }
    if (all_finite(next)) return true;
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }

  const ConstrainedMechanicalFormulation& form_;
  const int n_;
  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  const Eigen::VectorXd no_constraints_ = Eigen::VectorXd(0);
  Eigen::VectorXd f_, a_, lambda_, p0_, p1_;
};

}  // namespace

IntegratorInfo symplectic_euler_info() {
  IntegratorInfo info{"symplectic_euler", /*order=*/1, /*adaptive=*/false,
                      // Symplectic, explicit; stable on the imaginary axis for |h w| < 2, as Stormer-Verlet.
                      MethodTraits{.symplectic = true},
                      "symplectic Euler (v then q), fixed step, on the unconstrained constrained-mechanical form",
                      /*settings=*/{},
                      // It consumes the constrained mechanical form because its factory takes one.
                      consuming([](const ConstrainedMechanicalFormulation& form, const IntegratorSettings& s, double t0) {
                        return std::make_unique<SymplecticEulerStepper>(form, s.h, t0);
                      })};
  // A form with constraints needs a projection onto g(q) = 0 this method does not have.
  info.why_not = [](const Formulation& form) -> std::string {
    const auto& cm = dynamic_cast<const ConstrainedMechanicalFormulation&>(form);
    if (cm.constraints() == 0) return "";
    return "symplectic_euler integrates q' = v, M v' = f without constraints; this form has " +
           std::to_string(cm.constraints()) + " (use rattle)";
  };
  return info;
}

}  // namespace my_methods
