// A study from a plugin: every fixed-step integrator that runs a case, at a step h and at h/2 and
// h/4, and the order the three final states show by self-convergence (no reference solution
// needed), beside the order the integrator declares. Writes observed_order.csv, and draws per case
// the observed order against the declared one (StudyInfo::figures: the report lists it in
// figures.csv, draws it and shows it in index.md, in the report's colours; index.md links the CSV
// under "Other results", StudyInfo::pages).
//
// Its own table of a case file, [report.observed_order] (optional; read and checked when the case
// is loaded, before anything runs: StudyInfo::read_section):
//   h      the coarsest of the three steps (s); default the largest of the case's [report] steps
//          (the work-precision sweep's, chosen in every method's asymptotic range and above its
//          round-off); at most t_end / 4, so that the coarsest run takes at least 4 steps
//   t_end  the horizon (s); default the case's [report] reference_t_end; at most the case's t_end
//
// What a study does (app/input/study.hpp): plan() returns independent jobs, each computing one value
// through the one measurement path (measure(), app/running/runner.hpp) and touching nothing shared;
// tetherbench runs them in its parallel pool (threads, MPI ranks), stores them for --resume under
// a fingerprint of their inputs, and hands each result back into its slot; write() then writes
// the study's files from the slots. A job's inputs are request_inputs(request): the case file and
// model, and the request it runs (the integrator's effective settings with its step, its origin,
// the horizon and grid), so that the fingerprint is taken from what runs.
#include "observed_order.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/common/csv_table.hpp"
#include "app/common/figure_kit.hpp"
#include "app/input/case.hpp"
#include "app/input/catalogue.hpp"
#include "app/running/job_result.hpp"
#include "app/running/runner.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"

namespace my_studies {
namespace {

using namespace tb;

constexpr double kRefinements[] = {1.0, 0.5, 0.25};  // h, h/2, h/4

// [report.observed_order], as read_section checked it.
struct OwnTable final : StudySection {
  static constexpr const char* kStudy = "observed_order";
  double h = 0.0, t_end = 0.0;
  // restricted(): kept whole (the default), since every integrator's row uses the same h and t_end.
  // Its finest runs, at h/4 over t_end, are held to --max-steps like the case's own.
  std::vector<Span> fixed_step_spans() const override { return {{"h", t_end, h * kRefinements[2]}}; }
};

// The step and horizon of a case: its [report.observed_order], else the defaults above.
OwnTable steps_of(const Case& c) {
  if (const OwnTable* own = c.section<OwnTable>()) return *own;
  OwnTable defaults;
  defaults.h = *std::max_element(c.report.steps.begin(), c.report.steps.end());
  defaults.t_end = c.report.reference_t_end;
  return defaults;
}

std::shared_ptr<const StudySection> read_own_table(TableReader& table, const SectionInputs& in) {
  OwnTable own = steps_of(in.c);
  own.t_end = table.positive_or("t_end", own.t_end);
  if (own.t_end > in.c.t_end)
    table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(in.c.t_end), format_g(own.t_end));
  own.h = table.positive_or("h", own.h);
  if (4.0 * own.h > own.t_end)
    table.fail("h", "a step of at most t_end / 4 = " + format_g(own.t_end / 4.0) + " (the coarsest run takes at least 4 steps)",
               format_g(own.h));
  return std::make_shared<OwnTable>(own);
}

class ObservedOrder final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    points_.clear();
    for (const Case& c : *context.cases)
      for (const IntegratorInfo& info : context.catalogue->integrators) {
        // Fixed-step methods only (an adaptive one's h is only its first step), and only where
        // the suite's one applicability rule says the integrator runs the case.
        if (info.adaptive || why_not_applicable(c, info, c.model->default_discretisation())) continue;
        const OwnTable own = steps_of(c);
        for (double r : kRefinements) points_.push_back({&c, &info, own.h * r, own.t_end, {}});
      }
    std::vector<StudyJob> jobs;
    for (Point& p : points_) {
      // The point's run said once (app/running/run_request.hpp): what the job runs and what its
      // stored result is fingerprinted by are the same record.
      RunRequest request{RunKey{p.c, p.info, p.c->model->default_discretisation()}, p.c->settings_for(p.info->name), {}};
      request.settings.h = p.h;
      request.measure.t_end = request.measure.sample_interval = p.t_end;
      request.measure.observe = false;  // only the final state is needed
      const std::string inputs = request_inputs(request);
      jobs.push_back(result_job<Measurement>(p.c->name + " | " + p.info->name + " | observed order, h = " + format_g(p.h, 6),
                                             p.t_end / p.h, inputs, [request] { return measure(request); }, p.measured));
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) override {
    const std::string path = (std::filesystem::path(context.out_dir) / "observed_order.csv").string();
    std::ofstream csv(path);
    csv << "case,integrator,declared_order,h,observed_order,status\n";
    for (std::size_t i = 0; i + 2 < points_.size(); i += 3) {
      const Point &a = points_[i], &b = points_[i + 1], &c = points_[i + 2];
      std::string status = "ok", order;
      for (const Point* p : {&a, &b, &c})
        if (!p->measured.outcome.ok()) status = "h = " + format_g(p->h, 6) + ": " + p->measured.outcome.describe();
      if (status == "ok")
        order = format_g(observed_order(a.measured.final_physical, b.measured.final_physical, c.measured.final_physical), 4);
      csv << a.c->name << ',' << a.info->name << ',' << a.info->order << ',' << format_g(a.h, 6) << ',' << order << ",\""
          << status << "\"\n";
    }
    return {path};
  }

