#include "core/growth.hpp"

#include <algorithm>
#include <cmath>

namespace tb {

// Why this envelope and this fit (the rule itself: core/growth.hpp).
//
// A conservation error of a long run is the sum of a bounded oscillation (a symplectic
// method's modified energy differs from E by O(h^p) along the orbit, Hairer-Lubich-Wanner IX.8,
// Thm. 8.1: bounded over exponentially long times), a secular drift (a non-symplectic method:
// O(t h^p), linear in t, HLW IX.8 and the seeds' classical Runge-Kutta and ode45 energy plots, seed 003 Figs. 2-4),
// and round-off, which adds a few ulps of the magnitude per step with random signs and so grows
// like sqrt(n) (Brouwer 1937; Hairer, McLachlan & Razakarivony 2008, "Achieving Brouwer's law
// with implicit Runge-Kutta methods", BIT 48, eq. (1.1)). Which one dominates the run's end is
// the growth law; the exponent p of e ~ c t^p separates them: 0, 1, 1/2.
//
// The fit is on an envelope, not on e itself: e oscillates through 0 (a pendulum's energy
// error twice per period), and log e of those samples is meaningless. M(t) = max |e| over
// [t/2, t] is, for e = c t^p, c t^p (p > 0) or c (t/2)^p (p < 0): the same exponent; for a
// bounded oscillation of period P it is the amplitude as soon as t/2 > P: exponent 0; for a
// random walk it is sqrt(t) times a random factor of order one. Unlike the running max it can
// decay, and unlike the max over disjoint windows it is never taken over less than half the
// run, so it does not dip where a window misses the oscillation's peaks.
//
// Streaming: window j holds the samples with s = t - t0 in [s1 2^(j/m), s1 2^((j+1)/m)) (s1 the
// first sample time after t0, m = kGrowthWindowsPerOctave): the windows k-m+1..k cover exactly
// one octave, [S/2, S) with S the window k's upper edge, so M at the end of window k is the max
// of the last m window maxima. O(m log2(n)) numbers for n samples.
//
// The fit: ordinary least squares of y = ln M against x = ln s over the envelope points of the
// last kGrowthFitDecades decades (the start-up before that, where the first oscillation or the
// first step's transient has not been seen yet, is left out), p = Sxy / Sxx. The residuals are
// correlated: neighbouring envelope points share m - 1 of their m windows, and a random walk's
// envelope wanders about its sqrt(t) over whole octaves. The OLS standard error
// sqrt(SSR / (n - 2) / Sxx) is therefore inflated as for AR(1) residuals with the lag-one
// autocorrelation rho of the residuals (its small-sample bias corrected, rho < 0 taken as 0):
// by sqrt((1 + rho) / (1 - rho)),
// and the 95% interval uses Student's t with n (1 - rho) / (1 + rho) - 2 degrees of freedom (at
// least 1). On 200 seeded random walks of 10^5 steps it covers p = 1/2 for 183 (91.5%,
// tests/test_growth.cpp); an interval for one realisation, not for the law of all of them.
//
// The law is the band p falls in (core/growth.hpp); "bounded" also takes an exponent below
// 0.25 whose interval contains 0: consistent with 0, and nearer 0 than a random walk's 1/2.

void GrowthEnvelope::add(double t, double abs_err) {
  if (!std::isfinite(abs_err)) return;
  max_ = std::max(max_, abs_err);
  if (!started_) {
    started_ = true;
    t0_ = t;
    return;
  }
  const double s = t - t0_;
  if (!(s > 0.0)) return;
  if (s1_ == 0.0) s1_ = s;
  const double m = kGrowthWindowsPerOctave;
  // The small shift puts s = s1 2^(j/m) (uniform samples: s = 2 s1, 4 s1, ...) into window j.
  const long j = std::max(0L, long(std::floor(m * std::log2(s / s1_) + 1e-9)));
  if (size_t(j) >= window_max_.size()) {
    window_max_.resize(j + 1, -1.0);  // -1: no sample in the window
    window_end_.resize(j + 1, 0.0);
  }
  window_max_[j] = std::max(window_max_[j], abs_err);
  window_end_[j] = std::max(window_end_[j], s);
}

std::vector<EnvelopePoint> GrowthEnvelope::points() const {
  std::vector<EnvelopePoint> out;
  const int m = kGrowthWindowsPerOctave;
  for (size_t k = m - 1; k < window_max_.size(); ++k) {
    if (window_max_[k] < 0.0) continue;  // no sample ends there (the first octaves of a uniform grid)
    double v = 0.0;
    for (size_t j = k + 1 - m; j <= k; ++j) v = std::max(v, window_max_[j]);
    out.push_back({window_end_[k], v});
  }
  return out;
}

std::string classify_growth(double p, double lo, double hi) {
  if (!std::isfinite(p)) return "too_short";
  const bool ci_contains_zero = lo <= 0.0 && hi >= 0.0;
  if (p < -kGrowthBoundedExponent && hi < 0.0) return "decays";
  if (std::abs(p) <= kGrowthBoundedExponent || (ci_contains_zero && p < 0.25)) return "bounded";
  if (p <= kGrowthSqrtTMaxExponent) return "sqrt_t";
  if (p <= kGrowthLinearMaxExponent) return "linear";
  return "faster";
}

GrowthFit fit_growth(const std::vector<EnvelopePoint>& envelope, double err_max) {
  GrowthFit f;
  f.envelope = envelope;
  f.err_max = err_max;
  if (!(err_max > 0.0)) {  // conserved exactly over the whole run (or not a quantity of the model)
    f.law = "zero";
    return f;
  }
  if (envelope.empty()) {
    f.law = "too_short";
    return f;
  }
  const double t_end = envelope.back().t;
  const double t_from = t_end * std::pow(10.0, -kGrowthFitDecades);
  std::vector<double> x, y;
  for (const auto& e : envelope)
    if (e.t >= t_from && e.value > 0.0) {
      x.push_back(std::log(e.t));
      y.push_back(std::log(e.value));
      if (x.size() == 1) f.t_from = e.t;
      f.t_to = e.t;
    }
  const int m = kGrowthWindowsPerOctave;
  const size_t n = x.size();
  f.points = int(n);
  if (n >= 3) {
    double mx = 0.0, my = 0.0;
    for (size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
    mx /= double(n), my /= double(n);
    double sxx = 0.0, sxy = 0.0, syy = 0.0;
    for (size_t i = 0; i < n; ++i) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
      syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx > 0.0) {
      f.exponent = sxy / sxx;
      f.coefficient = std::exp(my - f.exponent * mx);
      const double intercept = my - f.exponent * mx;
      double ssr = 0.0, lag = 0.0, previous = 0.0;
      for (size_t i = 0; i < n; ++i) {
        const double r = y[i] - intercept - f.exponent * x[i];
        ssr += r * r;
        if (i > 0) lag += r * previous;
        previous = r;
      }
      f.r2 = syy > 0.0 ? std::max(0.0, 1.0 - ssr / syy) : 1.0;
      // The lag-one estimate is biased low by about (1 + 3 rho) / n on short series (Marriott &
      // Pope 1954): corrected before use.
      const double rho_hat = ssr > 0.0 ? lag / ssr : 0.0;
      const double rho = ssr > 0.0 ? std::clamp(rho_hat + (1.0 + 3.0 * rho_hat) / double(n), 0.0, 0.99) : 0.0;
      const double inflation = (1.0 + rho) / (1.0 - rho);
      f.std_err = std::sqrt(ssr / double(n - 2) / sxx * inflation);
      const double half = student_t975(std::max(1.0, double(n) / inflation - 2.0)) * f.std_err;
      f.ci95_low = f.exponent - half;
      f.ci95_high = f.exponent + half;
    }
  }
  // Fewer than two octaves of points: no law, though the exponent is shown where it exists.
  f.law = int(n) < 2 * m || !std::isfinite(f.exponent) ? "too_short" : classify_growth(f.exponent, f.ci95_low, f.ci95_high);
  return f;
}

GrowthFit with_round_off_floor(GrowthFit fit, double floor) {
  fit.round_off_floor = floor;
  if (!fit.law.empty() && fit.law != "zero" && fit.err_max <= floor) fit.law = "round_off";
  return fit;
}

}  // namespace tb
