#pragma once
// The one instability criterion (issue 24 item 2; drift against instability, issue 32 item 4):
// it decides the status of every run that reaches its end (measure(), app/running/runner.hpp) and every
// probe of the stability map (studies/stability_map/stability_map.hpp), through the same StabilityMonitor fed
// sample by sample.
//
// The energy scale E_s is A PROPERTY OF THE CASE, fixed before the run: the largest kinetic energy
// of the case's motion over its start-up window, the first slowest period (Model::slowest_period_s;
// the whole run when the model declares none or the run is shorter), as the caller computes it from
// a reference solution of the case (app/running/energy_scale.hpp: every run and every stability-map probe
// of a case is judged against the same E_s). Over that window the motion reaches its physical
// kinetic-energy scale (a pendulum or a cable released from rest passes its lowest point within one
// period; a tumbling body's T is constant), while no drift has had time to build up. The judged
// run's own kinetic energy is no scale: a probe that blows up within the start-up would set its
// own E_s (6.87e3 J for a 2.6 J motion), and a drift of the linear momentum P adds
// |P - P0|^2 / (2 M) to the kinetic energy, inflating the very denominator it is judged against.
// Only where the caller has no reference (a model without an ODE form) is E_s the judged run's own
// max KE over the window, and the verdict's words say so.
//
// The energy error judged is the INTERNAL one where the model has a free centre of mass (its
// Observation gives P, M and x_c): E - E0 - W minus the centre of mass's kinetic-energy change
// P0.dP/M + |dP|^2/(2M). A method that does not conserve P lets the centre of mass drift; that is a
// conservation drift, reported as such (MomentumDrift: "drifts in P"), not a growth of the motion.
//
// A run is UNSTABLE from the first sample (its onset: time and step) at which
//   1. its energy gain, the signed (internal) energy-balance residual, exceeds energy_fraction x
//      E_s. Signed, because instability is growth: a method that damps loses energy without being
//      unstable (that loss is accuracy). A gain within round-off of the energy's magnitude
//      (kRoundOffGain x max(|T| + |E - T|)) is not growth;
//   2. or the (internal) energy error grows exponentially TO THE END OF THE RUN: its running
//      maximum M rises more than growth_per_octave-fold within one octave of t - t0 (M(s) >
//      100 M(s/2): a power law c s^p does that only for p > 6.6, while the secular drifts of
//      one-step methods are linear and a drifting momentum's kinetic energy at most quartic;
//      e^(lambda s) does it for every s > 2 ln(100)/lambda), judged after the start-up window (s/2
//      beyond it), in an unbroken stretch of such octaves (an episode) that lifts the error above
//      1e-6 E_s, reaches growth_floor x E_s, and is still going on at the last sample. A numerical
//      instability (an amplification factor |R(h lambda)| > 1) keeps amplifying until the error
//      reaches the motion's own scale (bound 1) or the state overflows; an episode that STOPS
//      below that scale is something else: the motion itself changed (an unstable equilibrium left,
//      a symmetry broken: every method's error rises with the motion's amplitude at the same time),
//      reported beside the verdict as a GrowthEpisode, never as instability. Its onset is the
//      episode's first sample;
//   3. or a sampled energy is not finite (a constraint or orthogonality error that is not finite
//      counts with it).
// A run whose constraints or rotations leave the manifold (the constraint or orthogonality error
// passes constraint_bound) is judged by what carries the manifold. Where the method AMPLIFIES the
// linear flows that do (StabilityMonitor's manifold_amplified: a method with no stability interval
// on the imaginary axis, |R(iy)| > 1 for every y, on a rotation R' = R hat(Omega) or a link
// direction q' = omega x q, whose normal mode it multiplies by |R(ih omega)|^2 = 1 + O((h omega)^4)
// every step), the error is that amplification: UNSTABLE (Bound::Constraint or Orthogonality),
// whatever the energy says (a free body's energy does not depend on R and cannot see it; referee
// read of issue 44, point 4: a two-stage second-order Runge-Kutta method on the free rigid body
// follows 1 + y^4/4 a step to 8 %). Otherwise, and while none of 1-3 fires, it DRIFTS OFF THE
// MANIFOLD (ManifoldDrift): a method stable on the imaginary axis carries the manifold without
// amplifying it, and its error is a drift (a velocity-level scheme's O(h) creep of a taut link's
// length, Moreau-Jean; a contraction of R, |R(iy)| < 1, the classical four-stage Runge-Kutta
// method), growing with h and t: an accuracy limit, horizon-dependent, not a stability one
// (issue 44 class 1: a drift printed as instability). The run stays ok with the drift noted; a
// search over steps (the stability map) still stops there, its limit named a constraint (or
// orthogonality) bound, an accuracy bound.
// An energy gain past bound 1 that arrived AT ONCE and stayed is an ENERGY JUMP (Instability::Bound::
// EnergyJump): the sample before the onset had gained less than drift_fraction x E_s, n steps
// earlier (one step where the run is sampled every step); over the rest of the run, at least
// kJumpIntervalsAfter x n steps (and kJumpStepsAfter), the gain stayed within kJumpGrowthAfter x its
// onset's and below E_s, and above kJumpStaysAbove x it (the energy stayed raised: a symplectic
// method's bounded energy error near its stability limit also rises past the bound within a step,
// at a few steps a period, but falls back within the period; that is the error's amplitude, an
// accuracy bound, judged as a gain as before). That is a step (or a few, within one sampling interval) that added energy
// once, e.g. an impact step's or a tension spike's position solve, not an amplification: one that
// lifted the gain tenfold over n steps (from < 0.01 to > 0.1 E_s) lifts it tenfold again over each
// next n steps until it saturates at the motion's scale E_s, so ten such intervals without a 10 %
// rise rule it out. A jump is still no result (an energy gain beyond the bound); its words say
// which it was, and where the centre of mass is free, whether the step moved P (no internal force
// does: its equations were accepted off their solution). A search over steps (the stability map)
// goes on past a gain's onset until it is decided either way, so that its probes are judged by
// the same rule as the runs.
// Otherwise the run is stable; it DRIFTS (still ok, every metric kept) when |E - E0 - W| (internal)
// passes drift_fraction x E_s: polynomial growth within the physical scale, noted with its onset.
// A state that becomes non-finite inside a step is caught earlier, by the step itself (StepFailure
// Diverged, core/integrator.hpp).

