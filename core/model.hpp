#pragma once
// A mechanical model built from a case file: its parameters plus the formulations it offers.
// A formulation is identified by its equation type (FormulationKind, what an integrator
// consumes) and the model's discretisation of the continuum (e.g. Model A's string with
// consistent or lumped mass); a model's first discretisation is its default, the system of the
// paper it comes from.

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/formulation.hpp"
#include "core/metric_registry.hpp"  // a model fills Observation::invariants by invariant_slot()
#include "core/table_reader.hpp"

namespace tb {

// How many numbers the largest state of a model's formulations holds, and what in the case
// sets it (for the resource guard, app/input/limits.hpp): checked before anything is built.
struct StateSize {
  double numbers = 0.0;  // a double: the product of case keys can exceed any int
  std::string because;   // e.g. "6 elements + 32" naming the keys, for the message
};

// What each entry of a model's physical state (Formulation::physical_state, one layout per
// model) is, so that errors can be measured separately in configuration and in rates
// (trajectory norms of the work-precision study): positions, R and directions q are
// Configuration; velocities, Omega and link rates omega are Rate; anything else carried along
// (integrated work of non-conservative forces) is Other.
enum class PhysicalPart : unsigned char { Configuration, Rate, Other };

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  // The discretisations this model offers, its default first. "" names a model's only
  // discretisation when there is nothing to choose.
  virtual std::vector<std::string> discretisations() const { return {""}; }
  std::string default_discretisation() const { return discretisations().front(); }
  virtual StateSize state_size() const = 0;
  // One entry per number of the physical state, the same for every formulation and
  // discretisation of the model (tests/test_models_generic.cpp checks the size against every
  // formulation's physical_state). Empty: the model does not say (nothing is split).
  virtual std::vector<PhysicalPart> physical_parts() const { return {}; }

  // The period (s) of the model's slowest oscillation at the case's parameters, or NaN when it
  // declares none: computed from the model's linearisation about its rest state
  // (core/linear_modes.hpp, declare_linearised_slowest_period), where the model has one (each
  // factory says which rest state, and slowest_period_basis() says how it was obtained). It is
  // the small-amplitude period: a swing released far from rest (60 degrees) takes longer. Growth
  // laws start after 3 of these (core/growth.hpp), the instability criterion's energy scale is
  // taken over the first, and a ranking needs 3 in its horizon.
  double slowest_period_s() const {
    resolve_slowest_period();
    return slowest_period_s_;
  }
  // How that period was obtained, in words for the report (e.g. "linearised about the hanging
  // equilibrium (core/linear_modes.hpp)"); empty where the model does not say.
  const std::string& slowest_period_basis() const {
    resolve_slowest_period();
    return slowest_period_basis_;
  }
  void declare_slowest_period(double seconds, std::string basis = {}) {
    slowest_period_source_.reset();
    slowest_period_s_ = seconds;
    slowest_period_basis_ = std::move(basis);
  }
  // A period that costs a computation (a linearisation: a dense eigen solve, O(n^3) in the
  // coordinates) is declared by what computes it, (seconds, basis), run once when the period is
  // first asked for (thread-safe): a model built only to be stepped, a benchmark's string of 10^4
  // elements, never pays for it.
  using SlowestPeriodSource = std::function<std::pair<double, std::string>()>;
  void declare_slowest_period_source(SlowestPeriodSource source) {
    slowest_period_source_ = std::make_shared<LazySlowestPeriod>();
    slowest_period_source_->compute = std::move(source);
  }
  // Whether the model's state holds a rotation (R in SO(3)): where none does, the orthogonality
  // error is not applicable rather than "identically 0", which would test nothing.
  bool integrates_rotations() const { return integrates_rotations_; }
  void declare_no_rotations() { integrates_rotations_ = false; }
  // Whether the model damps its own oscillations (a viscous -zeta M v): then a method without a
  // stability interval on the imaginary axis need not grow them (the damping can outrun its
  // |R(ih w)| > 1), and the growth theory says so (core/growth.hpp predicted_growth). Forcing or
  // external work alone (a reel paying out string) leaves the modes undamped: undamped by default.
  bool damped() const { return damped_; }
  void declare_damped() { damped_ = true; }
  // Whether the model has a momentum map (a symmetry whose Noether momentum Observation::momentum
  // reports, e.g. pi3 for rotations about the vertical): where it has none (a pendulum in a plane
  // under gravity, a tether between fixed anchors) the momentum error is not defined rather
  // than "identically 0".
  bool has_momentum_map() const { return has_momentum_map_; }
  void declare_no_momentum_map() { has_momentum_map_ = false; }
  // Whether the total linear momentum is conserved (no net external force: Model C with thrust
  // equal to weight) and reported (Observation::linear_momentum finite); otherwise its error is
  // not defined. Most models are held by a fixed support or pulled by gravity: none by default.
  bool conserves_linear_momentum() const { return conserves_linear_momentum_; }
  void declare_linear_momentum_conserved() { conserves_linear_momentum_ = true; }
  // The model's switching functions (core/switching.hpp), where its equations have kinks (a
  // tension-only cable); every formulation it builds carries them. None by default.
  void declare_switching(SwitchingFunctions switching) {
    switching_ = std::make_shared<const SwitchingFunctions>(std::move(switching));
  }
  int switching_count() const { return switching_ ? switching_->count : 0; }
  const SwitchingFunctions* switching() const { return switching_.get(); }
  // Its closed-form switches at the case's parameters, where it knows them (core/switching.hpp).
  void declare_switching_closed_form(SwitchingClosedForm answers) {
    switching_closed_form_ = std::make_shared<const SwitchingClosedForm>(std::move(answers));
  }
  const SwitchingClosedForm* switching_closed_form() const { return switching_closed_form_.get(); }
  // Its first switch in closed form, where only that one is known (core/switching.hpp).
  void declare_first_switch_closed_form(FirstSwitchClosedForm answer) {
    first_switch_closed_form_ = std::make_shared<const FirstSwitchClosedForm>(std::move(answer));
  }
  const FirstSwitchClosedForm* first_switch_closed_form() const { return first_switch_closed_form_.get(); }
  // The fastest frequency of the model's linearised motion in a discretisation (rad/s), where
  // the model knows it (a closed form of its parameters), else nullopt: the stability map
  // prints h_max x omega_max with it, the dimensionless limit a method's stability region sets.
  virtual std::optional<double> max_frequency(const std::string& /*discretisation*/) const { return std::nullopt; }

