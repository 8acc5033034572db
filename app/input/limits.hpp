#pragma once
// Resource guards, checked when a case is loaded, before anything runs: a run whose number of
// fixed steps, of samples or of state numbers would exceed these limits is refused with the
// file, the key and the limit, instead of hanging (h = 1e-300) or ending in bad_alloc
// (elements = 1e9). The defaults are far above every bundled case (at most ~1e6 steps, 1e4
// samples, 1e3 state numbers); a user raises them on purpose with --max-steps, --max-samples
// and --max-state.

#include <string>

#include "app/input/case.hpp"

namespace tb {

struct RunLimits {
  double max_steps = 1e9;     // fixed steps of one run (t_end / h), every run the case asks for
  double max_samples = 1e7;   // samples of one run's time series (t_end / sample_interval)
  double max_state = 1e7;     // numbers in the largest state vector (80 MB per copy)
};

// Throws InputError naming the case file, the key and the limit (and the option that raises it).
void check_limits(const Case& c, const RunLimits& limits);

}  // namespace tb
