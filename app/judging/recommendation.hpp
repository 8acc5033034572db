#pragma once
// Which integrator to use for which job, derived from a written report (app/judging/report_data.hpp) by
// stated rules, so that the front page's advice is the report's own data read one way for every
// model (issue 33 item 1). Nothing here names a model or an integrator.
//
// Long simulations (issue 44 class 3). A long simulation is a choice, over the whole horizon,
// between error and cost: the advice for each case is the Pareto front of its completed runs
// (RunOutcome kind ok) in
//   cost    the run's runtime over the case's horizon, and
//   errors  the energy error and the momentum-map error over the longest horizon measured (the
//           long-time study's own run where there is one, else the full run), the linear-momentum
//           error and the constraint error over the case's horizon, each where the run's
//           formulation can violate it.
// A run is off the front when another is at once as fast (within the case's timing noise) and
// no less accurate on every error (not worse by more than kErrorFactor, or both at round-off;
// where the case measures its runs' error spread under a round-off change of its inputs and that
// is larger, by more than the spread: CaseFront::error_factor),
// and better on one (and, where it alone extrapolates, also beyond the horizon). A small error is
// preferred to a bounded one: "bounded" is not an error, it
// is what the growth law says of the future, and each entry carries it as its extrapolation
// (bounded with theory behind it extrapolates; growth does not; no growth measured where theory
// predicts drift is not guaranteed beyond the horizon).
//
// Timings within the case's timing noise are ties, in words ("=") and order: the noise is the
// largest relative run-to-run spread the work-precision study measured on the case (its passes),
// or on the report when the case has none. Runs with identical errors (every error above
// round-off the same to 4 digits) are one discretisation (a constrained variational method and its Lie group twin on a sphere, a
// Runge-Kutta method and its Lie group form on an abelian group), one entry: their runtimes
// differ by implementation overhead only, which ranks nothing.
//
// Accuracy at a given cost is the work-precision study's ranking (work_precision_rankings.csv),
// quoted with its horizon against the case's: it holds over that horizon only, and is no advice
// for a long simulation.

#include <optional>
#include <string>
#include <vector>

#include "app/judging/report_data.hpp"

namespace tb {

inline constexpr double kStepMarginNote = 0.5;  // h/h_max above this is a caveat worth printing
// Two errors differ when one is more than this factor the other: a comparison read off a plot
// (the papers' claims use the same factor); within it, the runs' errors are alike.
inline constexpr double kErrorFactor = 2.0;

// One error of a run over the horizon it was measured on.
struct HorizonError {
  std::string quantity;  // "energy", "momentum", "linear_momentum", "constraint"
  double value = 0.0;
  double t_end = 0.0;      // s: the horizon of the value
  bool round_off = false;  // at round-off: alike any other round-off value of the quantity
};

// One entry of a case's front: a run, or several with identical errors (one discretisation).
struct FrontEntry {
  std::vector<const RunRecord*> runs;  // the first is the fastest
  double runtime_s = 0.0;              // the fastest's
  double runtime_max_s = 0.0;          // the slowest's (several runs: implementation overhead)
  std::vector<HorizonError> errors;
  std::string energy_law;    // over the longest horizon measured (a regime change: the law after it)
  bool energy_accelerating = false;  // its envelope steepens over the span judged (long_time.csv)
  bool energy_offset_drift = false;  // linear by the offset-plus-drift fit a + b t (LawRecord::offset_drift)
  bool energy_exponential = false;   // theory predicts exponential growth of its error (predicted_growth)
  std::string extrapolation;  // what the law says beyond the horizon, in words
  // The law holds beyond the horizon: no growth measured where theory predicts none. A run whose
  // errors are alike another's at the horizon is not beaten by it when only it extrapolates.
  bool extrapolates = false;
  bool ties_previous = false;  // runtime within the timing noise of the entry before
  double step_margin = 0.0;    // h/h_max at the run's horizon (0: adaptive, or no map; StepLimit::margin)
  std::string step_limit;
  std::string step_margin_words;  // StepLimit::margin_words: how the margin was had
  // Theory predicts exponential growth: where the map measured how h_max falls with the horizon,
  // the horizon at which it would reach the run's h (StepLimit::horizon_reaching), and that rate.
  double limit_reaches_h_at = std::numeric_limits<double>::quiet_NaN();
  double horizon_exponent = std::numeric_limits<double>::quiet_NaN();
  std::string label() const;  // "A = B": the runs it stands for, by label
};

// A run that is not on the front, and why.
struct OffFront {
  const RunRecord* run = nullptr;
  std::string why;  // "<label> is as fast and as accurate", "unstable from t = 349.9 s"
  // A completed run that is still no result for the choice: it left the snap study's converged
  // cascade of snaps, so its errors here measure another motion (the fourth-round read, R1).
  bool not_a_result = false;
};

// How far a round-off change of the case's inputs moves its runs' errors over the horizon
// (error_spread.csv, studies/error_spread/error_spread.hpp): on a case whose motion depends sensitively on its
// start, two errors closer than that are not told apart by the runs. Measured per run and error
// as max(e'/e, e/e') over the errors above round-off; the case's factor is the largest.
struct ErrorSpreadMeasure {
  double factor = 0.0;          // 0: not measured
  std::string run, quantity;    // where the factor was measured
  std::string runs;             // every run measured, by label
  std::string parameter;        // the [model] key moved
  double relative_change = 0.0;  // the largest |value / case's value - 1|
};
ErrorSpreadMeasure error_spread(const ReportData& data, const std::string& case_name);

struct CaseFront {
  std::string case_name;
  double horizon_s = 0.0;      // the case's t_end
  double longest_s = 0.0;      // the longest horizon an error of the front was measured over
  double timing_noise = 0.0;   // relative
  // Where the noise comes from, in words (issue 44 point 23): this case's work-precision passes,
  // another case's (this one has no timed ranking), or nowhere (then its ranks are not known to
  // lie outside the noise).
  std::string timing_noise_source;
  ErrorSpreadMeasure spread;
  // Errors within this factor are alike: kErrorFactor, or the measured spread where it is larger.
  double error_factor = kErrorFactor;
  std::vector<FrontEntry> front;  // fastest first
  std::vector<OffFront> off;
};

struct ModelAdvice {
  std::string model;
  std::vector<std::string> cases;  // the cases the advice is drawn from
  std::vector<CaseFront> fronts;   // one per case
  std::vector<const RankingRecord*> rankings;  // accuracy at a given cost, per case (short horizon)
};

// A case as the recommendation uses it.
struct CaseInput {
  std::string name;
  bool runs_everything = true;  // false: a case restricted to a few integrators ([case] integrators)
};

// The errors of a run over the longest horizon measured, in the order above.
std::vector<HorizonError> horizon_errors(const ReportData& data, const RunRecord& run);
// The relative timing noise of a case (above).
double timing_noise(const ReportData& data, const std::string& case_name);
// The same noise's source in words: "the largest spread between the 2 passes of this case's
// work-precision timings", "not measured on this case ...: the report's largest, on <case>", or
// "not measured: ...".
std::string timing_noise_source(const ReportData& data, const std::string& case_name);
// The front of a case.
CaseFront case_front(const ReportData& data, const std::string& case_name);

ModelAdvice advise(const ReportData& data, const std::string& model, const std::vector<CaseInput>& cases);

}  // namespace tb
