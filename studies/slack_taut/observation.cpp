#include "studies/slack_taut/observation.hpp"

#include <algorithm>
#include <cmath>

#include "app/input/case.hpp"
#include "app/running/integrate.hpp"
#include "app/running/round_off.hpp"
#include "core/metrics.hpp"

namespace tb::slack_taut {

namespace {

// The zero of the cubic Hermite interpolant of s on [t0, t1] (values s0, s1 on opposite sides,
// rates r0, r1), by bisection on the side, and the interpolant's slope there: its error is
// O(dt^4) where s is smooth, and O(dt^3) times the jump of s''' where the kink is inside.
std::pair<double, double> hermite_crossing(double t0, double t1, double s0, double s1, double r0, double r1) {
  const double dt = t1 - t0;
  auto p = [&](double x) {
    const double x2 = x * x, x3 = x2 * x;
    return (2 * x3 - 3 * x2 + 1) * s0 + (x3 - 2 * x2 + x) * dt * r0 + (-2 * x3 + 3 * x2) * s1 + (x3 - x2) * dt * r1;
  };
  auto dp = [&](double x) {
    const double x2 = x * x;
    return ((6 * x2 - 6 * x) * s0 + (3 * x2 - 4 * x + 1) * dt * r0 + (-6 * x2 + 6 * x) * s1 + (3 * x2 - 2 * x) * dt * r1) / dt;
  };
  double a = 0.0, b = 1.0;
  const bool side0 = switching_side(s0);
  for (int i = 0; i < 60; ++i) {
    const double m = 0.5 * (a + b);
    (switching_side(p(m)) == side0 ? a : b) = m;
  }
  const double x = 0.5 * (a + b);
  return {t0 + x * dt, dp(x)};
}

}  // namespace

std::vector<double> configuration_of(const Model& model, const Eigen::VectorXd& physical) {
  const std::vector<PhysicalPart> parts = model.physical_parts();
  std::vector<double> out;
  for (Eigen::Index i = 0; i < physical.size(); ++i)
    if (parts.empty() || (size_t(i) < parts.size() && parts[size_t(i)] == PhysicalPart::Configuration)) out.push_back(physical[i]);
  return out;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || a.size() != b.size()) return kNoNumber;
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

SlackRun observe_switches(const RunRequest& request, bool fit_growth_law) {
  SlackRun out;
  const RunKey& key = request.key;
  const Model& model = *key.c->model;
  const std::unique_ptr<Formulation> form = formulation_of_run(key, out.outcome);
  if (!form) return out;
  MetricsAccumulator metrics;
  bool first = true, seen_slack_after_taut = false, in_taut_phase = false;
  double e0 = 0.0, e_prev = 0.0, t_prev = 0.0, phase_lo = 0.0, phase_hi = 0.0;
  double jump_abs_sum = 0.0, jump_sq_sum = 0.0, net_sq_sum = 0.0, phase_net = 0.0;
  out.peak_stretch = -std::numeric_limits<double>::infinity();
  out.first_peak_stretch = out.peak_stretch;
  out.jump_abs_max = out.jump_sum = out.phase_range_max = 0.0;
  Eigen::VectorXd s, rate, s_prev, rate_prev, physical;
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    metrics.add(t, o);
    physical = form->physical_state(y);
    model.switching()->evaluate(t, physical, s, rate);
    const double e = o.energy - o.external_work;
    if (first) {
      first = false;
      e0 = e;
    } else {
      int switched = 0;
      for (Eigen::Index i = 0; i < s.size(); ++i) {
        if (switching_side(s_prev[i]) == switching_side(s[i])) continue;
        const bool to_taut = switching_side(s[i]);
        const auto [at, slope] = hermite_crossing(t_prev, t, s_prev[i], s[i], rate_prev[i], rate[i]);
        out.events.push_back({at, int(i), to_taut, slope});
        if (!to_taut) seen_slack_after_taut = true;
        ++switched;
      }
      if (switched > 0) {
        // The energy error's change across the samples that bracket the switch, and a new phase.
        const double jump = e - e_prev;
        out.jump_sum += jump;
        jump_abs_sum += std::abs(jump);
        jump_sq_sum += jump * jump;
        out.jump_abs_max = std::max(out.jump_abs_max, std::abs(jump));
        // A taut phase of the first element: from its entry to its exit.
        const bool first_taut = switching_side(s[0]);
        if (first_taut && !in_taut_phase) {
          in_taut_phase = true;
          phase_net = jump;
        } else if (!first_taut && in_taut_phase) {
          in_taut_phase = false;
          phase_net += jump;
          net_sq_sum += phase_net * phase_net;
          ++out.taut_phases;
        } else if (in_taut_phase) {
          phase_net += jump;
        }
        if (s.maxCoeff() < 0.0) out.slack_energies.push_back(e - e0);  // a flight with every element slack begins
        phase_lo = phase_hi = e - e0;
      } else {
        phase_lo = std::min(phase_lo, e - e0);
        phase_hi = std::max(phase_hi, e - e0);
        out.phase_range_max = std::max(out.phase_range_max, phase_hi - phase_lo);
      }
    }
    const double smax = s.size() ? s.maxCoeff() : kNoNumber;
    out.peak_stretch = std::max(out.peak_stretch, smax);
    if (!seen_slack_after_taut) out.first_peak_stretch = std::max(out.first_peak_stretch, smax);
    s_prev = s;
    rate_prev = rate;
    t_prev = t;
    e_prev = e;
  };
  const IntegrationOutcome run =
      integrate(*form, *key.integrator, request.settings, request.t_end(), request.measure.sample_interval, observer);
  out.outcome = run.outcome;
  out.counters = run.counters;
  out.runtime_s = run.runtime_s;
  const ConservationMetrics m = metrics.result();
  out.energy_err_max = m.energy_err_max;
  const double n = double(std::max<size_t>(1, out.events.size()));
  out.jump_abs_mean = out.events.empty() ? 0.0 : jump_abs_sum / n;
  out.jump_rms = out.events.empty() ? 0.0 : std::sqrt(jump_sq_sum / n);
  out.phase_net_rms = out.taut_phases ? std::sqrt(net_sq_sum / double(out.taut_phases)) : kNoNumber;
  if (run.ok()) out.final_configuration = configuration_of(model, form->physical_state(run.final_state));
  if (fit_growth_law) {
    GrowthContext context;
    context.round_off_floor = round_off_floor(m.energy_magnitude, run.counters.steps);
    context.slowest_period = model.slowest_period_s();
    context.prediction = predicted_growth(key.integrator->traits, true, m.external_work_max == 0.0, model.damped());
    context.kinks = model.switching_count() > 0;
    out.energy_growth = fit_growth(m.energy_growth.envelope, m.energy_growth.err_max, context);
  }
  return out;
}