  // Whether the model offers that formulation, without building it; the reason when not
  // (shown as "n/a: ..." in the tables).
  virtual bool offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const = 0;

  // A fresh, independent formulation object (runs may execute concurrently), or nullptr with
  // the reason in why_not when the model does not offer it. May throw when the model cannot
  // be built at these parameters; the measurement path turns that into a failed run.
  std::unique_ptr<Formulation> make_formulation(FormulationKind kind, const std::string& discretisation,
                                                std::string& why_not) const {
    if (!offers(kind, discretisation, why_not)) return nullptr;
    std::unique_ptr<Formulation> form = build(kind, discretisation);
    if (form && switching_) {
      if (switching_->compliant_in(discretisation) && !switching_->impacts.empty()) {
        // A compliant discretisation (a penalty link) does not jump: its forms carry the functions without the
        // impact law, so that a locating method treats its switches as kinks (its own setting) and the
        // methods without an impact law run it.
        auto smooth = std::make_shared<SwitchingFunctions>(*switching_);
        smooth->impacts.clear();
        form->attach_switching(std::move(smooth));
      } else {
        form->attach_switching(switching_);
      }
    }
    return form;
  }
  std::unique_ptr<Formulation> make_formulation(FormulationKind kind, std::string& why_not) const {
    return make_formulation(kind, default_discretisation(), why_not);
  }

 protected:
  // Called only for what offers() accepted.
  virtual std::unique_ptr<Formulation> build(FormulationKind kind, const std::string& discretisation) const = 0;

 private:
  struct LazySlowestPeriod {
    std::once_flag once;
    SlowestPeriodSource compute;
  };
  void resolve_slowest_period() const {
    if (!slowest_period_source_) return;
    std::call_once(slowest_period_source_->once, [this] {
      auto [seconds, basis] = slowest_period_source_->compute();
      slowest_period_s_ = seconds;
      slowest_period_basis_ = std::move(basis);
    });
  }
  std::shared_ptr<LazySlowestPeriod> slowest_period_source_;
  std::shared_ptr<const SwitchingFunctions> switching_;
  std::shared_ptr<const SwitchingClosedForm> switching_closed_form_;
  std::shared_ptr<const FirstSwitchClosedForm> first_switch_closed_form_;
  mutable double slowest_period_s_ = std::numeric_limits<double>::quiet_NaN();
  mutable std::string slowest_period_basis_;
  bool integrates_rotations_ = true;
  bool damped_ = false;
  bool has_momentum_map_ = true;
  bool conserves_linear_momentum_ = false;
};

