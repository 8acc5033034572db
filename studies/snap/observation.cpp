#include "studies/snap/observation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/input/case.hpp"
#include "app/running/integrate.hpp"
#include "core/switching.hpp"

namespace tb::snap {

// The largest value over [0, dt] of the cubic Hermite interpolant through (a, a') at 0 and (b, b') at
// dt: a taut link's tension between two samples, from its values and rates there (error O(dt^4)). On
// the ten-link cable's whip (a spike about 25 us wide) it reads 6600 N from a 1e-5 s grid where the
// samples alone read 6276 N and a 1e-6 s grid 6631 N.
double hermite_max(double a, double da, double b, double db, double dt) {
  const auto at = [&](double s) {
    const double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * a + (s3 - 2 * s2 + s) * dt * da + (-2 * s3 + 3 * s2) * b + (s3 - s2) * dt * db;
  };
  double best = std::max(a, b);
  // p'(s) = A s^2 + B s + C, s in (0, 1); its roots in the cancellation-free form q / A and C / q, q =
  // -(B + sign(B) sqrt(B^2 - 4 A C)) / 2 (A may be round-off of 0 where the interpolant is a quadratic).
  const double A = 6 * a + 3 * dt * da - 6 * b + 3 * dt * db, B = -6 * a - 4 * dt * da + 6 * b - 2 * dt * db, C = dt * da;
  const double disc = B * B - 4 * A * C;
  if (disc < 0.0) return best;
  const double q = -0.5 * (B + std::copysign(std::sqrt(disc), B));
  for (double r : {A != 0.0 ? q / A : -1.0, q != 0.0 ? C / q : -1.0})
    if (r > 0.0 && r < 1.0) best = std::max(best, at(r));
  return best;
}

SnapRun observe_snaps(const RunRequest& request) {
  SnapRun out;
  const RunKey& key = request.key;
  const Model& model = *key.c->model;
  const std::unique_ptr<Formulation> form = formulation_of_run(key, out.outcome);
  if (!form) return out;
  // Each link is taut from a closing (its gap reaching 0) to an opening (its tension falling through 0)
  // and slack between (SwitchingFunctions::gap): only the function that can end its present state is
  // watched, so a method's drift of a taut link's length is never read as a flight.
  const SwitchingFunctions& functions = *model.switching();
  bool first = true;
  double e0 = 0.0, balance_low = 0.0, t_prev = 0.0, energy_prev = 0.0, booked_prev = 0.0, phase_lo = 0.0, phase_hi = 0.0, dt_prev = 0.0, dt_prev2 = 0.0;
  out.balance_max = out.phase_drift_max = out.overstretch_max = out.opening_rate_max = 0.0;
  Eigen::VectorXd tension_prev, tension_rate_prev;  // the last sample's, for the peak between samples
  std::vector<bool> carried_prev;
  Eigen::VectorXd tension, tension_rate, gap, gap_rate, physical, physical_prev, physical_before, physical_before2;
  Eigen::Vector3d momentum0 = Eigen::Vector3d::Zero();
  double noether0 = 0.0;
  const bool has_noether = model.has_momentum_map();
  double energy0 = 0.0;
  Eigen::VectorXd watched_prev, watched_rate_prev, watched_rate_before, watched_rate_before2;
  Eigen::VectorXd gap_prev, gap_rate_prev;  // every link's, at the last sample (a rebound's timing)
  std::vector<double> closed_at;            // each link's last closing (s): a rebound leaves no earlier
  std::vector<bool> taut, armed;  // armed: a slack link whose gap has passed the tolerance, so that it can close
  const double at_length = functions.gap_tolerance;
  // The energy across a snap is read from the sample before it to kAfter samples after its detection:
  // a time-stepping scheme's impulse can come a step after its position crossed the length.
  // In a compliant discretisation (a penalty link) the loss is the dashpot's work over the whole contact: the
  // window lasts the contact's time as well.
  constexpr int kAfter = 2;
  const SwitchingFunctions::Compliant* compliant = functions.compliant_in(key.discretisation);
  const double contact_time = compliant ? compliant->contact_time : 0.0;
  struct Pending {
    size_t index;
    int left;
    double until;  // the window is open for `left` more samples and up to this time
    double energy_before, booked_before;
    bool open(double t) const { return left > 0 || t <= until; }
  };
  std::vector<Pending> pending;
  // A rebound's opening, found at sample t inside the length and moving inwards: the time its gap was 0,
  // extrapolated back from here, by the quadratic g - g' tau + g'' tau^2 / 2 = 0 where the sample before
  // was already moving inwards (g'' from the two rates, both after the impact), its root nearest the
  // linear one g / g' (the cancellation-free form), else the linear root. Its floor: the quadratic term's
  // change of the root, or, linear, g'' unknown, the interval. Not before the link's last closing, and
  // without an energy window of its own (the closing's covers the impulse).
  const auto rebound_opening = [&](Eigen::Index i, double t, double dt) {
    Switch sw;
    sw.element = int(i);
    sw.to_taut = false;
    const double g1 = gap[i], r1 = gap_rate[i];
    const double linear = g1 / r1;
    double tau = linear;
    sw.floor = dt;
    if (gap_rate_prev.size() == gap.size() && gap_rate_prev[i] < 0.0 && dt > 0.0) {
      const double s2 = (r1 - gap_rate_prev[i]) / dt, disc = r1 * r1 - 2.0 * s2 * g1;
      if (disc >= 0.0) {
        tau = 2.0 * g1 / (r1 - std::sqrt(disc));  // r1 < 0: the root of g1 - r1 tau + s2 tau^2 / 2 nearest g1 / r1
        sw.floor = std::abs(tau - linear);
      }
    }
    sw.t = std::clamp(t - tau, closed_at[size_t(i)], t);
    return sw;
  };
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    physical = form->physical_state(y);
    functions.evaluate(t, physical, tension, tension_rate);
    functions.gap(t, physical, gap, gap_rate);
    const double booked = -o.external_work, balance = o.energy - o.external_work;
    const Eigen::Index links = tension.size();
    if (first) {
      e0 = balance;
      energy0 = o.energy;
      momentum0 = o.linear_momentum;
      noether0 = o.momentum;
      if (has_noether) out.noether_momentum0 = noether0;
      taut.resize(size_t(links));
      armed.resize(size_t(links));
      for (Eigen::Index i = 0; i < links; ++i) {
        taut[size_t(i)] = gap[i] >= -at_length && tension[i] >= 0.0;
        armed[size_t(i)] = gap[i] < -at_length;
      }
      watched_rate_before = watched_rate_before2 = Eigen::VectorXd::Constant(links, kNoNumber);
      closed_at.assign(size_t(links), 0.0);
    }
    out.balance_max = std::max(out.balance_max, std::abs(balance - e0));
    balance_low = first ? balance - e0 : std::min(balance_low, balance - e0);
    if (first || balance - e0 - balance_low > out.balance_gain_max) out.balance_gain_max = balance - e0 - balance_low, out.balance_gain_time = t;
    out.overstretch_max = std::max(out.overstretch_max, o.constraint_err);
    out.opening_rate_max = std::max(out.opening_rate_max, o.constraint_rate_err);
    if (o.linear_momentum.allFinite() && momentum0.allFinite())
      out.momentum_err_max = std::max(std::isfinite(out.momentum_err_max) ? out.momentum_err_max : 0.0, (o.linear_momentum - momentum0).norm());
    if (has_noether)
      out.noether_momentum_err_max = std::max(std::isfinite(out.noether_momentum_err_max) ? out.noether_momentum_err_max : 0.0,
                                              std::abs(o.momentum - noether0));
    out.energy_lost = energy0 - o.energy;
    Eigen::VectorXd pulls;  // a compliant link's spring-dashpot force (N)
    if (compliant && compliant->pulls) {
      pulls = compliant->pulls(physical);
      for (Eigen::Index i = 0; i < pulls.size(); ++i)
        if (!std::isfinite(out.compliant_pull_min) || pulls[i] < out.compliant_pull_min) out.compliant_pull_min = pulls[i];
    }
    out.booked_total = booked;
    bool in_window = false;  // inside a snap's window: its phase starts after it
    for (Pending& pe : pending) {
      const bool open = pe.open(t);
      --pe.left;
      if (!open) continue;
      out.switches[pe.index].energy_drop = pe.energy_before - o.energy;
      out.switches[pe.index].booked = booked - pe.booked_before;
      in_window = true;
    }
    bool switched = false;
    const double dt = t - t_prev;
    Eigen::VectorXd watched(links), watched_rate(links);
    for (Eigen::Index i = 0; i < links; ++i) {
      const bool was_taut = taut[size_t(i)];
      // The function that ends the present state: a taut link's tension, a slack link's gap.
      watched[i] = was_taut ? tension[i] : gap[i];
      watched_rate[i] = was_taut ? tension_rate[i] : gap_rate[i];
      if (first) continue;
      if (!was_taut && gap[i] < -at_length) armed[size_t(i)] = true;
      // A taut link opens where its tension falls through 0; a slack one closes where its gap, having
      // passed the tolerance, comes back within it of 0.
      bool ends = was_taut ? tension[i] < 0.0 : armed[size_t(i)] && gap[i] >= -at_length;
      if (functions.rebounds && !ends) {
        // A rebound (e > 0). A taut link found inside its length beyond the tolerance and moving inwards
        // left the circle at its impact though its state's tension stays positive: an opening, timed by
        // the gap extrapolated back from this sample.
        if (was_taut && gap[i] < -at_length && gap_rate[i] < 0.0) {
          out.switches.push_back(rebound_opening(i, t, dt));
          taut[size_t(i)] = false;
          armed[size_t(i)] = true;
          watched[i] = gap[i];
          watched_rate[i] = gap_rate[i];
          watched_rate_before[i] = watched_rate_before2[i] = kNoNumber;
          switched = true;
          continue;
        }
        // A flight whose gap rate turned from outward to inward across the interval, its extrapolation from
        // the sample before reaching the length inside it: a hit and its rebound both inside the interval
        // (a method that locates the hit inside its step). The hit is a closing here; the next sample, inside
        // the length and moving inwards, reads the rebound as above.
        if (!was_taut && armed[size_t(i)] && gap_rate_prev.size() == links && gap_rate_prev[i] > 0.0 && gap_rate[i] < 0.0) {
          const double s2 = std::isfinite(watched_rate_before[i]) && dt_prev > 0.0 ? (gap_rate_prev[i] - watched_rate_before[i]) / dt_prev : 0.0;
          ends = gap_prev[i] + gap_rate_prev[i] * dt + 0.5 * s2 * dt * dt >= 0.0;
        }
      }
      if (!ends) {
        watched_rate_before2[i] = watched_rate_before[i];
        watched_rate_before[i] = watched_rate_prev[i];
        continue;
      }
      Switch sw;
      sw.element = int(i);
      sw.to_taut = !was_taut;
      // The run's own event function for this link at this sample (its mode's: the stabilised tension of a held
      // link, a free one's gap), beside the observer's reading.
      {
        Eigen::VectorXd own;
        form->switching_values(t, y, own);
        if (i < own.size()) sw.run_function = own[i];
      }
      // From the old side, the quadratic s0 + r0 tau + s2 tau^2 / 2 = 0 (s2 the rate's change over the last
      // old-side interval), by one correction of the linear root; the linear root where no s2 is known.
      // (A closing detected within the tolerance may have its zero just after the sample: up to 2 dt.)
      const double s0 = watched_prev[i], r0 = watched_rate_prev[i];
      const double s2 = std::isfinite(watched_rate_before[i]) && dt_prev > 0.0 ? (r0 - watched_rate_before[i]) / dt_prev : kNoNumber;
      const double s3 = std::isfinite(s2) && std::isfinite(watched_rate_before2[i]) && dt_prev2 > 0.0
                            ? (s2 - (watched_rate_before[i] - watched_rate_before2[i]) / dt_prev2) / (0.5 * (dt_prev + dt_prev2))
                            : kNoNumber;
      double tau = r0 != 0.0 ? -s0 / r0 : 0.5 * dt;
      if (r0 != 0.0 && std::isfinite(s2)) {
        // The root of s0 + r0 tau + s2 tau^2 / 2 nearest the linear one, in the cancellation-free form
        // -2 s0 / (r0 + sign(r0) sqrt(r0^2 - 2 s2 s0)); the linear root where the quadratic has none.
        const double disc = r0 * r0 - 2.0 * s2 * s0;
        if (disc >= 0.0) tau = -2.0 * s0 / (r0 + std::copysign(std::sqrt(disc), r0));
      }
      tau = std::clamp(tau, 0.0, 2.0 * dt);
      sw.t = t_prev + tau;
      // Its error: the cubic term and s2's own error (s3 dt / 2), |s3| (tau^3 / 6 + dt tau^2 / 4) / |s'|;
      // where s3 is unknown, the quadratic term 1/2 |s2| tau^2 / |s'|; the interval where neither is.
      sw.floor = r0 == 0.0 ? dt
                 : std::isfinite(s3) ? std::abs(s3) * (tau * tau * tau / 6.0 + dt_prev * tau * tau / 4.0) / std::abs(r0)
                 : std::isfinite(s2) ? 0.5 * std::abs(s2) * tau * tau / std::abs(r0)
                                     : dt;
      sw.energy_drop = energy_prev - o.energy;
      sw.booked = booked - booked_prev;
      // The law on the run's own state at the switch: the state before it, extrapolated over tau through the
      // last three samples (exact for a free flight under constant gravity, whose state is quadratic in t).
      if (sw.to_taut && functions.impact_loss) {
        Eigen::VectorXd at_switch = physical_prev;
        // Quadratic (Lagrange) through the last three samples where they are known, else linear through two.
        if (physical_before2.size() == physical_prev.size() && dt_prev > 0.0 && dt_prev2 > 0.0) {
          const double x0 = -(dt_prev + dt_prev2), x1 = -dt_prev, x = tau;  // the samples at x0, x1, 0
          at_switch = physical_before2 * (x - x1) * x / ((x0 - x1) * x0) + physical_before * (x - x0) * x / ((x1 - x0) * x1) +
                      physical_prev * (x - x0) * (x - x1) / (x0 * x1);
        } else if (physical_before.size() == physical_prev.size() && dt_prev > 0.0) {
          at_switch += (physical_prev - physical_before) * (tau / dt_prev);
        }
        sw.own_law = functions.impact_loss(sw.t, at_switch, int(i));
      }
      pending.push_back({out.switches.size(), kAfter, sw.t + contact_time, energy_prev, booked_prev});
      if (sw.to_taut) closed_at[size_t(i)] = sw.t;
      out.switches.push_back(sw);
      taut[size_t(i)] = !was_taut;
      armed[size_t(i)] = false;
      // The other function is watched from here on, with its own rate history.
      watched[i] = taut[size_t(i)] ? tension[i] : gap[i];
      watched_rate[i] = taut[size_t(i)] ? tension_rate[i] : gap_rate[i];
      watched_rate_before[i] = watched_rate_before2[i] = kNoNumber;
      switched = true;
    }
    // The largest tension of a link that carries one: read taut, or within the gap tolerance of its length
    // (a spurious opening read from a loose run's tension dipping through 0 leaves a link "slack" until its
    // gap has passed the tolerance; a method's held link can drift shorter than the tolerance). At the
    // sample, and between samples by Hermite interpolation where it carried one at both and no link switched
    // in the interval (an impulse inside it would make the interpolant meaningless).
    // In a compliant discretisation a link carries its spring-dashpot's pull, not the tension its state would
    // imply if held: that pull, at the samples (a penalty contact lasts many samples of the fine grid).
    const Eigen::VectorXd springs = pulls.size() && compliant->elastic ? compliant->elastic(physical) : Eigen::VectorXd();
    for (Eigen::Index i = 0; i < pulls.size(); ++i) {
      if (!std::isfinite(out.peak_tension) || pulls[i] > out.peak_tension) out.peak_tension = pulls[i], out.peak_time = t, out.peak_link = int(i);
      if (i < springs.size() && (!std::isfinite(out.elastic_peak) || springs[i] > out.elastic_peak))
        out.elastic_peak = springs[i], out.elastic_peak_time = t, out.elastic_peak_link = int(i);
    }
    for (Eigen::Index i = 0; i < links && pulls.size() == 0; ++i) {
      const bool carries = taut[size_t(i)] || gap[i] >= -at_length;
      if (!carries || !std::isfinite(tension[i])) continue;
      double peak = tension[i], when = t;
      if (!first && !switched && carried_prev.size() == size_t(links) && carried_prev[size_t(i)] && std::isfinite(tension_prev[i]) &&
          std::isfinite(tension_rate[i]) && std::isfinite(tension_rate_prev[i])) {
        const double between = hermite_max(tension_prev[i], tension_rate_prev[i], tension[i], tension_rate[i], dt);
        if (between > peak) peak = between, when = t - 0.5 * dt;  // inside the interval: its middle, to dt / 2
      }
      if (!std::isfinite(out.peak_tension) || peak * functions.stiffness > out.peak_tension)
        out.peak_tension = peak * functions.stiffness, out.peak_time = when, out.peak_link = int(i);
    }
    for (Eigen::Index i = 0; i < links; ++i) {
      out.gap_overstretch_max = std::max(std::isfinite(out.gap_overstretch_max) ? out.gap_overstretch_max : 0.0, std::max(gap[i], 0.0));
      if (gap[i] > at_length)
        out.gap_outward_rate_max = std::max(std::isfinite(out.gap_outward_rate_max) ? out.gap_outward_rate_max : 0.0, std::max(gap_rate[i], 0.0));
    }
    if (!std::isfinite(out.gap_outward_rate_max)) out.gap_outward_rate_max = 0.0;
    tension_prev = tension;
    tension_rate_prev = tension_rate;
    carried_prev.resize(size_t(links));
    for (Eigen::Index i = 0; i < links; ++i) carried_prev[size_t(i)] = taut[size_t(i)] || gap[i] >= -at_length;
    if (switched || in_window) {
      // A new switch closes the window of every earlier one.
      if (switched)
        for (size_t k = 0; k + 1 < pending.size(); ++k) pending[k].left = 0, pending[k].until = -std::numeric_limits<double>::infinity();
      phase_lo = phase_hi = balance - e0;
    } else if (!first) {
      phase_lo = std::min(phase_lo, balance - e0);
      phase_hi = std::max(phase_hi, balance - e0);
      out.phase_drift_max = std::max(out.phase_drift_max, phase_hi - phase_lo);
    }
    first = false;
    dt_prev2 = dt_prev;
    dt_prev = dt;
    t_prev = t;
    watched_prev = watched;
    watched_rate_prev = watched_rate;
    energy_prev = o.energy, booked_prev = booked;
    physical_before2 = physical_before;
    physical_before = physical_prev;
    physical_prev = physical;
    gap_prev = gap;
    gap_rate_prev = gap_rate;
  };
  const IntegrationOutcome run =
      integrate(*form, *key.integrator, request.settings, request.t_end(), request.measure.sample_interval, observer);
  out.outcome = run.outcome;
  out.counters = run.counters;
  out.runtime_s = run.runtime_s;
  if (run.ok()) {
    const Eigen::VectorXd end = form->physical_state(run.final_state);
    out.final_physical.assign(end.data(), end.data() + end.size());
  }
  summarise_impacts(run, out);
  if (const JumpLog* log = form->jump_log()) {
    out.own_log = true;
    for (const LoggedSwitch& r : log->records())
      if (r.t <= request.t_end()) out.own_switches.push_back({r.t, r.element, int(r.kind), r.loss, r.closing_rate, r.flight_depth, r.flight_time, r.flight_loss});
  }
  // A time-stepping scheme's record of the impulses it applied in its steps, as its own record of the closings: a scheme
  // with an impact law on a form that has one (not a compliant discretisation), every impact kept with its links.
  const auto* switching = key.c->model->switching();
  out.impact_record = !out.own_log && !key.integrator->impacts_by.empty() && switching && !switching->compliant_in(key.discretisation) &&
                      run.impacts_not_recorded == 0 &&
                      std::all_of(out.impact_times.begin(), out.impact_times.end(), [](const ImpactTime& i) { return !i.elements.empty(); });
  return out;
}