SwitchMatch match_switches(const std::vector<SwitchEvent>& expected, const std::vector<SwitchEvent>& run, double window,
                           double chatter_gap) {
  SwitchMatch m;
  std::vector<bool> used(run.size(), false);
  std::vector<double> errors;
  for (const SwitchEvent& e : expected) {
    size_t best = run.size();
    for (size_t j = 0; j < run.size(); ++j) {
      if (used[j] || run[j].element != e.element || run[j].to_taut != e.to_taut) continue;
      if (std::abs(run[j].t - e.t) > window) continue;
      if (best == run.size() || std::abs(run[j].t - e.t) < std::abs(run[best].t - e.t)) best = j;
    }
    if (best == run.size()) {
      ++m.missed;
      continue;
    }
    used[best] = true;
    ++m.matched;
    errors.push_back(std::abs(run[best].t - e.t));
  }
  for (size_t j = 0; j < run.size(); ++j) {
    if (used[j]) continue;
    ++m.spurious;
    // Chatter: an unmatched switch followed by the same element's unmatched switch back within the gap.
    for (size_t k = j + 1; k < run.size(); ++k)
      if (run[k].element == run[j].element) {
        if (!used[k] && run[k].to_taut != run[j].to_taut && run[k].t - run[j].t < chatter_gap) ++m.chatter;
        break;
      }
  }
  if (!errors.empty()) {
    std::sort(errors.begin(), errors.end());
    m.max_time_error = errors.back();
    m.median_time_error = errors[errors.size() / 2];
  }
  return m;
}

double shortest_phase(const std::vector<SwitchEvent>& events) {
  double shortest = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < events.size(); ++i)
    for (size_t j = i + 1; j < events.size(); ++j)
      if (events[j].element == events[i].element) {
        shortest = std::min(shortest, std::abs(events[j].t - events[i].t));
        break;
      }
  return shortest;
}

double slowest_crossing(const std::vector<SwitchEvent>& events) {
  double slowest = std::numeric_limits<double>::infinity();
  for (const SwitchEvent& e : events) slowest = std::min(slowest, std::abs(e.rate));
  return slowest;
}

}  // namespace tb::slack_taut
