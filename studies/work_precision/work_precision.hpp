#pragma once
#include <array>
#include <limits>
#include <string>

#include "app/running/runner.hpp"
#include "app/judging/order_fit.hpp"
#include "app/input/study.hpp"
#include "numerics/statistics.hpp"

namespace tb {

// Work-precision sweep of every run of every case (fixed-step methods over [report] steps,
// adaptive ones over [report] tolerances with atol = 1e-2 rtol) against the stored reference
// solution of the run's discretisation, and the measured orders of the fixed-step methods.
// Writes work_precision.csv and orders.csv.
StudyInfo work_precision_study();
// Reads its rankings (work_precision_rankings.csv) into ReportData::rankings (StudyInfo::read_back; read_back.cpp).
void read_work_precision_back(const std::string& dir, ReportData& data);
// The referee's rules for its own tables (StudyInfo::check_claims; claims.cpp).
void check_work_precision_claims(const std::string& dir, std::vector<ClaimViolation>& out);
// Its figures in a report (StudyInfo::figures; studies/work_precision/figures.cpp).
void work_precision_figures(const FigureRequest& request, std::vector<Figure>& figures);


// One point's result, as its job returns it (bytes between processes and in the resume store).
struct WorkPrecisionResult {
  Measurement measured;
  double error = 0.0;  // final state's max-norm distance from the reference (0 when the run failed)
  // L2 / Linf over time of configuration and rates (l2_configuration, linf_configuration, l2_rate,
  // linf_rate); NaN when the run failed or did not sample every grid time.
  std::array<double, 4> trajectory{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  std::string trajectory_note;  // why there are no trajectory errors, when there are none
  // The error norm the rankings use: RMS over the grid and over every component of the physical
  // state of the error divided by that component's range in the reference (scaled_l2 below).
  double scaled_l2 = std::numeric_limits<double>::quiet_NaN();
  // The final-state error against the quantity's own scale: per kind of physical entry
  // (configuration, rate, other: Model::physical_parts), the largest |error| over the largest
  // |value| the reference trajectory takes in that kind, the largest of these ratios. The
  // orders' asymptotic range is bounded from above by it (no fit over O(1) errors).
  double relative_error = std::numeric_limits<double>::quiet_NaN();
};
template <class V>
void describe(V& v, WorkPrecisionResult& r) {  // app/common/record.hpp
  v("measured", r.measured);
  v("error", r.error);
  v("trajectory", r.trajectory);
  v("trajectory_note", r.trajectory_note);
  v("scaled_l2", r.scaled_l2);
  v("relative_error", r.relative_error);
}

}  // namespace tb
