#include "core/stability_criterion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/format.hpp"

namespace tb {

namespace {
// Checkpoints of the running max, 32 per octave of s: a checkpoint at s_k holds M up to the next
// one, so M(s/2) is read from the last checkpoint at or before s/2 as M at a time between s/2 and
// 2^(1/32) s/2 (M is non-decreasing: the rise over the octave is under-read by at most the growth
// over that 2.2 % sliver; an exponential's onset is found that much late, never early).
constexpr double kCheckpointsPerOctave = 32.0;
// An episode of exponential growth counts once it has lifted the error above this x E_s: a
// rise of an error at round-off (1e-16 -> 1e-13 J) is no growth of the motion's error.
constexpr double kVisibleError = 1e-6;

std::string joules(double x) { return format_g(x, 3) + " J"; }
// A value that passed a bound, with the digits that show it did: "0.1003 > 0.1", never "0.1 > 0.1"
// (and a maximum beyond it likewise: never "max 0.1" beside a trigger of 0.1002).
std::string beyond(double value, double limit) {
  int digits = 3;
  while (digits < 17 && format_g(value, digits) == format_g(limit, digits)) ++digits;
  return format_g(value, digits);
}
}  // namespace

double energy_gain_rel(const ConservationMetrics& m) {
  const double gain = m.energy_gain_max;
  if (std::isnan(gain)) return gain;
  if (!(gain > kRoundOffGain * m.energy_magnitude)) return 0.0;  // round-off, not growth
  return m.kinetic_max > 0.0 ? gain / m.kinetic_max : std::numeric_limits<double>::infinity();
}

std::string Instability::describe() const {
  switch (bound) {
    case Bound::EnergyGain:
      return "energy gain " + beyond(value, limit) + " × E_s > " + format_g(limit, 3) + " (E_s = " + joules(scale) +
             ", max KE over the start-up; max " + beyond(value_max, limit) + " × E_s at t = " + format_g(t_max, 4) + " s)";
    case Bound::ExponentialGrowth:
      return "|E − E0 − W| grows exponentially: ×" + beyond(value, limit) + " within one octave of t (> ×" +
             format_g(limit, 3) + "), reaching " + beyond(value_max, floor * scale) + " J ≥ " + format_g(floor, 3) + " × E_s by t = " +
             format_g(t_max, 4) + " s (E_s = " + joules(scale) + ")";
    case Bound::Constraint: return "constraint error " + beyond(value, limit) + " > " + format_g(limit, 3);
    case Bound::Orthogonality: return "orthogonality error " + beyond(value, limit) + " > " + format_g(limit, 3);
    case Bound::NonFinite: return "non-finite energy";
  }
  return "";
}

std::string Instability::describe_with_onset() const {
  return describe() + " from t = " + format_g(t, 4) + " s (step " + std::to_string(step) + ")";
}

std::string EnergyDrift::describe() const {
  return "drift from t = " + format_g(t, 4) + " s (step " + std::to_string(step) + "): |E − E0 − W| passed " +
         format_g(fraction, 3) + " × E_s = " + joules(fraction * scale) + " (max " + joules(err_max) + ")";
}

StabilityMonitor::StabilityMonitor(const StabilityCriterion& criterion, double scale_window)
    : criterion_(criterion),
      window_(scale_window > 0.0 ? scale_window : std::numeric_limits<double>::infinity()) {}

bool StabilityMonitor::add(double t, long step, const Observation& o) {
  const double balance = o.energy - o.external_work;  // E(t) - W(t): conserved up to the scheme's error
  if (unstable_) {
    // Judged: only the largest gain is still followed, for the reason's "max ... at t = ...".
    if (std::isfinite(balance) && balance - balance0_ > gain_max_) gain_max_ = balance - balance0_, gain_max_t_ = t;
    return true;
  }
  if (!started_) {
    started_ = true;
    t0_ = t;
    balance0_ = balance;
  }
  const double s = t - t0_;
  if (!std::isfinite(balance) || !std::isfinite(o.kinetic)) {
    unstable_ = Instability{Instability::Bound::NonFinite, balance, 0.0, t, step, scale_};
    gain_max_ = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  // The bounds that need no scale, at once: the onset is this sample.
  if (!(o.constraint_err <= criterion_.constraint_bound)) {
    unstable_ = Instability{Instability::Bound::Constraint, o.constraint_err, criterion_.constraint_bound, t, step, scale_};
    return true;
  }
  if (!(o.orthogonality_err <= criterion_.constraint_bound)) {
    unstable_ = Instability{Instability::Bound::Orthogonality, o.orthogonality_err, criterion_.constraint_bound, t, step,
                            scale_};
    return true;
  }
  const double gain = balance - balance0_;
  magnitude_ = std::max(magnitude_, std::abs(o.kinetic) + std::abs(o.energy - o.kinetic));
  if (gain > gain_max_) gain_max_ = gain, gain_max_t_ = t;
  err_max_ = std::max(err_max_, std::abs(gain));
  if (check_s_.empty() || s >= check_s_.back() * std::exp2(1.0 / kCheckpointsPerOctave)) {
    if (s > 0.0) check_s_.push_back(s), check_m_.push_back(err_max_);
  } else {
    check_m_.back() = err_max_;  // the checkpoint holds M at its own time or a little after (never less)
  }
  const Sample x{t, s, step, gain};
  if (!window_closed_) {
    if (s <= window_) {
      scale_ = std::max(scale_, o.kinetic);
      window_samples_.push_back(x);
      return false;
    }
    close_window();
    if (unstable_) return true;
  }
  judge(x);
  return unstable_.has_value();
}

void StabilityMonitor::close_window() {
  window_closed_ = true;
  for (const Sample& x : window_samples_) {
    judge(x);
    if (unstable_) break;
  }
  window_samples_.clear();
  window_samples_.shrink_to_fit();
}

void StabilityMonitor::judge(const Sample& x) {
  if (unstable_) return;
  const double round_off = kRoundOffGain * magnitude_;
  // 1. The energy gain against the scale fixed at the start.
  if (x.gain > round_off && !(x.gain <= criterion_.energy_fraction * scale_)) {
    unstable_ = Instability{Instability::Bound::EnergyGain,
                            scale_ > 0.0 ? x.gain / scale_ : std::numeric_limits<double>::infinity(),
                            criterion_.energy_fraction, x.t, x.step, scale_};
    return;
  }
  const double err = std::abs(x.gain);
  // 2. Exponential growth of |E - E0 - W|, after the start-up: M(s) against M(s/2).
  // (Judged as the samples come, so M(s) is the running max err_max_; the window's samples,
  // judged when it closes, are never past 2 x window.)
  if (window_closed_ && x.s >= 2.0 * window_ && !check_s_.empty()) {
    while (half_index_ + 1 < check_s_.size() && check_s_[half_index_ + 1] <= 0.5 * x.s) ++half_index_;
    const double m_s = err_max_;
    const double m_half = check_s_[half_index_] <= 0.5 * x.s ? check_m_[half_index_] : 0.0;
    const double rise = m_half > 0.0 ? m_s / m_half : std::numeric_limits<double>::infinity();
    if (m_s > round_off && rise > criterion_.growth_per_octave) {
      if (!streak_) streak_ = x, streak_ratio_ = rise;
      // The first episode of exponential growth that lifts the error into sight (above
      // kVisibleError x E_s) is the instability's onset, should the error reach the floor.
      if (!episode_ && m_s >= kVisibleError * scale_) episode_ = *streak_, episode_ratio_ = streak_ratio_;
    } else {
      streak_.reset();
    }
  }
  if (episode_ && err_max_ >= criterion_.growth_floor * scale_) {
    Instability found{Instability::Bound::ExponentialGrowth, episode_ratio_, criterion_.growth_per_octave, episode_->t,
                      episode_->step, scale_};
    found.value_max = err_max_;
    found.t_max = x.t;
    found.floor = criterion_.growth_floor;
    unstable_ = found;
    return;
  }
  // Within the scale and not exponential: a drift once the error passes drift_fraction x E_s.
  if (!drift_ && err > round_off && err > criterion_.drift_fraction * scale_)
    drift_ = EnergyDrift{x.t, x.step, scale_, criterion_.drift_fraction, 0.0};
}

StabilityVerdict StabilityMonitor::result() const {
  StabilityMonitor closed = *this;
  if (!closed.window_closed_) closed.close_window();
  StabilityVerdict v;
  v.scale = closed.scale_;
  v.gain_max = closed.gain_max_;
  if (closed.unstable_) {
    v.unstable = closed.unstable_;
    if (v.unstable->bound == Instability::Bound::EnergyGain) {
      v.unstable->value_max = closed.scale_ > 0.0 ? closed.gain_max_ / closed.scale_ : std::numeric_limits<double>::infinity();
      v.unstable->t_max = closed.gain_max_t_;
    }
  } else if (closed.drift_) {
    v.drift = closed.drift_;
    v.drift->err_max = closed.err_max_;
  }
  return v;
}

}  // namespace tb
