#pragma once
// The snap study's table of the impacts the time-stepping schemes applied inside their own steps
// (issue 48; SnapRun's impact counts, from TimeStepper::applied_impacts): what the observer, which
// sees only sampled states, cannot read. How many impact problems each run solved against the snaps
// expected, how many of its steps took more than one and the most one step took, the most links in
// one impact problem (links closing together), the rebounds a scheme held with a tension for the
// rest of their step instead of letting them fly (absorbed), and, for a scheme that solves each
// collision's time inside its step, those times against the expected snaps.

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "studies/snap/snap_point.hpp"

namespace tb::snap {

inline constexpr const char* kImpactsCsvHeader =
    "case,integrator,h,rtol,status,expected_link_closings,link_closings,impacts_applied,impacts_on_snaps,steps_with_several_impacts,"
    "most_impacts_in_a_step,most_links_in_an_impact,absorbed_rebounds,located_collisions,located_time_offsets,fast_closings_as_reference\n";

// The signed offsets (s, the located time less the expected one) of each expected snap's nearest
// located collision time within half the gap to its neighbouring expected switches at other times
// (and to the horizon's ends); NaN where none lies there. `expected`: (time, snaps taut) in order.
std::vector<double> located_offsets(const std::vector<std::pair<double, bool>>& expected, double t_end,
                                    const std::vector<double>& located);

// One case's table in md and its rows in csv (kImpactsCsvHeader), over the compared runs whose scheme
// applied impacts in its steps; `expected` the switches the runs are judged against (the closed form's,
// or the reference's for a case without one), `with_times`: whether located times are matched to
// them (a case of one link), `reference`: where the case is judged against an event-driven reference (a cable),
// its run, against whose fast snaps each run's record of its closings is read link by link (the cascade
// verdict of the runs table, studies/snap/event_logs.hpp same_fast_snaps). Nothing is written when no run of the
// case applied an impact in its steps.
void write_applied_impacts(std::ostringstream& md, std::ostream& csv, const std::string& case_name,
                           const std::vector<std::pair<double, bool>>& expected, double t_end, bool with_times,
                           const std::vector<const SnapPoint*>& of_case, const SnapRun* reference = nullptr);

}  // namespace tb::snap