// The usual model: for every (formulation kind, discretisation), a factory building a fresh
// formulation from the model's parameters, or the reason it is not offered. Pairs not listed
// are declined with a generated reason.
class FormulationMenu final : public Model {
 public:
  struct Item {
    FormulationKind kind;
    std::function<std::unique_ptr<Formulation>()> make;  // empty: declined
    std::string why_not;
    std::string discretisation;  // "" for a model with a single discretisation
  };
  FormulationMenu(std::string name, StateSize size, std::vector<Item> items, std::vector<PhysicalPart> parts = {});
  std::string name() const override { return name_; }
  StateSize state_size() const override { return size_; }
  std::vector<PhysicalPart> physical_parts() const override { return parts_; }
  std::vector<std::string> discretisations() const override { return discretisations_; }
  bool offers(FormulationKind kind, const std::string& discretisation, std::string& why_not) const override;
  std::optional<double> max_frequency(const std::string& discretisation) const override;
  // Declares max_frequency(discretisation) = omega (rad/s).
  void set_max_frequency(const std::string& discretisation, double omega) { max_frequency_[discretisation] = omega; }
  // Declares it by what computes it (a linearisation: a dense eigen solve), run once when first
  // asked for (thread-safe), as Model::declare_slowest_period_source; a non-finite result: unknown.
  void declare_max_frequency_source(const std::string& discretisation, std::function<double()> source) {
    auto lazy = std::make_shared<LazyFrequency>();
    lazy->compute = std::move(source);
    max_frequency_source_[discretisation] = std::move(lazy);
  }

 protected:
  std::unique_ptr<Formulation> build(FormulationKind kind, const std::string& discretisation) const override;

 private:
  const Item* find(FormulationKind kind, const std::string& discretisation) const;
  struct LazyFrequency {
    std::once_flag once;
    std::function<double()> compute;
    double omega = std::numeric_limits<double>::quiet_NaN();
  };
  std::map<std::string, double> max_frequency_;
  std::map<std::string, std::shared_ptr<LazyFrequency>> max_frequency_source_;
  std::string name_;
  StateSize size_;
  std::vector<Item> items_;
  std::vector<std::string> discretisations_;
  std::vector<PhysicalPart> parts_;
};

// Builds a physical_parts() list: PhysicalParts().then(PhysicalPart::Configuration, 3 * n).then(...)
class PhysicalParts {
 public:
  PhysicalParts& then(PhysicalPart part, int count) {
    parts_.insert(parts_.end(), size_t(count), part);
    return *this;
  }
  operator std::vector<PhysicalPart>() const { return parts_; }

 private:
  std::vector<PhysicalPart> parts_;
};

// Menu items: `offer<OdeForm>(FormulationKind::EmbeddedOde, p, ic)` builds OdeForm(p, ic) on
// each request (copies of the arguments are kept); `decline(kind, reason)`; `.in("lumped")`
// files an item under a named discretisation.
template <class Form, class... Args>
FormulationMenu::Item offer(FormulationKind kind, const Args&... args) {
  return {kind, [=] { return std::unique_ptr<Formulation>(std::make_unique<Form>(args...)); }, {}, {}};
}
inline FormulationMenu::Item decline(FormulationKind kind, std::string why_not) { return {kind, {}, std::move(why_not), {}}; }
inline FormulationMenu::Item in(std::string discretisation, FormulationMenu::Item item) {
  item.discretisation = std::move(discretisation);
  return item;
}

// How a model is built from its [model] and [initial] tables. The factory reads every key it
// needs through the readers (which reject unknown ones) and throws InputError on bad values.
struct ModelInfo {
  std::string name;     // value of case.model in a case file
  std::string summary;  // one line for `tetherbench list`
  std::function<std::shared_ptr<const Model>(TableReader& model_table, TableReader& initial_table)> build;
};

}  // namespace tb
