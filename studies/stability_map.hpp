#pragma once
// Stability map (issue 14 item 1): for every case and every fixed-step integrator (those the
// integrator registry declares not adaptive), the largest step h_max that stays stable over a
// horizon, found by bracketing from the case's h and bisection to a stated relative precision;
// and h_max against one [model] key (the string's element count N on Models A and B, the link
// count and link mass on Model C) with the fitted exponent p of h_max ~ value^p.
//
// The criterion (the same for every integrator; cases/README.md "Stability map"): a run at h
// over the horizon is stable when
//   1. it reaches the horizon: no non-finite state (StepFailure Diverged) and no solver
//      failure (StepFailure SolverFailed: Newton not converging, a fold, ...), each recorded
//      with its reason;
//   2. its energy gain stays small: max over the samples of the signed energy-balance residual
//      E(t) - E(0) - W(t) (W: external work; SPEC "Metrics") <= energy_fraction x the maximum
//      kinetic energy over the run. Signed, because instability is growth: a method that
//      damps (RK4 below its limit, dissipative models) loses energy without being unstable;
//      that loss is accuracy, measured by the work-precision study, and is recorded here in
//      the probes (energy_loss_rel) but not counted;
//   3. its constraints stay bounded: constraint_err_max and orthogonality_err_max (SPEC
//      "Metrics") <= constraint_bound.
// Bracketing: from the case's h upward by x2 until a probe fails or the cap horizon/10 (at
// least ten steps) is passed (then h_max >= cap); if the case's h itself fails, downward by /2
// to the floor h/64 (then h_max < floor). Then geometric bisection of [h_ok, h_fail] until
// h_fail / h_ok - 1 <= precision. h_max is the largest stable probe. The search assumes one
// boundary: a stable island above the first failure is not searched for.

#include <string>
#include <vector>

#include "core/runner.hpp"
#include "core/study.hpp"
#include "numerics/statistics.hpp"

namespace tb {

struct StabilityCriterion {
  double energy_fraction = 0.1;   // energy gain <= this x max kinetic energy
  double constraint_bound = 1e-2; // constraint_err_max and orthogonality_err_max <= this
};

// One run of the search: what it cost and, when unstable, why.
struct StabilityProbe {
  double h = 0.0;
  bool stable = false;
  std::string reason;      // "" when stable; else "non-finite state: ...", "solver failure: ...", "energy gain ...", ...
  double t_reached = 0.0;  // s
  double runtime_s = 0.0;  // wall time of the step loops
  std::string host;        // where runtime_s was measured (host_name(); a search may run on any MPI rank)
  StepCounters counters;
  double energy_gain_rel = 0.0;  // max (E - E0 - W) / max T
  double energy_loss_rel = 0.0;  // max (E0 + W - E) / max T (recorded, not a criterion)
  double constraint_err_max = 0.0, orthogonality_err_max = 0.0;
};

// One probe: the run `key` with `settings` at step h to t_end, judged by the criterion.
StabilityProbe probe_stability(const RunKey& key, IntegratorSettings settings, double h, double t_end,
                               double sample_interval, const StabilityCriterion& criterion);

struct StabilitySearch {
  enum class Bound { Bracketed, AtCap, BelowFloor };
  Bound bound = Bound::Bracketed;
  double h_max = 0.0;   // largest stable probe (Bracketed, AtCap); 0 when BelowFloor
  double h_fail = 0.0;  // smallest unstable probe above h_max (Bracketed, BelowFloor: the floor's)
  double cap = 0.0, floor = 0.0;
  std::vector<StabilityProbe> probes;  // in the order run
  const StabilityProbe* at(double h) const;  // the probe at h (nullptr if none)
};

// The search described above, from the step h0.
StabilitySearch find_h_max(const RunKey& key, const IntegratorSettings& settings, double h0, double t_end,
                           double sample_interval, const StabilityCriterion& criterion, double precision);

// fit_power_law (numerics/statistics.hpp) fits h_max against a [model] key.

StudyInfo stability_map_study();

// A search is a stability job's result (bytes between processes and in the resume store).
class ResultWriter;
class ResultReader;
void write(ResultWriter& w, const StabilityProbe& p);
void read(ResultReader& r, StabilityProbe& p);
void write(ResultWriter& w, const StabilitySearch& s);
void read(ResultReader& r, StabilitySearch& s);

}  // namespace tb
