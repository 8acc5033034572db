#pragma once
// The seam between models and integrators (SPEC "Formulations"). A model offers some of
// these formulations of one semi-discrete mechanical system; an integrator consumes exactly
// one kind. Observables are computed by the model from any formulation's state, so every
// integrator is measured by the same code.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "numerics/homogeneous_product.hpp"
#include "core/invariant_values.hpp"
#include "core/jump_log.hpp"
#include "core/switching.hpp"

namespace tb {

// The equation type a formulation is written as, which is what an integrator consumes. How
// the continuum is discretised (consistent or lumped string mass, ...) is a separate choice
// the model offers (Model::discretisations), so every ODE integrator runs every ODE form.
enum class FormulationKind {
  DiscreteLieGroup,  // discrete Lagrangian on R^k x SO(3) x (S^2)^n, implicit step in group parameters
  EmbeddedOde,       // first-order ODE, R as 9 numbers, S^2 directions as 3-vectors
  IndexOneDae,       // index-1 DAE in natural coordinates: Baumgarte-stabilised constraints, or an implicit ODE M v' = f
  ConstrainedMechanical,  // M q'' = f - G^T lambda, g(q) = 0 in natural coordinates, M constant or M(q) (SHAKE-type, alpha methods)
  LieGroupOde,       // y' = xi(y) . y on a product of SO(3), S^2 and vector spaces (RKMK, commutator-free methods)
};
inline constexpr FormulationKind kAllFormulationKinds[] = {
    FormulationKind::DiscreteLieGroup, FormulationKind::EmbeddedOde, FormulationKind::IndexOneDae,
    FormulationKind::ConstrainedMechanical, FormulationKind::LieGroupOde};

std::string to_string(FormulationKind kind);

// What a model reports about a state at one sample time.
struct Observation {
  double energy = 0.0;             // total energy E = T + V (J)
  double kinetic = 0.0;            // kinetic energy T (J)
  double momentum = 0.0;           // the model's conserved momentum (e.g. pi3, N m s)
  double constraint_err = 0.0;     // max |C| of constraints not satisfied by construction
  double constraint_rate_err = 0.0;  // max |dC/dt| of the same constraints (index-1 DAEs drift in both)
  double orthogonality_err = 0.0;  // max over rigid bodies of ||I - R^T R||_F
  // Work done on the system by non-conservative forces since t = 0 (J): control moments,
  // Carnot loss. E(t) - E(0) - external_work is the energy-balance residual that the metrics
  // use in place of E(t) - E(0) (SPEC "Metrics"); zero for conservative models.
  double external_work = 0.0;
  // Total linear momentum (N s) where the model conserves it (zero net external force, e.g.
  // Model C with thrust equal to weight); NaN components where it is not conserved.
  Eigen::Vector3d linear_momentum = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
  // Where linear_momentum is conserved: the total mass M (kg) and the centre of mass x_c (m), NaN
  // elsewhere. With them the energy error splits into the centre of mass's part and the rest
  // (core/metrics.hpp, energy_err_com_max): a drift dP of the momentum adds the kinetic energy
  // P0.dP/M + |dP|^2/(2M) and moves x_c by the integral of dP/M, whatever the internal motion does.
  double total_mass = std::numeric_limits<double>::quiet_NaN();
  Eigen::Vector3d centre_of_mass = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
  std::vector<double> extra;       // model-specific columns, see Formulation::extra_column_names()
  // The model's own conserved scalars (a Casimir, ...), slot by slot of invariant_specs()
  // (core/metric_registry.hpp): NaN where the model has none, which makes their metrics n/a.
  InvariantValues invariants = no_invariants();
};

// Which holonomic constraints among a form's coordinates its integration can violate (SPEC
// "Metrics": constraint_err measures g(q) = 0, constraint_rate_err its rate G(q) v = 0). A form in
// minimal coordinates (the polar angle; a string whose end node carries the body by construction)
// or of a system without constraints integrates none, and neither column is a result for it: the
// tables print "n/a (not integrated)", not a 0 that tests nothing. R^T R = I is not among them
// (orthogonality_err, Model::integrates_rotations).
struct IntegratedConstraints {
  bool positions = false;  // g(q) = 0 is among the form's equations or invariants, and a step can leave it
  // G(q) v = 0 can leave 0 too (false where the form's equations make the rate 0 identically,
  // e.g. q' = omega x q keeps d|q|/dt = 0 exactly, or where the state holds no velocities)
  bool rates = false;
};

// Common part of every formulation: a state vector, its initial value and what to observe.
class Formulation {
 public:
  virtual ~Formulation() = default;
  virtual FormulationKind kind() const = 0;
  // Declared by every form (no default: a forgotten declaration would either hide a drifting
  // constraint or print 0 for one that cannot drift).
  virtual IntegratedConstraints integrated_constraints() const = 0;
  virtual int state_size() const = 0;
  virtual Eigen::VectorXd initial_state() const = 0;
  virtual Observation observe(double t, const Eigen::VectorXd& y) const = 0;
  virtual std::vector<std::string> extra_column_names() const = 0;
  // The physical state (positions, velocities, R, Omega) in one layout shared by every
  // formulation of the model, so that runs of different formulations can be compared.
  virtual Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const = 0;

