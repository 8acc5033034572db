#pragma once
// What the sweep studies share (setting_sweep, tolerance_sweep, parameter_map): a case's own
// table [report.<study>] names one run and what to vary; the study makes one point per value (a
// complete run through the one measurement path, app/running/runner.hpp), one job per point, and
// writes its files from the points once every job is done. A sweep says only what differs: its
// points, each point's run request (app/running/run_request.hpp: built once, when the study is
// planned), each point's job (label, cost) and what it writes. The job runs the request as it is
// and is fingerprinted by it, so what a point runs and what its stored result is matched by are
// one record.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/study.hpp"
#include "app/running/job_result.hpp"
#include "app/running/runner.hpp"

namespace tb {

// Point: the sweep's own record of one run, holding its result in the member `slot` (a
// Measurement `measured`, unless the sweep says otherwise).
template <class Point, class Result = Measurement, Result Point::*slot = &Point::measured>
class SweepStudy : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) final {
    points_.clear();
    for (const Case& c : *context.cases) add_points(c, context, points_);
    // The jobs refer to the points: points_ is not touched again until write().
    std::vector<StudyJob> jobs;
    for (Point& p : points_) {
      RunRequest request = request_of(p);
      const Job job = job_of(p, request);
      const std::string inputs = request_inputs(request, job.own_inputs);
      jobs.push_back(result_job<Result>(job.label, job.expected_cost, inputs,
                                        [this, &p, request = std::move(request)] { return run(p, request); }, p.*slot));
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) final {
    if (points_.empty()) return {};
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    return write_files(dir, points_);
  }

 protected:
  struct Job {
    std::string label;           // "case | integrator | what varies = value"
    double expected_cost = 1.0;  // steps, for ordering the jobs
    // What the result depends on beyond the request (request_inputs' `own`): a case variant's
    // [model] value, which the case's identity does not show.
    std::vector<JobParameter> own_inputs = {};
  };
  // Appends the points of one case that has the study's table (the study's why_not left the others
  // out); an InputError for a point that cannot run, before anything runs.
  virtual void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) = 0;
  // The point's run: case, integrator, settings (its step among them) and horizon, said once.
  virtual RunRequest request_of(const Point& p) const = 0;
  virtual Job job_of(const Point& p, const RunRequest& request) const = 0;
  // Runs the point's request (in a worker: touches nothing shared): measured, or as a table's
  // full run when the sweep keeps summary rows.
  virtual Result run(const Point&, const RunRequest& request) const {
    if constexpr (std::is_same_v<Result, SummaryRow>) return run_case(request);
    else if constexpr (std::is_same_v<Result, Measurement>) return measure(request);
    else throw std::logic_error("a sweep of results other than Measurement and SummaryRow overrides run()");
  }
  // Writes the study's files under dir from every point (each with its result); returns their paths.
  virtual std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const = 0;

 private:
  std::vector<Point> points_;
};

// A sweep's points case by case, in their order (a case's points are consecutive: add_points
// appends them per case), for the pages that have a section per case.
template <class Point>
std::vector<std::vector<const Point*>> points_by_case(const std::vector<Point>& points) {
  std::vector<std::vector<const Point*>> out;
  for (const Point& p : points) {
    if (out.empty() || out.back().front()->key.c != p.key.c) out.emplace_back();
    out.back().push_back(&p);
  }
  return out;
}

// The why_not of a study that runs only where the case has its table: "" where it has one.
template <class Section>
std::string why_not_without_table(const Case& c) {
  return c.section<Section>() ? std::string() : "the case has no [report." + std::string(Section::kStudy) + "]";
}

}  // namespace tb
