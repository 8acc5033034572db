// The hanging tether built from a case file's [model] and [initial] tables: the forms of the
// discretisation the case chose (lumped or full, consistent mass) that it offers, and for the
// other kinds the reason.

#include "models/hanging_tether/model.hpp"

#include "core/format.hpp"
#include "core/linear_modes.hpp"
#include "models/hanging_tether/static_equilibrium.hpp"
#include "mechanics/elastic_element.hpp"
#include "mechanics/unconstrained_dae.hpp"

namespace tb::hanging_tether {

HangingTetherModel::HangingTetherModel(const Parameters& p, InitialShape shape) : p_(p), shape_(shape) {}

std::vector<std::string> HangingTetherModel::discretisations() const { return {to_string(p_.discretisation)}; }

bool HangingTetherModel::offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const {
  if (discretisation != to_string(p_.discretisation)) {
    why_not = "this hanging tether is discretised as \"" + to_string(p_.discretisation) + "\" ([model] discretisation)";
    return false;
  }
  switch (kind) {
    case FormulationKind::EmbeddedOde:
      return true;
    case FormulationKind::DiscreteLieGroup:
      return true;  // trapezoidal L_d in the node positions, damping by discrete Lagrange-d'Alembert (lie_group_form.cpp)
    case FormulationKind::IndexOneDae:
      return true;  // no constraints: the implicit ODE M v' = f, the damping work node by node (UnconstrainedDaeOf)
    case FormulationKind::ConstrainedMechanical:
      return true;  // constant mass, no constraints: Stoermer-Verlet, the damping work as a work term
    case FormulationKind::LieGroupOde:
      why_not = "its configuration space (R^3)^N is a vector space (an abelian group): exp is the translation and "
                "dexp^-1 the identity, so a Lie group method on this form would be its vector-space counterpart on the "
                "embedded-ode form step for step (a Munthe-Kaas or commutator-free method its Runge-Kutta method)";
      return false;
  }
  why_not = "unknown formulation";
  return false;
}

std::unique_ptr<Formulation> HangingTetherModel::build(FormulationKind kind, const std::string&) const {
  if (kind == FormulationKind::ConstrainedMechanical) return std::make_unique<ConstrainedTetherForm>(p_, shape_);
  if (kind == FormulationKind::DiscreteLieGroup) return std::make_unique<LieGroupTetherForm>(p_, shape_);
  if (kind == FormulationKind::IndexOneDae) return std::make_unique<UnconstrainedDaeOf<ConstrainedTetherForm>>(p_, shape_);
  return std::make_unique<TetherForm>(p_, shape_);
}

std::shared_ptr<const HangingTetherModel> make_model(const Parameters& p, InitialShape shape) {
  auto model = std::make_shared<HangingTetherModel>(p, shape);
  model->declare_no_rotations();  // point masses only: no R to keep orthogonal
  model->declare_no_momentum_map();  // fixed anchors and gravity: no symmetry, no Noether momentum
  if (p.damping_rate > 0.0) model->declare_damped();  // -zeta M v on every node
  // The tension-only elements' kinks (core/switching.hpp): N elements from A through the free
  // nodes r_1 .. r_{N-1} (the physical state's first 3(N - 1) numbers, their velocities next) to B.
  if (p.tension_only)
    model->declare_switching({p.N, chain_stretch_meaning(), [p](double t, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                                                Eigen::VectorXd& rate) {
                                const int free = p.N - 1;
                                Eigen::Matrix3Xd points(3, p.N + 1), velocities = Eigen::Matrix3Xd::Zero(3, p.N + 1);
                                // A(t) and its velocity (a driven anchor moves element 0's end).
                                points.col(0) = p.A + p.drive.displacement(t) * Vec3::UnitZ();
                                velocities.col(0) = p.drive.velocity(t) * Vec3::UnitZ();
                                points.col(p.N) = p.B;
                                points.middleCols(1, free) = y.head(3 * free).reshaped(3, free);
                                velocities.middleCols(1, free) = y.segment(3 * free, 3 * free).reshaped(3, free);
                                chain_stretches(points, velocities, p.u(), s, rate);
                              }, p.kappa()});
  // The slowest period from the linearisation about the hanging equilibrium (core/linear_modes.hpp):
  // the discretisation's static shape, which the model solves itself (static_equilibrium.hpp:
  // Newton with a line search from a pre-stretched parabola; a plain Newton from the unstretched
  // parabola meets compressed elements, whose negative stiffness sends it away). The damping
  // -zeta M v is left out: the undamped periods.
  declare_linearised_slowest_period(
      *model, [p] { return ConstrainedTetherForm(p, InitialShape::Parabola); },
      [p](const ConstrainedTetherForm& form) {
        const StaticSolution rest = solve_static_equilibrium(Mechanics(p));
        Eigen::VectorXd q(form.positions());
        for (int a = 1; a < p.N; ++a) q.segment<3>(3 * (a - 1)) = rest.r[size_t(a)];  // the free nodes r_1 .. r_{N-1}
        return q;
      },
      "the hanging equilibrium (the discrete elastic catenary)");
  return model;
}

namespace {

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.N = model.positive_integer("elements");
  p.discretisation = model.one_of("discretisation", {"lumped", "full"}) == "lumped" ? Discretisation::Lumped
                                                                                  : Discretisation::Full;
  p.mu = model.positive("string_density");
  p.length = model.positive("string_length");
  p.EA = model.positive("EA");
  p.g = model.positive("gravity");
  p.A = model.vec3("anchor_A");
  p.B = model.vec3("anchor_B");
  // Documented default 0 (undamped) in cases/README.md; the bundled cases write it out.
  p.damping_rate = model.non_negative_or("damping_rate", 0.0);
  // The seed's elements push when compressed; a cable's cannot (issue 47).
  if (model.has("cable")) p.tension_only = model.one_of("cable", {"bilateral", "tension_only"}) == "tension_only";
  // The top anchor A driven down by anchor_A_drop (m) over anchor_A_drop_time (s) (anchor_drive.hpp):
  // both or neither.
  if (model.has("anchor_A_drop") || model.has("anchor_A_drop_time")) {
    p.drive.drop = model.positive("anchor_A_drop");
    p.drive.duration = model.positive("anchor_A_drop_time");
  }
  if (p.N < 2) model.fail("elements", "an integer >= 2 (at least one free node)", std::to_string(p.N));
  {
    const Vec3 chord = p.B - p.A;
    const double span = (chord - chord.z() * Vec3::UnitZ()).norm();
    if (!(span > 1e-9 * p.length) || !(chord.norm() < p.length))
      model.fail("anchor_B", "a hanging tether: B - A with a horizontal span > 0 and |B - A| < string_length",
                 "|B - A| = " + format_g(chord.norm(), 6) + " m, horizontal span " + format_g(span, 6) +
                     " m, string_length " + format_g(p.length, 6) + " m");
    if (p.drive.active() && !((chord - p.drive.drop * Vec3::UnitZ()).norm() < p.length))
      model.fail("anchor_A_drop", "a drop after which the chord is still shorter than string_length",
                 "|B - A(T)| = " + format_g((chord - p.drive.drop * Vec3::UnitZ()).norm(), 6) + " m");
  }
  model.finish();

  const std::string shape = initial.one_of("shape", {"straight", "parabola", "equilibrium"});
  initial.finish();
  return make_model(p, shape == "straight"   ? InitialShape::Straight
                       : shape == "parabola" ? InitialShape::Parabola
                                             : InitialShape::Equilibrium);
}

}  // namespace

ModelInfo info() {
  return {"hanging_tether",
          "elastic tether hanging between two fixed points, lumped or full (consistent) mass (seed 004 slides)",
          build_from_case};
}

}  // namespace tb::hanging_tether
