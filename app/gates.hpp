#pragma once
// CI regression gates: a short run of every case x run (integrator, with its discretisation),
// its conservation metrics checked against reference/envelopes.csv. A run with no envelope
// fails too, so a new integrator or case cannot slip past the gates. An envelope can also say
// that a run is expected to fail (metric "outcome", bound type "fails"): a method that is
// unstable on a case at its step (its state diverges, or it completes beyond the instability
// criterion of core/stability_criterion.hpp) is a benchmark result, recorded like any other.

#include <string>
#include <vector>

#include "app/case.hpp"
#include "app/reference_data.hpp"
#include "app/round_off.hpp"
#include "app/runner.hpp"

namespace tb {

struct GateCheck {
  std::string case_name, integrator, metric;
  bool pass = false;
  std::string message;  // one line: case, integrator, metric, value and bound
};

// InputError naming the file, the row and the metric when an envelope names a metric that
// does not exist: checked before any gate runs.
void check_envelope_metrics(const std::string& file, const std::vector<Envelope>& envelopes);

// Runs the gate run (case report.gate_t_end, the case's h) of every integrator that applies.
std::vector<GateCheck> check_gates(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes);


// Re-measures this case's "recorded" envelopes (bound = 2x the value for max, 1/2 for min),
// keeps "fixed" ones, and adds a max-envelope of every default gate metric of the registry
// (MetricSpec::default_gate) that a run can violate and has none for: on a new run, and on a run
// recorded before that metric was added.
// A run that fails or completes unstable (RunOutcome::fails()) is recorded as expected to fail
// (one "outcome,fails" row replacing its recorded rows); a run recorded as failing that now
// completes stably gets the standard rows.
// Rows of other cases are returned unchanged.
std::vector<Envelope> record_envelopes(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes);

}  // namespace tb
