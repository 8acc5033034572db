#include "studies/slack_taut/slack_taut.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <list>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/input/applicability.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
#include "app/running/integrate.hpp"
#include "app/running/round_off.hpp"
#include "core/format.hpp"
#include "core/growth.hpp"
#include "core/metrics.hpp"
#include "core/table_reader.hpp"
#include "studies/section_readers.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::vector<StudySection::Span> SlackTaut::fixed_step_spans() const {
  std::vector<Span> spans{{"steps", t_end, *std::min_element(steps.begin(), steps.end())}};
  if (long_t_end > 0.0) spans.push_back({"long_t_end", long_t_end, long_h});
  return spans;
}

namespace {

constexpr double kNoNumber = std::numeric_limits<double>::quiet_NaN();
// The reference: the catalogue's cross-check solver with its events located, at this rtol (atol
// 1e-2 of it), and at ten times it for its agreement.
constexpr double kSlackReferenceRtol = 1e-12;
// Above this scatter factor about a fitted line, a fixed-step sweep's order is inconclusive
// (slack_taut.md: where in its step the kink falls moves the error by an O(1) factor).
constexpr double kPhaseScatterLimit = 2.0;

std::shared_ptr<const StudySection> read_slack_taut(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  if (c.model->switching_count() == 0)
    table.fail("t_end", "a case whose model declares switching functions (a tension-only cable: [model] cable = \"tension_only\")",
               "a model without them");
  SlackTaut s;
  s.t_end = table.positive_or("t_end", c.t_end);
  if (s.t_end > c.t_end) table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(s.t_end));
  s.steps = table.has("steps") ? table.positive_list("steps") : c.report.steps;
  s.tolerances = table.has("tolerances") ? table.positive_list("tolerances") : c.report.tolerances;
  if (s.steps.size() < OrderRules{}.min_points)
    table.fail("steps", "at least " + std::to_string(OrderRules{}.min_points) + " steps (an order's asymptotic range)",
               std::to_string(s.steps.size()));
  if (s.tolerances.size() < 3) table.fail("tolerances", "at least 3 tolerances", std::to_string(s.tolerances.size()));
  for (double h : s.steps)
    if (h > s.t_end) table.fail("steps", "steps no longer than t_end = " + format_g(s.t_end), format_g(h));
  s.sample_interval = table.positive_or("sample_interval", 1e-5);
  if (s.sample_interval > s.t_end) table.fail("sample_interval", "at most t_end = " + format_g(s.t_end), format_g(s.sample_interval));
  s.long_t_end = table.non_negative_or("long_t_end", 0.0);
  s.long_h = table.positive_or("long_h", c.h);
  // The long run is the study's own horizon, longer than the case's full runs need (its limit is
  // --max-steps, through fixed_step_spans).
  if (table.has("limit_key") != table.has("limit_values"))
    table.fail(table.has("limit_key") ? "limit_values" : "limit_key", "limit_key and limit_values together", "one of them");
  if (table.has("limit_key")) {
    s.limit_key = table.one_of("limit_key", {"stiffness", "EA"});
    s.limit_values = table.positive_list("limit_values");
    if (s.limit_values.size() < 2) table.fail("limit_values", "at least 2 values", std::to_string(s.limit_values.size()));
    s.limit_models = model_variants(table, in, s.limit_key, s.limit_values);
  }
  return std::make_shared<SlackTaut>(std::move(s));
}

// One switch a run made: when (s), which element, which way.
struct SwitchEvent {
  double t = 0.0;
  int element = 0;
  bool to_taut = false;
};
template <class V>
void describe(V& v, SwitchEvent& e) {
  v("t", e.t);
  v("element", e.element);
  v("to_taut", e.to_taut);
}

// What one run gives the study.
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
  // The jumps' root mean square, and that of their sums over each taut phase (its entry and its
  // exit): where the exit's jump undoes the entry's, the second is far below the first.
  double jump_rms = kNoNumber, phase_net_rms = kNoNumber;
  long taut_phases = 0;
  GrowthFit energy_growth;           // long runs
  std::vector<double> final_configuration;  // the physical state's configuration entries at t_end
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
  v("energy_growth", r.energy_growth);
  v("final_configuration", r.final_configuration);
}

// The zero of the cubic Hermite interpolant of s on [t0, t1] (values s0, s1 on opposite sides,
// rates r0, r1), by bisection on the side: the interpolant's error is O(dt^4) on a smooth s.
double hermite_crossing(double t0, double t1, double s0, double s1, double r0, double r1) {
  const double dt = t1 - t0;
  auto p = [&](double x) {
    const double x2 = x * x, x3 = x2 * x;
    return (2 * x3 - 3 * x2 + 1) * s0 + (x3 - 2 * x2 + x) * dt * r0 + (-2 * x3 + 3 * x2) * s1 + (x3 - x2) * dt * r1;
  };
  double a = 0.0, b = 1.0;
  const bool side0 = switching_side(s0);
  for (int i = 0; i < 60; ++i) {
    const double m = 0.5 * (a + b);
    (switching_side(p(m)) == side0 ? a : b) = m;
  }
  return t0 + 0.5 * (a + b) * dt;
}