#include <cmath>
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
  // Constraint and Orthogonality: a non-finite constraint or orthogonality error (a finite one past
  // the bound is a ManifoldDrift, not an instability).
  enum class Bound { EnergyGain, EnergyJump, ExponentialGrowth, Constraint, Orthogonality, NonFinite };
  Bound bound = Bound::EnergyGain;
  double value = 0.0;  // at the onset: gain / E_s, the octave's rise, or the constraint or orthogonality error
  double limit = 0.0;  // the criterion's bound on value
  double t = 0.0;      // the onset: the first sample past the bound (s)
  long step = 0;       // the integrator's accepted steps up to that sample
  double scale = 0.0;  // E_s (J)
  std::string scale_source;  // where E_s comes from: "max KE over the first 1.78 s of the reference solution"
  // The largest value over the run and when (energy gain / E_s, or the error at confirmation).
  double value_max = 0.0, t_max = 0.0;
  double floor = 0.0;  // exponential growth: the growth floor, x E_s
  // EnergyJump: the gain / E_s at the last sample below drift_fraction x E_s before the onset, that
  // sample's time and step, and the steps the run went on after the onset.
  double before = 0.0, t_before = 0.0;
  long step_before = 0, steps_after = 0;
  // EnergyGain: the gain fell back after its onset (below kJumpStaysAbove x it) without growing past
  // kJumpGrowthAfter x it: the amplitude of a bounded energy error (a symplectic or symmetric method's
  // O(h^p) oscillation at a large step), an accuracy bound, not an amplification (referee read 44f,
  // B1); min_after its least value after the onset / E_s.
  bool fell_back = false;
  double min_after = 0.0;
  // Constraint, Orthogonality: the error's largest value over the run (finite: an amplification off
  // the manifold; not finite: the state blew up) and whether it came from an amplifying method.
  bool amplified = false;
  // What was passed, without the onset: "energy gain 0.102 × E_s (E_s = 2.57 J, max KE over the
  // first 2.01 s; max 53.3 × at t = 1000 s)", "constraint error 0.0101 > 0.01", ...
  std::string describe() const;
  // With the onset, for a probe's reason: "... from t = 4.99 s (step 4990)".
  std::string describe_with_onset() const;
};

// An energy jump (criterion 1's exception above): the run went on at least this many steps after
// the onset (and as many as the rise took), and its gain stayed within this factor of the onset's.
inline constexpr long kJumpStepsAfter = 10;
inline constexpr long kJumpIntervalsAfter = 10;
inline constexpr double kJumpGrowthAfter = 1.1;
inline constexpr double kJumpStaysAbove = 0.5;

