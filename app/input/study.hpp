#pragma once
// A study is an analysis over cases rather than one run: work-precision sweeps and orders,
// the papers' comparison, the catenary check, a sweep of an integrator's setting, ... Each is
// registered with a name, what it applies to and what it writes; `tetherbench report` runs
// every study of the catalogue, `tetherbench study NAME CASE_FILE...` one of them. A study
// plans independent jobs (run in parallel with every other job of the report, each through
// the one measurement path of app/running/runner.hpp) and writes its files once they are done.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/common/reference_search.hpp"

namespace tb {

struct Case;
struct Catalogue;
struct ClaimViolation;  // app/judging/claims_check.hpp
struct ReportData;      // app/judging/report_data.hpp
struct CsvTable;  // app/common/csv_table.hpp
struct Figure;    // app/common/figure_kit.hpp
struct SummaryRow;
class TableReader;
namespace figure_kit {
class Styles;
}

// A study's own table of a case file, [report.<study>], as the study read and checked it when the
// case was loaded (StudyInfo::read_section), before anything runs. The case keeps it
// (Case::sections) and the study reads it back (Case::section<T>()): the table's keys, their
// checks and their meaning live with the study, not in the case reader.
struct StudySection : std::enable_shared_from_this<StudySection> {
  virtual ~StudySection() = default;
  // This section in a report that runs only the integrators `runs` accepts (--integrator):
  // itself (the default: nothing in it names an integrator the selection can leave out), a copy
  // without an optional integrator that is left out, or null when an integrator it cannot do
  // without is left out (the case then has no such section, and the study's why_not says so).
  virtual std::shared_ptr<const StudySection> restricted(const std::function<bool(const std::string&)>& runs) const {
    (void)runs;
    return shared_from_this();
  }
  // An integrator setting the section varies: the case file gives it (Case::given_settings), so
  // it must act on the case like any [integrators.NAME] key; `key` is the section's key naming it.
  struct VariedSetting {
    std::string integrator, setting, key;
  };
  virtual std::vector<VariedSetting> settings_varied() const { return {}; }
  // The fixed-step runs it makes, each by the section's key that sets it, its horizon and its
  // smallest step (0: the case's h): checked against the run limits (--max-steps: t_end / h;
  // --max-samples: t_end over the case's sample interval) like the case's own t_end.
  struct Span {
    std::string key;
    double t_end = 0.0, h = 0.0;
  };
  virtual std::vector<Span> fixed_step_spans() const { return {}; }
};

// What a study's read_section may read besides its table: the case as loaded so far (its [case]
// keys and its model; its integrator settings are still the defaults, since [integrators.NAME]
// and --set are applied after [report]), the catalogue, and the case's [model] and [initial]
// tables (to build the model at other values of one of its keys: core/model_variant.hpp). The
// references are valid only during the call: a section keeps copies, never them.
struct SectionInputs {
  const Case& c;
  const Catalogue& catalogue;
  const TableReader& model;
  const TableReader& initial;
};

// One job of a report: computed anywhere (a thread, another MPI rank, an earlier report whose
// result was stored), applied where the tables are written. run() returns the job's result as
// bytes and touches nothing shared; apply() reads such bytes into the study's results, on the
// gathering process only, after every job ran. app/running/job_result.hpp has result_job(), which
// builds both from a computation returning a serialisable value and the slot it goes to.
struct StudyJob {
  std::string label;  // for the progress line: "case | integrator | h = 1e-3"; unique within a report
  double expected_cost = 1.0;  // rough relative cost, for ordering (longest first)
  // Canonical text of everything the result depends on besides the suite's version (a job that
  // runs one request: app/running/run_request.hpp request_inputs, taken from that request; else the
  // case's inputs, app/running/job_result.hpp case_inputs / run_inputs; the study's parameters, reference data):
  // with the label, the job's fingerprint; a stored result with another fingerprint is recomputed.
  std::string inputs;
  std::function<std::string()> run;  // must not throw for a failed run (that is a result)
  std::function<void(const std::string&)> apply;
};

struct StudyContext {
  const Catalogue* catalogue = nullptr;
  const std::vector<Case>* cases = nullptr;  // the cases the study applies to
  std::string out_dir;
  std::string reference_dir;       // the suite's reference data (paper claims, job costs)
  // Where the cases' reference solutions (<case>/final_state*.csv, trajectories) are looked for
  // (app/common/reference_search.hpp): a researcher's own folders (--reference-dir), then the bundled
  // one -- reference_dir when `references.bundled` is empty.
  ReferenceSearch references;
  ReferenceSearch case_references() const {
    ReferenceSearch search = references;
    if (search.bundled.empty()) search.bundled = reference_dir;
    return search;
  }
  unsigned workers = 1;
  std::map<std::string, std::string> parameters;     // --param NAME=VALUE, checked against StudyInfo::parameters
  const std::vector<SummaryRow>* full_runs = nullptr;  // the table of full runs, for studies that need it
};

class Study {
 public:
  virtual ~Study() = default;
  // Reads everything it needs (InputError before anything runs) and returns its jobs. The same
  // inputs must give the same jobs in the same order: under MPI every rank plans, and the jobs
  // are matched by label and fingerprint.
  virtual std::vector<StudyJob> plan(const StudyContext& context) = 0;
  // After every job has run: writes its files under context.out_dir, returns their paths.
  virtual std::vector<std::string> write(const StudyContext& context) = 0;
};

// The keys and tables of [report] that the case reader reads itself (app/input/case.cpp): no
// study may take one as its name, since its own table [report.<name>] would be read as that key.
inline const std::vector<std::string>& report_own_keys() {
  static const std::vector<std::string> keys = {"gate_t_end", "long_time_steps", "ranking", "reference_t_end",
                                                "steps", "tolerances", "trajectory_interval"};
  return keys;
}

// What a study's figures are drawn from (StudyInfo::figures), handed over by the figure plan
// (app/writing/figure_plan.hpp) once the report's tables are written.
struct FigureRequest {
  std::string case_name;  // the case whose figures are asked for; "" for the report-wide ones
  const Catalogue* catalogue = nullptr;
  const figure_kit::Styles* styles = nullptr;  // each integrator's colour and dash, the same in every figure
  // The case's run labels (summary.csv's integrator column) -> their discretisation ("" for the
  // model's default); empty for the report-wide request.
  const std::map<std::string, std::string>* discretisation_of = nullptr;
  // A CSV file of the report by its name ("work_precision.csv"), read once for every request;
  // an empty table (no columns) where the report has no such file.
  std::function<const CsvTable&(const std::string& file)> table;
};

// A page of the study's that index.md lists under "Other results", linked where the report holds it.
struct StudyPage {
  std::string file;  // relative to the report: "long_time.md"
  std::string what;  // "growth laws over long runs"
};

struct StudyParameter {
  std::string name, meaning, default_value;
};
template <class V>
void describe(V& v, StudyParameter& p) {
  v("name", p.name);
  v("meaning", p.meaning);
  v("default", p.default_value);
}

struct StudyInfo {
  std::string name;     // lower case; `tetherbench study NAME`
  std::string summary;  // one line for `tetherbench list`
  std::string writes;   // the files it writes, for `list` and the README
  bool needs_full_runs = false;  // reads the table of full runs (run alone, the study runs them first)
  std::vector<StudyParameter> parameters;
  // Why the study has nothing to do for a case ("" when it applies): `tetherbench study` refuses
  // such a case file, `report` leaves the case out of the study.
  std::function<std::string(const Case&)> why_not;
  std::function<std::unique_ptr<Study>()> make;
  // Reads and checks the study's own [report.<name>] table (table.fail(): InputError naming the
  // file and key, exit status 2) and returns it, never null; the case reader calls it when the
  // table is present and refuses unread keys after it. Any other exception is the study's fault:
  // the case reader names the file, the table and the study's origin. Null function: the study
  // takes no table of its own, and a case file with one is refused as an unknown key. A study's
  // name must not be a key of [report] itself (Catalogue::validate).
  std::function<std::shared_ptr<const StudySection>(TableReader& table, const SectionInputs& inputs)> read_section = nullptr;
  // The figures it draws from its files (null: none): called once per case of the report
  // (request.case_name set) and once for the report-wide figures (case_name empty), in the
  // catalogue's order of studies, after the report's own time-series figures of each case. Each
  // figure it appends is listed in figures.csv, drawn by scripts/plot_report.py and shown in
  // index.md, in the report's styles (app/common/figure_kit.hpp).
  std::function<void(const FigureRequest& request, std::vector<Figure>& figures)> figures = nullptr;
  // Its pages in index.md's list of other results, in this order.
  std::vector<StudyPage> pages = {};
  // Reads its written tables of the report at `dir` back into the typed records the front page and
  // the claims check's advice rule read (app/judging/report_data.hpp: step limits, laws, rankings,
  // ...), with report_table's checks (null: it gives the page nothing). The study names its own
  // files; nothing outside its folder does.
  std::function<void(const std::string& dir, ReportData& data)> read_back = nullptr;
  // The referee's rules for its own tables (app/judging/claims_check.hpp): appends every verdict in
  // them that their own data contradict (null: none of its own). Written apart from the code that
  // wrote the verdicts, so that a bug does not pass both.
  std::function<void(const std::string& dir, std::vector<ClaimViolation>& out)> check_claims = nullptr;
};
// What `tetherbench list` and tetherbench.study_info say of a study, described once (the
// functions it runs with are not data).
template <class V>
void describe(V& v, StudyInfo& s) {
  v("name", s.name);
  v("summary", s.summary);
  v("writes", s.writes);
  v("needs_full_runs", s.needs_full_runs);
  v("parameters", s.parameters);
}

}  // namespace tb
