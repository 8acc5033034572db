#pragma once
// The verdict on one of the papers' claims (reference/paper_claims.csv) from our runs: whether
// ours agrees, in which direction and by how much it differs, and what is known of the cause.
// The rules, one per kind of claim, are in cases/README.md ("The papers' claims"); the study
// (studies/paper_comparison/paper_comparison.cpp) gathers the runs, this file only judges, so that the rules can
// be tested on synthetic rows.

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "app/input/claim_series.hpp"
#include "app/input/reference_data.hpp"
#include "app/running/runner.hpp"
#include "core/growth.hpp"

namespace tb {

// How far a round-off-level change of the run (the claim's sensitivity setting at each of its
// values) moves the claim's metric: the least and greatest value over the complete runs, the
// run itself included.
struct MeasuredSpread {
  double low = 0.0, high = 0.0;
  int runs = 0;
  std::string what;  // the setting and its values, e.g. "newton_tol = 1e-13, 1e-14 and the case's 1.5e-08"
  double factor() const { return high / low; }
};

// What a claim is judged on besides the summary row: the recorded time series of its quantity
// (claims whose metric is "series:<spec>"), and what the source says against itself.
struct ClaimEvidence {
  const Series* series = nullptr;        // the claim's run; nullptr: no series claim, or not found
  const Series* other_series = nullptr;  // other_run's (parts_after, smaller_than on a series)
  std::string missing;                   // why a series the claim needs is absent
  // The model's slowest period (s), the unit of a series' growth-law window (NaN: none declared).
  double slowest_period = std::numeric_limits<double>::quiet_NaN();
  // Non-empty when the paper contradicts itself on this claim (e.g. a printed mean above its
  // own bound on the maximum): the claim cannot be judged, whatever ours is.
  std::string source_inconsistency;
  // A no_drift / drifts claim on a series over the full run: the same series on the case's other
  // runs that are ok, with their energy error. Whether the quantity reads the method's error or
  // the motion itself (issue 44 point 14): methods whose errors differ by decades cannot agree on
  // an error to four digits, but they do on the motion.
  struct OtherRun {
    std::string run;
    double series_max = 0.0;      // max |v| of the claim's series on that run
    double energy_err_max = 0.0;  // its max |dE| (summary.csv)
    const Series* series = nullptr;    // the claim's series on that run (a conserved claim on a series: its rate and onset)
    const SummaryRow* row = nullptr;   // that run's row (its steps: the series' round-off floor)
  };
  std::vector<OtherRun> other_runs;
};

// A series that cannot fail a drift claim: its maximum agrees across the case's ok runs within
// kProxySameFactor while their energy errors span at least kProxyErrorSpan. Measured on seed 003
// Sect. 5.1's links' momenta: 13 ok runs agree to 0.02% (0.137577 ... 0.137605) while their max
// |dE| spans 7.7e-9 ... 3.9e-5 (x5000), RK4's payload drifting 2.4 m among them; the payload's
// vertical excursion, which does separate the methods, spans 0.35 ... 2.37 m.
inline constexpr double kProxySameFactor = 1.01;
inline constexpr double kProxyErrorSpan = 100.0;

inline constexpr const char* kJudgesClaim = "the paper's claim";
inline constexpr const char* kJudgesOutsideDerivation = "the paper's own model applied by the paper outside the case it was derived for";

struct ClaimVerdict {
  std::string paper;         // the claim as a cell: "2.4029e-4", "< 1e-13", "no drift", ...
  std::string ours;          // our number; "" for a run that did not complete (never a number then)
  std::string ratio;         // ours/paper, ours/bound, ours/round-off floor or ours/other; "" where none
  std::string verdict;       // agrees | disagrees | exceeds | contradicts | inconclusive
  std::string size;          // direction and size, in words
  std::string cause;         // what explains a difference ("" where ours agrees)
  std::string cause_status;  // "measured: <how>" | "hypothesis" | ""
  // What the verdict is on: the paper's claim, or (qualifier outside_derivation) the paper's model
  // used outside the case it was derived for, a decision of SPEC's (paper_comparison.csv "judges").
  std::string judges = kJudgesClaim;
};

// A metric's error grows by this factor over its round-off floor before a random walk (sqrt_t)
// counts as a drift rather than round-off adding up: two decades (cases/README.md), the same
// factor beyond which the one rule calls a quantity not conserved (core/growth.hpp).
inline constexpr double kFarAboveRoundOff = kNotConservedOverFloor;
// A claim of no secular drift: the least-squares drift over the horizon may be at most this share
// of the max error (a secular drift makes it about the whole; paper_verdict.cpp, secular_drift_check).
inline constexpr double kSecularShare = 0.2;

// `other` is the run a smaller_than claim compares with (nullptr: not in this report); `spread`
// the claim's measured sensitivity, when it has one and it was measured.
ClaimVerdict judge_claim(const PaperClaim& claim, const SummaryRow& row, const SummaryRow* other = nullptr,
                         const std::optional<MeasuredSpread>& spread = std::nullopt, const ClaimEvidence& evidence = {});

// The claim's qualifier (PaperClaim::qualifier) applied to its verdict: a proxy's verdict stands,
// named as the proxy's; undefined, unprinted, unstable_set and other_model make it "inconclusive" whatever
// ours is, saying why. judge_claim applies it; a claim judged elsewhere (a static shape's
// convergence) calls it itself.
void apply_qualifier(const PaperClaim& claim, ClaimVerdict& verdict);

// A part of a claim's row (value, mean) is the other claim's (upper bound, max) of the same case
// and run when its metric is "<q>_mean" against "<q>_max": a printed mean above the same paper's
// bound on the maximum is a source that contradicts itself. Returns the words, "" when none.
std::string source_inconsistency(const PaperClaim& claim, const std::vector<PaperClaim>& all);

}  // namespace tb
