// N equal masses on a line between two walls, joined by N + 1 equal linear springs:
//   m x_i'' = k (x_{i+1} - 2 x_i + x_{i-1}),  x_0 = x_{N+1} = 0.
// E = sum m v_i^2 / 2 + sum k (x_{i+1} - x_i)^2 / 2 is conserved; started in the lowest
// normal mode, the chain oscillates at omega_1 = 2 sqrt(k/m) sin(pi / (2 (N + 1))).
#include "model.hpp"

#include <cmath>

namespace my_models::spring_chain {
namespace {

using namespace tb;

struct Parameters {
  int N = 1;
  double mass = 0.0, stiffness = 0.0;  // kg, N/m
};

// State [x_1..x_N, v_1..v_N]; it is also the physical state.
class OdeForm final : public OdeFormulation {
 public:
  // Masses and springs between walls: no holonomic constraint.
  IntegratedConstraints integrated_constraints() const override { return {false, false}; }
  OdeForm(const Parameters& p, const Eigen::VectorXd& x0) : p_(p), x0_(x0) {}
  int state_size() const override { return 2 * p_.N; }
  Eigen::VectorXd initial_state() const override {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * p_.N);
    y.head(p_.N) = x0_;
    return y;
  }
  void rhs(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override {
    const int N = p_.N;
    dydt.resize(2 * N);
    dydt.head(N) = y.tail(N);
    for (int i = 0; i < N; ++i) dydt(N + i) = p_.stiffness / p_.mass * (x(y, i - 1) - 2 * x(y, i) + x(y, i + 1));
  }
  Observation observe(double /*t*/, const Eigen::VectorXd& y) const override {
    Observation o;
    o.kinetic = 0.5 * p_.mass * y.tail(p_.N).squaredNorm();
    double potential = 0.0;
    for (int i = 0; i <= p_.N; ++i) potential += 0.5 * p_.stiffness * std::pow(x(y, i) - x(y, i - 1), 2);
    o.energy = o.kinetic + potential;
    o.extra = {y(0)};
    return o;
  }
  std::vector<std::string> extra_column_names() const override { return {"x_1"}; }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return y; }

 private:
  double x(const Eigen::VectorXd& y, int i) const { return i < 0 || i >= p_.N ? 0.0 : y(i); }  // walls at 0
  Parameters p_;
  Eigen::VectorXd x0_;
};

std::shared_ptr<const Model> build(TableReader& model, TableReader& initial) {
  Parameters p;
  p.N = model.positive_integer("masses");
  p.mass = model.positive("mass");
  p.stiffness = model.positive("stiffness");
  model.finish();
  const double amplitude = initial.number("first_mode_amplitude");  // m
  initial.finish();
  Eigen::VectorXd x0(p.N);  // the lowest normal mode
  for (int i = 0; i < p.N; ++i) x0(i) = amplitude * std::sin(M_PI * (i + 1) / (p.N + 1));
  auto chain = std::make_shared<FormulationMenu>(
      "spring_chain", StateSize{2.0 * p.N, "2 numbers per mass: masses = " + std::to_string(p.N)},
      std::vector<FormulationMenu::Item>{
          offer<OdeForm>(FormulationKind::EmbeddedOde, p, x0),
          decline(FormulationKind::DiscreteLieGroup, "no discrete Lagrangian is derived for the chain"),
          decline(FormulationKind::LieGroupOde,
                  "the chain lives in R^N, an abelian group: a Lie group method there is its vector-space counterpart "
                  "on the embedded-ode form"),
          decline(FormulationKind::IndexOneDae, "the chain has no constraints: no DAE form"),
          decline(FormulationKind::ConstrainedMechanical, "no constrained mechanical form is written for the chain")},
      // What each physical-state entry is (the trajectory errors split configuration and rates).
      PhysicalParts().then(PhysicalPart::Configuration, p.N).then(PhysicalPart::Rate, p.N));
  chain->declare_no_rotations();     // masses on a line: no R, no orthogonality error
  chain->declare_no_momentum_map();  // held by the walls: no symmetry, no Noether momentum
  return chain;
}

}  // namespace

ModelInfo info() { return {"spring_chain", "masses on a line between two walls, joined by linear springs", build}; }

}  // namespace my_models::spring_chain
