#pragma once
// What the snap study (studies/snap/snap.hpp) observes of one run on a model whose links go slack
// and snap taut (issue 48: SwitchingFunctions::impacts): its switches, the energy across each snap,
// the energy balance between them, the links' violations and the state at the horizon. One
// observer for every integrator, fed the same samples (every step end of a fixed-step method, a fine
// grid of an adaptive method's dense output).
//
// Each link is taut from a closing (its gap reaching 0) to an opening (its tension falling through
// 0) and slack between (SwitchingFunctions::gap and evaluate): only the function that can end the
// link's present state is watched, so a method's drift of a taut link's length is not read as a
// flight; a slack link closes once its gap, having passed the model's gap_tolerance, is back within
// it of 0 (a link that has just opened sits at its length until the flight moves it). A switch is timed by
// the quadratic extrapolation of that function from the sample before it (the root of s0 + s' tau +
// s'' tau^2 / 2 nearest the linear one) (the old side: a closing's
// rate jumps at the impact, so nothing after it extends the flight's gap), s'' from the change of s'
// over the last old-side interval. Its error is the extrapolation's, |s'''| (tau^3 / 6 + dt tau^2 / 4)
// / |s'| (the cubic term and the error of s''); each switch carries that floor, s''' from the last
// two intervals. The energy across a snap
// is read from the sample before it to the second sample after it (a time-stepping scheme's impulse
// can come a step after its position crossed the length), and the phase between switches starts
// after that window.

#include <Eigen/Dense>
#include <limits>
#include <vector>

#include "app/running/run_request.hpp"
#include "core/jump_log.hpp"

