#pragma once
// What a run on a model with impacts did, by the snap study's observer (studies/snap/observation.hpp):
// its switches, the energy balance and the state at the end. Shared by the unilateral tests.
#include "app/running/integrate.hpp"
#include "studies/snap/observation.hpp"
#include "tests/test_support.hpp"

namespace tb::testing {

// One run of `info` on `c` at step h (an adaptive method at rtol, atol = rtol / 100), sampled every dt.
inline snap::SnapRun observe_run(const Case& c, const IntegratorInfo& info, double h, double rtol, double dt) {
  RunRequest request{RunKey{&c, &info, c.model->default_discretisation()}, settings_of(info, h), {}};
  if (info.adaptive) request.settings.set_tolerances({rtol, rtol * 1e-2});
  request.measure.t_end = c.t_end;
  request.measure.sample_interval = dt;
  return snap::observe_snaps(request);
}

}  // namespace tb::testing
