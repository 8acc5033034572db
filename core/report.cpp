#include "core/report.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "core/convergence.hpp"
#include "core/format.hpp"
#include "core/parallel.hpp"
#include "core/reference_data.hpp"
#include "core/summary.hpp"
#include "core/table_reader.hpp"
#include "models/hanging_tether/catenary_study.hpp"

#ifndef TETHERBENCH_SOURCE_DIR
#error "TETHERBENCH_SOURCE_DIR must be defined by the build"
#endif

namespace fs = std::filesystem;

namespace tb {

FormulationKind reference_kind(const Model& model, FormulationKind consumed) {
  std::string why_not;
  const auto form = model.make_formulation(consumed, why_not);
  return dynamic_cast<const OdeFormulation*>(form.get()) ? consumed : FormulationKind::EmbeddedOde;
}

ReferenceRun compute_reference(const Model& model, FormulationKind kind, double t_end, double initial_step) {
  const IntegratorInfo* rk45 = find_integrator("rk45");
  std::string why_not;
  auto form = model.make_formulation(kind, why_not);
  if (!form) throw std::runtime_error("no reference solution: " + why_not);
  if (!dynamic_cast<const OdeFormulation*>(form.get()))
    throw std::runtime_error("no reference solution: the " + to_string(kind) + " form is not an ODE");
  IntegratorSettings s;
  s.h = initial_step;
  s.rtol = kReferenceRtol;
  s.atol = kReferenceAtol;
  ReferenceRun run;
  run.outcome = integrate(*form, *rk45, s, t_end, t_end, {});
  if (!run.outcome.ok) throw std::runtime_error("reference run failed: " + run.outcome.failure);
  run.physical = form->physical_state(run.outcome.final_state);
  return run;
}

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return buf;
}

std::string reference_path(const std::string& dir, const Case& c, FormulationKind kind) {
  const std::string file = kind == FormulationKind::EmbeddedOde ? "final_state.csv" : "final_state_" + to_string(kind) + ".csv";
  return (fs::path(dir) / c.name / file).string();
}

// The ODE-type formulations a case's references are made for.
std::vector<FormulationKind> reference_kinds(const Case& c) {
  std::vector<FormulationKind> kinds;
  for (auto kind : {FormulationKind::EmbeddedOde, FormulationKind::LumpedMass}) {
    std::string why_not;
    const auto form = c.model->make_formulation(kind, why_not);
    if (dynamic_cast<const OdeFormulation*>(form.get())) kinds.push_back(kind);
  }
  return kinds;
}

}  // namespace

std::vector<std::string> write_references(const std::vector<Case>& cases, const std::string& reference_dir,
                                          const std::string& command) {
  std::vector<std::string> written;
  for (const auto& c : cases)
    for (const FormulationKind kind : reference_kinds(c)) {
      const ReferenceRun run = compute_reference(*c.model, kind, c.report.reference_t_end, c.h);
      const std::string provenance =
          "Reference solution of case " + c.name + " (" + to_string(kind) + " form): physical state at t = " +
          format_g(c.report.reference_t_end) + " s from rk45 (Dormand-Prince 5(4)) at rtol " + format_g(kReferenceRtol) +
          ", atol " + format_g(kReferenceAtol) + ", " + std::to_string(run.outcome.counters.steps) + " steps; made " +
          utc_now() + " by `" + command + "`";
      const std::string path = reference_path(reference_dir, c, kind);
      write_reference_state(path, run.physical, provenance);
      written.push_back(path);
    }
  return written;
}

namespace {

struct SweepPoint {
  const Case* c = nullptr;
  const IntegratorInfo* info = nullptr;
  std::string parameter;  // "h" or "rtol"
  double value = 0.0;
  double error = 0.0;
  double runtime_s = 0.0;
  StepCounters counters;
  std::string status;
};

// One point of the work-precision diagram: error of the final state against the reference,
// runtime as the minimum of two passes without observation.
void run_sweep_point(SweepPoint& p, const Eigen::VectorXd& reference) {
  IntegratorSettings s = p.c->settings_for(p.info->name);
  if (p.parameter == "h") {
    s.h = p.value;
  } else {
    s.rtol = p.value;
    s.atol = 1e-2 * p.value;
  }
  std::string why_not;
  auto form = p.c->model->make_formulation(p.info->consumes, why_not);
  const double T = p.c->report.reference_t_end;
  IntegrationOutcome out = integrate(*form, *p.info, s, T, T, {});
  p.counters = out.counters;
  if (!out.ok) {
    p.status = "failed: " + out.failure;
    return;
  }
  p.error = (form->physical_state(out.final_state) - reference).lpNorm<Eigen::Infinity>();
  const IntegrationOutcome again = integrate(*form, *p.info, s, T, T, {});
  p.runtime_s = std::min(out.runtime_s, again.runtime_s);
  p.status = "ok";
}

class ProgressLine {
 public:
  explicit ProgressLine(size_t total) : total_(total), terminal_(isatty(STDERR_FILENO)) {}
  void done(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    if (terminal_) std::fprintf(stderr, "\r  [%zu/%zu] %-70.70s", done_, total_, what.c_str());
    else if (done_ % 10 == 0 || done_ == total_) std::fprintf(stderr, "  [%zu/%zu] %s\n", done_, total_, what.c_str());
    if (terminal_ && done_ == total_) std::fprintf(stderr, "\n");
  }

