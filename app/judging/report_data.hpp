#pragma once
// A written report read back as typed records, for the pages that summarise it (app/writing/report_index.hpp)
// and the claims check's advice rule (app/judging/claims_check.hpp). Every figure on the front page
// is read from the tables the report wrote, never recomputed and never typed by hand, so the page
// cannot say what its own tables do not.
//
// Who reads what: this file reads the report's own tables (summary.csv, figures.csv,
// figures_omitted.csv, build_info.csv); each study reads its own tables into its records
// (StudyInfo::read_back, app/input/study.hpp: the stability map its step limits, the long-time study
// its laws, ...), so that no file name ties a study to this room.
//
// A table that is absent reads as empty (a report cut short, or written with --no-plots); a
// table whose columns are not the ones read is an InputError naming the file and column.

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app/common/csv_table.hpp"

namespace tb {

struct Catalogue;

// One row of summary.csv: a full run of a case.
struct RunRecord {
  std::string case_name, label, integrator, discretisation;  // label: "<integrator>" or "<integrator>@<discretisation>"
  double h = 0.0, t_end = 0.0;
  double rtol = 0.0;  // 0: a fixed-step run
  double atol = 0.0;
  // An adaptive run's step cap (summary.csv max_step): absent where its integrator has none, 0 free.
  std::optional<double> max_step;
  // E at the first and last samples and the external work W(t_end), where the model does external
  // work (summary.csv energy_first, energy_last, external_work_last); absent otherwise.
  std::optional<double> energy_first, energy_last, external_work_last;
  std::string status;  // "ok", "unstable from t = ...", "failed at ...", "n/a: ..."
  std::string state;   // summary.csv's one word (ok, drift, unstable, diverged, ...); "" in an older report
  bool ok = false, not_applicable = false;
  // Reached its end: ok, or past the instability criterion ("unstable from t = ..."), whose
  // metrics measure the whole run and are printed beside its status.
  bool completed = false;
  double runtime_s = 0.0;
  int timing_passes = 0;  // summary.csv's runtime_passes (0: an older report without the column)
  // Metrics by summary.csv column; absent when the cell is empty (not integrated, or no result).
  std::map<std::string, double> metric;
  std::set<std::string> not_integrated;  // the metrics the run's formulation cannot violate
  std::string energy_law, momentum_law;  // growth laws (core/growth.hpp names); "" when none
  // What theory predicts of them for this method on this model (predicted_growth): "bounded"
  // (symplectic, conservative), "round_off" (a conserved momentum map), "linear" (at most), "".
  std::string energy_theory, momentum_theory;
  // The law contradicts the prediction: the summary's verdict reads "investigate".
  bool energy_investigate = false, momentum_investigate = false;
  std::optional<double> value(const std::string& column) const;
  // The status without its explanation: "unstable from t = 349.9 s", "failed at t = 0.2 s".
  std::string short_status() const;
};

// A run on a model with impacts against the converged reference's cascade of snaps (snap_cables.csv,
// studies/snap/): how many of the reference's switches it matched and made, and its configuration's
// distance at t_end. The front page's caveat names a run that does not follow the cascade: its energy
// and constraint errors do not say that (referee read of issue 44, point 7).
struct CascadeRecord {
  int expected = 0, made = 0, matched = 0;
  double position_error = 0.0;  // m, max-norm at t_end against the reference
  // The study's verdict where it wrote one (snap_cables.csv's follows_cascade: an event-driven run is judged by its
  // own record of jumps, the others by the observer's counts above); -1: not written (an older report), the counts decide.
  int verdict = -1;
  bool follows() const { return verdict >= 0 ? verdict == 1 : matched == expected && made == expected; }
};

// The stability map's row for a run at the case's own parameters (stability_map.csv, swept empty).
struct StepLimit {
  double h_case = 0.0, h_max = 0.0;
  double t_horizon = 0.0;  // s: the horizon each probe ran (10^4 steps or the case's t_end)
  std::string bound;  // "bracketed", or why h_max is only a bound
  // What stops the method above h_max: "instability", "solver failure", "energy bound",
  // "constraint bound" or "orthogonality bound" (studies/stability_map: limit_name).
  std::string limit;
  // A method without a stability interval on the imaginary axis gains energy at every h, so its
  // h_max falls with the horizon (stability_map.csv horizon_dependent).
  bool horizon_dependent = false;
  // limit "solver failure" where the step reaches the method's stability interval's end (h w kappa
  // at y*): the solver's failure is how leaving it shows (stability_map.csv
  // solver_at_stability_limit; false in an older report).
  bool solver_at_stability_limit = false;
  // A horizon-dependent method's h_max measured at the map's two horizon searches T and T/8
  // (stability_map.csv search "horizon T", "horizon T/8"): the local exponent q of h_max ~ T^q
  // between them (NaN: not measured).
  double horizon_exponent = std::numeric_limits<double>::quiet_NaN();
  // The horizon at which h_max, falling at that measured rate from its value here, would reach h:
  // a two-point extrapolation, not a law (the exponent varies with the motion, below); NaN where
  // no exponent was measured or h_max does not fall.
  double horizon_reaching(double h) const {
    if (!(horizon_exponent < 0.0 && h_max > 0.0 && t_horizon > 0.0 && h > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    return t_horizon * std::pow(h / h_max, 1.0 / horizon_exponent);
  }

  // h/h_max for a run of step h: the map's own.
  double margin(double h) const { return h_max > 0.0 ? h / h_max : 0.0; }
  // The run is longer than the probes of a method whose h_max falls with the horizon: the map's
  // h/h_max is then a lower bound of the run's. Not carried by a law: T^(-1/3) holds only where
  // the fast modes' energy and frequency stay put, and the fifth referee read measured exponents
  // from -0.05 (the reel deploying: its limit is set in the first second) to -1.0 (the locked
  // reel, whose motion pumps the axial modes) between the map's horizons.
  bool margin_is_lower_bound(double t_end) const {
    return horizon_dependent && t_horizon > 0.0 && t_end > t_horizon * (1.0 + 1e-9);
  }
  // "h/h_max = 0.52" or "h/h_max >= 0.52 (h_max over the map's 1.92 s; it falls with the horizon
  // for this method, so over the run's 5 s h/h_max is larger and the run nearer its limit)".
  std::string margin_words(double h, double t_end) const;
};

// A growth law fitted by the long-time study (long_time.csv).
struct LawRecord {
  std::string law, source;  // source: "full run" or "long run" (the study's own, longer run)
  double t_end = 0.0, err_max = 0.0;
  // regime_change: the envelope rose jump_ratio-fold between jump_from and jump_to (s), and
  // after_law is the law of the span after it
  double jump_from = 0.0, jump_to = 0.0, jump_ratio = 0.0;
  std::string after_law;
  std::string theory;  // what theory predicts (as RunRecord::energy_theory)
  // The envelope steepened over the span judged (core/growth.hpp, GrowthFit::accelerating): an
  // observation beside the law (false in a report of an older version, without the column).
  bool accelerating = false;
  // A fixed-step long run's twin at 2h: its max |error| over this run's (0: no twin, or a report
  // of an older version). Round-off does not grow when the step doubles; a method's error of
  // order p grows 2^p-fold (studies/long_time/long_time.cpp).
  double at_2h_ratio = 0.0;
  // The law is linear by the offset-plus-drift fit a + b t, not by the power law's interval
  // (core/growth.hpp): said so wherever the law is named (the fourth-round read, R2).
  bool offset_drift = false;
};

struct RankingRecord {
  std::string case_name, discretisation, work, measure, ranking, note;
  double horizon_s = 0.0, matched_error = 0.0;
  std::vector<double> work_of_each;  // in the ranking's order (s of runtime, or evaluations)
  // The relative spread of each entry's work over the passes that timed it (max/min - 1), in the
  // same order: this machine's run-to-run timing noise, measured (empty: not in the table).
  std::vector<double> spread_of_each;
  // The model's slowest period (s) the ranking's horizon is counted in (0: not in the table):
  // why a ranking may run longer than its case (issue 44 point 19).
  double slowest_period_s = 0.0;
  std::vector<int> passes_of_each;  // timing passes per entry (empty: not in the table)
  // 1 where the entry's work is only an upper bound (its sweep does not bracket the matched
  // error; "?" joins it to the entry before it), in the same order (empty: not in the table).
  std::vector<int> bound_of_each;
  bool bound(size_t k) const { return k < bound_of_each.size() && bound_of_each[k] != 0; }
  // Whether the first entry is known to take the least work: no later entry is a bound.
  bool first_is_least() const {
    for (size_t k = 1; k < bound_of_each.size(); ++k)
      if (bound_of_each[k]) return false;
    return true;
  }
};

struct PaperRecord {
  std::string id, source, case_name, integrator, claim, metric, paper, ours, verdict;
  std::string judges;  // "" (an older report) or paper_comparison.csv's judges column
};

// A figure of figures.csv (app/writing/figure_plan.hpp) whose file the plots wrote.
struct FigureRecord {
  std::string file, case_name, section, caption;
};
struct OmittedFigure {
  std::string case_name, section, reason;
};

// A full run made again with one [model] key moved by round-off (error_spread.csv,
// studies/error_spread/error_spread.hpp).
struct SpreadRecord {
  RunRecord run;
  std::string parameter;
  double value = 0.0, case_value = 0.0;
};

// The snap study's advice on a case with impacts, one target of its work-precision table
// (snap_advice.csv, studies/snap/cheapest_runs.hpp): the cheapest run that reached the position
// error `target_m` at the horizon while following the reference's cascade (or the closed form's
// switches), and the next method's cheapest. On such a case the front page gives it in place of the
// oscillation ranking, whose few-periods rule has no meaning across impacts (the fourth-round read, R1).
struct SnapAdviceRecord {
  double horizon_s = 0.0, target_m = 0.0;
  std::string cheapest, setting, next;  // cheapest "" where no run reached the target
  double runtime_s = 0.0, next_runtime_s = 0.0;
  bool resolved = false;  // the next method's cheapest is at least snap::kUnresolvedRatio slower (or absent)
  std::string words;      // snap.md's clause for the target
};

struct ReportData {
  std::string dir;
  std::vector<RunRecord> runs;
  std::vector<SpreadRecord> spread_runs;
  std::map<std::pair<std::string, std::string>, StepLimit> step_limits;  // (case, run label)
  // (case, run label, its step h or, adaptive, its rtol) -> its cascade against the snap study's reference
  std::map<std::tuple<std::string, std::string, double>, CascadeRecord> cascades;
  std::map<std::string, std::vector<SnapAdviceRecord>> snap_advice;  // case -> its targets, loosest first
  // (case, run label, quantity "energy"/"momentum") -> the law over the longest horizon measured
  std::map<std::tuple<std::string, std::string, std::string>, LawRecord> laws;
  std::vector<RankingRecord> rankings;
  std::vector<PaperRecord> paper;
  std::vector<FigureRecord> figures;  // only those whose file exists
  std::vector<OmittedFigure> omitted_figures;
  std::vector<std::pair<std::string, std::string>> build;  // build_info.csv, in order

  std::vector<const RunRecord*> runs_of(const std::string& case_name) const;
  const StepLimit* step_limit(const std::string& case_name, const std::string& label) const;
  // The run's cascade at its own setting (h, or rtol where > 0), where the snap study judged it.
  const CascadeRecord* cascade(const std::string& case_name, const std::string& label, double h, double rtol) const;
  const LawRecord* law(const std::string& case_name, const std::string& label, const std::string& quantity) const;
};

// The report at dir: its own tables and every study's records (StudyInfo::read_back) of the catalogue.
ReportData read_report_data(const std::string& dir, const Catalogue& catalogue);
// Only the studies' records (step limits, laws, rankings, paper rows, spread runs), into data.
void read_study_records(const std::string& dir, const Catalogue& catalogue, ReportData& data);

// The reading kit the studies' read_back use.
// The table `name` of the report at dir: empty (no columns) when absent; an InputError naming the
// file and the column when a present table lacks one of `columns` (a report of another version:
// the page would otherwise read blanks as results).
CsvTable report_table(const std::string& dir, const std::string& name, const std::vector<std::string>& columns);
// A number cell; nullopt when empty or not a finite number (a cell left empty means no result).
std::optional<double> cell_number(const std::string& cell);
double cell_number_or_zero(const std::string& cell);
// The rows of a table in summary.csv's columns (summary.csv itself, error_spread.csv), each with its cells.
std::vector<std::pair<RunRecord, std::map<std::string, std::string>>> read_run_rows(const std::string& dir,
                                                                                   const std::string& file);

}  // namespace tb