  // The model's switching functions (core/switching.hpp), attached by Model::make_formulation:
  // none (count 0) for a model whose equations are smooth.
  int switching_count() const { return switching_ ? switching_->count : 0; }
  const SwitchingFunctions* switching() const { return switching_.get(); }
  // s_i (and ds_i/dt) at time t and the form's state y, through physical_state (t matters where
  // a model drives a point of its own, a moving anchor, whose position the functions read).
  // A hybrid form (one whose state jumps at its switches, impacts() below) overrides it with the
  // event functions of its own state, which may read a discrete mode the state keeps (a link
  // taut: its tension; slack: its gap), so that a locating integrator stops where the form's own
  // equations change; the model's functions, on the physical state, stay the measurement's.
  virtual void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const {
    switching_->evaluate(t, physical_state(y), s, rate);
  }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s) const {
    Eigen::VectorXd rate;
    switching_values(t, y, s, rate);
  }
  void attach_switching(std::shared_ptr<const SwitchingFunctions> switching) { switching_ = std::move(switching); }
  // Whether the model's motion jumps at its switches (SwitchingFunctions::impacts): then a method
  // that locates events must locate them, and others do not run the form.
  bool has_impacts() const { return switching_ && !switching_->impacts.empty(); }
  // The jump at a located switch (issue 48): a locating integrator that has placed (t, y) just past
  // a zero of switching_values (bracket_switch: on the new side) hands it here; the form applies
  // its impact law or changes its mode and returns true when y changed (the integrator restarts
  // from the new state either way). Nothing by default: a kink needs no jump.
  virtual bool apply_jump(double /*t*/, Eigen::VectorXd& /*y*/) const { return false; }
  // Its record of the jumps of the last run (core/jump_log.hpp); null where the form keeps none.
  virtual const JumpLog* jump_log() const { return nullptr; }

 private:
  std::shared_ptr<const SwitchingFunctions> switching_;
};

