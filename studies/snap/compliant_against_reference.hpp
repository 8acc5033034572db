#pragma once
// The snap study's section on a compliant discretisation (issue 48's "no events" baseline: a penalty
// cable, each link a stiff spring-dashpot) of a case judged against a converged event-driven reference
// (Model C's snapping cables, studies/snap/against_reference.hpp). The penalty runs solve another system:
//  - its own converged solution (the reference solver at the same tolerance, stopping at each kink)
//    against the event-driven reference is the regularisation's distance from the impact law, printed
//    again with the links 4 and 16 times stiffer (how the distance falls with k);
//  - each run against that converged solution (its integration error, with its slope in h or rtol) and
//    against the event-driven reference (what a user of the baseline gets), with the energy the cable lost,
//    the largest pull a link carried (a spring's force, finite where the impact law's is an impulse), the
//    smallest (negative where a dashpot pushed), the overstretch and the cost.

#include <fstream>
#include <sstream>
#include <vector>

#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// own: the compliant discretisation's converged solution (role Reference); runs: its compared runs;
// reference: the event-driven reference. Rows go to csv in kCableCsvHeader's columns.
void write_compliant_against_reference(std::ostringstream& md, std::ofstream& csv, const Case& c, double t_end, const SnapPoint& reference,
                                       const SnapPoint& own, const std::vector<const SnapPoint*>& runs);

}  // namespace tb::snap
