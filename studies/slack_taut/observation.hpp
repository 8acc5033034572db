#pragma once
// What the slack-taut study observes of one run (studies/slack_taut/slack_taut.hpp): the switches
// of the model's switching functions (core/switching.hpp), the energy balance around them, the
// configuration at the horizon; and how a run's switches are matched to the expected ones. The
// same observer sees every integrator's samples.

#include <limits>
#include <string>
#include <vector>

#include "app/running/run_request.hpp"
#include "core/growth.hpp"

namespace tb::slack_taut {

inline constexpr double kNoNumber = std::numeric_limits<double>::quiet_NaN();

// One switch a run made: when (s), which element, which way, and how fast the stretch crossed
// zero (ds/dt, m/s: a near-grazing switch crosses slowly and is timed poorly by any method).
struct SwitchEvent {
  double t = 0.0;
  int element = 0;
  bool to_taut = false;
  double rate = 0.0;
};
template <class V>
void describe(V& v, SwitchEvent& e) {
  v("t", e.t);
  v("element", e.element);
  v("to_taut", e.to_taut);
  v("rate", e.rate);
}

// A fixed-step run at a step moved slightly off the nominal one (the kink's phase in the step
// changes with it): its switches and its configuration at the horizon.
struct JitteredRun {
  double h = 0.0;
  bool ok = false;
  std::vector<SwitchEvent> events;
  std::vector<double> final_configuration;
};
template <class V>
void describe(V& v, JitteredRun& j) {
  v("h", j.h);
  v("ok", j.ok);
  v("events", j.events);
  v("final_configuration", j.final_configuration);
}

struct SlackRun {
  RunOutcome outcome;
  StepCounters counters;
  double runtime_s = 0.0;
  std::vector<SwitchEvent> events;
  double first_peak_stretch = kNoNumber;  // max stretch before the first taut -> slack switch (m)
  double peak_stretch = kNoNumber;        // over the run (m)
  double energy_err_max = kNoNumber;      // max |E - E0 - W| (J)
  double jump_abs_max = kNoNumber, jump_abs_mean = kNoNumber, jump_sum = kNoNumber;  // across the switches (J)
  double phase_range_max = kNoNumber;     // max over the phases between switches of the range of E - E0 - W (J)
  // The jumps' root mean square, and that of their sums over each taut phase of the first element
  // (its entry and its exit): where the exit's jump undoes the entry's, the second is the smaller.
  double jump_rms = kNoNumber, phase_net_rms = kNoNumber;
  long taut_phases = 0;
  // E - E0 - W at the first sample of each phase in which every element is slack: for a point
  // mass in free flight under gravity a Stormer-Verlet step is exact, so these are the run's
  // irreversible energy record, free of the modified energy's reversible offset.
  std::vector<double> slack_energies;
  GrowthFit energy_growth;           // long runs
  std::vector<double> final_configuration;  // the physical state's configuration entries at t_end
  std::vector<JitteredRun> jittered;        // fixed-step sweep points: the runs at moved steps
};
template <class V>
void describe(V& v, SlackRun& r) {
  v("outcome", r.outcome);
  v("counters", r.counters);
  v("runtime_s", r.runtime_s);
  v("events", r.events);
  v("first_peak_stretch", r.first_peak_stretch);
  v("peak_stretch", r.peak_stretch);
  v("energy_err_max", r.energy_err_max);
  v("jump_abs_max", r.jump_abs_max);
  v("jump_abs_mean", r.jump_abs_mean);
  v("jump_sum", r.jump_sum);
  v("phase_range_max", r.phase_range_max);
  v("jump_rms", r.jump_rms);
  v("phase_net_rms", r.phase_net_rms);
  v("taut_phases", r.taut_phases);
  v("slack_energies", r.slack_energies);
  v("energy_growth", r.energy_growth);
  v("final_configuration", r.final_configuration);
  v("jittered", r.jittered);
}

// Runs one request and observes its switches and energy: every sample the run's grid gives
// (every step end of a fixed-step method). With fit_growth_law, the growth law of |E - E0 - W|
// (core/growth.hpp) is fitted as long_time.md fits it.
SlackRun observe_switches(const RunRequest& request, bool fit_growth_law);

// The configuration entries of a physical state (Model::physical_parts), all of it where the
// model does not say.
std::vector<double> configuration_of(const Model& model, const Eigen::VectorXd& physical);
double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b);

// A run's switches against the expected ones, one to one: per element, in time order, each
// expected switch takes the run's earliest unmatched switch of the same direction within
// `window` of it (s). Unmatched expected switches are missed, unmatched run switches spurious;
// chatter is a spurious pair (the element switching and switching back) within `chatter_gap`.
struct SwitchMatch {
  int matched = 0, missed = 0, spurious = 0, chatter = 0;
  double max_time_error = kNoNumber, median_time_error = kNoNumber;
};
SwitchMatch match_switches(const std::vector<SwitchEvent>& expected, const std::vector<SwitchEvent>& run, double window,
                           double chatter_gap);

// The shortest phase between two switches of one element (infinity where none switches twice),
// and the slowest crossing |ds/dt| (infinity where there is no switch).
double shortest_phase(const std::vector<SwitchEvent>& events);
double slowest_crossing(const std::vector<SwitchEvent>& events);

}  // namespace tb::slack_taut
