// The metrics, each declared once (see metric_registry.hpp). A row's order is its column's order
// in summary.csv; its label and unit head the Markdown tables.

#include "core/metric_registry.hpp"

#include <cmath>
#include <stdexcept>

#include "core/metrics.hpp"
#include "core/stability_criterion.hpp"

namespace tb {

namespace {

// The models' own conserved scalars, slot by slot.
constexpr std::array<InvariantSpec, 1> kInvariants{{
    {"casimir", "no Casimir"},
}};
static_assert(kInvariants.size() <= kInvariantSlots, "raise kInvariantSlots (metric_registry.hpp)");

constexpr std::size_t slot_of(std::string_view name) {
  for (std::size_t i = 0; i < kInvariants.size(); ++i)
    if (kInvariants[i].name == name) return i;
  throw std::out_of_range("no invariant of that name");  // at compile time: the row below names no invariant
}

template <std::size_t Slot>
double invariant_err(const ConservationMetrics& m) {
  return m.invariant_err_max[Slot];
}

using M = ConservationMetrics;

// clang-format off
const std::vector<MetricSpec> kRegistry = {
    {.name = "energy_err_max", .unit = "J", .label = "max ΔE", .symbol = "|ΔE|",
     .meaning = "max over t of |E(t) − E(0) − W(t)|, the energy-balance residual (W: work of non-conservative forces)",
     .scale = RoundOffScale::Energy, .growth = GrowthOf::Energy, .growth_owner = true, .default_gate = true,
     .role = TableRole::Headline, .shared_window = true, .field = &M::energy_err_max,
     .value = [](const M& m) { return m.energy_err_max; }},
    {.name = "energy_err_mean", .unit = "J", .label = "mean ΔE", .meaning = "mean over t of |E(t) − E(0) − W(t)| (paper Table 1)",
     .scale = RoundOffScale::Energy, .growth = GrowthOf::Energy, .field = &M::energy_err_mean,
     .value = [](const M& m) { return m.energy_err_mean; }},
    {.name = "energy_err_rel_ke", .unit = "1", .label = "max ΔE / max T",
     .meaning = "energy_err_max over the largest kinetic energy (the papers' \"% of max KE\")",
     .scale = RoundOffScale::Energy, .growth = GrowthOf::Energy, .field = &M::energy_err_rel_ke,
     .value = [](const M& m) { return m.energy_err_rel_ke; }},
    {.name = "energy_gain_rel_ke", .unit = "1", .label = "max gain / max T",
     .meaning = "the largest signed gain E − E(0) − W over the largest kinetic energy (what the instability criterion judges)",
     .value = [](const M& m) { return energy_gain_rel(m); }},
    {.name = "energy_drift_rate", .unit = "J/s", .label = "ΔE drift rate",
     .meaning = "least-squares slope of E(t) − E(0) − W(t) against t: secular drift, not bounded oscillation",
     .scale = RoundOffScale::EnergyPerSecond, .field = &M::energy_drift_rate,
     .value = [](const M& m) { return m.energy_drift_rate; }},
    {.name = "energy_drift_rate_abs", .unit = "J/s", .label = "|ΔE drift rate|",
     .meaning = "|energy_drift_rate|, what a gate bounds", .scale = RoundOffScale::EnergyPerSecond,
     .default_gate = true, .role = TableRole::None, .value = [](const M& m) { return std::abs(m.energy_drift_rate); }},
    {.name = "momentum_err_max", .unit = "N m s", .label = "max Δπ", .symbol = "|Δπ|",
     .meaning = "max over t of |π(t) − π(0)| of the model's momentum map (the angular momentum about the symmetry axis)",
     .scale = RoundOffScale::Momentum, .violable = Violable::Momentum, .growth = GrowthOf::Momentum,
     .growth_owner = true, .default_gate = true, .role = TableRole::Headline, .shared_window = true,
     .field = &M::momentum_err_max, .value = [](const M& m) { return m.momentum_err_max; }},
    {.name = "momentum_err_mean", .unit = "N m s", .label = "mean Δπ", .meaning = "mean over t of |π(t) − π(0)|",
     .scale = RoundOffScale::Momentum, .violable = Violable::Momentum, .growth = GrowthOf::Momentum,
     .field = &M::momentum_err_mean, .value = [](const M& m) { return m.momentum_err_mean; }},
    {.name = "constraint_err_max", .unit = "m or 1", .label = "max constraint err", .symbol = "|g(q)|",
     .meaning = "max over t of |g(q)| of the holonomic constraints the form does not satisfy by construction",
     .violable = Violable::Constraints, .default_gate = true, .role = TableRole::Headline, .shared_window = true,
     .field = &M::constraint_err_max, .value = [](const M& m) { return m.constraint_err_max; }},
    {.name = "constraint_rate_err_max", .unit = "m/s or 1/s", .label = "max constraint rate err",
     .meaning = "max over t of |G(q) v|, the rate of the same constraints (index-1 DAEs drift in both)",
     .violable = Violable::ConstraintRates, .default_gate = true, .field = &M::constraint_rate_err_max,
     .value = [](const M& m) { return m.constraint_rate_err_max; }},
    {.name = "linear_momentum_err_max", .unit = "N s", .label = "max ΔP", .symbol = "|ΔP|",
     .meaning = "max over t of |P(t) − P(0)| of the total linear momentum, where no net external force acts",
     .scale = RoundOffScale::LinearMomentum, .violable = Violable::LinearMomentum, .default_gate = true,
     .role = TableRole::Headline, .shared_window = true, .field = &M::linear_momentum_err_max,
     .value = [](const M& m) { return m.linear_momentum_err_max; }},
    {.name = "energy_err_com_max", .unit = "J", .label = "max ΔE_cm",
     .meaning = "max over t of |P(0)·ΔP/M + |ΔP|²/(2M)|: the part of the energy error that a drift ΔP of the total "
                "linear momentum puts into the centre of mass's kinetic energy (M: the total mass)",
     .scale = RoundOffScale::Energy, .violable = Violable::LinearMomentum, .field = &M::energy_err_com_max,
     .value = [](const M& m) { return m.energy_err_com_max; }},
    {.name = "energy_err_internal_max", .unit = "J", .label = "max ΔE_int",
     .meaning = "max over t of |E(t) − E(0) − W(t) − ΔE_cm(t)|: the energy error of the motion relative to the centre "
                "of mass, the part a momentum drift does not explain",
     .scale = RoundOffScale::Energy, .violable = Violable::LinearMomentum, .field = &M::energy_err_internal_max,
     .value = [](const M& m) { return m.energy_err_internal_max; }},
    {.name = "com_drift_max", .unit = "m", .label = "max Δx_cm",
     .meaning = "max over t of |x_cm(t) − x_cm(0) − P(0) t/M|: how far the centre of mass moved from where the "
                "conserved momentum keeps it",
     .violable = Violable::LinearMomentum, .field = &M::com_drift_max, .value = [](const M& m) { return m.com_drift_max; }},
    {.name = "orthogonality_err_max", .unit = "1", .label = "max ‖I − RᵀR‖", .symbol = "‖I − RᵀR‖_F",
     .meaning = "max over t and rigid bodies of ‖I − RᵀR‖_F", .violable = Violable::Rotations, .default_gate = true,
     .role = TableRole::Headline, .field = &M::orthogonality_err_max,
     .value = [](const M& m) { return m.orthogonality_err_max; }},
    {.name = "orthogonality_err_mean", .unit = "1", .label = "mean ‖I − RᵀR‖",
     .meaning = "mean over t of the largest ‖I − RᵀR‖_F", .violable = Violable::Rotations,
     .field = &M::orthogonality_err_mean, .value = [](const M& m) { return m.orthogonality_err_mean; }},
    {.name = "casimir_err_max", .unit = "N m s", .label = "max Δ‖Π‖",
     .meaning = "max over t of | ‖Π(t)‖ − ‖Π(0)‖ | of the body angular momentum Π = J Ω, a Casimir: constant on the "
                "coadjoint orbit, kept by a method that moves Π by rotations only",
     .scale = RoundOffScale::Invariant, .violable = Violable::Invariant, .default_gate = true,
     .value = invariant_err<slot_of("casimir")>, .slot = slot_of("casimir")},
};
// clang-format on

}  // namespace

const std::vector<InvariantSpec>& invariant_specs() {
  static const std::vector<InvariantSpec> specs(kInvariants.begin(), kInvariants.end());
  return specs;
}

std::size_t invariant_slot(std::string_view name) {
  for (std::size_t i = 0; i < kInvariants.size(); ++i)
    if (kInvariants[i].name == name) return i;
  std::string known;
  for (const auto& s : kInvariants) known.append(known.empty() ? "" : ", ").append(s.name);
  throw std::out_of_range("unknown invariant '" + std::string(name) + "' (known: " + known + ")");
}

const std::vector<MetricSpec>& metric_registry() { return kRegistry; }

const MetricSpec& metric_spec(std::string_view name) {
  for (const auto& m : kRegistry)
    if (m.name == name) return m;
  constexpr std::string_view kShared = "_shared";
  if (name.size() > kShared.size() && name.ends_with(kShared)) {
    const std::string_view base = name.substr(0, name.size() - kShared.size());
    for (const auto& m : kRegistry)
      if (m.name == base && m.shared_window) return m;
  }
  std::string known;
  for (const auto& m : kRegistry) known.append(known.empty() ? "" : ", ").append(m.name);
  throw std::out_of_range("unknown metric '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<const MetricSpec*> metrics_with_role(TableRole role) {
  std::vector<const MetricSpec*> out;
  for (const auto& m : kRegistry)
    if (m.role == role) out.push_back(&m);
  return out;
}

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& m : metric_registry()) n.emplace_back(m.name);
    return n;
  }();
  return names;
}

double metric_value(const ConservationMetrics& m, const std::string& name) {
  const MetricSpec& spec = metric_spec(name);
  if (spec.name != name) throw std::out_of_range("metric '" + name + "' is a column of the shared window, not of a run's metrics");
  return spec.value(m);
}

}  // namespace tb