// y' = f(t, y). rhs() may leave non-finite values in dydt when the state is unphysical;
// integrators detect that and fail the step.
class OdeFormulation : public Formulation {
 public:
  static constexpr FormulationKind kKind = FormulationKind::EmbeddedOde;  // what an integrator on this type consumes
  FormulationKind kind() const override { return kKind; }
  virtual void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const = 0;
  // Projection onto the invariant manifold the embedded coordinates carry but the ODE does not
  // enforce (R^T R = I for R as 9 numbers; |q| = 1 and q . omega = 0 for an S^2 direction q
  // stored as a 3-vector with its angular velocity omega): the exact flow of y' = f stays on
  // it, a discretisation drifts off it. Replaces y by the nearest state on the manifold
  // (closest point, invariant by invariant) and returns true; returns false, leaving y as it
  // is, when the form has no such invariant. Integrators may call it after accepted steps
  // (SUNDIALS CVodeSetProjFn); none has to.
  virtual bool project(Eigen::VectorXd& /*y*/) const { return false; }
  // The same invariant manifold as a product of homogeneous spaces (numerics/homogeneous_product.hpp):
  // where R, its body rate Omega, each direction q and its rate omega sit in y, with
  // R' = R hat(Omega) and q' = omega x q the rows rhs() computes for them (the generic model
  // tests check it). All vector space by default: the form has no rotations or directions.
  virtual lie::HomogeneousProduct manifold() const { return lie::HomogeneousProduct(state_size()); }
};

// The Lie group form of a first-order ODE (Munthe-Kaas 1999, Appl. Numer. Math. 29, §2;
// Iserles, Munthe-Kaas, Norsett & Zanna 2000, Acta Numerica 9, §3): the state y is a point of
// the product manifold() of SO(3)s, S^2s and a vector space, and the equation is
// y' = xi(t, y) . y with xi in the algebra of the group acting there: the body rate for each
// R, the rate for each q, y' itself for the vector entries (positions, velocities, the rates).
// A Lie group method moves y only by that action, so R^T R = I and |q| = 1 hold to round-off
// at every step whatever its accuracy. Models offer it with the LieGroupOdeOf adapter
// (core/lie_group_ode.hpp) over their embedded ODE form.
class LieGroupOdeFormulation : public Formulation {
 public:
  static constexpr FormulationKind kKind = FormulationKind::LieGroupOde;  // what an integrator on this type consumes
  FormulationKind kind() const override { return kKind; }
  virtual const lie::HomogeneousProduct& manifold() const = 0;
  // xi(t, y) in the algebra layout of manifold(). Non-finite entries when the state is
  // unphysical; integrators detect that and fail the step.
  virtual void field(double t, const Eigen::VectorXd& y, Eigen::VectorXd& xi) const = 0;

