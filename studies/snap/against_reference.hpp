#pragma once
// The snap study's page for a case whose answers are not known in closed form (issue 48: Model C's
// slack cable, a cascade of snaps along ten links): every run is judged against a tightly converged
// event-driven reference of the same model, and the reference against an independent check, whose
// distance from it is the resolution of every error measured against it.
//
// Measured for every run (studies/snap/observation.hpp), beside the reference's values:
//  - the switches it makes against the reference's, each matched by link and direction to the nearest
//    within half the gap to that link's neighbouring switches; the largest time error over the matched;
//  - the mechanical energy lost over the horizon (E0 - E(t_end): the snaps take it; the thrust's work
//    is in E as its potential) against the reference's, and the loss it booked less the energy it lost;
//  - the largest tension of a taut link (its state's own, N; between samples by Hermite interpolation) against the reference's;
//  - max |E - E0 - W|, the overstretch and outward rate, max |P - P0| (impulses are internal);
//  - the configuration's error at t_end; steps and runtime; from these the slopes in h and in rtol and
//    the cheapest run to each position error (studies/snap/cheapest_runs.hpp).

#include <fstream>
#include <utility>
#include <sstream>
#include <vector>

#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// The reference's and its check's rtol (atol = rtol / 100). On the ten-link cable over [0, 0.22] s the
// distances from rk45 at this rtol fall about 10x a decade of rtol: rk45 1.3e-8 m at 1e-11, CVODE 7.7e-7 m here.
inline constexpr double kCableReferenceRtol = 1e-12;

// A run's switches against the reference's: each of the reference's takes the run's nearest unmatched
// switch of the same link and direction within half the gap to that link's neighbouring switches (and
// to the horizon's ends); the largest time error over those matched (NaN: none matched).
struct SwitchMatch {
  int expected = 0, made = 0, matched = 0;
  double time_error_max = kNoNumber;
  std::vector<std::pair<size_t, size_t>> pairs;  // (the reference's switch, the run's) for each matched
};
SwitchMatch match_switches(const std::vector<Switch>& expected, const std::vector<Switch>& made, double t_end);

// Writes the case's section of snap.md and its rows of snap_cables.csv (header written by the caller:
// kCableCsvHeader). of_case holds the reference and its check among the compared runs.
// Its advice rows go to advice_csv (snap_advice.csv, header kAdviceCsvHeader, cheapest_runs.hpp), its fixed-step
// methods' safe steps to safe_steps_csv (snap_safe_steps.csv, kSafeStepsCsvHeader).
void write_against_reference(std::ostringstream& md, std::ofstream& csv, std::ostream& advice_csv, std::ostream& safe_steps_csv,
                             std::ostream& side_runs_csv, const Case& c, double t_end,
                             double sample_interval, const std::vector<const SnapPoint*>& of_case);
// A compared method whose energy lost has converged to a value other than the reference's: per method, its three
// finest completed settings (smallest h, or rtol) that did not end above E0, their |energy lost − reference's| within
// 10 % of each other and all above `floor`. The largest such distance, with its method and numbers; NaN where none.
// Neither the reference's check (the same hybrid form) nor its rule variants decide which of the two is biased, so
// the page's energy floor carries it (referee, 4 Dec, point 5).
struct ConvergedDisagreement {
  double distance = kNoNumber;
  std::string label, settings, values;
};
ConvergedDisagreement converged_energy_disagreement(const std::vector<const SnapPoint*>& compared, const SnapRun& ref, double floor);

inline constexpr const char* kCableCsvHeader =
    "case,integrator,role,h,rtol,status,reference_switches,switches,matched,switch_time_err_max,energy_lost,"
    "lost_minus_reference,snap_loss_err_max,booked_total,booked_minus_lost,peak_tension,peak_time,peak_link,peak_tension_minus_reference,"
    "energy_balance_err_max,overstretch_max_m,outward_rate_beyond_tolerance,momentum_err_max,position_err_end,steps,runtime_s,"
    "follows_cascade,cascade_judged_by,energy_balance_range_between_switches,energy_balance_rise_max,energy_balance_rise_time\n";

}  // namespace tb::snap