// The configuration entries of a physical state (Model::physical_parts), all of it where the
// model does not say.
std::vector<double> configuration_of(const Model& model, const Eigen::VectorXd& physical) {
  const std::vector<PhysicalPart> parts = model.physical_parts();
  std::vector<double> out;
  for (Eigen::Index i = 0; i < physical.size(); ++i)
    if (parts.empty() || (size_t(i) < parts.size() && parts[size_t(i)] == PhysicalPart::Configuration)) out.push_back(physical[i]);
  return out;
}

// Runs one request and observes its switches and energy (the observer sees every sample the
// run's grid gives: every step end of a fixed-step method).
SlackRun observe_switches(const RunRequest& request, bool fit_growth_law) {
  SlackRun out;
  const RunKey& key = request.key;
  const Model& model = *key.c->model;
  std::string why_not;
  std::unique_ptr<Formulation> form;
  try {
    form = model.make_formulation(key.integrator->consumes, key.discretisation, why_not);
  } catch (const std::exception& e) {
    out.outcome = RunOutcome::failed_at(std::string("building the formulation failed: ") + e.what(), 0.0, 0);
    return out;
  }
  if (!form) {
    out.outcome = RunOutcome::not_applicable_because(why_not);
    return out;
  }
  MetricsAccumulator metrics;
  bool first = true;
  double e0 = 0.0, e_prev = 0.0, t_prev = 0.0, phase_lo = 0.0, phase_hi = 0.0;
  double jump_abs_sum = 0.0, jump_sq_sum = 0.0, net_sq_sum = 0.0, phase_net = 0.0;
  bool in_taut_phase = false;
  bool seen_slack_after_taut = false;
  out.peak_stretch = -std::numeric_limits<double>::infinity();
  out.first_peak_stretch = out.peak_stretch;
  out.jump_abs_max = 0.0;
  out.jump_sum = 0.0;
  out.phase_range_max = 0.0;
  Eigen::VectorXd s, rate, s_prev, rate_prev;
  Eigen::VectorXd physical;
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    metrics.add(t, o);
    physical = form->physical_state(y);
    model.switching()->evaluate(physical, s, rate);
    const double e = o.energy - o.external_work;
    if (first) {
      first = false;
      e0 = e;
      phase_lo = phase_hi = 0.0;
    } else {
      int switched = 0;
      for (Eigen::Index i = 0; i < s.size(); ++i) {
        if (switching_side(s_prev[i]) == switching_side(s[i])) continue;
        const bool to_taut = switching_side(s[i]);
        out.events.push_back({hermite_crossing(t_prev, t, s_prev[i], s[i], rate_prev[i], rate[i]), int(i), to_taut});
        if (!to_taut) seen_slack_after_taut = true;
        ++switched;
      }
      if (switched > 0) {
        // The energy error's change across the samples that bracket the switch, and a new phase.
        const double jump = (e - e0) - (e_prev - e0);
        out.jump_sum += jump;
        jump_abs_sum += std::abs(jump);
        out.jump_abs_max = std::max(out.jump_abs_max, std::abs(jump));
        jump_sq_sum += jump * jump;
        // A taut phase of the first element: from its entry to its exit (the single-element cases'
        // phases; on a chain, the first element's).
        const bool first_taut = switching_side(s[0]);
        if (first_taut && !in_taut_phase) in_taut_phase = true, phase_net = jump;
        else if (!first_taut && in_taut_phase) {
          in_taut_phase = false;
          phase_net += jump;
          net_sq_sum += phase_net * phase_net;
          ++out.taut_phases;
        } else if (in_taut_phase) {
          phase_net += jump;
        }
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
  const IntegrationOutcome run = integrate(*form, *key.integrator, request.settings, request.t_end(),
                                           request.measure.sample_interval, observer);
  out.outcome = run.outcome;
  out.counters = run.counters;
  out.runtime_s = run.runtime_s;
  const ConservationMetrics m = metrics.result();
  out.energy_err_max = m.energy_err_max;
  out.jump_abs_mean = out.events.empty() ? 0.0 : jump_abs_sum / double(out.events.size());
  out.jump_rms = out.events.empty() ? 0.0 : std::sqrt(jump_sq_sum / double(out.events.size()));
  out.phase_net_rms = out.taut_phases ? std::sqrt(net_sq_sum / double(out.taut_phases)) : kNoNumber;
  if (run.ok()) out.final_configuration = configuration_of(model, form->physical_state(run.final_state));
  if (fit_growth_law) {
    GrowthContext context;
    context.round_off_floor = round_off_floor(m.energy_magnitude, run.counters.steps);
    context.slowest_period = model.slowest_period_s();
    context.prediction = predicted_growth(key.integrator->traits, true, m.external_work_max == 0.0, model.damped());
    out.energy_growth = fit_growth(m.energy_growth.envelope, m.energy_growth.err_max, context);
  }
  return out;
}

enum class Role { Reference, ReferenceCheck, Fixed, Adaptive, Long, Limit };

struct SlackPoint {
  RunKey key;
  const Case* owner = nullptr;  // the case whose section it belongs to (a limit point's key is a variant)
  Role role = Role::Fixed;
  double h = 0.0;     // fixed step, or an adaptive method's first step
  double rtol = 0.0;  // adaptive
  bool locate = false;
  double limit_value = kNoNumber;
  SlackRun measured;
  bool adaptive() const { return key.integrator->adaptive; }
};
SlackPoint slack_point(RunKey key, const Case* owner, Role role, double h, double rtol = 0.0, bool locate = false) {
  SlackPoint p;
  p.key = std::move(key);
  p.owner = owner;
  p.role = role;
  p.h = h;
  p.rtol = rtol;
  p.locate = locate;
  return p;
}

std::string point_words(const SlackPoint& p) {
  switch (p.role) {
    case Role::Reference: return "reference, rtol = " + format_g(p.rtol);
    case Role::ReferenceCheck: return "reference check, rtol = " + format_g(p.rtol);
    case Role::Fixed: return "h = " + format_g(p.h, 6);
    case Role::Adaptive: return "rtol = " + format_g(p.rtol) + (p.locate ? ", events located" : ", stepped through");
    case Role::Long: return "long run, " + (p.adaptive() ? "rtol = " + format_g(p.rtol) + (p.locate ? ", events located" : ", stepped through")
                                                             : "h = " + format_g(p.h, 6));
    case Role::Limit: return "limit run at " + format_g(p.limit_value);
  }
  return "";
}

std::string role_name(Role r) {
  switch (r) {
    case Role::Reference: return "reference";
    case Role::ReferenceCheck: return "reference_check";
    case Role::Fixed: return "fixed";
    case Role::Adaptive: return "adaptive";
    case Role::Long: return "long";
    case Role::Limit: return "limit";
  }
  return "";
}

// Matches each expected switch to the run's nearest of the same element and direction: the
// largest time error, and how many expected switches found none.
struct EventComparison {
  double max_time_error = kNoNumber;
  int unmatched = 0;
};
EventComparison compare_events(const std::vector<SwitchEvent>& expected, const std::vector<SwitchEvent>& run) {
  EventComparison c;
  if (expected.empty()) return c;
  c.max_time_error = 0.0;
  for (const SwitchEvent& e : expected) {
    double best = std::numeric_limits<double>::infinity();
    for (const SwitchEvent& r : run)
      if (r.element == e.element && r.to_taut == e.to_taut) best = std::min(best, std::abs(r.t - e.t));
    if (std::isinf(best)) ++c.unmatched;
    else c.max_time_error = std::max(c.max_time_error, best);
  }
  return c;
}

// The shortest phase between two switches of one element in a list of switches (infinity where
// no element switches twice).
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
// Chatter: the phases of a run shorter than `threshold` (between two switches of one element).
int short_phases(const std::vector<SwitchEvent>& events, double threshold) {
  int n = 0;
  for (size_t i = 0; i < events.size(); ++i)
    for (size_t j = i + 1; j < events.size(); ++j)
      if (events[j].element == events[i].element) {
        if (std::abs(events[j].t - events[i].t) < threshold) ++n;
        break;
      }
  return n;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || a.size() != b.size()) return kNoNumber;
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

class SlackTautStudy final : public SweepStudy<SlackPoint, SlackRun> {
  using Point = SlackPoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const SlackTaut& section = *c.section<SlackTaut>();
    const IntegratorInfo& reference = context.catalogue->crosscheck();
    const std::string disc = c.model->default_discretisation();
    const bool ref_locates = IntegratorSettings::defaults(reference.settings, c.h).declares(kLocateEventsKey);
    points.push_back(slack_point(RunKey{&c, &reference, disc}, &c, Role::Reference, c.h, kSlackReferenceRtol, ref_locates));
    points.push_back(slack_point(RunKey{&c, &reference, disc}, &c, Role::ReferenceCheck, c.h, 10 * kSlackReferenceRtol, ref_locates));
    for (const RunKey& key : runs_of(c, context.catalogue->integrators)) {
      if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
      const IntegratorSettings defaults = c.settings_for(key.integrator->name);
      if (!key.integrator->adaptive) {
        for (double h : section.steps) points.push_back(slack_point(key, &c, Role::Fixed, h));
        if (section.long_t_end > 0.0) points.push_back(slack_point(key, &c, Role::Long, section.long_h));
        continue;
      }
      const bool can_locate = defaults.declares(kLocateEventsKey);
      for (const bool locate : {false, true}) {
        if (locate && !can_locate) continue;
        for (double rtol : section.tolerances) points.push_back(slack_point(key, &c, Role::Adaptive, c.h, rtol, locate));
        if (section.long_t_end > 0.0)
          points.push_back(slack_point(key, &c, Role::Long, c.h, defaults.tolerances().rtol, locate));
      }
    }
    for (size_t i = 0; i < section.limit_models.size(); ++i) {
      Case& variant = variants_.emplace_back(c);
      variant.model = section.limit_models[i];
      Point p = slack_point(RunKey{&variant, &reference, disc}, &c, Role::Limit, c.h, kSlackReferenceRtol, ref_locates);
      p.limit_value = section.limit_values[i];
      points.push_back(p);
    }
  }

  RunRequest request_of(const Point& p) const override {
    const SlackTaut& section = *p.owner->section<SlackTaut>();
    RunRequest request{p.key, p.key.c->settings_for(p.key.integrator->name), {}};
    if (p.role == Role::Reference || p.role == Role::ReferenceCheck || p.role == Role::Limit)
      request.settings = IntegratorSettings::defaults(p.key.integrator->settings, p.h);
    request.settings.h = p.h;
    if (p.adaptive()) {
      request.settings.set_tolerances({p.rtol, p.rtol * 1e-2});
      if (request.settings.declares(kLocateEventsKey)) request.settings.set(kLocateEventsKey, p.locate ? 1.0 : 0.0);
    }
    request.measure.t_end = p.role == Role::Long ? section.long_t_end : section.t_end;
    // A fixed-step method is observed at every step end; an adaptive one on the fine grid (the
    // long runs' on the case's own grid: their switches are counted, not timed).
    request.measure.sample_interval = !p.adaptive() ? p.h : p.role == Role::Long ? p.key.c->sample_interval : section.sample_interval;
    return request;
  }

  Job job_of(const Point& p, const RunRequest& request) const override {
    Job job{p.owner->name + " | " + p.key.label() + " | slack-taut " + point_words(p), request.t_end() / request.h()};
    if (p.role == Role::Limit) {
      job.label = p.owner->name + " | " + p.key.label() + " | slack-taut limit, " + p.owner->section<SlackTaut>()->limit_key +
                  " = " + format_g(p.limit_value);
      job.own_inputs = {{p.owner->section<SlackTaut>()->limit_key, format_g(p.limit_value, 17)}};
    }
    return job;
  }

  SlackRun run(const Point& p, const RunRequest& request) const override { return observe_switches(request, p.role == Role::Long); }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override;

 private:
  std::list<Case> variants_;  // stable addresses: the limit points refer to them
};

// ---- what is written ----

struct CaseExpectation {
  const SwitchingClosedForm* closed = nullptr;
  std::vector<SwitchEvent> switches;  // the closed form's (exact) or the reference's
  std::vector<double> configuration;  // at t_end: the closed form's (exact) or the reference's
  double configuration_agreement = 0.0;  // the reference's, against its check (0 for a closed form)
  double event_agreement = 0.0;
  std::string basis;  // "closed form" / "reference"
};

CaseExpectation expectation_of(const Case& c, const std::vector<const SlackPoint*>& of_case) {
  CaseExpectation x;
  const SlackTaut& section = *c.section<SlackTaut>();
  x.closed = c.model->switching_closed_form();
  const SlackPoint* ref = nullptr;
  const SlackPoint* check = nullptr;
  for (const SlackPoint* p : of_case) {
    if (p->role == Role::Reference) ref = p;
    if (p->role == Role::ReferenceCheck) check = p;
  }
  if (x.closed && x.closed->exact) {
    x.basis = "closed form";
    for (const auto& [t, to_taut] : x.closed->switches(section.t_end)) x.switches.push_back({t, 0, to_taut});
    Eigen::VectorXd y;
    if (x.closed->state && x.closed->state(section.t_end, y)) x.configuration = configuration_of(*c.model, y);
    return x;
  }
  x.basis = "reference";
  if (ref && ref->measured.outcome.ok()) {
    x.switches = ref->measured.events;
    x.configuration = ref->measured.final_configuration;
    if (check && check->measured.outcome.ok()) {
      x.configuration_agreement = max_abs_difference(ref->measured.final_configuration, check->measured.final_configuration);
      x.event_agreement = compare_events(ref->measured.events, check->measured.events).max_time_error;
    }
  }
  return x;
}

std::string cell(double x, int digits = 3) { return std::isfinite(x) ? format_g(x, digits) : std::string("—"); }

std::vector<std::string> SlackTautStudy::write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const {
  std::ofstream csv(dir / "slack_taut.csv");
  csv << "case,integrator,role,h,rtol,locate_events,t_end,status,steps,runtime_s,switches,expected_switches,"
         "unmatched_expected,event_time_err_max,position_err_end,first_peak_tension,peak_tension,energy_err_max,"
         "energy_jump_abs_max,energy_jump_abs_mean,energy_jump_sum,energy_phase_range_max,energy_growth_law,"
         "energy_growth_exponent,energy_growth_ci95_low,energy_growth_ci95_high,limit_value\n";
  std::ostringstream md;
  md << "# Cables that go slack: switches, energy and orders across the kink\n\n"
        "A tension-only element has no force while slack (|x| < u) and EA(|x| − u)/u when taut: the force is continuous, "
        "its derivative jumps, and the potential is C¹ but not C². Every run below is observed by one code: each sign "
        "change of an element's stretch s = |x| − u between two samples (every step end of a fixed-step method; a "
        "grid of an adaptive method's dense output) is a switch, timed by the zero of the cubic Hermite interpolant of "
        "s and ds/dt. Expected switches come from the closed form where the model's answers are exact, else from a "
        "reference (Dormand–Prince 5(4) with its events located at rtol 1e-12, its agreement measured against rtol "
        "1e-11); each is matched to the run's nearest switch of the same element and direction. A fixed-step method "
        "steps through the kink: the step that contains it integrates a force whose time derivative jumps, which a "
        "rule exact on linear functions integrates with an error O(h²) in the velocity, once per switch, so theory "
        "gives the global error O(h^min(p, 2)) for a method of order p. An adaptive method either steps through it, "
        "meeting it with its step control, or locates it (`locate_events = 1`: the step stops at the zero and the "
        "method restarts there). Every run: slack_taut.csv.\n";
  std::vector<std::vector<const Point*>> by_case;  // by the case whose section they are (a limit point's key is a variant)
  for (const Point& p : points) {
    if (by_case.empty() || by_case.back().front()->owner != p.owner) by_case.emplace_back();
    by_case.back().push_back(&p);
  }
  for (const std::vector<const Point*>& of_case : by_case) {
    const Case& c = *of_case.front()->owner;
    const SlackTaut& section = *c.section<SlackTaut>();
    const CaseExpectation x = expectation_of(c, of_case);
    const double stiffness = c.model->switching()->stiffness;
    // The position error's scale: the largest coordinate of the expected configuration at t_end.
    double position_scale = 0.0;
    for (double q : x.configuration) position_scale = std::max(position_scale, std::abs(q));
    md << "\n## " << c.name << "\n\n";
    if (x.closed) {
      md << "Closed form (" << x.closed->name << "): " << x.closed->basis << ".\n\n| quantity | closed form |\n|---|---:|\n";
      for (const auto& [name, value] : x.closed->quantities) md << "| " << name << " | " << format_g(value, 6) << " |\n";
      md << "\n";
    }
    md << "Expected switches over " << format_g(section.t_end, 6) << " s: " << x.switches.size() << ", from the " << x.basis;
    if (x.basis == "reference")
      md << " (its agreement with the rtol 1e-11 check: switch times " << cell(x.event_agreement) << " s, position at t_end "
         << cell(x.configuration_agreement) << " m)";
    // Chatter: phases far shorter than any the expected motion has.
    const double chatter_threshold = 0.1 * shortest_phase(x.switches);
    md << "; chatter is a phase between two switches of one element shorter than a tenth of the expected motion's "
          "shortest, "
       << (std::isfinite(chatter_threshold) ? format_g(chatter_threshold, 3) + " s" : std::string("(none: no element switches twice)"))
       << ".\n\n";
    // The runs' table.
    md << "| run | settings | status | switches (expected " << x.switches.size()
       << "); chatter | event-time error (s) | peak tension, first taut phase (N)"
       << (x.closed && std::isfinite(x.closed->peak_tension) ? ", closed form " + format_g(x.closed->peak_tension, 6) : std::string())
       << " | position error at t_end (m) | max \\|ΔE\\| (J) | energy jump at a switch, max / mean (J) | steps |\n"
          "|---|---|---|---:|---:|---:|---:|---:|---|---:|\n";
    for (const Point* p : of_case) {
      if (p->role == Role::Long || p->role == Role::Limit) continue;
      const SlackRun& r = p->measured;
      const bool ok = r.outcome.ok();
      const EventComparison ev = ok ? compare_events(x.switches, r.events) : EventComparison{};
      const double pos_err = ok ? max_abs_difference(r.final_configuration, x.configuration) : kNoNumber;
      md << "| " << p->key.label() << " | " << point_words(*p) << " | " << (ok ? "ok" : r.outcome.describe()) << " | "
         << (ok ? std::to_string(r.events.size()) + "; " +
                      (std::isfinite(chatter_threshold) ? std::to_string(short_phases(r.events, chatter_threshold)) : "—")
                : "—")
         << " | " << (ok ? cell(ev.max_time_error) : "—")
         << (ev.unmatched ? " (" + std::to_string(ev.unmatched) + " unmatched)" : "") << " | "
         << (ok ? cell(stiffness * r.first_peak_stretch, 6) : "—") << " | " << cell(pos_err) << " | "
         << (ok ? cell(r.energy_err_max) : "—") << " | " << (ok ? cell(r.jump_abs_max) + " / " + cell(r.jump_abs_mean) : "—")
         << " | " << r.counters.steps << " |\n";
      csv << c.name << ',' << p->key.label() << ',' << role_name(p->role) << ',' << format_g(p->h, 6) << ','
          << (p->adaptive() ? format_g(p->rtol) : "") << ',' << (p->adaptive() ? (p->locate ? "1" : "0") : "") << ','
          << format_g(section.t_end, 6) << ',' << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ','
          << format_g(r.runtime_s, 4) << ',' << (ok ? std::to_string(r.events.size()) : "") << ',' << x.switches.size() << ','
          << (ok ? std::to_string(ev.unmatched) : "") << ',' << (ok ? format_g(ev.max_time_error, 6) : "") << ','
          << (ok ? format_g(pos_err, 6) : "") << ',' << (ok ? format_g(stiffness * r.first_peak_stretch, 8) : "") << ','
          << (ok ? format_g(stiffness * r.peak_stretch, 8) : "") << ',' << (ok ? format_g(r.energy_err_max, 6) : "") << ','
          << (ok ? format_g(r.jump_abs_max, 6) : "") << ',' << (ok ? format_g(r.jump_abs_mean, 6) : "") << ','
          << (ok ? format_g(r.jump_sum, 6) : "") << ',' << (ok ? format_g(r.phase_range_max, 6) : "") << ",,,,,\n";
    }
    (void)stiffness;
    md << "\n";
    // Orders: fixed-step runs in h; adaptive ones in their mean step.
    const OrderRules rules;
    md << "### Orders\n\nPosition error at t_end and the largest event-time error: the least-squares slope of log error "
          "against log h over every usable point (completed, error at least "
       << format_g(rules.resolution) << "x the expected answer's uncertainty and at most " << format_g(rules.ceiling)
       << " of the quantity's scale), ± its 95% interval. Where in its step a kink falls changes from one h to the next and "
          "moves a fixed-step run's error by an O(1) factor, so local orders between successive steps scatter and only a "
          "fit over many steps measures the order. Fixed-step runs against h, judged against theory's min(p, 2) (above) "
          "by whether the interval holds it; adaptive runs against their mean step t_end/steps (a tolerance sweep: no "
          "declared order), stepped through and located.\n\n"
          "| run | how | theory | position error: order | event time: order |\n|---|---|---:|---|---|\n";
    std::vector<std::pair<std::string, std::vector<const Point*>>> sweeps;
    for (const Point* p : of_case) {
      if (p->role != Role::Fixed && p->role != Role::Adaptive) continue;
      const std::string how = p->role == Role::Fixed ? "stepped through, in h" : (p->locate ? "events located, in the mean step" : "stepped through, in the mean step");
      const std::string id = p->key.label() + "|" + how;
      auto it = std::find_if(sweeps.begin(), sweeps.end(), [&](const auto& s) { return s.first == id; });
      if (it == sweeps.end()) sweeps.push_back({id, {p}});
      else it->second.push_back(p);
    }
    for (const auto& [id, sweep] : sweeps) {
      const Point& first = *sweep.front();
      const double declared = first.role == Role::Fixed ? std::min(first.key.integrator->order, 2) : first.key.integrator->order;
      // A least-squares power law over every usable point (a completed run whose error stands 10x
      // above the expected answer's uncertainty and below 0.1 of the quantity's scale), with its 95%
      // interval: where in its step a kink falls moves a fixed-step run's error by a factor that
      // changes from one h to the next, so successive local orders scatter and the successive-point
      // rule of orders.csv finds no window; the fit over all points averages that phase.
      auto order_of = [&](bool position) {
        std::vector<double> hs, errs;
        std::string local;
        for (const Point* p : sweep) {
          const SlackRun& r = p->measured;
          if (!r.outcome.ok()) continue;
          const double err = position ? max_abs_difference(r.final_configuration, x.configuration)
                                      : compare_events(x.switches, r.events).max_time_error;
          const double h = p->role == Role::Fixed ? p->h : section.t_end / double(std::max<long>(1, r.counters.steps));
          const double scale = position ? position_scale : section.t_end;
          const double agreement = position ? x.configuration_agreement : x.event_agreement;
          if (!std::isfinite(err) || !(err >= rules.resolution * std::max(std::isfinite(agreement) ? agreement : 0.0, 1e-15 * scale)) ||
              !(err <= rules.ceiling * scale))
            continue;
          hs.push_back(h);
          errs.push_back(err);
        }
        if (hs.size() < 3) return std::string("inconclusive: ") + std::to_string(hs.size()) + " usable points of " +
                                  std::to_string(sweep.size()) + " (3 needed)";
        const PowerLawFit fit = fit_power_law(hs, errs);
        // The points' scatter about the line, as a factor: the kink's phase in the step.
        double sq = 0.0;
        for (size_t i = 0; i < hs.size(); ++i) {
          const double r = std::log(errs[i]) - (fit.a + fit.p * std::log(hs[i]));
          sq += r * r;
        }
        const double scatter = std::exp(std::sqrt(sq / double(hs.size())));
        std::string words = format_g(fit.p, 3) + " ± " + format_g(fit.ci95, 2) + " (" + std::to_string(fit.points) +
                            " points, scattered ×" + format_g(scatter, 2) + " about the line)";
        if (first.role != Role::Fixed || !position) return words;  // no declared order: the tolerance sweeps, the event times
        const double order = first.key.integrator->order;
        if (std::abs(fit.p - declared) <= fit.ci95) {
          if (order <= declared) return words + ": holds min(p, 2)";
          // A method of order p > 2: the reduction is shown only where the interval excludes p.
          if (std::abs(fit.p - order) <= fit.ci95)
            return words + ": inconclusive (the interval holds both min(p, 2) and p = " + format_g(order) + ")";
          return words + ": holds min(p, 2), excludes p = " + format_g(order);
        }
        // Where the points scatter by more than a factor 2 the kink's phase, not h, sets the errors
        // over this sweep: a slope through them judges neither way.
        if (scatter > kPhaseScatterLimit)
          return words + ": inconclusive (the kink's phase in the step scatters the errors by more than ×" +
                 format_g(kPhaseScatterLimit) + ")";
        return words + ": **excludes min(p, 2)**";
      };
      md << "| " << first.key.label() << " | " << id.substr(id.find('|') + 1) << " | "
         << (first.role == Role::Fixed ? "min(" + std::to_string(first.key.integrator->order) + ", 2) = " + format_g(declared)
                                       : std::string("—"))
         << " | " << order_of(true) << " | " << order_of(false) << " |\n";
    }
    // Long runs.
    bool any_long = false;
    for (const Point* p : of_case) any_long = any_long || p->role == Role::Long;
    if (any_long) {
      md << "\n### Over " << format_g(section.long_t_end, 6)
         << " s: the energy's growth law across many switches\n\n"
            "A symplectic method has a modified energy on each smooth piece of the motion (backward error analysis needs "
            "the vector field smooth over the step); a step across the kink leaves it by an amount O(h²) whose size and "
            "sign depend on where in the step the kink falls. If those phases are spread over the switches, the jumps "
            "add like a random walk and the energy error grows like √t; if they are biased, it drifts linearly; if the "
            "motion's period and h lock the phases, it stays bounded. The law below is fitted to the envelope of |E − E0| "
            "(long_time.md's rule, with its 95% interval), beside the sum of the signed jumps and the largest range "
            "between switches.\n\n"
            "| run | settings | status | switches (closed form); chatter | law of \\|E − E0\\| | max \\|ΔE\\| (J) | jump at a switch, rms (J) | "
            "net jump of a taut phase (entry + exit), rms (J) | a random walk of those: √(phases) × rms (J) | signed sum of the jumps (J) | "
            "largest range between switches (J) |\n|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n";
      for (const Point* p : of_case) {
        if (p->role != Role::Long) continue;
        const SlackRun& r = p->measured;
        const bool ok = r.outcome.ok();
        const size_t expected = x.closed && x.closed->exact ? x.closed->switches(section.long_t_end).size() : 0;
        md << "| " << p->key.label() << " | " << point_words(*p) << " | " << (ok ? "ok" : r.outcome.describe()) << " | "
           << (ok ? std::to_string(r.events.size()) : "—") << " (" << (expected ? std::to_string(expected) : "—") << "); "
           << (ok && std::isfinite(chatter_threshold) ? std::to_string(short_phases(r.events, chatter_threshold)) : "—") << " | "
           << (ok ? describe_growth(r.energy_growth) : "—") << " | " << (ok ? cell(r.energy_err_max) : "—") << " | "
           << (ok ? cell(r.jump_rms) : "—") << " | " << (ok ? cell(r.phase_net_rms) : "—") << " | "
           << (ok ? cell(std::sqrt(double(r.taut_phases)) * r.phase_net_rms) : "—") << " | " << (ok ? cell(r.jump_sum) : "—")
           << " | " << (ok ? cell(r.phase_range_max) : "—") << " |\n";
        csv << c.name << ',' << p->key.label() << ",long," << format_g(p->h, 6) << ',' << (p->adaptive() ? format_g(p->rtol) : "")
            << ',' << (p->adaptive() ? (p->locate ? "1" : "0") : "") << ',' << format_g(section.long_t_end, 6) << ','
            << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ',' << format_g(r.runtime_s, 4) << ','
            << (ok ? std::to_string(r.events.size()) : "") << ',' << expected << ",,,,"
            << (ok ? format_g(stiffness * r.first_peak_stretch, 8) : "") << ',' << (ok ? format_g(stiffness * r.peak_stretch, 8) : "")
            << ',' << (ok ? format_g(r.energy_err_max, 6) : "") << ',' << (ok ? format_g(r.jump_abs_max, 6) : "") << ','
            << (ok ? format_g(r.jump_abs_mean, 6) : "") << ',' << (ok ? format_g(r.jump_sum, 6) : "") << ','
            << (ok ? format_g(r.phase_range_max, 6) : "") << ',' << (ok ? to_string(r.energy_growth.law) : "") << ','
            << (ok ? format_g(r.energy_growth.exponent, 4) : "") << ',' << (ok ? format_g(r.energy_growth.ci95_low, 4) : "")
            << ',' << (ok ? format_g(r.energy_growth.ci95_high, 4) : "") << ",\n";
      }
    }
    // The limit.
    bool any_limit = false;
    for (const Point* p : of_case) any_limit = any_limit || p->role == Role::Limit;
    if (any_limit && x.closed) {
      const auto limit = x.closed->switches(section.t_end);
      md << "\n### The model's approach to the closed form's limit\n\nThe reference solver on the case at each "
         << section.limit_key << ": its first switches against the limit's (" << x.closed->name
         << "), and the rate at which the difference falls between successive values.\n\n| " << section.limit_key
         << " | switch | reference (s) | limit (s) | difference (s) | rate |\n|---:|---|---:|---:|---:|---:|\n";
      std::vector<double> previous(limit.size(), kNoNumber);
      double previous_value = kNoNumber;
      for (const Point* p : of_case) {
        if (p->role != Role::Limit) continue;
        const SlackRun& r = p->measured;
        for (size_t k = 0; k < limit.size(); ++k) {
          // The run's n-th switch of this direction, n the limit's count of that direction before it.
          const long n = std::count_if(limit.begin(), limit.begin() + long(k), [&](const auto& q) { return q.second == limit[k].second; });
          double t = kNoNumber;
          long seen = 0;
          for (const SwitchEvent& e : r.events)
            if (e.to_taut == limit[k].second && seen++ == n) {
              t = e.t;
              break;
            }
          const double d = std::abs(t - limit[k].first);
          const double rate = std::isfinite(previous[k]) ? std::log(previous[k] / d) / std::log(p->limit_value / previous_value) : kNoNumber;
          md << "| " << format_g(p->limit_value) << " | " << (limit[k].second ? "taut" : "slack") << " | " << cell(t, 9) << " | "
             << format_g(limit[k].first, 9) << " | " << cell(d) << " | " << cell(rate) << " |\n";
          csv << c.name << ',' << p->key.label() << ",limit," << format_g(p->h, 6) << ',' << format_g(p->rtol) << ",1,"
              << format_g(section.t_end, 6) << ',' << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ','
              << format_g(r.runtime_s, 4) << ',' << r.events.size() << ',' << limit.size() << ",," << format_g(d, 6)
              << ",,,,,,,,,,,,," << format_g(p->limit_value, 8) << '\n';
          previous[k] = d;
        }
        previous_value = p->limit_value;
      }
    }
  }
  std::ofstream(dir / "slack_taut.md") << md.str();
  return {(dir / "slack_taut.csv").string(), (dir / "slack_taut.md").string()};
}

}  // namespace

StudyInfo slack_taut_study() {
  StudyInfo info{SlackTaut::kStudy,
                 "cables that go slack ([report.slack_taut]): switches, event times, peak tension, energy jumps and "
                 "orders across the kink for every integrator, adaptive ones with and without event location, against "
                 "the closed form or a located reference",
                 "slack_taut.csv, slack_taut.md",
                 false,
                 {},
                 why_not_without_table<SlackTaut>,
                 [] { return std::make_unique<SlackTautStudy>(); },
                 read_slack_taut};
  info.pages = {{"slack_taut.md", "cables that go slack: switches, event times, energy jumps and orders across the kink"}};
  return info;
}

}  // namespace tb
