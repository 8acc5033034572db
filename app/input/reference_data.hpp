#pragma once
// The data in reference/, as CSV read with fast-cpp-csv-parser: reference solutions (final
// physical state of a tight-tolerance run), the papers' claims, and the conservation
// envelopes the CI gates check, and the measured cost of each job of the report. Lines starting with '#' are comments (sources, provenance).

#include <Eigen/Dense>
#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/record.hpp"

namespace tb {

// reference/<case>/final_state.csv: columns index,value — the model's physical state vector,
// after a provenance comment and a "# fingerprint: <hex>" comment (app/common/fingerprint.hpp).
void write_reference_state(const std::string& path, const Eigen::VectorXd& x, const std::string& provenance,
                           const std::string& fingerprint = "");
Eigen::VectorXd read_reference_state(const std::string& path);
// The fingerprint recorded in a reference file; "" when it has none (made before fingerprints).
std::string read_reference_fingerprint(const std::string& path);

// reference/<case>/trajectory.bin: the model's physical state on a uniform time grid
// t_k = k * interval, k = 0..K (K * interval = the reference horizon), stored compactly: text
// lines starting with '#' (provenance, "# fingerprint: <hex>", then the data line
// "# data: <K+1> samples x <n> float64 little-endian, t_k = k * <interval>"), followed by
// (K+1) * n raw IEEE-754 doubles, sample by sample. A file whose data does not have exactly that
// size, or whose header is not that, is refused (InputError naming the file).
struct StateTrajectory {
  double interval = 0.0;                // grid spacing (s)
  std::vector<Eigen::VectorXd> states;  // states[k] at t_k = k * interval, all of one size
};
void write_reference_trajectory(const std::string& path, const StateTrajectory& trajectory, const std::string& provenance,
                                const std::string& fingerprint);
StateTrajectory read_reference_trajectory(const std::string& path);

// reference/paper_claims.csv: every claim the source papers make about a bundled case, one a
// row (the file's header and reference/README.md document the columns; cases/README.md, "The
// papers' claims", how a claim becomes a verdict). Read and checked here; judged by the study.
// What a claim says (the file's kind column): Value, the paper prints a value; UpperBound, "less
// than"; Diverges, the quantity's rise turns faster than any power law after about paper_value
// (s); NoDrift / Drifts, the error's growth law; Conserved / NotConserved, the error against the
// run's round-off floor; SmallerThan, below other_case / other_run's. The kinds about a time
// (issue 32 item 1) are judged on the run's recorded time series (app/input/claim_series.hpp):
// RisesAfter, the quantity's max after paper_value (s) is tolerance x its max before; PeakNear,
// its largest value near paper_value (s); Period, its dominant period is paper_value (s);
// Increases, it ends above where it started; PartsAfter, it and other_run's part (differ by more
// than a tenth of its range) at about paper_value (s).
// Onset, the quantity first passes a level (metric "series:<spec>><level>") at about paper_value (s).
// Converges, a static shape tends to the analytic one as the elements grow (metric
// "catenary:max_error_m", run "static": the catenary study's table of the report, no run).
// no_secular_drift: the paper claims no systematic (secular, linear-in-t) drift and no more:
// agrees where the growth law's 95% interval excludes a linear drift (wholly below 1 - s), whether
// or not it also establishes boundedness (seed 000's "oscillates near the initial value, but there
// is no systematic drift"); no_drift claims the error stays bounded.
enum class ClaimKind { Value, UpperBound, Diverges, NoDrift, Drifts, Conserved, NotConserved, SmallerThan,
                       RisesAfter, PeakNear, Period, Increases, PartsAfter, Onset, Converges, NoSecularDrift };
constexpr std::array<std::string_view, 16> enum_texts(ClaimKind) {
  return {"value",        "upper_bound", "diverges",  "no_drift", "drifts",    "conserved",   "not_conserved", "smaller_than",
          "rises_after",  "peak_near",   "period",    "increases", "parts_after", "onset",     "converges",     "no_secular_drift"};
}
// The kinds judged by a growth law (studies/paper_comparison/paper_verdict.cpp judge_growth).
inline bool paper_claim_is_about_drift(ClaimKind kind) {
  return kind == ClaimKind::NoDrift || kind == ClaimKind::NoSecularDrift || kind == ClaimKind::Drifts;
}
struct PaperClaim {
  std::string id;          // unique within the file
  std::string source;      // paper, section, figure, table or equation
  std::string case_name;
  std::string run;         // the run label (integrator, "@discretisation" where not the default)
  ClaimKind kind = ClaimKind::Value;
  // A summary metric name (core/metrics.hpp), or "series:<spec>": the quantity of the run's time
  // series (app/input/claim_series.hpp); the kinds about a time take only a series.
  std::string metric;
  std::string series;            // the spec of a "series:<spec>" metric; "" for a summary metric
  double series_level = std::numeric_limits<double>::quiet_NaN();  // onset: the level of "series:<spec>><level>"
  double paper_value = 0.0;      // the kinds that compare a number (paper_claim_has_value); unused otherwise
  bool has_paper_value = false;
  double tolerance = 1.0;        // a factor >= 1, what the claim's source allows (tolerance_why says why)
  std::string other_case, other_run;  // smaller_than and parts_after only
  // "" or "<key>=<v1>;<v2>;...": extra runs of this case and run, each with <key> at one value, that
  // measure how far a round-off-level change moves our value. <key> is one of the run's integrator
  // settings, or "model.<name>" for a number of the case's [model] table.
  std::string sensitivity_setting;
  std::vector<double> sensitivity_values;
  // no_drift, no_secular_drift, drifts and the kinds about a time: the horizon (s) of a longer run of this case and
  // run that judges the claim (where the full run is mostly start-up, or the claim is about
  // longer runs); 0: the full run's.
  double horizon = 0.0;
  std::string claim;             // the paper's words
  std::string tolerance_why;
  // What explains ours where it does not agree, and how that is known: "measured: <by what>"
  // (a test, a study's jobs) or "hypothesis". Both empty, or both given.
  std::string cause, cause_status;
  // Where our scheme or set-up deviates from the paper's on this claim (shown with the verdict,
  // whatever it is); "" where we follow the paper.
  std::string deviation;
  // "" ; "proxy": the quantity is the suite's stand-in for one the paper defines (the body's
  // height for its gravitational energy, the total momentum about e3 for the links' momenta),
  // related to it as tolerance_why states: judged on it both ways, agreement and difference
  // alike, with the proxy named, unless the data show it cannot fail (studies/paper_comparison/paper_verdict.cpp);
  // "undefined": the paper's word has no definition (seed 002's "tumbles", read off an
  // animation), so a level of ours would judge the suite's definition: no verdict either way,
  // the proxy's measurement printed (issue 44 point 16); "unprinted": the verdict turns on a setting the
  // paper does not print (seed 003's ODE45 tolerances), measured here at one assumed setting;
  // "unstable_set": the claim is about the exact solution on an invariant set that is unstable,
  // so that rounding leaves it at the same rate whatever the method (seed 003's payload on the
  // symmetry axis); "other_model": the claim is about the paper's model and the suite judges it
  // on another (seed 003's Remark 1, a rigid-link cable, on the elastic hanging tether). The last
  // four are "inconclusive" whatever ours is: a verdict that would be one if it fitted and none
  // if it did not is no rule (issue 44 class 7).
  // "outside_derivation" (issue 44 point 17): ours judges SPEC's use of the paper's model outside
  // the case the paper derived it for (seed 002's Carnot term, eq. 21, derived for retrieval, in
  // deployment), not the paper's claim about its own method: the verdict stands, measured, and
  // the row and the front page's counts say what it is a verdict on (ClaimVerdict::judges).
  std::string qualifier;
};
inline std::vector<std::string> paper_claim_kinds() {
  const auto texts = enum_texts(ClaimKind{});
  return {texts.begin(), texts.end()};
}
// Kinds that compare a number the paper prints.
inline bool paper_claim_has_value(ClaimKind kind) {
  return kind == ClaimKind::Value || kind == ClaimKind::UpperBound || kind == ClaimKind::Diverges ||
         kind == ClaimKind::RisesAfter || kind == ClaimKind::PeakNear || kind == ClaimKind::Period ||
         kind == ClaimKind::PartsAfter || kind == ClaimKind::Onset;
}
// Kinds judged only on a time series (their metric must be "series:<spec>").
inline bool paper_claim_needs_series(ClaimKind kind) {
  return kind == ClaimKind::Diverges || kind == ClaimKind::RisesAfter || kind == ClaimKind::PeakNear ||
         kind == ClaimKind::Period || kind == ClaimKind::Increases || kind == ClaimKind::PartsAfter ||
         kind == ClaimKind::Onset;
}
// Kinds that compare with another run (other_case, other_run).
inline bool paper_claim_has_other(ClaimKind kind) { return kind == ClaimKind::SmallerThan || kind == ClaimKind::PartsAfter; }
std::vector<PaperClaim> read_paper_claims(const std::string& path);

// reference/envelopes.csv: one row per Envelope, its columns from the description below
// (app/common/record.hpp), so reading, writing and the header cannot disagree.
// Max: value <= bound (conserved); Min: value >= bound (expected to drift); Fails (metric
// "outcome"): the run is expected to fail, in the way failure_kind says, no earlier than bound (s).
enum class BoundType { Max, Min, Fails };
constexpr std::array<std::string_view, 3> enum_texts(BoundType) { return {"max", "min", "fails"}; }
// Fixed: a physical claim, kept by --record; Recorded: re-measured by --record.
enum class EnvelopePolicy { Fixed, Recorded };
constexpr std::array<std::string_view, 2> enum_texts(EnvelopePolicy) { return {"fixed", "recorded"}; }
// How a run failed, in one word (app/judging/gates.hpp failure_kind derives it from the run's outcome):
// a gate's fails row expects the same kind, so a method that used to diverge and now throws, or
// that used to fail its solver and now crashes, fails its gate. None: a row that is not a fails row.
//   diverged   the state became non-finite inside a step ("diverged at h = ...")
//   unstable   completed, but beyond the instability criterion ("unstable from t = ...")
//   solver     the step's own solver gave up (a Newton or fixed-point iteration, a step-size floor)
//   exception  the model or the integrator threw
//   crashed    the plugin's process died of a signal
//   contract   the step broke the integrator contract (a non-finite state returned as success, ...)
//   timeout    the run made no progress past its time limit ("hung")
enum class FailureKind { None, Diverged, Unstable, Solver, Exception, Crashed, Contract, Timeout };
constexpr std::array<std::string_view, 8> enum_texts(FailureKind) {
  return {"", "diverged", "unstable", "solver", "exception", "crashed", "contract", "timeout"};
}
struct Envelope {
  std::string case_name;
  std::string integrator;
  std::string metric;  // a metric name (core/metrics.hpp), or "outcome" on a fails row
  BoundType bound_type = BoundType::Max;
  // Max and min rows: the bound on the metric. Fails rows: the earliest time (s) the run may
  // fail at (app/judging/gates.hpp failure_time_bound: the recorded time less the stated tolerance).
  double bound = 0.0;
  EnvelopePolicy policy = EnvelopePolicy::Fixed;
  // What was measured when the bound was recorded; on a fails row the time (s) it failed at
  // (the last accepted step's time; for an unstable run, the instability's onset).
  double recorded_value = 0.0;
  // Fails rows: how it failed and the step it failed at when recorded; None and 0 otherwise.
  FailureKind failure_kind = FailureKind::None;
  long failure_step = 0;
  std::string note;
};
template <class V>
void describe(V& v, Envelope& e) {
  v("case", e.case_name);
  v("integrator", e.integrator);
  v("metric", e.metric);
  v("bound_type", e.bound_type);
  v("bound", e.bound, Csv{3});
  v("policy", e.policy);
  v("recorded_value", e.recorded_value, Csv{4});
  v("failure_kind", e.failure_kind);
  v("failure_step", e.failure_step);
  v("note", e.note, Csv::quote());
}
// The header of envelope files written before fails rows recorded their kind and step (no
// failure_kind, failure_step): refused by the gate with how to convert, read by --record
// (read_envelopes' accept_old_format), which writes the file back in the current format.
inline constexpr const char* kEnvelopeHeaderBeforeFailureKinds =
    "case,integrator,metric,bound_type,bound,policy,recorded_value,note";
// InputError naming the file, the line and the column for a bad row, or the header expected for
// a file of another format. With accept_old_format, a file with the old header is read too: its
// fails rows get their kind from their note (the status text they recorded), their step 0.
std::vector<Envelope> read_envelopes(const std::string& path, bool accept_old_format = false);
void write_envelopes(const std::string& path, const std::vector<Envelope>& rows);

// reference/job_costs.csv: columns job,seconds — the wall time each job of an earlier report
// took (the job's progress label: "case | run | what"). The report orders its jobs longest
// first and estimates its remaining time from these; `report` writes the same file, measured,
// in its output folder (refresh by copying it here). Labels are unique, seconds finite and >= 0.
struct JobCost {
  std::string job;
  double seconds = 0.0;
};
std::vector<JobCost> read_job_costs(const std::string& path);
void write_job_costs(const std::string& path, const std::vector<JobCost>& rows, const std::string& provenance);

}  // namespace tb
