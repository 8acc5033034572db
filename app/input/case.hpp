#pragma once
// A case file (format: cases/README.md): which model, its parameters and initial condition,
// the step, the end time, the observation interval and per-integrator settings. Everything is
// validated against the catalogue when the file is loaded, before anything runs or is written.

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/input/catalogue.hpp"

namespace tb {

// [report.ranking]: the work-precision rankings' own sweep, over a horizon of several of the
// model's slowest periods (issue 32 item 6), when the orders' horizon (reference_t_end) is too
// short to rank on: its own reference trajectory (reference/<case>/ranking_trajectory*.bin), its
// own steps and tolerances (coarser and fewer: a ranking needs a curve, not an asymptotic range),
// timed over more passes than the orders' sweep.
struct RankingSweep {
  double t_end = 0.0;                // s
  std::vector<double> steps;         // fixed-step sweep (s); [report] steps unless set
  std::vector<double> tolerances;    // adaptive sweep (rtol, atol = 1e-2 rtol); [report] tolerances unless set
  double interval = 0.0;             // the reference trajectory's grid (s): t_end / n, n <= 50, a whole multiple of every step
  std::vector<std::string> integrators;  // only these runs (empty: every run of the orders' sweep)
};

// What `tetherbench report`, `reference` and `gate` do with a case ([report] table).
constexpr int kTrajectorySamples = 50;  // default number of reference-trajectory grid intervals

struct ReportSettings {
  double reference_t_end = 0.0;     // horizon of the reference solution, work-precision sweep and orders (s)
  std::vector<double> steps;        // fixed-step sweep (s)
  std::vector<double> tolerances;   // adaptive sweep: rtol, with atol = 1e-2 rtol
  double gate_t_end = 0.0;          // the short run the CI gates measure (s)
  // Steps of the long runs of the long_time study (growth laws) in the report; 0: the study
  // reads the case's full runs instead.
  double long_time_steps = 0.0;
  // Spacing of the reference trajectory's grid (s): [report] trajectory_interval, or by default
  // reference_t_end / n for the largest n <= kTrajectorySamples that makes it a whole number of
  // every step of `steps`, so that every fixed-step run of the sweep has a step end on each
  // grid time. Either way it divides reference_t_end.
  double trajectory_interval = 0.0;
  std::optional<RankingSweep> ranking;  // absent: the rankings use the orders' sweep over reference_t_end
  // The rankings' horizon: [report.ranking] t_end, or reference_t_end without that table.
  double ranking_t_end() const { return ranking ? ranking->t_end : reference_t_end; }
};

struct Case {
  std::string file;
  std::string name;
  std::string description;
  std::string model_name;
  double t_end = 0.0;            // s
  double h = 0.0;                // s: fixed step, initial step of adaptive methods
  double sample_interval = 0.0;  // s: observation grid
  std::shared_ptr<const Model> model;
  // The catalogue's reference solver, for the case's energy scale E_s (app/running/energy_scale.hpp);
  // null in a catalogue without one (E_s is then each run's own, and its verdicts say so).
  std::shared_ptr<const IntegratorInfo> scale_solver;
  // Canonical text of the model name and the [model] and [initial] tables (app/common/fingerprint.hpp):
  // what a stored reference solution of this case was computed from.
  std::string model_inputs;
  std::map<std::string, IntegratorSettings> settings;  // one entry per catalogue integrator
  // The settings the case file gives (its [integrators.NAME] keys, and those its studies' own
  // tables vary: StudySection::settings_varied): integrator -> key -> where, the start of a message ("FILE: key 'integrators.NAME.KEY'").
  // Each must act on the case (check_settings_act).
  std::map<std::string, std::map<std::string, std::string>> given_settings;
  // [case] integrators: the integrators this case runs; empty means every applicable one.
  // (E.g. a long case repeated only to run one adaptive method at MATLAB ode45's default tolerances.)
  std::vector<std::string> only_integrators;
  // [case] integrator_t_end: a shorter horizon for some integrators' full runs (s), where the
  // case's t_end would cost them far more than the rest of the main job; their rows say so
  // (t_end column, and a note under the case's table).
  std::map<std::string, double> integrator_t_end;
  double t_end_for(const std::string& integrator) const {
    const auto it = integrator_t_end.find(integrator);
    return it == integrator_t_end.end() ? t_end : it->second;
  }
  ReportSettings report;
  // The studies' own tables, [report.<study>], each as its study read it (StudyInfo::read_section),
  // keyed by the study's name.
  std::map<std::string, std::shared_ptr<const StudySection>> sections;
  // The section of study Section::kStudy, or null when the case has none; a section of another
  // type under that name is the study's error (its kStudy is not its StudyInfo::name).
  template <class Section>
  const Section* section() const {
    const auto it = sections.find(Section::kStudy);
    if (it == sections.end()) return nullptr;
    const auto* typed = dynamic_cast<const Section*>(it->second.get());
    if (!typed) throw std::logic_error(std::string("the section of study '") + Section::kStudy + "' is not of the type asked for");
    return typed;
  }
  // Where the case's model and integrators come from, when a plugin provides them
  // (Catalogue::origins, same keys: "model NAME", "integrator NAME"); built-in ones are absent.
  // Part of the fingerprints of the case's results (app/running/job_result.hpp).
  std::map<std::string, std::string> origins;

  const IntegratorSettings& settings_for(const std::string& integrator) const { return settings.at(integrator); }
  bool lists(const std::string& integrator) const;  // allowed by [case] integrators
};

// Throws InputError (naming the file, key and expectation) on any bad input.
Case load_case(const std::string& path, const Catalogue& catalogue);
// The same from a parsed case file (root: its whole table); `path` is the case's file in messages.
Case load_case(TableReader root, const std::string& path, const Catalogue& catalogue);

// The command line's `--set NAME.KEY=VALUE`: sets one setting of integrator NAME in the case,
// over the case file's value, validated exactly like a key of the case's [integrators.NAME]
// table (VALUE is read as a TOML value). Throws InputError naming the assignment on an unknown
// integrator, a key that integrator does not declare, or a bad value.
void apply_setting_override(Case& c, const std::string& assignment, const Catalogue& catalogue);

// Why the setting `key` of integrator `info` has nothing to act on in any form of this case's
// model that the integrator runs (IntegratorInfo::idle_setting): empty when it acts on one (or the
// integrator declares no such check), nullopt when the integrator runs no form of the case. Builds
// the forms: call it after check_limits (app/input/limits.hpp).
std::optional<std::string> idle_setting(const Case& c, const IntegratorInfo& info, const std::string& key);
// Throws InputError, naming the file and key, for a setting the case file gives that acts on
// nothing in the case (Case::given_settings). Builds the forms: call it after check_limits.
void check_settings_act(const Case& c, const Catalogue& catalogue);

// Reads one declared setting from a table (used for [integrators.NAME] and --set).
void read_integrator_settings(TableReader& table, const IntegratorInfo& info, IntegratorSettings& s);

}  // namespace tb
