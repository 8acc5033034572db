// Loads fine; one model, a mass on a spring (m x'' = -k x), offered as an ODE and as an index-1
// DAE whose analytic iteration matrix has the spring's term 1.5 times too large: `tetherbench
// check-plugin` must fail its "DAE iteration matrix vs differences" check and pass the others
// (tests/check_plugin.sh, with the fixture tests/plugins/conformance_broken_model.toml).
#include <cmath>

#include "core/plugin.hpp"

namespace {

using namespace tb;

struct Parameters {
  double mass = 0.0, stiffness = 0.0, x0 = 0.0, v0 = 0.0;
};

// What both forms share: the state (x, v) is the physical state.
template <class Base>
class Oscillator : public Base {
 public:
  explicit Oscillator(const Parameters& p) : p_(p) {}
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  int state_size() const override { return 2; }
  Eigen::VectorXd initial_state() const override { return Eigen::Vector2d(p_.x0, p_.v0); }
  Observation observe(double, const Eigen::VectorXd& y) const override {
    Observation o;
    o.kinetic = 0.5 * p_.mass * y(1) * y(1);
    o.energy = o.kinetic + 0.5 * p_.stiffness * y(0) * y(0);
    return o;
  }
  std::vector<std::string> extra_column_names() const override { return {}; }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

 protected:
  Parameters p_;
};

class OdeForm final : public Oscillator<OdeFormulation> {
 public:
  using Oscillator::Oscillator;
  void rhs(double, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override {
    dydt = Eigen::Vector2d(y(1), -p_.stiffness / p_.mass * y(0));
  }
};

// F(y, y') = (x' - v, m v' + k x).
class DaeForm final : public Oscillator<DaeFormulation> {
 public:
  using Oscillator::Oscillator;
  Eigen::VectorXd differential_components() const override { return Eigen::Vector2d(1.0, 1.0); }
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters&) const override { return initial_state(); }
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters&) const override {
    return Eigen::Vector2d(p_.v0, -p_.stiffness / p_.mass * p_.x0);
  }
  void residual(double, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters&,
                Eigen::VectorXd& F) const override {
    F = Eigen::Vector2d(yp(0) - y(1), p_.mass * yp(1) + p_.stiffness * y(0));
  }
  // The defect: dF_2/dx is k, written 1.5 k.
  void jacobian(double, const Eigen::VectorXd&, const Eigen::VectorXd&, double cj, const BaumgarteParameters&,
                std::vector<Eigen::Triplet<double>>& entries) const override {
    entries = {{0, 0, cj}, {0, 1, -1.0}, {1, 0, 1.5 * p_.stiffness}, {1, 1, cj * p_.mass}};
  }
  int lower_bandwidth() const override { return 1; }
  int upper_bandwidth() const override { return 1; }
};

std::shared_ptr<const Model> build(TableReader& model, TableReader& initial) {
  Parameters p;
  p.mass = model.positive("mass");
  p.stiffness = model.positive("stiffness");
  model.finish();
  p.x0 = initial.number("x");
  p.v0 = initial.number("v");
  initial.finish();
  auto oscillator = std::make_shared<FormulationMenu>(
      "broken_oscillator", StateSize{2.0, "x and v"},
      std::vector<FormulationMenu::Item>{
          offer<OdeForm>(FormulationKind::EmbeddedOde, p), offer<DaeForm>(FormulationKind::IndexOneDae, p),
          decline(FormulationKind::DiscreteLieGroup, "a test model: no discrete Lagrangian"),
          decline(FormulationKind::LieGroupOde, "a test model on a line: no group"),
          decline(FormulationKind::ConstrainedMechanical, "a test model: no constrained form")},
      PhysicalParts().then(PhysicalPart::Configuration, 1).then(PhysicalPart::Rate, 1));
  oscillator->declare_no_rotations();
  oscillator->declare_no_momentum_map();
  return oscillator;
}

void register_entries(PluginRegistrar& add) {
  add.model({"broken_oscillator", "a mass on a spring with a wrong DAE iteration matrix (conformance test)", build});
}

}  // namespace

TETHERBENCH_PLUGIN("conformance_broken_model", "1.0", register_entries)
