// The elastic pendulum as the runner sees it: built from a case file's [model] and [initial]
// tables, offering the ODE and the (rotation-free) discrete Lie group forms.

#include "models/elastic_pendulum/model.hpp"

#include "models/elastic_pendulum/forms.hpp"

namespace tb::elastic_pendulum {
namespace {

class ElasticPendulumModel final : public Model {
 public:
  ElasticPendulumModel(const Parameters& p, const InitialCondition& ic) : p_(p), ic_(ic) {}
  std::string name() const override { return "elastic_pendulum"; }

  std::unique_ptr<Formulation> make_formulation(FormulationKind kind, std::string& why_not) const override {
    switch (kind) {
      case FormulationKind::EmbeddedOde:
        return std::make_unique<OdeForm>(p_, ic_);
      case FormulationKind::DiscreteLieGroup:
        return std::make_unique<LieGroupForm>(p_, ic_);
      case FormulationKind::IndexOneDae:
        why_not = "the elastic pendulum has no constraint and no rigid body: its DAE form would be the ODE";
        return nullptr;
      case FormulationKind::LumpedMass:
        why_not = "the elastic pendulum has no string to lump";
        return nullptr;
    }
    why_not = "unknown formulation";
    return nullptr;
  }

 private:
  Parameters p_;
  InitialCondition ic_;
};

std::shared_ptr<const Model> build_from_case(TableReader& model, TableReader& initial) {
  Parameters p;
  p.m = model.positive("mass");
  p.k = model.positive("stiffness");
  p.l0 = model.positive("rest_length");
  p.g = model.non_negative("gravity");
  model.finish();

  InitialCondition ic;
  ic.position = initial.vec3("position");
  // The spring force has no direction at the pivot.
  if (!(ic.position.norm() > 0.0)) initial.fail("position", "a point other than the pivot (the origin)", "[0, 0, 0]");
  ic.velocity = initial.vec3("velocity");
  initial.finish();
  return make_model(p, ic);
}

}  // namespace

std::shared_ptr<const Model> make_model(const Parameters& p, const InitialCondition& ic) {
  return std::make_shared<ElasticPendulumModel>(p, ic);
}

ModelInfo info() {
  return {"elastic_pendulum", "Textbook: 3D elastic (spring) pendulum, a point mass on a linear spring (seed 004)",
          build_from_case};
}

}  // namespace tb::elastic_pendulum