  // ---- Tangents for implicit Lie group schemes (Lie group generalized-alpha) ----
  // The configuration g is the rotations, directions and positions of manifold(); its velocity
  // v (the "rates") is their rate slots in y, in the algebra layout's order (3 per rotation, 3
  // per direction, then the positions: k = group_size() + position_size() entries, rate index
  // i <-> algebra index i). The rates' rows of the ODE, written in mass-matrix form,
  //   r(t, g, v, vdot) = M(g) vdot - F(t, g, v) = 0,
  // with M nonsingular (so vdot is what field() gives on the rate slots). The other free
  // entries (work integrals) follow field() and enter neither M nor F. Structured M, K, C
  // (block diagonal on a rigid body, banded along a string) keep an implicit scheme's Newton
  // matrix M + c_K K T + c_C C sparse: never a dense inverse.
  // Empty when the form provides rate_residual() and rate_tangent_entries(); otherwise why not,
  // and the integrators that need them decline the form with it (IntegratorInfo::why_not).
  virtual std::string why_not_tangents() const {
    return "the model's Lie group ODE form provides no analytic tangents of its rate equations "
           "(M(g) vdot - F(t, g, v) and its derivatives in g and v)";
  }
  // r = M(g) vdot - F(t, g, v) at the state y (g and v read from y; the rate slots' vdot given),
  // and S_i >= 0, the sum of the magnitudes of the terms that make r_i (the differences inside
  // a term counted by their operands): eps S_i is the row's round-off floor, as for
  // DiscreteLieGroupStep::residual_magnitudes.
  virtual void rate_residual(double /*t*/, const Eigen::VectorXd& /*y*/, const Eigen::VectorXd& /*vdot*/,
                             Eigen::VectorXd& /*r*/, Eigen::VectorXd& /*S*/) const {}
  // dr/dvdot = M(g), dr/dg and dr/dv at (t, y, vdot), appended as (row, column, value) entries
  // (repeated entries summed; none for a zero matrix). Rows and the columns of M and C are rate
  // indices; the columns of K are the configuration's algebra indices, the derivative along
  // the trivialised perturbation of each factor: R exp(e hat(xi)) for a rotation (right),
  // exp(e hat(xi)) q for a direction (left), x + e xi for positions, at d/de, e = 0.
  virtual void rate_tangent_entries(double /*t*/, const Eigen::VectorXd& /*y*/, const Eigen::VectorXd& /*vdot*/,
                                    std::vector<Eigen::Triplet<double>>& /*M*/,
                                    std::vector<Eigen::Triplet<double>>& /*K*/,
                                    std::vector<Eigen::Triplet<double>>& /*C*/) const {}
  // A bordered form: p = rate_multipliers() auxiliary unknowns lambda (e.g. one tension per rigid
  // link of a chain) solved with vdot. Eliminating them couples every rate row of a chain with every
  // other (the reduced mass matrix and its tangents are dense); kept, the rows stay local. Then the
  // rate rows' unknown is [vdot (k), lambda (p)]: rate_residual() and rate_tangent_entries() take it
  // as their `vdot` argument and return k + p rows, M = dr/d(vdot, lambda) has k + p columns (lambda
  // moves neither g nor v, so it has no K or C columns), and r = 0 holds exactly for vdot = the
  // field's rates and lambda = rate_multiplier_values(). 0 (no border) by default.
  virtual int rate_multipliers() const { return 0; }
  virtual void rate_multiplier_values(double /*t*/, const Eigen::VectorXd& /*y*/, Eigen::VectorXd& lambda) const {
    lambda.resize(0);
  }
};

// One step (g_k, mu_k) -> (g_{k+1}, mu_{k+1}) of a Lie group variational integrator in
// position-momentum form (seed 003 Algorithm 1): the discrete Legendre transform at step k is
// an implicit equation G(x) = 0 in the step's unknowns x (position increments and Cayley
// parameters of the group updates); once solved, the update and the new momenta are explicit.
// The model owns the equations and the structured (O(N)) Newton linear algebra; the Lie group
// integrator owns the iteration, its tolerance and its failure handling.
class DiscreteLieGroupStep {
 public:
  virtual ~DiscreteLieGroupStep() = default;
  virtual int unknowns() const = 0;
  // Sets the known state y_k and step h. Anything that does not depend on x is computed here.
  virtual void begin(const Eigen::VectorXd& y, double h) = 0;
  // The time t_k at which the next begin()'s step starts. Only a model whose discrete Lagrangian
  // depends on time (a point it drives, a moving anchor) reads it; the integrators set it before
  // every begin(), and an autonomous model's step ignores it.
  virtual void set_start_time(double /*t*/) {}
  // A starting guess for x when no previous step's solution is available.
  virtual void initial_guess(Eigen::VectorXd& x) const = 0;
  virtual void residual(const Eigen::VectorXd& x, Eigen::VectorXd& G) = 0;
  // Solves J(x) dx = -G with the analytic Jacobian. Returns false if J is singular.
  virtual bool newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G, Eigen::VectorXd& dx) = 0;
  // The new state y_{k+1} from the solved x.
  virtual void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) = 0;

  // The stopping rule's units (integrators/lgvi_step_solver.cpp), supplied by the model because
  // only it knows what each row and unknown is:
  // After residual(x, G): S_i >= 0, the sum of the magnitudes of the terms that make row i
  // (in G_i's units, the differences inside a term counted by their operands), e.g.
  // |M dx / h| + |p_k| + |force terms| for a momentum row. Evaluating G_i in floating point
  // leaves an error of a few eps S_i, so eps S_i is the row's round-off floor: a residual at
  // that floor is converged, and one that cannot reach it is diagnosed against it.
  virtual void residual_magnitudes(Eigen::VectorXd& S) const = 0;
  // For each unknown, the index (0, 1, ...) of its kind, a group of like unknowns in one unit
  // (the position increments of a string, one body's Cayley parameters, ...) within which a
  // correction is measured against the group's size; -1 for an auxiliary unknown (a
  // multiplier) whose accuracy is judged by its residual rows, not by its corrections.
  virtual void unknown_groups(std::vector<int>& group) const = 0;
};

