#pragma once
#include <array>
#include <limits>
#include <string>
#include <vector>

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

// One point of a step sweep: its step, its horizon and its run's outcome (changed in place below).
struct SweptStep {
  double h = 0.0, horizon = 0.0;
  RunOutcome* outcome = nullptr;
};
// A numerical instability of a fixed step is monotone in h: a step that amplifies some mode, and
// every larger one, lies beyond the method's stability bound. A point the criterion calls unstable
// while the same method over at least its horizon completed ok at a larger step is therefore no
// instability of its step: its error rose with the motion (a fixed step's local error follows the
// motion's derivatives, and a chaotic string whips), which the exponential-growth test cannot tell
// apart (referee point R5: rk4 on A_string_pendulum_paper "unstable" at h = 2e-4, 0.2 h_max, with
// 0.0163 J, beside "ok" at 4e-4 with 0.0474 J). Such a point becomes ok, with the criterion's finding
// and the larger step that refutes it as an episode of the motion. `steps`: one method's sweep.
void refute_instabilities_by_larger_steps(std::vector<SweptStep>& steps);


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