void summarise_impacts(const IntegrationOutcome& run, SnapRun& out) {
  out.impacts_applied = run.impacts_not_recorded;
  out.impact_times.clear();
  long step = -1;
  int in_step = 0;
  for (const AppliedImpact& impact : run.impacts) {
    if (impact.kind == AppliedImpact::Kind::Absorbed) {
      ++out.absorbed_rebounds;
      continue;
    }
    ++out.impacts_applied;
    out.links_closed += impact.links;
    ImpactTime time{impact.t, impact.kind == AppliedImpact::Kind::Located, impact.kind == AppliedImpact::Kind::AtStepMidpoint};
    for (const ClosedLink& link : impact.closed) time.elements.push_back(link.element), time.closing_rates.push_back(link.closing_rate);
    out.impact_times.push_back(std::move(time));
    out.most_links_in_an_impact = std::max(out.most_links_in_an_impact, impact.links);
    in_step = impact.step == step ? in_step + 1 : 1;
    if (in_step == 2) ++out.steps_with_several_impacts;
    step = impact.step;
    out.most_impacts_in_a_step = std::max(out.most_impacts_in_a_step, in_step);
  }
}

std::vector<double> applied_impact_times(const SnapRun& r) {
  std::vector<double> times;
  for (const ImpactTime& impact : r.impact_times) times.push_back(impact.t);
  return times;
}

