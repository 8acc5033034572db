#pragma once
// The hanging tether (seed 004 tether slides) as the runner sees it.
#include "core/format.hpp"
#include "core/model.hpp"
#include "models/hanging_tether/forms.hpp"
namespace tb::hanging_tether {

class HangingTetherModel final : public Model {
 public:
  HangingTetherModel(const Parameters& p, InitialShape shape);
  std::string name() const override { return "hanging_tether"; }
  // One discretisation, the one the case chose: "lumped" or "full" (consistent mass).
  std::vector<std::string> discretisations() const override;
  StateSize state_size() const override {
    const double works = p_.drive.active() ? 2.0 : 1.0;  // the dissipated work, and W~ of a driven anchor
    return {6.0 * p_.N + works, "6 numbers per node + " + format_g(works) + ": elements = " + std::to_string(p_.N)};
  }
  bool offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const override;
  // [r_1..r_{N-1}, v_1..v_{N-1}, W_dissipated] and W~ where the anchor is driven (Mechanics::pack).
  std::vector<PhysicalPart> physical_parts() const override {
    return PhysicalParts()
        .then(PhysicalPart::Configuration, 3 * (p_.N - 1))
        .then(PhysicalPart::Rate, 3 * (p_.N - 1))
        .then(PhysicalPart::Other, p_.drive.active() ? 2 : 1);
  }
  const Parameters& params() const { return p_; }

 protected:
  std::unique_ptr<Formulation> build(FormulationKind kind, const std::string& discretisation) const override;

 private:
  Parameters p_;
  InitialShape shape_;
};

// Registry entry (case files with model = "hanging_tether").
ModelInfo info();
// From parameters in code (tests); case files go through info().build.
std::shared_ptr<const HangingTetherModel> make_model(const Parameters& p, InitialShape shape);

}  // namespace tb::hanging_tether
