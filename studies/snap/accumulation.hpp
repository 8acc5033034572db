#pragma once
// The snap study's section on a Zeno accumulation (issue 48: "Zeno accumulation is detected and reported, never
// looped on"): on a case whose closed form's hits accumulate within the horizon (SwitchingClosedForm::
// accumulation_time), what each method does there. An event-driven method locates every hit and restarts, so it
// cannot pass a point where infinitely many hits fall in a finite time: where it stops (this suite's policy: its
// guard, core/zeno_guard.hpp, ends the run there rather than continue on a guessed taut mode), and how long the
// exact flights still are there. A time-stepping scheme takes one impact problem per step (or per located
// collision) and so passes it by construction: its last closing against the closed form's last hit its step
// resolves; the energy all the hits took, against the closed form's sum of the law's losses; how many closings it
// applies after the accumulation, where the exact motion has none (the string is taut for good); and its position in
// the swing after it, against the exact libration.

#include <iosfwd>
#include <sstream>
#include <vector>

#include "app/input/case.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

inline constexpr const char* kAccumulationCsvHeader =
    "case,integrator,h,rtol,status,stopped_at,exact_flight_at_stop,last_closing,last_closing_from_record,last_resolved_hit,"
    "hits_resolved,closings_on_snaps,closings_read,lost_minus_closed_form,lost_outside_snaps,closings_after_accumulation,steps_after_accumulation,"
    "position_err_end\n";

// What the section reads of one run.
struct ThroughAccumulation {
  double stopped_at = kNoNumber;            // a run that failed: where (s)
  double exact_flight_at_stop = kNoNumber;  // and the closed form's flight (between its switches) that holds that time (s)
  // A run that completed: its last closing up to t_acc + h, from its scheme's own record where it keeps one, else the
  // observer's last closing (s); and at a fixed step the closed form's last hit whose flight before it lasts a step or
  // more (the last hit the step can resolve; the rest fall inside one step) (s).
  double last_closing = kNoNumber, last_resolved_hit = kNoNumber;
  bool last_closing_from_record = false;
  long hits_resolved = -1;      // fixed steps: the closed form's hits whose flight before them lasts a step or more
  long closings_on_snaps = -1;  // the scheme's recorded closings matched to a closed-form hit (its matching window)
  long closings_read = -1;      // the closings the observer read
  double lost_minus_closed = kNoNumber;  // E0 - E(t_end) less the closed form's loss by the accumulation (J; + lost more)
  // Fixed steps with a record: its closings after t_acc + h, and the steps that end after t_acc + h.
  long closings_after = -1, steps_after = -1;
};

// `expected`: the closed form's switches (time, snaps taut) within the horizon; t_acc and loss its accumulation.
ThroughAccumulation through_accumulation(const SnapPoint& p, const std::vector<std::pair<double, bool>>& expected, double t_acc,
                                         double loss, double t_end);

// What a method's scheme does with the string after the accumulation, over its runs that completed with a record of
// their impacts (the rule the tests hold it to, tests/test_unilateral_links.cpp): holds it (at most 2 closings after
// t_acc + h at every step), re-closes it in nearly every step (at least 95 % of the steps after t_acc + h, each an
// impact the exact motion does not have), neither, or no run to tell (no record, or none completed).
enum class AfterAccumulation { NotTold, Holds, Recloses, Neither };
AfterAccumulation after_accumulation(const std::vector<const SnapPoint*>& runs_of_method,
                                     const std::vector<std::pair<double, bool>>& expected, double t_acc, double loss, double t_end);

// What the runs table's judge measured of each run that the section prints beside its own readings.
struct JudgedRun {
  double position_error = kNoNumber;     // this run's at t_end (m)
  double snaps_minus_closed = kNoNumber;  // the energy lost at its matched snaps less the closed form's there (J)
};

// The section in md and its rows in csv (kAccumulationCsvHeader), over every run of the case; `judged` in of_case's
// order.
void write_accumulation(std::ostringstream& md, std::ostream& csv, const Case& c, double t_end,
                        const std::vector<const SnapPoint*>& of_case, const std::vector<JudgedRun>& judged);

}  // namespace tb::snap