namespace tb::snap {

inline constexpr double kNoNumber = std::numeric_limits<double>::quiet_NaN();

struct Switch {
  double t = 0.0;
  int element = 0;  // which switching function (which link)
  bool to_taut = false;
  double floor = 0.0;  // the extrapolation's error estimate (s)
  // From the sample before it to the second after it: the drop of the mechanical energy E (J,
  // positive for a loss) and the increment of the booked impacts' loss W (J, the form's work term).
  double energy_drop = 0.0, booked = 0.0;
  // A closing: the loss Newton's law takes from the run's own state at the switch (the last three
  // samples before it, extrapolated over tau by the quadratic through them) (J).
  double own_law = 0.0;
  // The run's own event function for the link at the sample where the switch was read (Formulation::switching_values:
  // a hybrid form's mode-based function, over its own scale; elsewhere the model's). On a hybrid form it tells
  // whether the run itself made the switch by this sample: an opening where it is negative (the link free, its
  // gap's function on the slack side), a closing where it is positive (the link held, its tension).
  double run_function = std::numeric_limits<double>::quiet_NaN();
};
template <class V>
void describe(V& v, Switch& s) {
  v("t", s.t);
  v("element", s.element);
  v("to_taut", s.to_taut);
  v("floor", s.floor);
  v("energy_drop", s.energy_drop);
  v("booked", s.booked);
  v("own_law", s.own_law);
  v("run_function", s.run_function);
}

// A fixed-step run at a step moved slightly off the nominal one: where in its step a snap falls moves
// the error by an O(1) factor, so the orders are fitted to the root mean square over the moved steps.
// Where in its step a fixed-step run's first snap falls, in the runs of SnapRun::phased: not 1/2, where a
// scheme that takes its impact problem at the step's midpoint (Moreau-Jean) would meet the snap exactly there.
inline constexpr double kFirstSnapPhase = 0.3;

struct MovedRun {
  double h = 0.0;
  bool ok = false;
  std::vector<Switch> switches;
  std::vector<double> final_physical;
};
template <class V>
void describe(V& v, MovedRun& m) {
  v("h", m.h);
  v("ok", m.ok);
  v("switches", m.switches);
  v("final_physical", m.final_physical);
}

// When an impact problem a scheme applied inside its steps acted (s), and whether the scheme located that time
// inside the step (AppliedImpact::Kind::Located), took it at the step's midpoint configuration
// (AppliedImpact::Kind::AtStepMidpoint: Moreau-Jean) or put the impulse at the step's end.
// The links it closed and their closing rates (AppliedImpact::closed: the jump log's numbering and rate).
struct ImpactTime {
  double t = kNoNumber;
  bool located = false;
  bool at_midpoint = false;
  std::vector<int> elements;
  std::vector<double> closing_rates;
};
template <class V>
void describe(V& v, ImpactTime& r) {
  v("t", r.t);
  v("located", r.located);
  v("at_midpoint", r.at_midpoint);
  v("elements", r.elements);
  v("closing_rates", r.closing_rates);
}

// One entry of an event-driven method's own record of its jumps (core/jump_log.hpp: LoggedSwitch, its kind as an int).
struct OwnSwitch {
  double t = 0.0;
  int element = 0;
  int kind = 0;       // LoggedSwitch::Kind
  double loss = 0.0;  // the jump's booked loss (J), on its first entry
  double closing_rate = 0.0;  // a closing's rate over the link's length (1/s); a hold in flight's inward rate (< 0)
  double flight_depth = 0.0, flight_time = 0.0, flight_loss = 0.0;  // a hold in flight's (core/jump_log.hpp)
  LoggedSwitch::Kind what() const { return LoggedSwitch::Kind(kind); }
};
template <class V>
void describe(V& v, OwnSwitch& s) {
  v("t", s.t);
  v("element", s.element);
  v("kind", s.kind);
  v("loss", s.loss);
  v("closing_rate", s.closing_rate);
  v("flight_depth", s.flight_depth);
  v("flight_time", s.flight_time);
  v("flight_loss", s.flight_loss);
}

// The reference again with a model number changed (SnapSection::variant_models): what its resolution is read from.
struct ReferenceVariant {
  RunOutcome outcome;
  std::vector<double> final_physical;
  double energy_lost = kNoNumber, booked_total = kNoNumber;
  std::vector<Switch> switches;
  std::vector<OwnSwitch> own_switches;
};
template <class V>
void describe(V& v, ReferenceVariant& r) {
  v("outcome", r.outcome);
  v("final_physical", r.final_physical);
  v("energy_lost", r.energy_lost);
  v("booked_total", r.booked_total);
  v("switches", r.switches);
  v("own_switches", r.own_switches);
}

struct SnapRun {
  RunOutcome outcome;
  StepCounters counters;
  double runtime_s = 0.0;
  std::vector<Switch> switches;
  double balance_max = kNoNumber;     // max |E - E0 - W| over the run (J)
  double phase_drift_max = kNoNumber; // max over the phases between switches of the range of E - E0 - W (J)
  // The largest rise of E - E0 - W over the run, from its lowest value before, and when it peaked (J, s). W changes
  // only by the losses booked, so a rise is energy gained beyond them, which no e <= 1 impact under conservative
  // forces allows, whatever the run ends with (a dip to -0.151 J and a return to -0.01 J is a 0.14 J gain; its
  // largest value from 0 would miss it: the second referee read of 4 Dec).
  double balance_gain_max = kNoNumber, balance_gain_time = kNoNumber;
  double overstretch_max = kNoNumber; // max |r| - l beyond the length (Observation::constraint_err, m)
  double opening_rate_max = kNoNumber;  // max outward rate beyond the length (constraint_rate_err, m/s)
  std::vector<double> final_physical; // the physical state at t_end
  std::vector<MovedRun> moved;        // fixed steps: the runs at moved steps (the order's phase average)
  // Fixed steps, where the model gives its first snap in closed form but no closed form of the whole motion (a cable):
  // a run to just past that snap at a step that puts it at the phase kFirstSnapPhase of its step, so that its error
  // there has a fixed tau = (1 - phase) h and falls with h at the scheme's own order (on nested steps tau stays put).
  std::vector<MovedRun> phased;
  // Over the run (a cable's snaps, judged against a reference where no closed form is known):
  // The largest tension of a link read taut or at its length (N: its state's own), at the samples and
  // between them by cubic Hermite interpolation of its values and rates where no link switched in the interval.
  double peak_tension = kNoNumber;
  double peak_time = kNoNumber;       // when (s; the sample's, or the interpolant's maximum)
  int peak_link = -1;                 // which switching function (link), numbered from 0
  // From the links' gaps (m): the largest gap beyond the length, and the largest outward rate of a link
  // beyond the gap tolerance (m/s): a link found beyond its length and still moving out after a snap,
  // not a located event's state a hair past the length.
  double gap_overstretch_max = kNoNumber, gap_outward_rate_max = kNoNumber;
  double momentum_err_max = kNoNumber;  // max |P - P0| where the model conserves P (N s)
  // max |pi - pi0| of the model's Noether momentum where it has a momentum map (Model::has_momentum_map: the
  // pendulum's angular momentum about the pivot without gravity, N m s), the map's value Observation::momentum.
  double noether_momentum_err_max = kNoNumber, noether_momentum0 = kNoNumber;  // and its value at t = 0
  double energy_lost = kNoNumber;     // E0 - E at t_end (J: the mechanical energy the snaps took)
  double booked_total = kNoNumber;    // the impacts' loss the run booked up to t_end (J: -W)
  // A compliant discretisation (a penalty link): the smallest pull of any link at the samples (N; negative where
  // it pushed), and a converged reference's position error at t_end against the closed form with its links
  // stiffened 4 and 16 times (m), the regularisation's distance as k grows.
  double compliant_pull_min = kNoNumber;
  // Where the compliant links give their spring's part: its largest over the samples (N), when and which link.
  double elastic_peak = kNoNumber, elastic_peak_time = kNoNumber;
  int elastic_peak_link = -1;
  std::vector<double> stiffened_errors;
  std::vector<std::vector<double>> stiffened_final;  // those stiffened runs' physical states at t_end (empty: failed)
  std::vector<double> stiffened_lost;  // and the energy each lost, E0 - E(t_end) (J; NaN: failed)
  // The impacts the scheme applied inside its steps (TimeStepper::applied_impacts; none for a method whose form
  // applies them at located events, or that has no impact law): how many, the links closing in them, the most one step took, how many
  // steps took more than one, the most links in one impact problem, the rebounds held by the rest of their
  // step (absorbed), and the collision times a scheme solved inside its steps (s, in order).
  long impacts_applied = 0, steps_with_several_impacts = 0, absorbed_rebounds = 0;
  long links_closed = 0;  // the links closing in those impact problems, summed (links closing together count each)
  int most_impacts_in_a_step = 0, most_links_in_an_impact = 0;
  std::vector<ImpactTime> impact_times;  // every impact problem's time, in order (read with the functions below)
  // Where the run's form keeps a record of its jumps (Formulation::jump_log: a hybrid form that an event-driven
  // method runs), every switch it made over the horizon, those the samples cannot see included.
  bool own_log = false;
  std::vector<OwnSwitch> own_switches;
  // Where instead the run's scheme applied its impulses inside its steps on a form with an impact law, and recorded every
  // one with the links it closed (impact_times, none left unrecorded): that record names the closings as an own record
  // does (studies/snap/event_logs.hpp keeps_record), so that both families' cascades are judged by one rule.
  bool impact_record = false;
  // A reference's runs on the section's model variants, in its order (none for other runs).
  std::vector<ReferenceVariant> variants;
};
// The times (s, in order) of every impact problem a run applied, and of those the scheme located inside its step.
std::vector<double> applied_impact_times(const SnapRun& r);
std::vector<double> located_impact_times(const SnapRun& r);
// The first impact problem the run applied at or after t_from (none: t = kNoNumber): a fixed-step scheme's
// first snap is its first impact after the step before the snap.
ImpactTime first_impact_from(const SnapRun& r, double t_from);
template <class V>
void describe(V& v, SnapRun& r) {
  v("outcome", r.outcome);
  v("counters", r.counters);
  v("runtime_s", r.runtime_s);
  v("switches", r.switches);
  v("balance_max", r.balance_max);
  v("phase_drift_max", r.phase_drift_max);
  v("balance_gain_max", r.balance_gain_max);
  v("balance_gain_time", r.balance_gain_time);
  v("overstretch_max", r.overstretch_max);
  v("opening_rate_max", r.opening_rate_max);
  v("final_physical", r.final_physical);
  v("moved", r.moved);
  v("phased", r.phased);
  v("peak_tension", r.peak_tension);
  v("momentum_err_max", r.momentum_err_max);
  v("noether_momentum_err_max", r.noether_momentum_err_max);
  v("noether_momentum0", r.noether_momentum0);
  v("energy_lost", r.energy_lost);
  v("booked_total", r.booked_total);
  v("peak_time", r.peak_time);
  v("peak_link", r.peak_link);
  v("gap_overstretch_max", r.gap_overstretch_max);
  v("gap_outward_rate_max", r.gap_outward_rate_max);
  v("compliant_pull_min", r.compliant_pull_min);
  v("elastic_peak", r.elastic_peak);
  v("elastic_peak_time", r.elastic_peak_time);
  v("elastic_peak_link", r.elastic_peak_link);
  v("stiffened_errors", r.stiffened_errors);
  v("stiffened_final", r.stiffened_final);
  v("stiffened_lost", r.stiffened_lost);
  v("impacts_applied", r.impacts_applied);
  v("steps_with_several_impacts", r.steps_with_several_impacts);
  v("absorbed_rebounds", r.absorbed_rebounds);
  v("most_impacts_in_a_step", r.most_impacts_in_a_step);
  v("most_links_in_an_impact", r.most_links_in_an_impact);
  v("links_closed", r.links_closed);
  v("impact_times", r.impact_times);
  v("impact_record", r.impact_record);
  v("own_log", r.own_log);
  v("own_switches", r.own_switches);
  v("variants", r.variants);
}

SnapRun observe_snaps(const RunRequest& request);
// The impact counts and located times of SnapRun from a run's record of the impacts it applied.
void summarise_impacts(const IntegrationOutcome& run, SnapRun& out);
// The largest value over [0, dt] of the cubic Hermite interpolant through (a, a') at 0 and (b, b') at dt
// (exact where the function is a cubic).
double hermite_max(double a, double da, double b, double db, double dt);
// The run's cost without the observation (sampling only its end): the fastest of passes repeated until
// they total 0.05 s (at least 3; one where a pass takes a second or more), in seconds.
double time_run(const RunRequest& request);

}  // namespace tb::snap