 private:
  std::mutex mutex_;
  size_t total_, done_ = 0;
  bool terminal_;
};

std::ofstream open_out(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p);
  if (!out) throw std::runtime_error("cannot write " + p.string());
  return out;
}

// The optional [report] baumgarte_p_sweep (cases/README.md): ida over the whole case once per
// rate p, every other setting the case's, measured like a summary row (metrics on the
// observation grid; runtime the minimum of that pass and one without observation). Writes
// baumgarte_sweep.csv when some case asks for a sweep.
void write_baumgarte_sweep(const std::vector<Case>& cases, const fs::path& dir, unsigned workers) {
  struct Point {
    const Case* c = nullptr;
    double p = 0.0;
    ConservationMetrics metrics;
    StepCounters counters;
    double runtime_s = 0.0;
    std::string status;
  };
  std::vector<Point> points;
  for (const auto& c : cases)
    for (double p : c.report.baumgarte_p_sweep) points.push_back({&c, p, {}, {}, 0.0, ""});
  if (points.empty()) return;
  const IntegratorInfo& ida = *find_integrator("ida");
  ProgressLine progress(points.size());
  run_parallel(points.size(), workers, [&](size_t i) {
    Point& pt = points[i];
    IntegratorSettings s = pt.c->settings_for(ida.name);
    s.baumgarte_p = pt.p;
    std::string why_not;
    const auto form = pt.c->model->make_formulation(ida.consumes, why_not);  // checked by load_case
    MetricsAccumulator metrics;
    const IntegrationOutcome out = integrate(*form, ida, s, pt.c->report.baumgarte_sweep_t_end, pt.c->sample_interval,
                                             [&](double t, const Eigen::VectorXd& y) { metrics.add(t, form->observe(t, y)); });
    pt.metrics = metrics.result();
    pt.counters = out.counters;
    pt.runtime_s = out.runtime_s;
    pt.status = out.ok ? "ok" : "failed: " + out.failure;
    if (out.ok) pt.runtime_s = std::min(pt.runtime_s, integrate(*form, ida, s, pt.c->report.baumgarte_sweep_t_end, pt.c->sample_interval, {}).runtime_s);
    progress.done(pt.c->name + " | ida | baumgarte_p = " + format_g(pt.p, 3));
  });
  auto csv = open_out(dir / "baumgarte_sweep.csv");
  csv << "case,p,constraint_err_max,constraint_rate_err_max,energy_err_max,steps,rhs_evals,newton_iters,"
         "error_test_failures,runtime_s,status\n";
  for (const auto& pt : points)
    csv << pt.c->name << ',' << format_g(pt.p, 6) << ',' << format_g(pt.metrics.constraint_err_max, 6) << ','
        << format_g(pt.metrics.constraint_rate_err_max, 6) << ',' << format_g(pt.metrics.energy_err_max, 6) << ','
        << pt.counters.steps << ',' << pt.counters.rhs_evals << ',' << pt.counters.newton_iters << ','
        << pt.counters.error_test_failures << ',' << format_g(pt.runtime_s, 6) << ",\"" << pt.status << "\"\n";
}

