#pragma once
// A study is an analysis over cases rather than one run: work-precision sweeps and orders,
// the papers' comparison, the catenary check, a sweep of an integrator's setting, ... Each is
// registered with a name, what it applies to and what it writes; `tetherbench report` runs
// every study of the catalogue, `tetherbench study NAME CASE_FILE...` one of them. A study
// plans independent jobs (run in parallel with every other job of the report, each through
// the one measurement path of core/runner.hpp) and writes its files once they are done.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tb {

struct Case;
struct Catalogue;
struct SummaryRow;

struct StudyJob {
  std::string label;  // for the progress line: "case | integrator | h = 1e-3"
  double expected_cost = 1.0;  // rough relative cost, for ordering (longest first)
  std::function<void()> run;   // touches only the study's own results; must not throw for a failed run
};

struct StudyContext {
  const Catalogue* catalogue = nullptr;
  const std::vector<Case>* cases = nullptr;  // the cases the study applies to
  std::string out_dir;
  std::string reference_dir;
  unsigned workers = 1;
  std::map<std::string, std::string> parameters;     // --param NAME=VALUE, checked against StudyInfo::parameters
  const std::vector<SummaryRow>* full_runs = nullptr;  // the table of full runs, for studies that need it
};

class Study {
 public:
  virtual ~Study() = default;
  // Reads everything it needs (InputError before anything runs) and returns its jobs.
  virtual std::vector<StudyJob> plan(const StudyContext& context) = 0;
  // After every job has run: writes its files under context.out_dir, returns their paths.
  virtual std::vector<std::string> write(const StudyContext& context) = 0;
};

struct StudyParameter {
  std::string name, meaning, default_value;
};

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
};

}  // namespace tb
