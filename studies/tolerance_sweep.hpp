#pragma once
#include "app/input/study.hpp"
namespace tb {
// Cases with a [report.tolerance_sweep] (issue 32 item 3): an adaptive integrator (seed 003's
// ODE45: rk45) once per rtol (atol = atol_per_rtol x rtol) and per max_step (0: free; 1e-3: the
// paper's printed step), beside a fixed-step integrator (rk4) at the case's h over the same
// horizon, each judged by the one instability criterion (onset with time and step). Every
// completed run's max |dE|, max |dP| (linear momentum) and constraint error, its steps and
// runtime. Writes tolerance_sweep.csv and tolerance_sweep.md (with where the adaptive method
// overtakes the fixed-step one).
StudyInfo tolerance_sweep_study();
}  // namespace tb
