#pragma once
// CI regression gates: a short run of every case x run (integrator, with its discretisation),
// its conservation metrics checked against an envelope file (the bundled reference/envelopes.csv,
// or the researcher's own). A run with no envelope fails too, so a new integrator or case cannot
// slip past the gates. An envelope can also say that a run is expected to fail (metric "outcome",
// bound type "fails"): a method that is unstable on a case at its step (its state diverges, or
// it completes beyond the instability criterion of core/stability_criterion.hpp) is a benchmark
// result, recorded like any other. Such a row records HOW the run failed (FailureKind) and WHEN:
// the gate fails when the run now fails another way, earlier than the row allows, or completes.
// The measured orders are gated beside the envelopes (app/judging/order_gate.hpp).

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/reference_data.hpp"
#include "app/running/round_off.hpp"
#include <array>
#include <string_view>

#include "app/input/run_records.hpp"

namespace tb {

// How a check ended. Inconclusive: neither passed nor failed, what was to be measured could not
// be (an order on a round-off floor, too few points); counted apart, it does not fail the gate.
enum class GateResult { Failed, Ok, Inconclusive };
constexpr std::array<std::string_view, 3> enum_texts(GateResult) { return {"failed", "ok", "inconclusive"}; }

struct GateCheck {
  std::string case_name, integrator, metric;
  GateResult result = GateResult::Failed;
  std::string message;  // one line: case, integrator, metric, value and bound
  bool pass() const { return result == GateResult::Ok; }
  bool inconclusive() const { return result == GateResult::Inconclusive; }
};
// Described once (app/common/record.hpp): `tetherbench.gate` binds its rows by this list.
template <class V>
void describe(V& v, GateCheck& g) {
  v("case", g.case_name);
  v("integrator", g.integrator);
  v("metric", g.metric);
  v("outcome", g.result);
  v("message", g.message);
}

// The envelope file a gate reads, as its messages name it, and the command that records a run
// into it (a hint never points into an installation: there it names the user's own file).
struct EnvelopeFileHint {
  std::string file;            // the file in use
  std::string record_command;  // e.g. "tetherbench gate --record --envelopes mine.csv CASE_FILE"
};

// How a run failed, in the one word a fails row records (reference_data.hpp FailureKind); None
// for a run that does not fail (RunOutcome::fails() false). The one place the kind is derived:
// a new way of failing gets its word here and in FailureKind.
FailureKind failure_kind(const RunOutcome& outcome);
// The same from a status text (RunOutcome::describe(): "diverged at h = ...", "unstable from
// ...", "failed: <reason> at t = ..."): the note of a fails row written before rows had a kind.
FailureKind failure_kind_of_status(const std::string& status);

// The tolerance on a failure's time: a run recorded failing at t_rec (with step h) passes its
// gate while it fails no earlier than t_rec - max(kFailureTimeFraction t_rec, kFailureTimeSteps h).
// Relative, so that a failure late in a run may move by round-off-level changes of its growth;
// with a floor of a few steps, so that a failure in the first steps is not held to one step.
inline constexpr double kFailureTimeFraction = 0.1;
inline constexpr double kFailureTimeSteps = 5.0;
double failure_time_bound(double t_recorded, double h);
// "10% of the recorded time or 5 steps, whichever is more": the rule as the messages state it.
std::string failure_tolerance_text();

// A fails row's verdict on a gate run: it passes when the run fails in the same kind, no earlier
// than the row's bound; a run that completes is a changed outcome (re-record).
GateCheck judge_failure(const Envelope& e, const SummaryRow& row, const EnvelopeFileHint& hint);

// InputError naming the file, the row and the metric when an envelope names a metric that
// does not exist: checked before any gate runs.
void check_envelope_metrics(const std::string& file, const std::vector<Envelope>& envelopes);

// Runs the gate run (case report.gate_t_end, the case's h) of every integrator that applies.
std::vector<GateCheck> check_gates(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes,
                                   const EnvelopeFileHint& hint);

// What --record made of a case: the rows, and the runs it refuses to record.
struct RecordedEnvelopes {
  std::vector<Envelope> rows;
  // One line per failing run the existing rows do not already expect to fail that way and no
  // earlier (case, run, status): without accept_failures nothing may be written while any is here.
  std::vector<std::string> refused;
};

// Re-measures this case's "recorded" envelopes (bound = 2x the value for max, 1/2 for min),
// keeps "fixed" ones, and adds a max-envelope of every default gate metric of the registry
// (MetricSpec::default_gate) that a run can violate and has none for: on a new run, and on a run
// recorded before that metric was added.
// A run that fails or completes unstable (RunOutcome::fails()) is recorded as expected to fail
// (one "outcome,fails" row with its kind, time and step, replacing its recorded rows) when a fails
// row of the file already expects it (judge_failure passes: the same kind, no earlier), or when
// accept_failures says so; otherwise it is listed in `refused`. A run recorded as failing that now
// completes stably gets the standard rows.
// Rows of other cases are returned unchanged.
RecordedEnvelopes record_envelopes(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes,
                                   bool accept_failures);

}  // namespace tb
