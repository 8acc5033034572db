#pragma once
// The snap study's side runs, one row each in snap_side_runs.csv: the runs a fixed step makes beside its nominal one
// and whose numbers enter the page only through what is computed from them, so that a reader can check those numbers.
//  - "moved": on a closed-form case, the runs at steps that put the first snap at other phases of the step
//    (SnapRun::moved); the orders and the work-precision tables use the root mean square over them and the nominal run.
//  - "phased": on a cable, the run to just past the first snap at a step that puts it at a fixed phase of the step
//    (SnapRun::phased); the first-snap slopes "at phase 0.3 of the step" are fitted to them.

#include <ostream>
#include <string>
#include <vector>

namespace tb::snap {

inline constexpr const char* kSideRunsCsvHeader =
    "case,integrator,nominal_h,kind,h,completed,switches,matched_switches,expected_switches,first_snap_offset_s,"
    "loss_minus_closed_J,position_error_m,per_snap_loss_minus_closed_J\n";

struct SideRunRow {
  std::string case_name, integrator, kind;
  double nominal_h = 0.0, h = 0.0;
  bool completed = false;
  int switches = 0;
  int matched = -1, expected = -1;  // -1: not judged switch by switch (a cable's phased run)
  double first_snap_offset = 0.0;   // the first snap's time less the closed form's (s; NaN: none)
  double loss_minus_closed = 0.0;   // the energy lost at the snaps judged less the closed form's (J; NaN: none)
  double position_error = 0.0;      // at the horizon (m; NaN: none, or a run that stops past the first snap)
  // Each expected snap's loss less the closed form's, in order (J; NaN: not matched), ';'-separated in the CSV: the
  // terms of loss_minus_closed, whose absolute values the pendulum's energy work-precision sums.
  std::vector<double> per_snap_loss = {};
};

void write_side_run(std::ostream& csv, const SideRunRow& row);

}  // namespace tb::snap
