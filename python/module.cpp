// tetherbench._core: the compiled part of the Python package `tetherbench` (tetherbench/ at the
// repository's root holds the Python part, which turns these results into pandas DataFrames).
// Every function here calls what the command line calls -- load_cases, CaseRun (`run`), the
// session's table and study (suite/session.hpp), load_plugins (`--plugin`) -- on the session's catalogue: nothing is
// measured, checked or written by a second implementation. Input errors raise ValueError with the
// command line's message (the text after "tetherbench: "). C++ runs with the interpreter's lock
// released, and with the suite's interrupt handlers in place: Ctrl-C ends the runs as the command
// line's does (their rows say "interrupted"), and Python's handler is back when the call returns;
// Python's own interrupts (interrupt_main, a handler that raises) do the same (python_interrupts below).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/input/case_edits.hpp"
#include "app/input/case_loading.hpp"
#include "app/writing/case_run.hpp"
#include "app/judging/gate_session.hpp"
#include "app/input/integrator_selection.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/job_result.hpp"
#include "app/writing/manifest.hpp"
#include "app/common/output_folder.hpp"
#include "app/common/progress_sink.hpp"
#include "app/running/plugins.hpp"
#include "app/common/reference_search.hpp"
#include "app/writing/report.hpp"
#include "app/writing/summary.hpp"
#include "conformance/integrator_checks.hpp"
#include "core/format.hpp"
#include "core/kernel_version.hpp"
#include "core/table_reader.hpp"  // InputError
#include "python/form_views.hpp"
#include "python/python_integrator.hpp"
#include "python/record_dict.hpp"
#include "python/session.hpp"
#include "suite/conformance_bench.hpp"

namespace py = pybind11;
using namespace tb;
using tb::python::session;
using PythonSession = tb::python::Session;

