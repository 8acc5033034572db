#pragma once
// The snap study's section on a Zeno accumulation (issue 48: "Zeno accumulation is detected and reported, never
// looped on"): on a case whose closed form's hits accumulate within the horizon (SwitchingClosedForm::
// accumulation_time), what each method does there. An event-driven method locates every hit and restarts, so it
// cannot pass a point where infinitely many hits fall in a finite time: where it stops, and how close to the
// accumulation. A time-stepping scheme takes one impact problem per step (or per located collision) and so passes
// it by construction: when it holds the string taut for good, against the accumulation time; the energy all the
// hits took, against the closed form's sum of the law's losses; how many closings it applies after the
// accumulation, where the exact motion has none (the string is taut for good); and its position in the swing
// after it, against the exact libration.

#include <iosfwd>
#include <sstream>
#include <vector>

#include "app/input/case.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

inline constexpr const char* kAccumulationCsvHeader =
    "case,integrator,h,rtol,status,stopped_at,taut_for_good_from,minus_accumulation_time,snaps_read,hits_after_flights_of_a_step,"
    "lost_minus_closed_form,closings_after_accumulation,steps_after_accumulation,position_err_end\n";

// What the section reads of one run.
struct ThroughAccumulation {
  double stopped_at = kNoNumber;          // a run that failed: where (s)
  double taut_for_good_from = kNoNumber;  // a run that completed: its last switch, where that is a closing (s)
  long snaps_read = -1;                   // the closings the observer read (a completed run)
  long hits_after_long_flights = -1;      // fixed steps: the closed form's hits whose flight before them lasts a step or more
  double lost_minus_closed = kNoNumber;   // E0 - E(t_end) less the closed form's loss by the accumulation (J)
  long closings_after = -1;               // the closings the scheme applied after the accumulation time (its record)
  double steps_after = kNoNumber;         // fixed steps: (t_end - t_acc) / h
};

// `expected`: the closed form's switches (time, snaps taut) within the horizon; t_acc and loss its accumulation.
ThroughAccumulation through_accumulation(const SnapPoint& p, const std::vector<std::pair<double, bool>>& expected, double t_acc,
                                         double loss, double t_end);

// The section in md and its rows in csv (kAccumulationCsvHeader), over every run of the case; `position_errors` the
// runs' position errors at t_end (m, NaN where none), in of_case's order.
void write_accumulation(std::ostringstream& md, std::ostream& csv, const Case& c, double t_end,
                        const std::vector<const SnapPoint*>& of_case, const std::vector<double>& position_errors);

}  // namespace tb::snap
