#pragma once
// Wraps any formulation so that, once armed, its evaluations return NaN: lets the integrator
// conformance checks (conformance/integrator_checks.cpp: the generic tests and check-plugin) check
// that an integrator fails a step cleanly and leaves its state unchanged. It can also start from
// another state (a symmetric method's step back, in the same checks).
// A new formulation kind needs a wrapper here (the failed-step check fails until it has one).

#include <limits>
#include <memory>

#include "core/formulation.hpp"

namespace tb::conformance {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Any OdeFormulation (the embedded ODE, the lumped-mass string): kind() is the inner one's.
class FaultyOde final : public OdeFormulation {
 public:
  FaultyOde(std::unique_ptr<Formulation> inner, const bool& armed, Eigen::VectorXd start = {})
      : inner_(std::move(inner)), ode_(dynamic_cast<const OdeFormulation&>(*inner_)), armed_(armed), start_(std::move(start)) {}
  IntegratedConstraints integrated_constraints() const override { return ode_.integrated_constraints(); }
  FormulationKind kind() const override { return ode_.kind(); }
  int state_size() const override { return ode_.state_size(); }
  Eigen::VectorXd initial_state() const override { return start_.size() > 0 ? start_ : ode_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return ode_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return ode_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return ode_.physical_state(y); }
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override {
    ode_.rhs(t, y, dydt);
    if (armed_) dydt.setConstant(kNaN);
  }

 private:
  std::unique_ptr<Formulation> inner_;
  const OdeFormulation& ode_;
  const bool& armed_;
  Eigen::VectorXd start_;  // empty: the inner form's initial state
};

class FaultyLieGroup final : public DiscreteLieGroupFormulation {
 public:
  FaultyLieGroup(std::unique_ptr<Formulation> inner, const bool& armed, Eigen::VectorXd start = {})
      : inner_(std::move(inner)), lg_(dynamic_cast<const DiscreteLieGroupFormulation&>(*inner_)), armed_(armed), start_(std::move(start)) {}
  IntegratedConstraints integrated_constraints() const override { return lg_.integrated_constraints(); }
  int state_size() const override { return lg_.state_size(); }
  Eigen::VectorXd initial_state() const override { return start_.size() > 0 ? start_ : lg_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return lg_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return lg_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return lg_.physical_state(y); }

  std::unique_ptr<DiscreteLieGroupStep> make_step() const override {
    struct Step final : DiscreteLieGroupStep {
      std::unique_ptr<DiscreteLieGroupStep> inner;
      const bool& armed;
      Step(std::unique_ptr<DiscreteLieGroupStep> i, const bool& a) : inner(std::move(i)), armed(a) {}
      int unknowns() const override { return inner->unknowns(); }
      void begin(const Eigen::VectorXd& y, double h) override { inner->begin(y, h); }
      void set_start_time(double t) override { inner->set_start_time(t); }
      void initial_guess(Eigen::VectorXd& x) const override { inner->initial_guess(x); }
      void residual(const Eigen::VectorXd& x, Eigen::VectorXd& G) override {
        inner->residual(x, G);
        if (armed) G.setConstant(kNaN);
      }
      bool newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G, Eigen::VectorXd& dx) override {
        return inner->newton_correction(x, G, dx);
      }
      void complete(const Eigen::VectorXd& x, Eigen::VectorXd& y_next) override { inner->complete(x, y_next); }
      void residual_magnitudes(Eigen::VectorXd& S) const override { inner->residual_magnitudes(S); }
      void unknown_groups(std::vector<int>& group) const override { inner->unknown_groups(group); }
    };
    return std::make_unique<Step>(lg_.make_step(), armed_);
  }

 private:
  std::unique_ptr<Formulation> inner_;
  const DiscreteLieGroupFormulation& lg_;
  const bool& armed_;
  Eigen::VectorXd start_;  // empty: the inner form's initial state
};

// Any DaeFormulation: the residual turns NaN once armed; the Jacobian and the consistent
// initial values pass through (the start is consistent, the failure comes mid-run).
class FaultyDae final : public DaeFormulation {
 public:
  FaultyDae(std::unique_ptr<Formulation> inner, const bool& armed, Eigen::VectorXd start = {})
      : inner_(std::move(inner)), dae_(dynamic_cast<const DaeFormulation&>(*inner_)), armed_(armed), start_(std::move(start)) {}
  IntegratedConstraints integrated_constraints() const override { return dae_.integrated_constraints(); }
  int state_size() const override { return dae_.state_size(); }
  Eigen::VectorXd initial_state() const override { return start_.size() > 0 ? start_ : dae_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return dae_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return dae_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return dae_.physical_state(y); }
  Eigen::VectorXd differential_components() const override { return dae_.differential_components(); }
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters& b) const override {
    return dae_.consistent_initial_state(b);
  }
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters& b) const override {
    return dae_.consistent_initial_derivative(b);
  }
  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                Eigen::VectorXd& F) const override {
    dae_.residual(t, y, yp, b, F);
    if (armed_) F.setConstant(kNaN);
  }
  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b,
                std::vector<Eigen::Triplet<double>>& entries) const override {
    dae_.jacobian(t, y, yp, cj, b, entries);
  }
  int lower_bandwidth() const override { return dae_.lower_bandwidth(); }
  int upper_bandwidth() const override { return dae_.upper_bandwidth(); }

 private:
  std::unique_ptr<Formulation> inner_;
  const DaeFormulation& dae_;
  const bool& armed_;
  Eigen::VectorXd start_;  // empty: the inner form's initial state
};