// A Markdown table cell: '|' would end the cell.
std::string md_cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string git_commit() {
  std::string out;
  if (FILE* p = popen(("git -C " + shell_quote(TETHERBENCH_SOURCE_DIR) + " rev-parse --short HEAD 2>/dev/null").c_str(), "r")) {
    char buf[64];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

void write_build_info(const fs::path& dir, const ReportOptions& o) {
  auto out = open_out(dir / "build_info.csv");
  out << "key,value\n";
  out << "version," << TETHERBENCH_VERSION << " (git " << git_commit() << ")\n";
  out << "compiler," << TETHERBENCH_COMPILER << "\n";
  out << "flags,\"" << TETHERBENCH_FLAGS << "\"\n";
  out << "build_type," << TETHERBENCH_BUILD_TYPE << "\n";
  out << "date," << utc_now() << "\n";
  out << "workers," << o.workers << "\n";
  out << "command,\"" << o.command << "\"\n";
}

void write_paper_comparison(const fs::path& dir, const std::vector<PaperFigure>& figures,
                            const std::vector<SummaryRow>& rows) {
  auto csv = open_out(dir / "paper_comparison.csv");
  auto md = open_out(dir / "paper_comparison.md");
  csv << "source,case,integrator,metric,statistic,paper_value,ours,ratio,verdict,note\n";
  md << "# The papers' figures beside ours\n\nPaper values are read from `reference/paper_figures.csv` (with their "
        "sources); ours are the full runs of the same cases in `summary.csv`.\n\n"
        "| source | case | integrator | metric | paper | ours | ours/paper | verdict | note |\n"
        "|---|---|---|---|---:|---:|---:|---|---|\n";
  for (const auto& f : figures) {
    const SummaryRow* row = nullptr;
    for (const auto& r : rows)
      if (r.case_name == f.case_name && r.integrator == f.integrator) row = &r;
    if (!row) continue;  // that case or integrator is not part of this report
    std::string ours = "n/a", ratio = "n/a", verdict = "not run: " + row->status;
    if (row->status == "ok") {
      const double value = metric_value(row->metrics, f.metric);
      const double r = value / f.paper_value;
      ours = format_g(value, 4);
      ratio = format_g(r, 3);
      if (f.statistic == "upper_bound") verdict = value <= f.paper_value ? "within the paper's bound" : "exceeds the paper's bound";
      else verdict = (r >= 0.1 && r <= 10.0) ? "same order of magnitude" : "differs by more than 10x";
    }
    const std::string paper = (f.statistic == "upper_bound" ? "< " : "") + format_g(f.paper_value, 5);
    csv << '"' << f.source << "\"," << f.case_name << ',' << f.integrator << ',' << f.metric << ',' << f.statistic << ','
        << format_g(f.paper_value, 6) << ',' << ours << ',' << ratio << ",\"" << verdict << "\",\"" << f.note << "\"\n";
    md << "| " << md_cell(f.source) << " | " << f.case_name << " | " << f.integrator << " | " << f.metric << " | "
       << paper << " | " << ours << " | " << ratio << " | " << verdict << " | " << md_cell(f.note) << " |\n";
  }
}

int run_script(const std::string& command) {
  const int status = std::system(command.c_str());
  return status;
}

}  // namespace

int write_report(const std::vector<Case>& cases, const ReportOptions& options) {
  const fs::path dir(options.out_dir);
  // Everything read before anything runs: a missing reference stops the report at once.
  std::vector<std::map<FormulationKind, Eigen::VectorXd>> references(cases.size());
  for (size_t ci = 0; ci < cases.size(); ++ci)
    for (const FormulationKind kind : reference_kinds(cases[ci])) {
      const std::string path = reference_path(options.reference_dir, cases[ci], kind);
      if (!fs::exists(path))
        throw InputError(path + ": missing reference solution for case " + cases[ci].name +
                         " (make it with `tetherbench reference " + cases[ci].file + "`)");
      references[ci][kind] = read_reference_state(path);
    }
  const auto figures = read_paper_figures((fs::path(options.reference_dir) / "paper_figures.csv").string());

  // Jobs: full runs (time series and summary rows) and sweep points.
  std::vector<SummaryRow> rows(cases.size() * integrator_registry().size());
  std::vector<SweepPoint> sweep;
  for (size_t ci = 0; ci < cases.size(); ++ci)
    for (const auto& info : integrator_registry()) {
      std::string why_not;
      if (!cases[ci].runs(info.name) || !cases[ci].model->make_formulation(info.consumes, why_not)) continue;
      const auto& values = info.adaptive ? cases[ci].report.tolerances : cases[ci].report.steps;
      for (double v : values) {
        SweepPoint p;
        p.c = &cases[ci];
        p.info = &info;
        p.parameter = info.adaptive ? "rtol" : "h";
        p.value = v;
        sweep.push_back(p);
      }
    }
  const size_t n_full = rows.size();
  ProgressLine progress(n_full + sweep.size());
  RunOptions run_options;
  run_options.out_dir = options.out_dir;
  run_parallel(n_full + sweep.size(), options.workers, [&](size_t job) {
    if (job < n_full) {
      const Case& c = cases[job / integrator_registry().size()];
      const IntegratorInfo& info = integrator_registry()[job % integrator_registry().size()];
      rows[job] = run_case(c, info, run_options);
      progress.done(c.name + " | " + info.name + " | full run: " + rows[job].status.substr(0, 40));
    } else {
      SweepPoint& p = sweep[job - n_full];
      const size_t ci = size_t(p.c - cases.data());
      run_sweep_point(p, references[ci].at(reference_kind(*p.c->model, p.info->consumes)));
      progress.done(p.c->name + " | " + p.info->name + " | " + p.parameter + " = " + format_g(p.value, 3));
    }
  });

  // Tables.
  write_summary_csv((dir / "summary.csv").string(), rows);
  write_summary_markdown((dir / "summary.md").string(), rows);
  for (const auto& c : cases) {
    std::vector<SummaryRow> mine;
    for (const auto& r : rows)
      if (r.case_name == c.name) mine.push_back(r);
    write_summary_csv((dir / c.name / "summary.csv").string(), mine);
    write_summary_markdown((dir / c.name / "summary.md").string(), mine);
  }
  {
    auto wp = open_out(dir / "work_precision.csv");
    wp << "case,integrator,parameter,value,error,runtime_s,steps,rhs_evals,status\n";
    for (const auto& p : sweep)
      wp << p.c->name << ',' << p.info->name << ',' << p.parameter << ',' << format_g(p.value, 6) << ','
         << format_g(p.error, 6) << ',' << format_g(p.runtime_s, 6) << ',' << p.counters.steps << ','
         << p.counters.rhs_evals << ",\"" << p.status << "\"\n";
  }
  {
    auto orders = open_out(dir / "orders.csv");
    orders << "case,integrator,declared_order,measured_order,h_min,h_max,error_min,error_max\n";
    for (const auto& c : cases)
      for (const auto& info : integrator_registry()) {
        if (info.adaptive) continue;
        std::vector<double> hs, errs;
        for (const auto& p : sweep)
          if (p.c == &c && p.info == &info && p.status == "ok" && p.error > 0.0) hs.push_back(p.value), errs.push_back(p.error);
        if (hs.size() < 2) continue;
        orders << c.name << ',' << info.name << ',' << info.order << ',' << format_g(fitted_order(hs, errs), 4) << ','
               << format_g(*std::min_element(hs.begin(), hs.end()), 4) << ','
               << format_g(*std::max_element(hs.begin(), hs.end()), 4) << ','
               << format_g(*std::min_element(errs.begin(), errs.end()), 4) << ','
               << format_g(*std::max_element(errs.begin(), errs.end()), 4) << '\n';
      }
  }
  write_paper_comparison(dir, figures, rows);
  // Hanging-tether cases: static shape against the elastic catenary as N grows (catenary.csv).
  hanging_tether::write_catenary_report(cases, dir.string());
  write_baumgarte_sweep(cases, dir, options.workers);
  write_build_info(dir, options);

  const std::string scripts = std::string(TETHERBENCH_SOURCE_DIR) + "/scripts/";
  int status = 0;
  if (options.benchmarks) {
    const std::string bench = TETHERBENCH_BENCHMARK_BINARY;
    if (!fs::exists(bench)) {
      std::fprintf(stderr, "tetherbench: benchmark binary %s not built; skipping benchmarks\n", bench.c_str());
    } else {
      std::fprintf(stderr, "  running benchmarks (Google Benchmark, min time 0.05 s each)\n");
      const std::string json = (dir / "benchmarks.json").string();
      status |= run_script(shell_quote(bench) + " --benchmark_min_time=0.05 --benchmark_out=" + shell_quote(json) +
                           " --benchmark_out_format=json > " + shell_quote((dir / "benchmarks.log").string()) + " 2>&1");
      status |= run_script("/usr/bin/python3 " + shell_quote(scripts + "summarise_benchmarks.py") + " " +
                           shell_quote(json) + " " + shell_quote(dir.string()));
    }
  }
  if (options.plots)
    status |= run_script("/usr/bin/python3 " + shell_quote(scripts + "plot_report.py") + " " + shell_quote(dir.string()));
  return status == 0 ? 0 : 1;
}

}  // namespace tb
