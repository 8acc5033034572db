#pragma once
// The one instability criterion (issue 24 item 2): it decides the status of every run that
// reaches its end (measure(), app/runner.hpp: "unstable at h = ..." instead of "ok") and every
// probe of the stability map (studies/stability_map.hpp), the same function for both.
//
// A run is unstable when, over its samples (SPEC "Metrics"),
//   1. its energy grows: the signed energy-balance residual E(t) - E(0) - W(t) (W: external
//      work) exceeds energy_fraction x the maximum kinetic energy over the run at some sample.
//      Signed, because instability is growth: a method that damps loses energy without being
//      unstable (that loss is accuracy). A gain within round-off of the energy's magnitude
//      (kRoundOffGain x max(|T| + |E - T|)) is not growth;
//   2. or its constraints or rotations leave the manifold: constraint_err_max or
//      orthogonality_err_max > constraint_bound;
//   3. or a sampled energy is not finite.
// A state that becomes non-finite inside a step is caught earlier, by the step itself
// (StepFailure Diverged, core/integrator.hpp); this criterion judges runs that completed.

#include <optional>
#include <string>

#include "core/metrics.hpp"

namespace tb {

struct StabilityCriterion {
  double energy_fraction = 0.1;    // energy gain <= this x max kinetic energy
  double constraint_bound = 1e-2;  // constraint_err_max and orthogonality_err_max <= this
};

// Relative to the energy's magnitude, the largest gain that round-off alone can make: below it
// an energy "gain" is not growth, whatever the kinetic energy (a body nearly at rest).
inline constexpr double kRoundOffGain = 1e-12;

// What the criterion found beyond its bounds.
struct Instability {
  enum class Bound { EnergyGain, Constraint, Orthogonality, NonFinite };
  Bound bound = Bound::EnergyGain;
  double value = 0.0;  // energy gain / max kinetic energy, or the constraint or orthogonality error
  double limit = 0.0;  // the criterion's bound on value
  double t = 0.0;      // when it occurred (s): the sample of the maximum
  // "energy gain 1.38 × max KE at t = 4.99 s", "constraint error 0.03 > 0.01 at t = 2 s",
  // "orthogonality error ...", "non-finite energy at t = ... s".
  std::string describe() const;
};

// max(E - E0 - W) / max kinetic energy of a run (0 when it never gained; +inf for a gain above
// round-off with no kinetic energy at all).
double energy_gain_rel(const ConservationMetrics& m);

// The criterion applied to a run's metrics: nullopt when stable.
std::optional<Instability> judge_stability(const ConservationMetrics& m, const StabilityCriterion& criterion);

// The bounds that, once passed at a sample, stay passed whatever follows (a non-finite energy,
// a constraint or orthogonality error above the bound): a search may stop a probe there. The
// energy gain is judged at the end only, against the run's maximum kinetic energy.
std::optional<Instability> judge_sample(double t, const Observation& o, const StabilityCriterion& criterion);

}  // namespace tb