namespace {

// One run `run` would make of a case: "" why_not when it runs, else the model's or the integrator's reason.
struct CaseRunSummary {
  std::string label, integrator, discretisation, why_not;
};
template <class V>
void describe(V& v, CaseRunSummary& r) {
  v("label", r.label), v("integrator", r.integrator), v("discretisation", r.discretisation), v("why_not", r.why_not);
}

// What tetherbench.load_case returns: the case as loaded (times in s: t_end, the fixed step h and
// the first step of adaptive methods, the observation grid's sample_interval), and its runs.
struct CaseSummary {
  std::string file, name, description, model;
  double t_end = 0, h = 0, sample_interval = 0;
  std::vector<std::string> discretisations;
  std::vector<CaseRunSummary> runs;
};
template <class V>
void describe(V& v, CaseSummary& s) {
  v("file", s.file), v("name", s.name), v("description", s.description), v("model", s.model), v("t_end", s.t_end);
  v("h", s.h), v("sample_interval", s.sample_interval), v("discretisations", s.discretisations), v("runs", s.runs);
}

// --max-steps, --max-samples, --max-state: the defaults where not given, else a number > 0.
RunLimits limits_from(const std::optional<double>& steps, const std::optional<double>& samples,
                      const std::optional<double>& state) {
  RunLimits l;
  auto take = [](const char* option, const std::optional<double>& x, double& into) {
    if (!x) return;
    if (!(std::isfinite(*x) && *x > 0.0))
      throw InputError(std::string(option) + ": expected a finite number > 0, got '" + format_g(*x) + "'");
    into = *x;
  };
  take("--max-steps", steps, l.max_steps);
  take("--max-samples", samples, l.max_samples);
  take("--max-state", state, l.max_state);
  return l;
}

Case load_one(const std::string& file, const std::vector<std::string>& overrides, const RunLimits& limits) {
  return load_cases(session().catalogue, {file}, overrides, limits).front();
}

// The case as Python shows it: its CaseSummary, described once, and under "settings" every
// integrator's settings as the case runs them (the defaults, the case file's, Python's changes).
py::dict summary_of(const Case& c, const std::string& file) {
  CaseSummary s{file, c.name, c.description, c.model_name, c.t_end, c.h, c.sample_interval, c.model->discretisations(), {}};
  for (const auto& key : runs_of(c, session().catalogue.integrators)) {
    const auto why = why_not_applicable(c, *key.integrator, key.discretisation);
    s.runs.push_back({key.label(), key.integrator->name, key.discretisation, why ? *why : std::string()});
  }
  py::dict d = tb::python::record_dict(s);
  py::dict settings;
  for (const auto& [name, values] : c.settings) {
    py::dict one;
    for (const auto& [key, value] : values.values()) one[py::str(key)] = value;
    for (const auto& [key, word] : values.words()) one[py::str(key)] = word;
    settings[py::str(name)] = one;
  }
  d["settings"] = settings;
  return d;
}

py::dict load_case_summary(const std::string& file, std::optional<double> max_steps, std::optional<double> max_samples,
                              std::optional<double> max_state) {
  return summary_of(load_one(file, {}, limits_from(max_steps, max_samples, max_state)), file);
}

// A case file with keys changed from Python (app/input/case_edits.hpp): each edit (table, key, TOML
// value, the Python words that made it) set in the file's TOML, which is read and checked as a case
// file. Returns the text (which the runs read from a file in their output folder) and the summary.
py::dict edited_case(const std::string& file, const std::vector<std::array<std::string, 4>>& changes,
                     std::optional<double> max_steps, std::optional<double> max_samples, std::optional<double> max_state) {
  std::vector<CaseEdit> edits;
  for (const auto& [table, key, value, said] : changes) edits.push_back({table, key, value, said});
  const std::string text = edited_case_text(file, edits);
  // The earlier changes were checked when they were made: a message is about the last.
  const std::string described = file + (edits.empty() ? "" : ", changed from Python by " + edits.back().words);
  const Case c = load_edited_case(text, described, session().catalogue, limits_from(max_steps, max_samples, max_state));
  py::dict d;
  d["text"] = text;
  d["summary"] = summary_of(c, file);
  return d;
}

// A time or step as the command line's --t-end and --h check them.
std::optional<double> positive(const char* option, const std::optional<double>& x) {
  if (x && !(std::isfinite(*x) && *x > 0.0))
    throw InputError(std::string(option) + ": expected a finite number > 0 (s), got '" + format_g(*x) + "'");
  return x;
}

// The rows of one tetherbench.run, kept compiled: RunResult.write appends them to summary.csv with
// the command line's own writer (append_summary_csv), so Python writes no summary of its own.
struct RunRows {
  std::string case_name;
  std::vector<SummaryRow> rows;
};
template <class V>
void describe(V& v, RunRows& r) {
  v("case", r.case_name), v("rows", r.rows);
}

// What `run --out DIR` writes, for runs made without it: the rows appended to DIR/summary.csv (its
// header first in a new file; a file with another header is refused before anything is written)
// and each run's DIR/<case>/<label>/timeseries.csv from the texts the runs wrote.
void write_run(const RunRows& run, const std::string& out_dir, const std::map<std::string, std::string>& timeseries) {
  const std::filesystem::path dir = output_folder("--out", out_dir, {"summary.csv"});
  const std::string summary = (dir / "summary.csv").string();
  check_summary_appendable(summary);
  std::filesystem::create_directories(dir);
  for (const auto& row : run.rows) append_summary_csv(summary, row);
  for (const auto& [label, text] : timeseries) {
    const std::filesystem::path folder = dir / run.case_name / label;
    std::filesystem::create_directories(folder);
    std::ofstream out(folder / "timeseries.csv", std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error((folder / "timeseries.csv").string() + ": cannot be written");
  }
}

// Interrupts while the suite works (issue 46 item 1). A terminal's SIGINT reaches the suite's own
// handler (InterruptScope). Python's other ways of interrupting reach only the interpreter, which
// acts on them when it next runs: _thread.interrupt_main (a notebook's "interrupt"), and a signal
// handler of the user's that raises (SIGALRM). Left there, the exception would be raised as the
// call returns, or inside the next Python step, and the result lost. So the suite's step loop asks
// the interpreter (InterruptPoll: after a sample, every 50 ms at most, on this thread) and once
// more when the work is done; what a handler raised ends the runs as interrupted, and the call
// returns what ran with `interrupted` set and the exception's name for the warning.
namespace python_interrupts {
std::string g_heard;  // the name of what the interpreter raised, "" if nothing; read on the main thread only

void hear_pending_exception() {
  py::error_already_set raised;  // fetched and cleared: the call returns its result instead
  g_heard = py::str(raised.type().attr("__name__"));
}

bool python_signal_raised() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return false;
  hear_pending_exception();
  return true;
}
}  // namespace python_interrupts

struct CallInterrupts {
  bool interrupted = false;
  std::string heard;  // what Python raised ("KeyboardInterrupt"); "" for a terminal's SIGINT or none
};

// progress= of run, study and table: False, True (the command line's progress on stderr, shown on a
// terminal), or a function taking each progress line whole (the package passes print to
// sys.stderr where that is not a terminal: a notebook, which never shows the process's stderr).
struct ProgressChoice {
  bool on = false;
  PyObject* sink = nullptr;  // borrowed: the call's argument outlives the work
};
ProgressChoice progress_choice(const py::object& progress) {
  if (PyCallable_Check(progress.ptr())) return {true, progress.ptr()};
  return {progress.cast<bool>(), nullptr};
}

// The sink the suite's progress reports call (app/common/progress_sink.hpp), on whatever thread
// reports: each call takes the interpreter's lock. A sink that raises loses its line, not the run.
ProgressSink python_progress_sink(PyObject* sink) {
  if (!sink) return {};
  return [sink](const std::string& line) {
    py::gil_scoped_acquire gil;
    try {
      const py::handle print_line(sink);
      print_line(line);
    } catch (py::error_already_set&) {
      // dropped with the lock held (this scope): progress is not worth ending the work for
    }
  };
}

// The suite's work `f` with the interpreter's lock released, the suite's interrupt handlers in
// place, Python's signals polled (above) and progress lines to `sink` when given.
template <class F>
auto unlocked_and_interruptible(CallInterrupts& status, PyObject* sink, F&& f) {
  python_interrupts::g_heard.clear();
  auto result = [&] {
    py::gil_scoped_release unlocked;  // a Python step takes the lock back for its call
    InterruptScope scope;
    InterruptPoll poll(python_interrupts::python_signal_raised);
    ProgressSinkScope lines(python_progress_sink(sink));
    auto r = f();
    status.interrupted = scope.was_interrupted();
    return r;
  }();
  if (PyErr_CheckSignals() != 0) {  // came as the work ended: marks the result rather than losing it
    python_interrupts::hear_pending_exception();
    status.interrupted = true;
  }
  status.heard = python_interrupts::g_heard;
  return result;
}

py::dict run(const std::string& file, const std::vector<std::string>& integrators, std::optional<double> t_end,
             std::optional<double> h, const std::vector<std::string>& overrides, int repeats,
             std::optional<double> min_timed_s, const std::string& out_dir, const py::object& progress, std::optional<double> max_steps,
             std::optional<double> max_samples, std::optional<double> max_state) {
  CaseRunRequest request;
  request.limits = limits_from(max_steps, max_samples, max_state);
  request.integrators = integrators;
  request.sets = overrides;
  request.run.t_end = positive("--t-end", t_end);
  request.run.h = positive("--h", h);
  if (repeats < 1 || repeats > 1000)
    throw InputError("--repeats: expected an integer from 1 to 1000, got '" + std::to_string(repeats) + "'");
  request.run.repeats = repeats;
  if (min_timed_s) {
    if (!(std::isfinite(*min_timed_s) && *min_timed_s >= 0.0))
      throw InputError("--min-timed-s: expected a finite number >= 0 (s), got '" + format_g(*min_timed_s) + "'");
    request.run.min_timed_s = *min_timed_s;
  }
  request.run.out_dir = output_folder("--out", out_dir, {"summary.csv"});  // as `run --out` checks it
  const ProgressChoice shown = progress_choice(progress);
  request.run.progress = shown.on;
  const CaseRun case_run(load_one(file, overrides, request.limits), session().catalogue, request);
  CallInterrupts interrupts;
  const std::vector<SummaryRow> rows = unlocked_and_interruptible(interrupts, shown.sink, [&] { return case_run.run(); });
  py::list runs;
  for (size_t i = 0; i < rows.size(); ++i) {
    py::dict r;
    r["label"] = rows[i].integrator;
    r["status"] = rows[i].status();
    r["ok"] = rows[i].outcome.ok();
    r["timeseries"] = case_run.requests()[i].measure.timeseries_path;
    // What ran, as the runner took it (app/running/run_request.hpp), bound by its description.
    r["request"] = python::record_dict(record_of(case_run.requests()[i]));
    runs.append(r);
  }
  py::dict result;
  result["case"] = case_run.the_case().name;
  result["summary_csv"] = summary_csv_text(rows);
  result["rows"] = RunRows{case_run.the_case().name, rows};
  result["runs"] = runs;
  result["interrupted"] = interrupts.interrupted;
  result["heard"] = interrupts.heard;
  return result;
}

// The cases a table or study runs: the files (none: the bundled ones), the integrators (none: all)
// and the --set overrides, as the command line's options give them.
CaseChoice choice_of(const std::vector<std::string>& files, const std::vector<std::string>& integrators,
                     const std::vector<std::string>& overrides) {
  CaseChoice choice;
  choice.files = files;
  choice.integrators = integrators;
  choice.sets = overrides;
  return choice;
}


py::dict study_binding(const std::string& name, const std::vector<std::string>& files, const std::vector<std::string>& integrators,
               const std::string& out_dir, const std::map<std::string, std::string>& parameters,
               const std::vector<std::string>& overrides, int jobs, const py::object& progress) {
  StudyRequest request;
  request.name = name;
  request.cases = choice_of(files, integrators, overrides);
  request.parameters = parameters;
  request.out_dir = out_dir;
  request.workers = unsigned(std::max(1, jobs));
  const ProgressChoice shown = progress_choice(progress);
  request.progress = shown.on;
  request.command = "tetherbench.study('" + name + "')";
  const tb::Session snapshot = session();  // taken under the lock: a Python thread may register an integrator meanwhile
  CallInterrupts interrupts;
  const StudyOutcome outcome = unlocked_and_interruptible(interrupts, shown.sink, [&] { return tb::study(snapshot, request); });
  py::list written;
  for (const auto& path : outcome.written) written.append(path);
  py::dict d;
  d["written"] = written;
  d["interrupted"] = interrupts.interrupted;
  d["heard"] = interrupts.heard;
  return d;
}

// `tetherbench table`: every case's full runs through the job list, summary.csv and summary.md in
// out_dir. Returns the files written.
py::dict table_binding(const std::vector<std::string>& files, const std::vector<std::string>& integrators, const std::string& out_dir,
               const std::vector<std::string>& overrides, int repeats, int jobs, const py::object& progress) {
  TableRequest request;
  request.cases = choice_of(files, integrators, overrides);
  request.out_dir = out_dir;
  request.repeats = repeats;
  request.workers = unsigned(std::max(1, jobs));
  const ProgressChoice shown = progress_choice(progress);
  request.progress = shown.on;
  request.command = "tetherbench.table()";
  const tb::Session snapshot = session();  // taken under the lock, as for study
  CallInterrupts interrupts;
  const TableRun run = unlocked_and_interruptible(interrupts, shown.sink, [&] { return tb::table(snapshot, request); });
  py::list written;
  for (const char* name : {"summary.csv", "summary.md"}) written.append((std::filesystem::path(run.out_dir) / name).string());
  py::dict d;
  d["written"] = written;
  d["interrupted"] = interrupts.interrupted;
  d["heard"] = interrupts.heard;
  return d;
}

// `tetherbench gate`: the checks as described records (GateCheck), or, recording,
// what was recorded.
py::dict gate(const std::vector<std::string>& files, const std::vector<std::string>& integrators,
              const std::optional<std::string>& envelopes, bool record, bool accept_failures) {
  const PythonSession& s = session();
  GateRequest request;
  request.integrators = integrators;
  request.envelopes = envelopes;
  request.record = record;
  request.accept_failures = accept_failures;
  request.record_command = "tetherbench.gate(..., record=True)";
  const auto cases = load_cases(s.catalogue, s.case_files_or_bundled(files), {}, RunLimits{});
  CallInterrupts interrupts;
  const GateOutcome outcome = unlocked_and_interruptible(interrupts, nullptr, [&] { return run_gates(s.catalogue, s.data, cases, request); });
  py::list checks;  // each check bound by its description (case, integrator, metric, outcome, message)
  for (const auto& g : outcome.checks) checks.append(python::record_dict(g));
  py::dict d;
  d["file"] = outcome.file;
  d["checks"] = checks;
  d["check_fields"] = csv_columns<GateCheck>();  // the columns of an empty result
  d["recorded"] = outcome.recorded;
  d["refused"] = outcome.refused;
  d["expected_failures"] = outcome.expected_failures;
  d["interrupted"] = outcome.interrupted || interrupts.interrupted;
  d["heard"] = interrupts.heard;
  return d;
}

// A Python method claims no trait its author did not declare: MethodTraits' defaults but for
// imaginary_axis_stable, whose default (true, for the compiled schemes that mostly have it) would
// have a Heun step claim an interval of the imaginary axis it lacks (issue 46).
MethodTraits traits_from(const py::dict& given) {
  MethodTraits undeclared;
  undeclared.imaginary_axis_stable = false;
  return python::record_from_dict(given, undeclared, "traits", "trait");
}

// settings={"theta": {"default": 0.5, "meaning": "...", "lower": 0, "upper": 1, "lower_inclusive": True,
// "integer": False}} or, for a word, {"scheme": {"words": ["a", "b"], "default": "a", "meaning": "..."}}.
std::vector<SettingSpec> settings_from(const py::dict& given) {
  std::vector<SettingSpec> specs;
  for (const auto& [key, value] : given) {
    const std::string name = py::str(key);
    auto where = [&](const std::string& what) { return InputError("settings: '" + name + "': " + what); };
    if (!py::isinstance<py::dict>(value)) throw where("expected a dict with 'default' and 'meaning' (and 'lower', 'upper', ...)");
    const py::dict d = value.cast<py::dict>();
    for (const auto& [k, _] : d) {
      const std::string field = py::str(k);
      if (field != "default" && field != "meaning" && field != "lower" && field != "upper" && field != "lower_inclusive" &&
          field != "integer" && field != "words")
        throw where("unknown field '" + field + "' (expected default, meaning, lower, upper, lower_inclusive, integer, words)");
    }
    if (!d.contains("default") || !d.contains("meaning")) throw where("expected both 'default' and 'meaning'");
    SettingSpec spec;
    if (d.contains("words")) {
      spec = word_setting(name, d["meaning"].cast<std::string>(), d["words"].cast<std::vector<std::string>>(),
                          d["default"].cast<std::string>());
    } else {
      spec.name = name;
      spec.meaning = d["meaning"].cast<std::string>();
      spec.default_value = d["default"].cast<double>();
      if (d.contains("lower")) spec.lower = d["lower"].cast<double>();
      if (d.contains("upper")) spec.upper = d["upper"].cast<double>();
      if (d.contains("lower_inclusive")) spec.lower_inclusive = d["lower_inclusive"].cast<bool>();
      if (d.contains("integer")) spec.integer = d["integer"].cast<bool>();
      if (!spec.accepts(spec.default_value))
        throw where("default " + format_g(spec.default_value) + " is not " + spec.expectation());
    }
    specs.push_back(std::move(spec));
  }
  std::sort(specs.begin(), specs.end(), [](const SettingSpec& a, const SettingSpec& b) { return a.name < b.name; });
  return specs;
}

FormulationKind kind_from(const std::string& word) {
  static const std::map<std::string, FormulationKind> words = {
      {"ode", FormulationKind::EmbeddedOde},
      {"dae", FormulationKind::IndexOneDae},
      {"constrained", FormulationKind::ConstrainedMechanical},
      {"lie_group_ode", FormulationKind::LieGroupOde},
      {"discrete_lie_group", FormulationKind::DiscreteLieGroup}};
  if (const auto it = words.find(word); it != words.end()) return it->second;
  for (const FormulationKind k : kAllFormulationKinds)
    if (to_string(k) == word) return k;
  std::string names;
  for (const auto& [n, k] : words) names += (names.empty() ? "" : ", ") + n + " (" + to_string(k) + ")";
  throw InputError("consumes: unknown formulation '" + word + "' (expected one of: " + names + ")");
}

void register_integrator(const std::string& name, py::object step, const std::string& consumes, int order,
                         const py::dict& traits, const py::dict& settings, const std::string& summary, const std::string& origin) {
  auto& s = session();
  if (!PyCallable_Check(step.ptr())) throw InputError("register_integrator('" + name + "'): step: expected a callable step(form, t, y, h)");
  const bool lower = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  if (name.empty() || name.find_first_of(" ,.=@/\"'\n\t") != std::string::npos || !lower)
    throw InputError("register_integrator: name '" + name + "': expected a lower-case name without spaces, dots, commas, '=', '@' or '/'");
  if (order < 1) throw InputError("register_integrator('" + name + "'): order: expected an integer >= 1, got " + std::to_string(order));
  const bool ours = s.python_integrators.count(name) > 0;  // a notebook cell run again replaces its integrator
  if (!ours && (s.catalogue.knows_integrator(name) || s.catalogue.find_integrator(name) ||
                std::any_of(s.catalogue.reference_solvers.begin(), s.catalogue.reference_solvers.end(),
                            [&](const IntegratorInfo& i) { return i.name == name; })))
    throw InputError("register_integrator: name '" + name + "' is taken by the catalogue (built in or from a plugin); choose another");
  python::PythonIntegratorSpec spec;
  spec.name = name;
  spec.summary = summary.empty() ? "written in Python" : summary;
  spec.consumes = kind_from(consumes);
  spec.order = order;
  spec.traits = traits_from(traits);
  spec.settings = settings_from(settings);
  spec.step = step;
  Catalogue next = s.catalogue;
  next.integrators.erase(std::remove_if(next.integrators.begin(), next.integrators.end(),
                                        [&](const IntegratorInfo& i) { return i.name == name; }),
                         next.integrators.end());
  next.integrators.push_back(python::python_integrator(spec));
  std::sort(next.integrators.begin(), next.integrators.end(),
            [](const IntegratorInfo& a, const IntegratorInfo& b) { return a.name < b.name; });
  next.origins["integrator " + name] = origin;
  try {
    next.validate();
  } catch (const std::logic_error& e) {
    throw InputError("register_integrator('" + name + "'): " + e.what());
  }
  {
    py::gil_scoped_release unlocked;  // the old catalogue's copy of the function is dropped under the lock
    s.catalogue = std::move(next);
  }
  s.python_integrators.insert(name);
}

// `tetherbench check-plugin`'s integrator checks (conformance/integrator_checks.hpp) on any
// integrator of the session: its declared order measured, the end time, the failed-step contract,
// and each declared trait against what it does. One row per check: (check, result, measured, reason).
py::list check_integrator(const std::string& name) {
  const PythonSession& s = session();
  const IntegratorInfo* info = s.catalogue.find_integrator(name);
  if (!info)
    throw InputError("--integrator: unknown integrator '" + name + "' (expected one of: " +
                     join_names(s.catalogue.integrator_names()) + ")");
  std::vector<conformance::Check> checks;
  {
    py::gil_scoped_release unlocked;
    InterruptScope scope;
    const conformance::IntegratorBench bench = suite_integrator_bench(s.catalogue);
    checks = conformance::check_integrator(*info, bench);
  }
  py::list rows;
  for (const auto& c : checks) {
    const char* result = c.result() == conformance::Check::Result::Pass   ? "pass"
                         : c.result() == conformance::Check::Result::Fail ? "FAIL"
                                                                           : "n/a";
    rows.append(py::make_tuple(c.name(), result, c.measurements(), c.reason()));
  }
  return rows;
}

// A study's summary, files and parameters (params= of tetherbench.study), bound by its description.
py::dict study_info(const std::string& name) {
  const StudyInfo* info = session().catalogue.find_study(name);
  if (!info)
    throw InputError("study: unknown study '" + name + "' (expected one of: " + join_names(session().catalogue.study_names()) + ")");
  return python::record_dict(*info);
}

py::dict integrator_info(const std::string& name) {
  const IntegratorInfo* info = session().catalogue.find_integrator(name);
  if (!info)
    throw InputError("--integrator: unknown integrator '" + name + "' (expected one of: " +
                     join_names(session().catalogue.integrator_names()) + ")");
  py::dict d;
  d["name"] = info->name;
  d["order"] = info->order;
  d["adaptive"] = info->adaptive;
  d["consumes"] = to_string(info->consumes);
  d["summary"] = info->summary;
  d["interpreter"] = info->interpreter;
  d["origin"] = session().catalogue.origin("integrator", name);
  d["traits"] = python::record_dict(info->traits);
  py::dict settings;
  for (const auto& spec : info->settings) {
    py::dict sd;
    sd["meaning"] = spec.meaning;
    sd["expected"] = spec.expectation();
    if (spec.is_number()) sd["default"] = spec.default_value;
    else sd["default"] = spec.default_text;
    settings[py::str(spec.name)] = sd;
  }
  d["settings"] = settings;
  return d;
}

py::list load_plugin(const std::string& path) {
  PythonSession& s = session();
  Catalogue next = s.catalogue;
  load_plugins({{path, "--plugin"}}, next);  // named as the command line names it: its message, word for word
  py::list entries;
  for (const auto& e : next.plugins.back().entries) entries.append(e);
  s.catalogue = std::move(next);
  return entries;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "tetherbench's compiled part: the suite's catalogue, runner and studies (use the package `tetherbench`)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  tb::python::declare_form_views(m);
  m.def("version", &suite_version_number, "the suite's version, as `tetherbench --version` prints it");
  m.def("kernel_version", [] { return std::string(TETHERBENCH_KERNEL_VERSION); },
        "the interface plugins are built against (version + header hash)");
  m.def("data_dir", [] { return session().data.root; }, "the bundled data folder (cases/, reference/, scripts/)");
  m.def("cases_dir", [] { return session().data.cases; });
  m.def("integrators", [] { return session().catalogue.integrator_names(); });
  m.def("models", [] { return session().catalogue.model_names(); });
  m.def("studies", [] { return session().catalogue.study_names(); });
  m.def("study_info", &study_info, py::arg("name"));
  m.def("integrator_info", &integrator_info, py::arg("name"));
  m.def("check_integrator", &check_integrator, py::arg("name"));
  m.def("load_plugin", &load_plugin, py::arg("path"));
  m.def("load_case", &load_case_summary, py::arg("path"), py::arg("max_steps"), py::arg("max_samples"), py::arg("max_state"));
  m.def("edited_case", &edited_case, py::arg("path"), py::arg("changes"), py::arg("max_steps"), py::arg("max_samples"),
        py::arg("max_state"));
  m.def("run", &run, py::arg("case_file"), py::arg("integrators"), py::arg("t_end"), py::arg("h"), py::arg("overrides"),
        py::arg("repeats"), py::arg("min_timed_s"), py::arg("out_dir"), py::arg("progress"), py::arg("max_steps"),
        py::arg("max_samples"), py::arg("max_state"));
  m.def("study", &study_binding, py::arg("name"), py::arg("case_files"), py::arg("integrators"), py::arg("out_dir"),
        py::arg("parameters"), py::arg("overrides"), py::arg("jobs"), py::arg("progress"));
  m.def("table", &table_binding, py::arg("case_files"), py::arg("integrators"), py::arg("out_dir"), py::arg("overrides"),
        py::arg("repeats"), py::arg("jobs"), py::arg("progress"));
  m.def("gate", &gate, py::arg("case_files"), py::arg("integrators"), py::arg("envelopes"), py::arg("record"),
        py::arg("accept_failures"));
  m.def("register_integrator", &register_integrator, py::arg("name"), py::arg("step"), py::arg("consumes"), py::arg("order"),
        py::arg("traits"), py::arg("settings"), py::arg("summary"), py::arg("origin"));
  m.def("summary_columns", &summary_columns);
  m.def("summary_count_columns", &summary_count_columns);
  // Opaque to Python (written by write_run), pickled as the job store's bytes of the same rows.
  py::class_<RunRows>(m, "RunRows")
      .def(py::pickle(
          [](const RunRows& r) {
            ResultWriter w;
            write(w, r);
            return py::bytes(w.bytes());
          },
          [](const py::bytes& bytes) {
            const std::string text = bytes;
            ResultReader in(text);
            RunRows r;
            read(in, r);
            in.expect_end();
            return r;
          }));
  m.def("write_run", &write_run, py::arg("rows"), py::arg("out_dir"), py::arg("timeseries"));
  m.def("output_folder", [](const std::string& option, const std::string& path) { return output_folder(option, path, {}); },
        py::arg("option"), py::arg("path"), "the command line's check of a folder to write into (ValueError with its message)");
}