// Stabilisation of an index-1 DAE (seed 004 §§2-3): constraints obey
// C'' + 2 p C' + p^2 C = 0, and an attitude R integrated as 9 numbers obeys
// R' = R (hat(Omega) + Xi) with Xi = gamma/2 ((R^T R)^{-1} - I). p = 0 and gamma = 0 give
// the plain index-1 system, whose drift grows.
struct BaumgarteParameters {
  double p = 0.0;      // 1/s
  double gamma = 0.0;  // 1/s
};

// F(t, y, y') = 0 of differentiation index 1 in natural coordinates, with the Lagrange
// multipliers as algebraic components. The model owns the residual, its analytic Jacobian
// and consistent initial values; the DAE integrator owns tolerances and step control. A system
// without constraints has no multipliers: its form is the implicit ODE M v' = f (every
// component differential).
class DaeFormulation : public Formulation {
 public:
  static constexpr FormulationKind kKind = FormulationKind::IndexOneDae;  // what an integrator on this type consumes
  FormulationKind kind() const override { return kKind; }
  // Empty when the BaumgarteParameters act on the form (it keeps constraints, or an attitude R
  // integrated as 9 numbers, by stabilisation); otherwise why not, e.g. an unconstrained system
  // of point masses: then the parameters are unused, and a DAE integrator refuses them as
  // settings given for it (IntegratorInfo::idle_setting) rather than print them beside results
  // they did not shape.
  virtual std::string why_not_stabilised() const { return ""; }
  // 1 for differential components, 0 for algebraic ones (IDASetId).
  virtual Eigen::VectorXd differential_components() const = 0;
  // y'(t0) such that F(t0, y0, y'(t0)) = 0 for initial_state() y0, with the multipliers of
  // y0 consistent too (the model solves its index-1 system at t0).
  virtual Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const = 0;
  virtual Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const = 0;
  // A hybrid form (apply_jump, issue 48): after its jump at an event at t, the algebraic components of y
  // and y' such that F(t, y, y') = 0 again (the new mode's multipliers and accelerations), so that the
  // integrator restarts from consistent values. False (y, y' untouched) where the form has no jumps.
  virtual bool consistent_after_jump(double /*t*/, Eigen::VectorXd& /*y*/, Eigen::VectorXd& /*yp*/,
                                     const BaumgarteParameters& /*b*/) const {
    return false;
  }
  virtual void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                        Eigen::VectorXd& F) const = 0;
  // dF/dy + cj dF/dy' as (row, column, value) entries; repeated entries are summed.
  virtual void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                        const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const = 0;
  // Half-bandwidths of that Jacobian in this state ordering (entries with
  // -lower <= column - row <= upper); the integrator uses a band solver when they are small
  // against the size, a dense one otherwise.
  virtual int lower_bandwidth() const = 0;
  virtual int upper_bandwidth() const = 0;
};

// The settings `baumgarte_p` and `baumgarte_gamma` of a DAE integrator act only on what a form keeps
// by stabilisation: p on its integrated constraints, gamma on an attitude R (why_not_stabilised:
// neither, on the implicit ODE of an unconstrained system). Given where they act on nothing, a
// case file's value would be printed beside results it did not shape. Why `key` is idle on `form`
// ("" when it acts, or is not one of them): an IntegratorInfo::idle_setting for every integrator
// that reads them (the DAE integrators, compiled or written in Python). (gamma on a form with constraints but
// no R, the planar pendulum's, is not detected: the form does not declare whether it holds an R.)
std::string idle_baumgarte_setting(const std::string& key, const Formulation& form);