std::vector<double> located_impact_times(const SnapRun& r) {
  std::vector<double> times;
  for (const ImpactTime& impact : r.impact_times)
    if (impact.located) times.push_back(impact.t);
  return times;
}

ImpactTime first_impact_from(const SnapRun& r, double t_from) {
  for (const ImpactTime& impact : r.impact_times)
    if (impact.t >= t_from) return impact;
  return {};
}

double time_run(const RunRequest& request) {
  const RunKey& key = request.key;
  std::string why_not;
  const std::unique_ptr<Formulation> form = key.c->model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
  double fastest = std::numeric_limits<double>::infinity(), total = 0.0;
  // A pass of a second or more is timed once: the machine's noise is a small part of it, and a stiff run
  // (a penalty cable's explicit run, bounded by its stability) would otherwise cost three.
  for (int pass = 0; form && (pass < 3 || total < 0.05) && pass < 1000 && !(pass >= 1 && fastest >= 1.0); ++pass) {
    const IntegrationOutcome run = integrate(*form, *key.integrator, request.settings, request.t_end(), request.t_end(),
                                             [](double, const Eigen::VectorXd&) {});
    if (!run.ok()) return kNoNumber;
    fastest = std::min(fastest, run.runtime_s);
    total += run.runtime_s;
  }
  return std::isfinite(fastest) ? fastest : kNoNumber;
}

}  // namespace tb::snap
