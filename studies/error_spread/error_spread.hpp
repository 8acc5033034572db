#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
#include "core/model.hpp"
namespace tb {

// [report.error_spread]: some of the case's full runs again with one numeric [model] key moved
// by round-off (e.g. gravity = 9.81 (1 + 1e-15)), every other input the case's. On a case whose
// motion depends sensitively on its start (Model C's cooperative case, once its threefold
// symmetry breaks), two correct runs' errors over the horizon differ by what such a change
// moves them: the recommendation (app/judging/recommendation.hpp) treats errors within that measured
// factor as alike (studies/error_spread/error_spread.hpp).
struct ErrorSpread final : StudySection {
  static constexpr const char* kStudy = "error_spread";
  std::vector<std::string> runs;  // run labels (integrator, or integrator@discretisation)
  std::string parameter;          // a numeric key of [model]
  double case_value = 0.0;        // its value in the case
  std::vector<double> values;
  std::vector<std::shared_ptr<const Model>> models;  // the case's model at each value, built when the case is read
  // Only the runs whose integrator the selection keeps (a label's integrator: before any '@');
  // none left, no section (the study then does not apply to the case).
  std::shared_ptr<const StudySection> restricted(const std::function<bool(const std::string&)>& runs) const override;
};

// Cases with a [report.error_spread] (app/input/case.hpp, ErrorSpread): the named full runs again, once
// per value of one [model] key moved by round-off, measured exactly as the full runs are
// (run_case, app/running/runner.hpp). Why: where the motion depends sensitively on where it starts
// (Model C's cooperative case after its threefold symmetry breaks at ~300 s), a run's error
// over the horizon is not a property of the method alone: a change of g by 1e-15 moved
// rattle's max |dE| over 1000 s from 5.35e-4 J to 1.57e-4 J (x3.4) and lgvi's by 5 %. The
// recommendation (app/judging/recommendation.hpp) reads the largest such factor of a case as the
// resolution of its errors. Writes error_spread.csv: the summary's columns (app/writing/summary.hpp)
// and parameter, value, case_value.
StudyInfo error_spread_study();
// Reads its runs (error_spread.csv) into ReportData::spread_runs (StudyInfo::read_back; read_back.cpp).
void read_error_spread_back(const std::string& dir, ReportData& data);
}  // namespace tb