class DiscreteLieGroupFormulation : public Formulation {
 public:
  static constexpr FormulationKind kKind = FormulationKind::DiscreteLieGroup;  // what an integrator on this type consumes
  FormulationKind kind() const override { return kKind; }
  virtual std::unique_ptr<DiscreteLieGroupStep> make_step() const = 0;
  // Empty when the step is symmetric (time-reversible as a map: the step of size -h from the
  // result of a step of size h returns the state, Hairer-Lubich-Wanner II.3 Def. 3.1), which a
  // composition to higher order needs; otherwise why not (e.g. forcing evaluated at the
  // step's start). Checked for every model by tests/test_lgvi_composition.cpp.
  virtual std::string why_not_time_symmetric() const { return ""; }
  // The state in coordinates in which two states that are the same point of phase space are
  // equal component by component, with round-off relative to each component's own size (tests
  // compare states here: the step's symmetry and its round trip). The state itself by default;
  // a form whose state holds one representative of a class of momenta (Model C's joint momenta,
  // defined up to impulses along the links) maps it to the seed's momenta.
  virtual Eigen::VectorXd canonical_state(const Eigen::VectorXd& y) const { return y; }
};

// ---- Constrained mechanical system in natural coordinates (SPEC "Formulations", the row of
// the constrained Stoermer-Verlet and index-3 alpha schemes) ----
//   q' = v,   M v' = f(t, q, v) - G(q)^T lambda,   g(q) = 0,   G = dg/dq,
// with a symmetric mass matrix M, positive definite on ker G, constant unless the form says
// otherwise (mass_depends_on_configuration() below: M(q), e.g. a string sliding through a guide
// way, whose element mass depends on the deployed length): point masses (joint masses
// of strings and cables) in Cartesian coordinates, rigid bodies by their centre of mass and R as
// 9 numbers with T_rot = 1/2 tr(R' J_d R'^T), J_d = 1/2 tr(J) I - J (so M = I3 (x) J_d on the
// rows of R) and the orthonormality constraints R^T R - I = 0. The state is y = [q (n), v (n)].
// The model owns M, f, g, G and the structured (O(N)) linear algebra on them; the integrator
// owns the scheme, its iteration and failure handling. A form with dissipative forces carries
// their work after [q, v] (work_terms() below): y = [q, v, W].
//
// The one linear system the schemes solve, for two configurations q_a, q_b (equal or not):
//   [ M        G(q_b)^T ] [x     ]   [r]
//   [ G(q_a)   0        ] [lambda] = [s]
// (a SHAKE-type Newton on the multipliers: q_a the current iterate, q_b = q_k; its velocity
// projection: q_a = q_b = q_{k+1}), with M = M(q_a) when the mass matrix depends on the configuration. The model factors it with its structure (banded along a
// string, O(m n) on a cable tree, closed form per rigid body), never as a dense inverse.
class ConstrainedMechanicalSolver {
 public:
  virtual ~ConstrainedMechanicalSolver() = default;
  // Factors the matrix at (q_a, q_b) (M at q_a). Returns false if it is singular.
  virtual bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) = 0;
  // Solves with the last factorisation; r has size n, s the number of constraints.
  virtual void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x,
                     Eigen::VectorXd& lambda) = 0;
  // Factors the system with only the constraints where active[i] among its rows (the others'
  // multipliers are 0 and their rows of s ignored by the next solve): what a form with unilateral
  // constraints (ConstrainedMechanicalFormulation::unilateral) needs for its impulse problems
  // (core/unilateral_impulse.hpp). By default only the full set, through factor(); false otherwise.
  virtual bool factor_active(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, const std::vector<bool>& active) {
    for (bool a : active)
      if (!a) return false;
    return factor(q_a, q_b);
  }
};