// Any ConstrainedMechanicalFormulation: the force turns NaN once armed; everything else passes
// through.
class FaultyConstrained final : public ConstrainedMechanicalFormulation {
 public:
  FaultyConstrained(std::unique_ptr<Formulation> inner, const bool& armed, Eigen::VectorXd start = {})
      : inner_(std::move(inner)), cm_(dynamic_cast<const ConstrainedMechanicalFormulation&>(*inner_)), armed_(armed), start_(std::move(start)) {}
  IntegratedConstraints integrated_constraints() const override { return cm_.integrated_constraints(); }
  Eigen::VectorXd initial_state() const override { return start_.size() > 0 ? start_ : cm_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return cm_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return cm_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return cm_.physical_state(y); }
  int positions() const override { return cm_.positions(); }
  int constraints() const override { return cm_.constraints(); }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override { cm_.mass_times(v, Mv); }
  void mass_entries(std::vector<Eigen::Triplet<double>>& e) const override { cm_.mass_entries(e); }
  void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override {
    cm_.force(t, q, v, f);
    if (armed_) f.setConstant(kNaN);
  }
  bool force_depends_on_velocity() const override { return cm_.force_depends_on_velocity(); }
  int work_terms() const override { return cm_.work_terms(); }
  void power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const override {
    cm_.power(t, q, v, P);
  }
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override { cm_.constraint(q, g); }
  Eigen::VectorXd constraint_scale() const override { return cm_.constraint_scale(); }
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const override {
    cm_.constraint_jacobian(q, e);
  }
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override {
    cm_.constraint_jacobian_times(q, v, Gv);
  }
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& l,
                                           Eigen::VectorXd& out) const override {
    cm_.constraint_jacobian_transpose_times(q, l, out);
  }
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override { return cm_.make_solver(); }
  bool unilateral() const override { return cm_.unilateral(); }
  bool one_sided(int row) const override { return cm_.one_sided(row); }
  double restitution() const override { return cm_.restitution(); }
  bool constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Hvv) const override {
    return cm_.constraint_curvature(q, v, Hvv);
  }
  std::string why_not_tangents() const override { return cm_.why_not_tangents(); }
  void force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>& dfdv) const override {
    cm_.force_jacobian_entries(t, q, v, dfdq, dfdv);
  }
  void constraint_force_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& l,
                                         std::vector<Eigen::Triplet<double>>& e) const override {
    cm_.constraint_force_jacobian_entries(q, l, e);
  }

 private:
  std::unique_ptr<Formulation> inner_;
  const ConstrainedMechanicalFormulation& cm_;
  const bool& armed_;
  Eigen::VectorXd start_;  // empty: the inner form's initial state
};

// Any LieGroupOdeFormulation: its field and, where the form has them, its rate residual and
// tangents (forwarded, so that an integrator that needs them runs on the wrapper).
class FaultyLieGroupOde final : public LieGroupOdeFormulation {
 public:
  FaultyLieGroupOde(std::unique_ptr<Formulation> inner, const bool& armed, Eigen::VectorXd start = {})
      : inner_(std::move(inner)), lg_(dynamic_cast<const LieGroupOdeFormulation&>(*inner_)), armed_(armed), start_(std::move(start)) {}
  IntegratedConstraints integrated_constraints() const override { return lg_.integrated_constraints(); }
  int state_size() const override { return lg_.state_size(); }
  Eigen::VectorXd initial_state() const override { return start_.size() > 0 ? start_ : lg_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return lg_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return lg_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return lg_.physical_state(y); }
  const lie::HomogeneousProduct& manifold() const override { return lg_.manifold(); }
  void field(double t, const Eigen::VectorXd& y, Eigen::VectorXd& xi) const override {
    lg_.field(t, y, xi);
    if (armed_) xi.setConstant(kNaN);
  }
  std::string why_not_tangents() const override { return lg_.why_not_tangents(); }
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const override {
    lg_.rate_residual(t, y, vdot, r, S);
    if (armed_) r.setConstant(kNaN);
  }
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const override {
    lg_.rate_tangent_entries(t, y, vdot, M, K, C);
  }
  int rate_multipliers() const override { return lg_.rate_multipliers(); }
  void rate_multiplier_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& lambda) const override {
    lg_.rate_multiplier_values(t, y, lambda);
  }

 private:
  std::unique_ptr<Formulation> inner_;
  const LieGroupOdeFormulation& lg_;
  const bool& armed_;
  Eigen::VectorXd start_;  // empty: the inner form's initial state
};

// nullptr when this kind has no wrapper yet. With `start`, the wrapper's initial state is that
// state (the conformance checks start a step back from where a step ended); the DAE's consistent
// initial values still come from the inner form.
inline std::unique_ptr<Formulation> make_faulty(std::unique_ptr<Formulation> inner, const bool& armed,
                                                Eigen::VectorXd start = {}) {
  switch (inner->kind()) {
    case FormulationKind::EmbeddedOde: return std::make_unique<FaultyOde>(std::move(inner), armed, std::move(start));
    case FormulationKind::DiscreteLieGroup:
      return std::make_unique<FaultyLieGroup>(std::move(inner), armed, std::move(start));
    case FormulationKind::IndexOneDae: return std::make_unique<FaultyDae>(std::move(inner), armed, std::move(start));
    case FormulationKind::ConstrainedMechanical:
      return std::make_unique<FaultyConstrained>(std::move(inner), armed, std::move(start));
    case FormulationKind::LieGroupOde:
      return std::make_unique<FaultyLieGroupOde>(std::move(inner), armed, std::move(start));
    default: return nullptr;
  }
}

}  // namespace tb::conformance
