#pragma once
// The snap page's reading of the Noether momentum on a case whose model has a momentum map (issue 48,
// referee 6 Dec point 10: the variational collision integrator is claimed momentum-preserving across
// a collision, Fetecau, Marsden, Ortiz & West 2003, and no column showed it). On the bundled cases
// that is the rebound in free space: without gravity the pendulum's angular momentum about the pivot,
// pi = m (z vx - x vz), is kept by the flights (no force) and by Newton's impulse along the string,
// which has no moment about the pivot.

#include <sstream>
#include <vector>

#include "app/input/case.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// A run keeps the momentum where its max |pi - pi0| stays within kGrowthSignalOverFloor (10) of its
// Brouwer floor (app/running/round_off.hpp: 8 eps max(1, |pi0|) sqrt(n), the gates' floor, with n the run's
// steps and its observer's samples, each an evaluation of its dense output for an adaptive run);
// false for a run that failed or measured none.
bool keeps_noether_momentum(const SnapRun& r);
// Its floor for that test (NaN where the run measured none).
double noether_momentum_floor(const SnapRun& r);

// The paragraph under a case's table of runs: which runs keep the momentum to round-off, which do
// not (their values, and how a fixed step's falls with h between its two finest steps), and the
// mechanism of each scheme that the data place on either side. Nothing where the model has no map.
void write_noether_momentum(std::ostringstream& md, const Case& c, const std::vector<const SnapPoint*>& of_case);

}  // namespace tb::snap