// The constraints or rotations left their manifold without the motion amplifying (criterion 3
// above): the first sample past constraint_bound and the largest error over the run.
struct ManifoldDrift {
  enum class What { Constraint, Orthogonality };
  What what = What::Constraint;
  double value = 0.0, limit = 0.0;  // the error at the onset and the bound it passed
  double t = 0.0;                   // the onset (s)
  long step = 0;
  double value_max = 0.0, t_max = 0.0;  // the largest error over the run and when
  double gain_max_rel = 0.0;            // the run's largest energy gain / E_s (<= energy_fraction)
  double energy_fraction = 0.0;         // criterion 1's bound, for the words
  // "drifts off the constraint manifold from t = 0.15 s (step 600): constraint error 0.0111 > 0.01,
  //  max 0.0221 at t = 0.22 s, while the energy gained at most 0 × E_s (bound 0.1), by a method stable
  //  on the imaginary axis, which does not amplify the flows that carry the manifold: a drift (...)""
  std::string describe() const;
};

// A drift within the physical scale: the onset at which |E - E0 - W| passed drift_fraction x E_s.
struct EnergyDrift {
  double t = 0.0;
  long step = 0;
  double scale = 0.0;      // E_s (J)
  double fraction = 0.0;   // the bound, x E_s
  double err_max = 0.0;    // max |E - E0 - W| over the run (J)
  // How the error went on: its running max over the run's last octave, M(end) / M(end/2) (0:
  // unknown). A drift keeps growing (x2 an octave for a secular drift, x1.4 for a random walk); an
  // error the method made once, in a transient (a damped model's, whose dissipation's O(h^p) error
  // accrues while the work rate is high), stays where it reached: x1 (issue 44, referee point R3).
  double rise_last_octave = 0.0;
  static constexpr double kStillGrowing = 1.25;  // between a plateau (x1) and the slowest drift (x1.41)
  // The error's sign at its largest: a loss (the method dissipates) or a gain (it adds energy; for a
  // method with no imaginary-axis interval, its amplification within the scale). Issue 44's referee
  // read, point 6: a drift names its sign.
  bool loss = false;
  // The method has no stability interval on the imaginary axis (StabilityMonitor's
  // manifold_amplified): its gain is the amplification |R(ih w)| > 1 of the undamped modes, still
  // under the instability bound over the run; the words name it (the fourth-round read, R11).
  bool amplified = false;
  bool growing() const { return !(rise_last_octave > 0.0) || rise_last_octave > kStillGrowing; }
  // "drift from t = 70.8 s (step 94200): |E − E0 − W| passed 0.01 × E_s = 0.0257 J (max 0.0811 J)"
  // or, not growing, "an energy-balance error that stopped growing: ... passed ... at t = ..., reached
  // ... while the motion went on, and rose only ×1 over the run's last octave ...: not a drift".
  std::string describe() const;
};

// An episode of exponential growth that stopped: the error rose more than growth_per_octave-fold
// within octaves of t from t_start, and rose less from t_end on (see criterion 2).
struct GrowthEpisode {
  double t_start = 0.0, t_end = 0.0;
  double rise = 0.0;                  // the largest rise within one octave over the episode
  double err_start = 0.0, err_end = 0.0;  // the running max of the error at its start and end (J)
  double scale = 0.0;                 // E_s (J)
  bool internal = false;              // the error is the internal one (a free centre of mass)
  double rise_last_octave = 0.0;      // M(end) / M(end/2): how the error went on after it (0: unknown)
  double err_last = 0.0;              // the running max at the end (J)
  // "a rise that slowed: |ΔE_int| rose up to ×4.98e+04 within an octave of t from t = 349.9 s (its
  //  running max 3.28e-08 J → 0.00354 J = 0.0013 × E_s by t = 736 s), then less than ×100 an octave: ..."
  std::string describe() const;
};

// A drift of the total linear momentum beyond round-off and material (a model with a free centre
// of mass). Round-off: a method that conserves P in exact arithmetic changes it by at most a few
// ulps of the momenta it sums per step; even all of one sign, n steps give no more than n eps p_s,
// with p_s = sqrt(2 M E_s) the momentum of the motion's kinetic-energy scale. Beyond that bound
// the method does not conserve P; its centre of mass moves, and its kinetic energy takes the share
// energy_com_max of the energy error. Material: that share past drift_fraction x E_s, or the
// centre of mass moved past drift_fraction x v_s T (v_s = p_s / M, T the start-up window): a
// 4e-13 m drift over a short run is no status (its numbers stay in the summary's columns).
struct MomentumDrift {
  double dP_max = 0.0;          // max |P - P0| (N s)
  double round_off = 0.0;       // n eps p_s (N s)
  double com_moved = 0.0;       // max |x_c - x_c(0) - P0 (t - t0)/M| (m)
  double energy_com_max = 0.0;  // max |P0.dP/M + |dP|^2/(2M)| (J)
  double energy_err_max = 0.0;  // max |E - E0 - W| (J), the whole energy error
  double energy_internal_max = 0.0;  // max |E - E0 - W - dE_cm| (J), the motion's own
  // "drifts in P: max |ΔP| 1.01 N s (round-off bound n ε p_s = 1.1e-09 N s), centre of mass moved
  //  40.7 m; the centre of mass's kinetic energy change reaches 0.119 J, against max |ΔE| 0.115 J
  //  (the motion's own, max |ΔE_int|: 0.00539 J)"
  std::string describe() const;
};

