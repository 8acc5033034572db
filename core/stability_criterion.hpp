#pragma once
// The one instability criterion (issue 24 item 2; drift against instability, issue 32 item 4):
// it decides the status of every run that reaches its end (measure(), app/runner.hpp) and every
// probe of the stability map (studies/stability_map.hpp), through the same StabilityMonitor fed
// sample by sample.
//
// The energy scale E_s is FIXED AT THE START: the largest kinetic energy over the start-up
// window, the first slowest period of the model's motion (Model::slowest_period_s; the whole run
// when the model declares none or the run is shorter). Over that window the motion reaches its
// physical kinetic-energy scale (a pendulum or a cable released from rest passes its lowest point
// within one period; a tumbling body's T is constant), while a drift has had no time to build up.
// The run's own maximum kinetic energy is no scale: a drift of the linear momentum P adds
// |P - P0|^2 / (2 M) to the kinetic energy, so a drifting run inflates the very denominator it is
// judged against (the free-step Dormand-Prince run of C_single_multirotor_ode45: energy "gain" 137 J = |dP|^2/(2M),
// 0.98 x its own max KE, while E_s = 2.6 J).
//
// A run is UNSTABLE from the first sample (its onset: time and step) at which
//   1. its energy gain, the signed energy-balance residual E(t) - E(0) - W(t) (W: external work),
//      exceeds energy_fraction x E_s. Signed, because instability is growth: a method that damps
//      loses energy without being unstable (that loss is accuracy). A gain within round-off of the
//      energy's magnitude (kRoundOffGain x max(|T| + |E - T|)) is not growth;
//   2. or the energy error |E - E0 - W| grows exponentially: its running maximum M rises more than
//      growth_per_octave-fold within one octave of t - t0 (M(s) > 100 M(s/2): a power law c s^p
//      does that only for p > 6.6, while the secular drifts of one-step methods are linear and a
//      drifting momentum's kinetic energy |dP|^2/(2M) at most quartic; e^(lambda s) does it for
//      every s > 2 ln(100)/lambda), judged after the start-up window (s/2 beyond it), in an
//      episode (an unbroken stretch of such octaves) that lifts the error above 1e-6 E_s, and the
//      error has reached growth_floor x E_s then or later (a jump of an error that stays far below
//      the motion's scale, e.g. a bounded error when the motion turns violent, is not an
//      instability of the motion). Its onset is the first sample of that first episode;
//   3. or its constraints or rotations leave the manifold: the constraint or orthogonality error
//      passes constraint_bound;
//   4. or a sampled energy is not finite.
// Otherwise the run is stable; it DRIFTS (still ok, every metric kept) when |E - E0 - W| passes
// drift_fraction x E_s: polynomial growth (not exponential, by 2) within the physical scale (by 1),
// noted with its onset. A state that becomes non-finite inside a step is caught earlier, by the
// step itself (StepFailure Diverged, core/integrator.hpp).

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics.hpp"

namespace tb {

struct StabilityCriterion {
  double energy_fraction = 0.1;    // energy gain <= this x E_s
  double constraint_bound = 1e-2;  // constraint and orthogonality errors <= this
  double drift_fraction = 1e-2;    // |E - E0 - W| beyond this x E_s: a drift (noted, ok)
  double growth_per_octave = 100.0;  // exponential: the error's running max rising this much within one octave
  double growth_floor = 1e-3;        // ... and reaching this x E_s
};

// Relative to the energy's magnitude, the largest gain that round-off alone can make: below it
// an energy "gain" is not growth, whatever the kinetic energy (a body nearly at rest).
inline constexpr double kRoundOffGain = 1e-12;

// max(E - E0 - W) / max kinetic energy over a run (0 when it never gained; +inf for a gain above
// round-off with no kinetic energy at all): the summary's column energy_gain_rel_ke, a diagnostic.
// Not the criterion's scale (a drift inflates the run's max KE); a run beyond 0.1 of it is beyond
// the criterion too, since E_s <= max KE.
double energy_gain_rel(const ConservationMetrics& m);

// What the criterion found beyond its bounds, and from when.
struct Instability {
  enum class Bound { EnergyGain, ExponentialGrowth, Constraint, Orthogonality, NonFinite };
  Bound bound = Bound::EnergyGain;
  double value = 0.0;  // at the onset: gain / E_s, the octave's rise, or the constraint or orthogonality error
  double limit = 0.0;  // the criterion's bound on value
  double t = 0.0;      // the onset: the first sample past the bound (s)
  long step = 0;       // the integrator's accepted steps up to that sample
  double scale = 0.0;  // E_s (J)
  // The largest value over the run and when (energy gain / E_s, or the error at confirmation).
  double value_max = 0.0, t_max = 0.0;
  double floor = 0.0;  // exponential growth: the growth floor, x E_s
  // What was passed, without the onset: "energy gain 0.102 × E_s (E_s = 2.57 J, max KE over the
  // first 2.01 s; max 53.3 × at t = 1000 s)", "constraint error 0.0101 > 0.01", ...
  std::string describe() const;
  // With the onset, for a probe's reason: "... from t = 4.99 s (step 4990)".
  std::string describe_with_onset() const;
};

// A drift within the physical scale: the onset at which |E - E0 - W| passed drift_fraction x E_s.
struct EnergyDrift {
  double t = 0.0;
  long step = 0;
  double scale = 0.0;      // E_s (J)
  double fraction = 0.0;   // the bound, x E_s
  double err_max = 0.0;    // max |E - E0 - W| over the run (J)
  // "drift from t = 70.8 s (step 94200): |E − E0 − W| passed 0.01 × E_s = 0.0257 J (max 0.0811 J)"
  std::string describe() const;
};

struct StabilityVerdict {
  std::optional<Instability> unstable;
  std::optional<EnergyDrift> drift;  // only when stable
  double scale = 0.0;          // E_s (J)
  double gain_max = 0.0;       // max (E - E0 - W) (J; NaN once non-finite)
};

// Sample by sample, in O(window + log n) memory. The samples of the start-up window are judged
// when it closes (E_s is fixed then), every later one as it comes.
class StabilityMonitor {
 public:
  // scale_window: the start-up window (s), e.g. the model's slowest period; NaN or <= 0: the whole run.
  StabilityMonitor(const StabilityCriterion& criterion, double scale_window);
  // step: the integrator's accepted steps up to this sample. Returns true once the run is
  // unstable (a search may stop the run there: nothing later can make it stable).
  bool add(double t, long step, const Observation& o);
  bool unstable() const { return unstable_.has_value(); }
  StabilityVerdict result() const;

 private:
  struct Sample {
    double t, s;
    long step;
    double gain;
  };
  void judge(const Sample& x);
  void close_window();

  StabilityCriterion criterion_;
  double window_;
  bool started_ = false, window_closed_ = false;
  double t0_ = 0.0, balance0_ = 0.0, scale_ = 0.0, magnitude_ = 0.0, gain_max_ = 0.0, gain_max_t_ = 0.0;
  double err_max_ = 0.0;
  std::vector<Sample> window_samples_;
  // The running max of |E - E0 - W| at log-spaced times s (32 per octave), for M(s/2).
  std::vector<double> check_s_, check_m_;
  size_t half_index_ = 0;
  std::optional<Sample> streak_;  // first sample of the current stretch of octaves rising beyond growth_per_octave
  double streak_ratio_ = 0.0;
  std::optional<Sample> episode_;  // the first such stretch that lifted the error into sight
  double episode_ratio_ = 0.0;
  std::optional<Instability> unstable_;
  std::optional<EnergyDrift> drift_;
};

}  // namespace tb
