// The commutator-free Lie group method of order 4 (Celledoni, Marthinsen & Owren 2003,
// "Commutator-free Lie group methods", Future Gener. Comput. Syst. 19, 341-352, §3, the method
// built on the classical RK4; also Owren 2006, "Order conditions for commutator-free Lie group
// methods", J. Phys. A 39, §5), fixed step, on a model's Lie group ODE form y' = xi(t, y) . y.
// Only exponentials, no commutators and no dexp^{-1}: with F_j = h xi(t + c_j h, Y_j),
//   Y1 = y0
//   Y2 = exp(F1 / 2) . y0
//   Y3 = exp(F2 / 2) . y0
//   Y4 = exp(F3 - F1 / 2) . Y2
//   y1 = exp(-F1/12 + F2/6 + F3/6 + F4/4) . exp(F1/4 + F2/6 + F3/6 - F4/12) . y0,
// where exp(B) . exp(A) . y0 applies A first. For the rotations, which SO(3) moves by right
// multiplication, "A first" is R0 exp(A) exp(B): numerics/homogeneous_product.hpp's act()
// applies each factor's own action, so composing act() calls is the group action of the product
// in that order. On a commutative group (a vector space) the two exponentials merge and the
// method is the classical RK4 (b = (1/6, 1/3, 1/3, 1/6)); its order 4 on SO(3) and S^2 is
// measured (tests/test_lie_group_methods.cpp).

#include "integrators/cf4/cf4.hpp"

#include "core/fixed_step.hpp"
#include "core/formulation.hpp"

namespace tb {
namespace {

class Cf4Stepper final : public FixedStepStepper {
 public:
  Cf4Stepper(const LieGroupOdeFormulation& form, double h, double t0)
      : FixedStepStepper(t0, h, form.initial_state()), form_(form) {}

 private:
  // F = dt xi(t, Y); false when it is not finite.
  bool field(double t, const Eigen::VectorXd& Y, double dt, Eigen::VectorXd& F) {
    form_.field(t, Y, F);
    ++counters_.rhs_evals;
    F *= dt;
    return all_finite(F);
  }

  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    const lie::HomogeneousProduct& g = form_.manifold();
    const double t = t_;
    bool finite = field(t, y_, dt, F1_);
    if (finite) g.act(0.5 * F1_, y_, Y2_), finite = field(t + 0.5 * dt, Y2_, dt, F2_);
    if (finite) g.act(0.5 * F2_, y_, Y3_), finite = field(t + 0.5 * dt, Y3_, dt, F3_);
    if (finite) g.act(F3_ - 0.5 * F1_, Y2_, Y4_), finite = field(t + dt, Y4_, dt, F4_);
    if (!finite) {
      failure = {StepFailure::Kind::Diverged, "field became non-finite (NaN/Inf) at a stage"};
      return false;
    }
    g.act((1.0 / 4.0) * F1_ + (1.0 / 6.0) * (F2_ + F3_) - (1.0 / 12.0) * F4_, y_, Y2_);  // the first exponential
    g.act(-(1.0 / 12.0) * F1_ + (1.0 / 6.0) * (F2_ + F3_) + (1.0 / 4.0) * F4_, Y2_, next);
    if (all_finite(next)) return true;
    failure = {StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)"};
    return false;
  }

  const LieGroupOdeFormulation& form_;
  Eigen::VectorXd F1_, F2_, F3_, F4_, Y2_, Y3_, Y4_;
};

}  // namespace

IntegratorInfo cf4_info() {
  return {"cf4", 4, false, MethodTraits{.on_manifold = true},
          "commutator-free Lie group method of order 4 (Celledoni-Marthinsen-Owren 2003), fixed step, explicit, exponentials only",
          {},
          consuming([](const LieGroupOdeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<Cf4Stepper>(form, s.h, t0);
          })};
}

}  // namespace tb