// Where E_s comes from: a value fixed by the caller (a property of the case) or, when value is
// not positive and finite, the judged run's own max KE over the start-up window.
struct EnergyScale {
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string source;  // "max KE over the first 1.78 s of the reference solution"
  bool fixed() const { return value > 0.0 && std::isfinite(value); }
};

struct StabilityVerdict {
  std::optional<Instability> unstable;
  std::optional<ManifoldDrift> off_manifold;  // only when stable: the positions left the manifold
  std::optional<EnergyDrift> drift;  // only when stable
  std::optional<GrowthEpisode> episode;  // the largest episode that stopped (stable runs)
  std::optional<MomentumDrift> momentum_drift;
  double scale = 0.0;          // E_s (J)
  std::string scale_source;
  double gain_max = 0.0;       // max (E - E0 - W) (J; NaN once non-finite)
};

// Sample by sample, in O(window + log n) memory. The samples of the start-up window are judged
// when it closes (E_s is fixed then), every later one as it comes.
class StabilityMonitor {
 public:
  // scale_window: the start-up window (s), e.g. the model's slowest period; NaN or <= 0: the whole
  // run. scale: E_s fixed by the caller (the case's), or unset (the run's own max KE over the window).
  // manifold_amplified: whether the method amplifies the linear flows that carry the constraint
  // manifold and SO(3) (no stability interval on the imaginary axis: MethodTraits::
  // imaginary_axis_stable false); then leaving the manifold is an instability, else a drift.
  StabilityMonitor(const StabilityCriterion& criterion, double scale_window, EnergyScale scale = {},
                   bool manifold_amplified = false);
  // step: the integrator's accepted steps up to this sample. Returns true once the run is past a
  // bound nothing later can undo (1, 3, or off the manifold: a search may stop the run there);
  // exponential growth (2) and an energy jump are decided at the end, by result().
  bool add(double t, long step, const Observation& o);
  bool unstable() const { return unstable_.has_value(); }
  bool off_manifold() const { return off_manifold_.has_value(); }
  StabilityVerdict result() const;

 private:
  struct Sample {
    double t, s;
    long step;
    double gain;
  };
  // The current unbroken stretch of octaves rising beyond growth_per_octave.
  struct Streak {
    Sample first;
    double err_first = 0.0;   // running max at its first sample
    double rise_max = 0.0;
    bool visible = false;     // lifted the error above kVisibleError x E_s
    std::optional<Sample> floor_reached;  // first sample at or above growth_floor x E_s
  };
  void judge(const Sample& x);
  void close_window();
  void end_streak(const Sample& x);

  // An energy gain's onset is decided (a jump or an amplification) once the gain grew past
  // kJumpGrowthAfter x its onset's or E_s, or the run went on long enough to call it a jump.
  bool gain_decided() const;

  StabilityCriterion criterion_;
  double window_;
  bool manifold_amplified_ = false;
  bool scale_fixed_ = false;
  std::string scale_source_;
  bool started_ = false, window_closed_ = false;
  double t0_ = 0.0, balance0_ = 0.0, scale_ = 0.0, magnitude_ = 0.0, gain_max_ = 0.0, gain_max_t_ = 0.0;
  double err_max_ = 0.0, total_err_max_ = 0.0;
  double gain_min_after_ = std::numeric_limits<double>::infinity();  // the least gain after an onset (J)
  long last_step_ = 0;
  double last_s_ = 0.0;
  // A free centre of mass (Observation::total_mass finite): P0, x_c(0), M and the drift's maxima.
  bool free_com_ = false;
  Eigen::Vector3d p0_ = Eigen::Vector3d::Zero(), x0_ = Eigen::Vector3d::Zero();
  double mass_ = 0.0, dp_max_ = 0.0, com_moved_ = 0.0, e_com_max_ = 0.0;
  std::vector<Sample> window_samples_;
  // The running max of |E - E0 - W| at log-spaced times s (32 per octave), for M(s/2).
  std::vector<double> check_s_, check_m_;
  size_t half_index_ = 0;
  std::optional<Streak> streak_;
  std::optional<GrowthEpisode> episode_;  // the largest stretch that stopped
  std::optional<Instability> unstable_;
  std::optional<ManifoldDrift> off_manifold_;
  std::optional<Sample> last_low_;  // the last judged sample whose gain was within drift_fraction x E_s
  std::optional<EnergyDrift> drift_;
};

}  // namespace tb
