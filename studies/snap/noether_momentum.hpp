#pragma once
// The snap page's reading of the Noether momentum on a case whose model has a momentum map (issue 48,
// referee 6 Dec point 10: the variational collision integrator is claimed momentum-preserving across
// a collision, Fetecau, Marsden, Ortiz & West 2003, and no column showed it). On the bundled cases
// that is the rebound in free space: without gravity the pendulum's angular momentum about the pivot,
// pi = m (z vx - x vz), is kept by the flights (no force) and by Newton's impulse along the string,
// which has no moment about the pivot.
//
// A method's errors are read by their mechanism (referee read of the paragraph, 6 Dec): a scheme that
// keeps pi in exact arithmetic leaves rounding, which does not fall as the step or tolerance is refined
// (it grows with the step count) and stays within a rounding bound; a truncation error falls with the
// refinement. A single run's size alone cannot tell the two apart (rk4 on the penalty string reaches
// 2e-12 at h = 2.5e-4, still on its order-4 line, beside the conserving schemes' 1e-13).

#include <sstream>
#include <vector>

#include "app/input/case.hpp"
#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// The rounding bound of one run: 10 times Brouwer's bound for biased rounding, 8 eps max(1, |pi0|) n
// with n the run's steps (linear in n: the conserving schemes' errors here grow with n at exponents
// 0.64 to 0.89, above the unbiased sqrt(n)). NaN where the run measured none.
double noether_rounding_bound(const SnapRun& r);
// The run completed, measured pi, and stays within that bound.
bool within_noether_rounding(const SnapRun& r);

// A method's runs in refinement order (a fixed step's by h falling, an adaptive one's by rtol falling):
// at rounding where every run is within its bound and the finest run's error is at least half the
// coarsest's (not falling with the refinement). False for fewer than two runs.
bool noether_momentum_at_rounding(const std::vector<const SnapPoint*>& refined);

// The paragraph under a case's table of runs: the methods whose errors are rounding, those whose
// errors fall with the refinement (their values and local slopes), and the mechanism of each scheme
// the data place in either group. Nothing where the model has no map.
void write_noether_momentum(std::ostringstream& md, const Case& c, const std::vector<const SnapPoint*>& of_case);

}  // namespace tb::snap