class ConstrainedMechanicalFormulation : public Formulation {
 public:
  static constexpr FormulationKind kKind = FormulationKind::ConstrainedMechanical;  // what an integrator on this type consumes
  FormulationKind kind() const override { return kKind; }
  int state_size() const override { return 2 * positions() + work_terms(); }
  virtual int positions() const = 0;    // n = dim q = dim v
  virtual int constraints() const = 0;  // number of rows of g (0: plain Stoermer-Verlet)
  // M v, and M as (row, column, value) entries (repeated entries summed; tests, assembly).
  virtual void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const = 0;
  virtual void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const = 0;
  // f(t, q, v): every applied force (conservative -grad V, and non-conservative ones).
  virtual void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const = 0;
  // Whether f depends on v (a scheme may then need to evaluate it at a half-step velocity).
  virtual bool force_depends_on_velocity() const { return false; }
  // The work of dissipative forces that the observation's energy balance needs
  // (Observation::external_work) rides along as work_terms() trailing entries of the state,
  // y = [q (n), v (n), W], with W' = power(t, q, v); schemes advance W by the trapezoidal rule
  // over each step (second order, like them). None for conservative forms.
  virtual int work_terms() const { return 0; }
  virtual void power(double /*t*/, const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/,
                     Eigen::VectorXd& P) const { P.resize(0); }
  // g(q), and the size of each constraint's terms, so that |g_i| / constraint_scale()_i is a
  // relative error (e.g. l^2 for (|d|^2 - l^2)/2, 1 for R^T R - I): round-off is ~1e-16.
  virtual void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const = 0;
  virtual Eigen::VectorXd constraint_scale() const = 0;
  // G(q) as entries (tests, assembly), G(q) v and G(q)^T lambda (structured products).
  virtual void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const = 0;
  virtual void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                         Eigen::VectorXd& Gv) const = 0;
  virtual void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                   Eigen::VectorXd& GTlambda) const = 0;
  // A fresh solver (one per stepper: it holds the factorisation).
  virtual std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const = 0;

  // ---- Unilateral constraints (issue 48: inextensible links that go slack and snap) ----
  // When unilateral(), every constraint is one-sided: g_i(q) <= 0 (a link no longer than its
  // length), its multiplier lambda_i >= 0 (a tension) and g_i lambda_i = 0, and where a link
  // closes with G_i v > 0 Newton's impact law (G_i v)+ = -e (G_i v)- holds with e = restitution().
  // The energy the impacts take is booked in the form's first work term (work_terms() >= 1; the
  // integrator adds the impact law's loss there at each closing, core/unilateral_impulse.hpp), so
  // that E - E0 - W stays the invariant the metrics judge. Schemes for equality constraints
  // (constrained Stoermer-Verlet, the alpha methods) must decline such a form; its solver's
  // factor_active() serves the impulse problems.
  // A form may mix them with equalities (a cable's links one-sided, a rigid body's R^T R = I
  // not): one_sided(i) says which rows are inequalities; the others are always active, their
  // multipliers of either sign, and their impulse rows ask G_i v+ = 0.
  virtual bool unilateral() const { return false; }
  virtual bool one_sided(int /*row*/) const { return unilateral(); }
  virtual double restitution() const { return 0.0; }
  // The constraints' second derivative along the motion, (dG/dt) v = d^2 g/dq^2 [v, v], one entry
  // per row: what an acceleration-level (index-1) solve of the constraints needs beside G. False
  // where the form does not provide it (a method that needs it then declines the form).
  virtual bool constraint_curvature(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/,
                                    Eigen::VectorXd& /*Hvv*/) const {
    return false;
  }

  // Tangent matrices for the index-3 alpha methods (generalized-alpha, Arnold-Bruels 2007),
  // whose Newton matrix is [beta' M + gamma' C_t + K_t, G^T; G, 0] with C_t = -df/dv and
  // K_t = -df/dq + d(G^T lambda)/dq; the integrator assembles and factors it (sparse).
  // Empty when the model provides the two functions below; otherwise why not, and the
  // integrators that need them decline the model with it (a form without them still compiles).
  virtual std::string why_not_tangents() const {
    return "the model's constrained form provides no tangent matrices (df/dq, df/dv, d(G^T lambda)/dq)";
  }
  // K_f = df/dq and C_f = df/dv at (t, q, v), appended as (row, column, value) entries
  // (repeated entries summed; none appended for a zero matrix).
  virtual void force_jacobian_entries(double /*t*/, const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/,
                                      std::vector<Eigen::Triplet<double>>& /*dfdq*/,
                                      std::vector<Eigen::Triplet<double>>& /*dfdv*/) const {}
  // K_g = d(G(q)^T lambda)/dq at (q, lambda), appended as entries (zero for linear constraints).
  virtual void constraint_force_jacobian_entries(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*lambda*/,
                                                 std::vector<Eigen::Triplet<double>>& /*entries*/) const {}
  // ---- A configuration-dependent mass matrix M(q) (optional) ----
  // Brüls, Cardona & Arnold 2012 (Mech. Mach. Theory 48, Sect. 2) for the alpha methods; the
  // variational schemes (constrained Störmer–Verlet) need the kinetic energy T = 1/2 v^T M(q) v itself. When
  // mass_depends_on_configuration(), the equations of motion are
  //   M(q) v' = f(t, q, v) - G(q)^T lambda,   f = f_a(t, q, v) + dT/dq(q, v) - (dM/dq v) v,
  // with force() = f: the applied forces f_a (applied_force()) and the velocity-quadratic terms
  // of M(q) (so force_depends_on_velocity() is true and force_jacobian_entries() differentiates
  // them too). mass_times() and mass_entries() then give M at the initial configuration (for
  // checks that need one M), and the schemes use the _at forms below. An integrator that
  // assumes a constant M must decline such a form (IntegratorInfo::why_not).
  virtual bool mass_depends_on_configuration() const { return false; }
  // M(q) v and M(q) as entries (the constant M by default).
  virtual void mass_times_at(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
    mass_times(v, Mv);
  }
  virtual void mass_entries_at(const Eigen::VectorXd& /*q*/, std::vector<Eigen::Triplet<double>>& entries) const {
    mass_entries(entries);
  }
  // (M(q + dq) - M(q)) v formed from the increment dq (no difference of two O(1) products
  // standing for an O(|dq|) quantity); zero by default.
  virtual void mass_change_times(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*dq*/,
                                 const Eigen::VectorXd& /*v*/, Eigen::VectorXd& out) const {
    out.setZero(positions());
  }
  // d(M(q) a)/dq at fixed a, as entries (the alpha methods' Newton matrix); none by default.
  virtual void mass_times_jacobian_entries(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*a*/,
                                           std::vector<Eigen::Triplet<double>>& /*entries*/) const {}
  // dT/dq = 1/2 d(v^T M(q) v)/dq at fixed v; zero by default.
  virtual void kinetic_gradient(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& /*v*/, Eigen::VectorXd& dT) const {
    dT.setZero(positions());
  }
  // The applied forces f_a alone (force() by default: with a constant M there are no inertial terms).
  virtual void applied_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const {
    force(t, q, v, f);
  }
  // Empty when q lies in the domain where the form's M, f and g are defined; otherwise why not
  // (e.g. a reel's deployed length left its range). Schemes check their new configuration with
  // it and fail the step with the reason: reaching the boundary is a result, not a clamp.
  virtual std::string why_not_admissible(const Eigen::VectorXd& /*q*/) const { return ""; }
};

}  // namespace tb
