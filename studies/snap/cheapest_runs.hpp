#pragma once
// The snap study's work-precision table and the advice it carries: for each position error at the
// horizon, the cheapest run of each method that reached it, and which method is cheapest where the
// runtimes resolve a ranking. One piece for the pages judged against a closed form and against a
// converged reference, which differ only in what the error is measured against and which runs count.

#include <functional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "core/format.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// Runtimes within this factor of each other are not ranked: the passes of a millisecond run differ by
// tens of percent on these machines.
inline constexpr double kUnresolvedRatio = 2.0;

struct CheapestRunsRules {
  // What is ranked: the section's heading, the error's name (the table's first column) and how a target reads
  // ("0.01 m"; "1 % of the reference's loss (0.0016 J)"). The defaults are the position error at the horizon,
  // the one ranking that feeds the advice's CSV.
  std::string heading = "Work–precision and advice";
  std::string quantity = "position error at t_end";
  std::function<std::string(double target)> target_words = [](double target) { return format_g(target) + " m"; };
  std::vector<double> targets;                          // the error's targets, loosest first
  std::function<double(const SnapPoint&)> error;        // a run's error (in the targets' unit; NaN: none)
  std::function<bool(const SnapPoint&)> counts;         // whether the run may be named at all
  // Whether the ranking also asks the fixed steps' table's books and rise (books_close, rise_small), so that the two
  // never name a run the other rejects; kept apart from `counts`, whose failure the table words by why_not_counted.
  bool books_and_rise = false;
  std::string counts_words;                             // what `counts` asks, for the page
  // Words said beside a run the advice names for a target ("" for none): e.g. what its method's coarser
  // settings did (failed, gained energy, or stayed short of the target).
  std::function<std::string(const SnapPoint&, double target)> context = [](const SnapPoint&, double) { return std::string(); };
  // Where given, one row per target of snap_advice.csv (kAdviceCsvHeader), which the report's front
  // page reads back (studies/snap/read_back.cpp): the advice for a cable that goes slack, there too.
  std::ostream* advice_csv = nullptr;
  double horizon_s = 0.0;  // the case's snap horizon, for that table
  // Why a run does not count, in a few words ("failed", "left the cascade", ...): said of the step just coarser
  // than a fixed-step method's safe one (write_safe_steps).
  std::function<std::string(const SnapPoint&)> why_not_counted = [](const SnapPoint&) { return std::string("did not count"); };
  // Where given, one row per fixed-step method of snap_safe_steps.csv (kSafeStepsCsvHeader), read back by the headline.
  std::ostream* safe_steps_csv = nullptr;
};

// Targets relative to a scale (the reference's or the closed form's value of the quantity ranked), loosest first.
inline constexpr double kRelativeTargets[] = {1e-1, 1e-2, 1e-3, 1e-4};

// kRelativeTargets times `scale`, keeping those at least 10x `floor` (the error a run cannot be credited below);
// `dropped` counts the others.
std::vector<double> relative_targets(double scale, double floor, int& dropped);
// "1 % of <of_what> (<target> <unit>)": a relative target's words.
std::string relative_target_words(double target, double scale, const std::string& of_what, const std::string& unit);

inline constexpr const char* kSafeStepsCsvHeader = "case,method,safe_step,error_m,runtime_s,steps_measured,coarser_step,coarser_did\n";

inline constexpr const char* kAdviceCsvHeader =
    "case,horizon_s,target_m,cheapest,setting,runtime_s,next,next_runtime_s,resolved,advice\n";

// Whether a run's energy books close: its booked work W within a tenth of its own energy loss E0 - E(t_end). A run
// that misses it is not advised on the pendulum's pages, and no step of it holds on any page (write_safe_steps).
bool books_close(const SnapRun& r);
// Its E − E0 − W rose during the run, from its lowest value before, by at most a tenth of its own energy loss (referee,
// 6 Dec, point 3: nonsmooth RATTLE held at 1.25e-4 on the cooperative cable with a rise of 18 % of the loss; W changes
// only by the losses booked, so a rise is energy the scheme made between them). Unmeasured (NaN): not shown to hold.
bool rise_small(const SnapRun& r);

// The page's headline from snap_advice.csv's rows (every case's advice per target): a table of the cheapest run per
// case and target, with the next method's and whether the runtimes resolve the two, and what the advice rests on;
// then each case's safe fixed steps from snap_safe_steps.csv's rows (write_safe_steps).
std::string advice_headline(const CsvTable& advice, const CsvTable& safe_steps);

// Each fixed-step method's safe step on the case: the largest h whose run and every finer run of the method count
// (rules.counts; a failed run does not), so that any step at or below it, among those measured, is advised;
// "none" where its finest run does not count. A table on the page and, where given, rows of rules.safe_steps_csv.
void write_safe_steps(std::ostringstream& md, const std::vector<const SnapPoint*>& of_case, const CheapestRunsRules& rules);

// Writes the table and returns the advice, one clause per target ("to 0.01 m: ...").
std::vector<std::string> write_cheapest_runs(std::ostringstream& md, const std::vector<const SnapPoint*>& of_case,
                                             const CheapestRunsRules& rules);

}  // namespace tb::snap
