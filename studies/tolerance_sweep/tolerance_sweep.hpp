#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
namespace tb {

// [report.tolerance_sweep]: an adaptive integrator over the case once per (rtol, max_step), with
// atol = atol_per_rtol x rtol, beside a fixed-step integrator at the case's h over the same
// horizon (issue 32 item 3: seed 003's ODE45 at each tolerance, free and capped at its printed
// 1 ms step, against its fixed-step fourth-order Runge-Kutta at h = 1e-3).
struct ToleranceSweep final : StudySection {
  static constexpr const char* kStudy = "tolerance_sweep";
  std::string integrator;            // adaptive, declaring max_step
  std::vector<double> rtol;          // one run per value and per max_step
  double atol_per_rtol = 1e-3;       // MATLAB's defaults: atol 1e-6 / rtol 1e-3
  std::vector<double> max_step;      // s; 0: free
  std::string compare_with;          // fixed-step, run at the case's h ("" for none)
  double t_end = 0.0;                // s; the case's t_end unless set
  // Dropped when its adaptive integrator is not run; compare_with cleared when that one is not.
  std::shared_ptr<const StudySection> restricted(const std::function<bool(const std::string&)>& runs) const override;
};

// Cases with a [report.tolerance_sweep] (issue 32 item 3): an adaptive integrator (seed 003's
// ODE45: rk45) once per rtol (atol = atol_per_rtol x rtol) and per max_step (0: free; 1e-3: the
// paper's printed step), beside a fixed-step integrator (rk4) at the case's h over the same
// horizon, each judged by the one instability criterion (onset with time and step). Every
// completed run's max |dE|, max |dP| (linear momentum) and constraint error, its steps and
// runtime. Writes tolerance_sweep.csv and tolerance_sweep.md (with where the adaptive method
// overtakes the fixed-step one).
StudyInfo tolerance_sweep_study();
}  // namespace tb
