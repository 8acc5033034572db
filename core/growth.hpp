#pragma once
// Long-time growth laws of a conservation error (issue 14 item 4): from |e(t)| (the energy-
// balance residual |E - E(0) - W| or the momentum error |pi - pi(0)|) fit e(t) ~ c t^p over the
// run's last decades and classify the law: round-off, bounded, random walk (sqrt t), linear,
// faster, decays. The rule (the same for every integrator, documented in cases/README.md,
// "Growth laws", and derived in core/growth.cpp):
//
//   envelope  M(t_k) = max |e(s)| over the half-run s - t0 in [(t_k - t0)/2, t_k - t0], at
//             log-spaced t_k (kGrowthWindowsPerOctave per doubling of t - t0, counted from
//             the first sample after t0), streamed in O(log n) memory;
//   fit       least squares of log M against log(t - t0) over the envelope points with
//             t - t0 >= (t_end - t0) / 10^kGrowthFitDecades (the start-up before that is
//             left out): exponent p, its standard error (inflated for the residuals'
//             lag-one autocorrelation, as for AR(1) errors), the 95% interval, R^2, c;
//   law       round_off  when max |e| stays within the run's Brouwer round-off floor
//                        (core/gates.hpp round_off_floor: 8 eps scale sqrt(steps));
//             too_short  fewer than 2 octaves of envelope points to fit;
//             decays     p < -0.15 and the CI below 0;
//             bounded    |p| <= 0.15, or p < 0.25 with the CI containing 0;
//             sqrt_t     p <= 0.75 (a random walk, p = 1/2: round-off or truncation errors
//                        adding up with random signs);
//             linear     p <= 1.3 (secular drift, p = 1);
//             faster     p > 1.3.

#include <limits>
#include <string>
#include <vector>

#include "numerics/statistics.hpp"  // student_t975, shared with the other fits

namespace tb {

inline constexpr int kGrowthWindowsPerOctave = 4;
inline constexpr double kGrowthFitDecades = 2.0;
inline constexpr double kGrowthBoundedExponent = 0.15;
inline constexpr double kGrowthSqrtTMaxExponent = 0.75;
inline constexpr double kGrowthLinearMaxExponent = 1.3;

struct EnvelopePoint {
  double t = 0.0;      // time since the run's start, t - t0 (s)
  double value = 0.0;  // max |e| over [t/2, t]
};

// Streams |e| samples into log-spaced windows; O(log n) memory.
class GrowthEnvelope {
 public:
  void add(double t, double abs_err);
  // The envelope at the end of every window from the first octave on (see above).
  std::vector<EnvelopePoint> points() const;
  double max() const { return max_; }

 private:
  bool started_ = false;
  double t0_ = 0.0, s1_ = 0.0, max_ = 0.0;
  std::vector<double> window_max_, window_end_;  // per window: max |e| and the last time in it
};

struct GrowthFit {
  std::string law;  // "" when not fitted (no run), else one of the laws above
  double exponent = std::numeric_limits<double>::quiet_NaN();
  double std_err = std::numeric_limits<double>::quiet_NaN();
  double ci95_low = std::numeric_limits<double>::quiet_NaN(), ci95_high = std::numeric_limits<double>::quiet_NaN();
  double r2 = std::numeric_limits<double>::quiet_NaN();
  double coefficient = std::numeric_limits<double>::quiet_NaN();  // c of c t^p (t in s)
  int points = 0;                   // envelope points fitted
  double t_from = 0.0, t_to = 0.0;  // the span fitted (time since the start)
  double err_max = 0.0;             // max |e| over the run
  double round_off_floor = std::numeric_limits<double>::quiet_NaN();  // the floor the law was checked against
  std::vector<EnvelopePoint> envelope;  // every envelope point (for plots)
  double ci95_half_width() const { return 0.5 * (ci95_high - ci95_low); }
};

// The fit and its law without a round-off floor (an error that is exactly zero is round_off).
GrowthFit fit_growth(const std::vector<EnvelopePoint>& envelope, double err_max);
// The law once the run's round-off floor is known: round_off when err_max <= floor.
GrowthFit with_round_off_floor(GrowthFit fit, double floor);
// The law of an exponent and its 95% interval (the rule above, without round-off/too_short).
std::string classify_growth(double exponent, double ci95_low, double ci95_high);
}  // namespace tb
