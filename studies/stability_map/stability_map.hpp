#pragma once
// Stability map (issue 14 item 1, issue 24 item 2): for every case and every fixed-step
// integrator (those the integrator registry declares not adaptive), the largest step h_max that
// stays stable over a horizon, found by bracketing from the case's h and bisection to a stated
// relative precision; and h_max against one [model] key (the string's element count N on Models
// A and B, the link count and link mass on Model C) with the fitted exponent p of h_max ~ value^p.
//
// The criterion is core's (core/stability_criterion.hpp), the one that decides every run's
// status: a probe at h over its horizon is stable when
//   1. it reaches the horizon: no non-finite state (StepFailure Diverged) and no solver failure
//      (StepFailure SolverFailed: Newton not converging, a fold, an exception), each recorded
//      with its reason; the two are kept apart (instability against solver failure), each with
//      its own h_max and fitted exponent;
//   2. the StabilityMonitor, fed every sample as measure() feeds it, finds nothing beyond its
//      bounds (energy gain against the case's energy scale E_s, app/running/energy_scale.hpp: never the
//      probe's own, which a blow-up within the start-up would inflate; exponential growth of the
//      energy error still going on at the horizon; constraints, orthogonality); a probe stops at
//      the first sample past a bound nothing later can undo (energy gain, constraints,
//      orthogonality, non-finite), and the energy's loss is recorded (energy_loss_rel, / E_s) but
//      not counted.
// Horizon of a probe at h (ProbeHorizon): the larger of a base horizon (horizon_steps steps at
// the case's h) and min_steps (10^4) steps at the probe's h, at most the case's t_end: a probe
// near h_max runs 10^4 steps unless the case ends first.
// Bracketing: from the case's h upward by x2 until a probe fails or the cap (t_end/10: at least
// ten steps) is passed (then h_max >= cap); if the case's h itself fails, downward by /2 to the
// floor h/64 (then h_max < floor). Then geometric bisection of [h_ok, h_fail] until
// h_fail / h_ok - 1 <= precision. h_max is the largest stable probe; the kind of the probe at
// h_fail (instability or solver failure) says which limit was found: the other is only bounded
// below by h_max. The search assumes one boundary: a stable island above the first failure is
// not searched for.
// Methods without a stability interval on the imaginary axis (MethodTraits::
// imaginary_axis_stable = false) gain energy at every h, so their h_max depends on the horizon
// (h_max ~ T^(-1/3) for a growth of 1 + O((h w)^4) per step); for them the map also searches at
// two fixed horizons T and T/8 and prints both h_max beside the expected ratio 8^(-1/3) = 0.5.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "app/running/runner.hpp"
#include "app/input/study.hpp"
#include "numerics/statistics.hpp"

namespace tb {

// The horizon of a probe at h: min(cap, max(base, min_steps h)) seconds.
struct ProbeHorizon {
  double base = 0.0;       // s
  double min_steps = 0.0;  // steps at the probe's h
  double cap = 0.0;        // s: the case's t_end
  double at(double h) const;
  // A horizon of T seconds whatever h.
  static ProbeHorizon fixed(double T) { return {T, 0.0, T}; }
};

// One run of the search: what it cost and, when it failed, why.
struct StabilityProbe {
  // How the probe ended. The kind, not the words of the reason, decides what the search does (an
  // interrupted probe ends it) and which limit a failure bounds: SolverFailure, the step's
  // equations had no solution found (not an instability); Unstable, a non-finite state or a
  // bound of the criterion passed.
  enum class End { Stable, Unstable, SolverFailure, NotApplicable, Interrupted };
  double h = 0.0;
  End end = End::Unstable;
  std::string reason;      // "" when stable; else "non-finite state: ...", "solver failure: ...", "energy gain ...", ...
  double t_horizon = 0.0;  // s: the horizon the probe was run over
  double t_reached = 0.0;  // s
  double runtime_s = 0.0;  // wall time of the step loops
  std::string host;        // where runtime_s was measured (host_name(); a search may run on any MPI rank)
  StepCounters counters;
  double energy_gain_rel = 0.0;  // max (E - E0 - W) / max T
  double energy_loss_rel = 0.0;  // max (E0 + W - E) / max T (recorded, not a criterion)
  double constraint_err_max = 0.0, orthogonality_err_max = 0.0;  // NaN: not integrated by the form (ViolableInvariants)
  bool stable() const { return end == End::Stable; }
  bool solver_failure() const { return end == End::SolverFailure; }
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
  // The probe at h_fail ended by a solver failure (no solution of the step's equations found),
  // not an instability: h_max bounds the instability limit from below only.
  bool limited_by_solver() const;
};

// The search described above, from the step h0, each probe over horizon.at(h).
StabilitySearch find_h_max(const RunKey& key, const IntegratorSettings& settings, double h0, const ProbeHorizon& horizon,
                           double sample_interval, const StabilityCriterion& criterion, double precision);

// fit_power_law (numerics/statistics.hpp) fits h_max against a [model] key.

StudyInfo stability_map_study();
// Reads its step limits (stability_map.csv) into ReportData::step_limits (StudyInfo::read_back; read_back.cpp).
void read_stability_map_back(const std::string& dir, ReportData& data);
// Its figures in a report (StudyInfo::figures; studies/stability_map/figures.cpp).
void stability_map_figures(const FigureRequest& request, std::vector<Figure>& figures);

// A search is a stability job's result (bytes between processes and in the resume store),
// described once (app/common/record.hpp).
constexpr std::array<std::string_view, 5> enum_texts(StabilityProbe::End) {
  return {"stable", "unstable", "solver_failure", "not_applicable", "interrupted"};
}
template <class V>
void describe(V& v, StabilityProbe& p) {
  v("h", p.h);
  v("end", p.end);
  v("reason", p.reason);
  v("t_horizon", p.t_horizon);
  v("t_reached", p.t_reached);
  v("runtime_s", p.runtime_s);
  v("host", p.host);
  v("counters", p.counters);
  v("energy_gain_rel", p.energy_gain_rel);
  v("energy_loss_rel", p.energy_loss_rel);
  v("constraint_err_max", p.constraint_err_max);
  v("orthogonality_err_max", p.orthogonality_err_max);
}
constexpr std::array<std::string_view, 3> enum_texts(StabilitySearch::Bound) {
  return {"bracketed", "at_cap", "below_floor"};
}
template <class V>
void describe(V& v, StabilitySearch& s) {
  v("bound", s.bound);
  v("h_max", s.h_max);
  v("h_fail", s.h_fail);
  v("cap", s.cap);
  v("floor", s.floor);
  v("probes", s.probes);
}

}  // namespace tb