 private:
  struct Point {
    const Case* c;
    const IntegratorInfo* info;
    double h, t_end;
    Measurement measured;
  };
  std::vector<Point> points_;  // three per (case, integrator), in kRefinements' order
};

// The figure of one case (request.case_name; none report-wide): each integrator's observed order
// against its declared one, the diagonal "observed = declared" beside them. Drawn from
// observed_order.csv by the report's plotting script; the series say where their points are.
void draw_figure(const FigureRequest& request, std::vector<Figure>& figures) {
  if (request.case_name.empty()) return;
  const CsvTable& table = request.table("observed_order.csv");
  Figure fig;
  fig.case_name = request.case_name;
  fig.section = "observed_order";
  fig.file = "figures/" + figure_kit::safe_name(request.case_name) + "_observed_order.png";
  figure_kit::Panel panel;
  panel.title = "self-convergence at h, h/2, h/4";
  panel.xlabel = "declared order";
  panel.ylabel = "observed order log2(|y_h - y_h/2| / |y_h/2 - y_h/4|)";
  double lowest = 0.0, highest = 0.0;
  int points = 0;
  for (const auto& row : figure_kit::rows_where(table.rows, "case", request.case_name)) {
    const std::string integrator = figure_kit::cell(row, "integrator");
    const figure_kit::Style* style = request.styles->of(integrator);
    if (!style || figure_kit::cell(row, "status") != "ok") continue;
    const double declared = figure_kit::to_double(figure_kit::cell(row, "declared_order"));
    lowest = points == 0 ? declared : std::min(lowest, declared);
    highest = points == 0 ? declared : std::max(highest, declared);
    ++points;
    figure_kit::Series s = figure_kit::table_series(integrator, *style, "observed_order.csv",
                                                    "case=" + request.case_name + ";integrator=" + integrator + ";status=ok",
                                                    "declared_order", "observed_order");
    s.kind = "markers";
    panel.series.push_back(s);
  }
  if (points == 0) return;  // no integrator's three runs completed: nothing to draw
  if (highest > lowest) {
    figure_kit::Series diagonal;  // c t^p with c = 1, p = 1: observed = declared
    diagonal.kind = "fit";
    diagonal.colour = figure_kit::kGuideColour;
    diagonal.params = "c=1;p=1;from=" + format_g(lowest, 17) + ";to=" + format_g(highest, 17);
    panel.series.push_back(diagonal);
  }
  fig.panels.push_back(std::move(panel));
  fig.caption = "Observed order of each fixed-step integrator from its final states at h, h/2 and h/4 against the order it "
                "declares (grey: observed = declared), " + std::to_string(points) + " integrators (observed_order.csv).";
  figures.push_back(std::move(fig));
}

}  // namespace

double observed_order(const Eigen::VectorXd& y_h, const Eigen::VectorXd& y_h2, const Eigen::VectorXd& y_h4) {
  return std::log2((y_h - y_h2).lpNorm<Eigen::Infinity>() / (y_h2 - y_h4).lpNorm<Eigen::Infinity>());
}

StudyInfo observed_order_info() {
  StudyInfo info;
  info.name = "observed_order";
  info.summary = "every fixed-step integrator at h, h/2 and h/4 ([report.observed_order] h, or the coarsest of [report] steps): "
                 "the order its final states show, beside the declared one (a study from a plugin)";
  info.writes = "observed_order.csv";
  info.why_not = [](const Case&) { return std::string(); };  // every case
  info.make = [] { return std::make_unique<ObservedOrder>(); };
  info.read_section = read_own_table;
  info.figures = draw_figure;
  info.pages = {{"observed_order.csv", "observed against declared orders by self-convergence (a study from a plugin)"}};
  return info;
}

}  // namespace my_studies
