#include "studies/slack_taut/slack_taut.hpp"

#include <algorithm>
#include <random>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <numbers>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/input/applicability.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
#include "core/format.hpp"
#include "core/growth.hpp"
#include "core/table_reader.hpp"
#include "numerics/statistics.hpp"
#include "studies/section_readers.hpp"
#include "studies/slack_taut/observation.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::vector<StudySection::Span> SlackTaut::fixed_step_spans() const {
  std::vector<Span> spans{{"steps", t_end, *std::min_element(steps.begin(), steps.end())}};
  if (long_t_end > 0.0) spans.push_back({"long_t_end", long_t_end, *std::min_element(long_steps.begin(), long_steps.end())});
  return spans;
}

namespace {

using namespace slack_taut;

// The reference: the catalogue's cross-check solver with its events located, at this rtol (atol
// 1e-2 of it), and at ten times it for its agreement.
constexpr double kSlackReferenceRtol = 1e-12;
// Its check's tolerance (the catalogue's reference solver, its events located where it can).
constexpr double kReferenceCheckRtol = 1e-13;
// A fixed-step sweep point runs at its step and at kJitters steps moved by up to kJitterSpread
// (relative) around it: where in its step a kink falls changes with h and moves the error by an
// O(1) factor (a quadrature of (t - t*)_+ errs by c h^2 theta(1 - theta)/2, theta the kink's
// place in the step, near 0 at theta = 0 or 1); the root mean square over the moved steps averages
// that phase, so the order is fitted to it.
constexpr int kJitters = 8;
constexpr double kJitterSpread = 0.02;
// Located over stepped-through event-time errors within this band at some tolerance: no consistent effect.
constexpr std::pair<double, double> kNoEffectBand{0.8, 1.25};
// A moved run's event times are fitted only if at most this share of the expected switches is
// missed or added.
constexpr double kMismatchShare = 0.05;

std::shared_ptr<const StudySection> read_slack_taut(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  if (c.model->switching_count() == 0)
    table.fail("t_end", "a case whose model declares switching functions (a tension-only cable: [model] cable = \"tension_only\")",
               "a model without them");
  SlackTaut s;
  const EventSweep sweep = read_event_sweep(table, c, 1.0 + kJitterSpread);
  s.t_end = sweep.t_end;
  s.steps = sweep.steps;
  s.tolerances = sweep.tolerances;
  s.sample_interval = sweep.sample_interval;
  // The long run is the study's own horizon, longer than the case's full runs need (its limit is
  // --max-steps, through fixed_step_spans).
  s.long_t_end = table.non_negative_or("long_t_end", 0.0);
  s.long_steps = table.has("long_steps") ? table.positive_list("long_steps") : std::vector<double>{c.h};
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

std::string locate_words(bool locate) { return locate ? "events located" : "stepped through"; }

std::string point_words(const SlackPoint& p) {
  switch (p.role) {
    case Role::Reference: return "reference, rtol = " + format_g(p.rtol) + ", events located";
    case Role::ReferenceCheck: return "reference check, rtol = " + format_g(p.rtol) + ", " + locate_words(p.locate);
    case Role::Fixed: return "h = " + format_g(p.h, 6);
    case Role::Adaptive: return "rtol = " + format_g(p.rtol) + ", " + locate_words(p.locate);
    case Role::Long:
      return "long run, " + (p.adaptive() ? "rtol = " + format_g(p.rtol) + ", " + locate_words(p.locate) : "h = " + format_g(p.h, 6));
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

class SlackTautStudy final : public SweepStudy<SlackPoint, SlackRun> {
  using Point = SlackPoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const SlackTaut& section = *c.section<SlackTaut>();
    const IntegratorInfo& reference = context.catalogue->crosscheck();
    const std::string disc = c.model->default_discretisation();
    const bool ref_locates = IntegratorSettings::defaults(reference.settings, c.h).declares(kLocateEventsKey);
    points.push_back(slack_point(RunKey{&c, &reference, disc}, &c, Role::Reference, c.h, kSlackReferenceRtol, ref_locates));
    // The reference's check: an independent solver, the catalogue's reference (a method none of the
    // compared integrators is) at its own tight tolerance, locating the kinks too.
    const IntegratorInfo& independent = context.catalogue->reference();
    const bool independent_locates = IntegratorSettings::defaults(independent.settings, c.h).declares(kLocateEventsKey);
    points.push_back(slack_point(RunKey{&c, &independent, disc}, &c, Role::ReferenceCheck, c.h, kReferenceCheckRtol, independent_locates));
    for (const RunKey& key : runs_of(c, context.catalogue->integrators)) {
      if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
      const IntegratorSettings defaults = c.settings_for(key.integrator->name);
      if (!key.integrator->adaptive) {
        for (double h : section.steps) points.push_back(slack_point(key, &c, Role::Fixed, h));
        if (section.long_t_end > 0.0)
          for (double h : section.long_steps) points.push_back(slack_point(key, &c, Role::Long, h));
        continue;
      }
      const bool can_locate = defaults.declares(kLocateEventsKey);
      for (const bool locate : {false, true}) {
        if (locate && !can_locate) continue;
        for (double rtol : section.tolerances) points.push_back(slack_point(key, &c, Role::Adaptive, c.h, rtol, locate));
        if (section.long_t_end > 0.0) points.push_back(slack_point(key, &c, Role::Long, c.h, defaults.tolerances().rtol, locate));
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
    // The references run at their integrators' defaults (the independent check is no compared
    // integrator: the case has no settings for it); the compared ones at the case's.
    const bool reference = p.role == Role::Reference || p.role == Role::ReferenceCheck || p.role == Role::Limit;
    RunRequest request{p.key,
                       reference ? IntegratorSettings::defaults(p.key.integrator->settings, p.h)
                                 : p.key.c->settings_for(p.key.integrator->name),
                       {}};
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
    const double jitters = p.role == Role::Fixed ? 1 + kJitters : 1;
    Job job{p.owner->name + " | " + p.key.label() + " | slack-taut " + point_words(p), jitters * request.t_end() / request.h()};
    if (p.role == Role::Limit) {
      job.label = p.owner->name + " | " + p.key.label() + " | slack-taut limit, " + p.owner->section<SlackTaut>()->limit_key +
                  " = " + format_g(p.limit_value);
      job.own_inputs = {{p.owner->section<SlackTaut>()->limit_key, format_g(p.limit_value, 17)}};
    }
    if (p.role == Role::Fixed) job.own_inputs = {{"jitters", std::to_string(kJitters) + " within " + format_g(kJitterSpread)}};
    return job;
  }

  SlackRun run(const Point& p, const RunRequest& request) const override {
    SlackRun out = observe_switches(request, p.role == Role::Long);
    if (p.role != Role::Fixed) return out;
    for (int j = 0; j < kJitters; ++j) {
      RunRequest moved = request;
      moved.settings.h = p.h * (1.0 + kJitterSpread * (2.0 * j / (kJitters - 1) - 1.0));
      moved.measure.sample_interval = moved.settings.h;
      const SlackRun r = observe_switches(moved, false);
      out.jittered.push_back({moved.settings.h, r.outcome.ok(), r.events, r.final_configuration});
    }
    return out;
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override;

 private:
  std::list<Case> variants_;  // stable addresses: the limit points refer to them
};

// ---- what is written ----

// What a case's runs are judged against.
struct Expectation {
  const SwitchingClosedForm* closed = nullptr;
  std::vector<SwitchEvent> switches;  // the closed form's (exact) or the reference's
  std::vector<double> configuration;  // at t_end: the closed form's (exact) or the reference's
  double configuration_agreement = 0.0;  // the reference's, against its check (0 for a closed form)
  double event_agreement = 0.0;
  std::string basis;              // "closed form" / "reference"
  double shortest = 0.0;          // the shortest expected phase (s)
  double window = 0.0;            // the matching window: half the shortest expected phase (s)
  double position_scale = 1.0;    // the largest expected coordinate (m)
};

Expectation expectation_of(const Case& c, const std::vector<const SlackPoint*>& of_case) {
  Expectation x;
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
    for (const auto& [t, to_taut] : x.closed->switches(section.t_end)) x.switches.push_back({t, 0, to_taut, 0.0});
    // The crossing speeds of the closed form are those of the reference, which matches it.
    if (ref && ref->measured.outcome.ok() && ref->measured.events.size() == x.switches.size())
      for (size_t k = 0; k < x.switches.size(); ++k) x.switches[k].rate = ref->measured.events[k].rate;
    Eigen::VectorXd y;
    if (x.closed->state && x.closed->state(section.t_end, y)) x.configuration = configuration_of(*c.model, y);
  } else {
    x.basis = "reference";
    if (ref && ref->measured.outcome.ok()) {
      x.switches = ref->measured.events;
      x.configuration = ref->measured.final_configuration;
      if (check && check->measured.outcome.ok()) {
        x.configuration_agreement = max_abs_difference(ref->measured.final_configuration, check->measured.final_configuration);
        x.event_agreement =
            match_switches(ref->measured.events, check->measured.events, 1e-3, 0.0).max_time_error;
      }
    }
  }
  x.shortest = shortest_phase(x.switches);
  x.window = std::isfinite(x.shortest) ? 0.5 * x.shortest : section.t_end;
  for (double q : x.configuration) x.position_scale = std::max(x.position_scale, std::abs(q));
  return x;
}

std::string cell(double x, int digits = 3) { return std::isfinite(x) ? format_g(x, digits) : std::string("—"); }

// A run's mean step: the fixed step, or the horizon over an adaptive run's steps.
double mean_step(const SlackPoint& p, const SlackRun& r, double t_end) {
  return p.adaptive() ? t_end / double(std::max<long>(1, r.counters.steps)) : p.h;
}

// The chatter gap of a run: two of its steps (a phase that short is not resolved by the run).
double chatter_gap(const SlackPoint& p, const SlackRun& r, double t_end) { return 2.0 * mean_step(p, r, t_end); }

// The fitted order of one measure over a fixed-step sweep (the root mean square over each step's
// moved runs), in words, judged against min(p, 2) by one rule for both measures: the interval
// holds it; for p > 2 it must also exclude p; else it excludes it. Where the interval holds both
// (or neither and its points scatter more than x2) the words say so.
enum class Measure { Position, EventMedian, EventMax };
std::string order_words(const std::vector<const SlackPoint*>& sweep, const Expectation& x, double t_end, Measure measure) {
  const bool position = measure == Measure::Position;
  const OrderRules rules;
  std::vector<double> hs, errs;
  for (const SlackPoint* p : sweep) {
    std::vector<double> e;
    // A step longer than half the shortest phase may pass a short switch pair: its event times are
    // not fitted. Its position error is (rk2 on the driven tether converges at order 2 straight
    // through such steps: the pair is micrometres of stretch).
    if (!position && p->h > x.window) continue;
    for (const JitteredRun& j : p->measured.jittered) {
      if (!j.ok) continue;
      const SwitchMatch m = match_switches(x.switches, j.events, x.window, 0.0);
      // An event time is fitted only where the run's switches are the motion's: at most 5 % of the
      // expected switches missed or added (the tether's are hundreds). The position needs no match.
      if (!position && double(m.missed + m.spurious) > kMismatchShare * double(x.switches.size())) continue;
      e.push_back(position ? max_abs_difference(j.final_configuration, x.configuration)
                           : measure == Measure::EventMedian ? m.median_time_error : m.max_time_error);
    }
    if (e.size() < size_t(kJitters)) continue;  // a moved run failed, missed or added a switch: no point
    double sq = 0.0;
    bool finite = true;
    for (double v : e) finite = finite && std::isfinite(v), sq += v * v;
    const double rms = std::sqrt(sq / double(e.size()));
    const double scale = position ? x.position_scale : t_end;
    const double agreement = std::max(position ? x.configuration_agreement : x.event_agreement, 1e-15 * scale);
    if (!finite || !(rms >= rules.resolution * agreement) || !(rms <= rules.ceiling * scale)) continue;
    hs.push_back(p->h);
    errs.push_back(rms);
  }
  if (hs.size() < 3) return "inconclusive: " + std::to_string(hs.size()) + " usable steps of " + std::to_string(sweep.size()) + " (3 needed)";
  const PowerLawFit fit = fit_power_law(hs, errs);
  double sq = 0.0;
  for (size_t i = 0; i < hs.size(); ++i) {
    const double r = std::log(errs[i]) - (fit.a + fit.p * std::log(hs[i]));
    sq += r * r;
  }
  const double scatter = std::exp(std::sqrt(sq / double(hs.size())));
  const double order = sweep.front()->key.integrator->order, expected = std::min(order, 2.0);
  std::string words = format_g(fit.p, 3) + " ± " + format_g(fit.ci95, 2) + " (" + std::to_string(fit.points) + " steps, ×" +
                      format_g(scatter, 2) + " about the line)";
  if (measure == Measure::EventMax) return words;  // printed, not judged (the page says why)
  // The rule of orders.csv (app/judging/order_fit.hpp): an interval that misses the expected order
  // by at most its exclusion margin is a note, not a verdict against it.
  const double miss = std::abs(fit.p - expected) - fit.ci95, miss_p = std::abs(fit.p - order) - fit.ci95;
  const bool holds = miss <= rules.exclusion_margin, holds_p = miss_p <= rules.exclusion_margin;
  const std::string note = miss > 0.0 && holds ? " (its interval misses it by " + format_g(miss, 2) + ", within the " +
                                                     format_g(rules.exclusion_margin) + " margin of orders.csv)"
                                               : "";
  if (holds && order > expected && holds_p)
    return words + ": inconclusive (the interval holds both min(p, 2) = " + format_g(expected) + " and p = " + format_g(order) + ")";
  // The note is about min(p, 2), so it stands beside it (the fourth-round read, R9).
  if (holds) return words + ": holds min(p, 2)" + note + (order > expected ? ", excludes p = " + format_g(order) : "");
  return words + ": **excludes min(p, 2) = " + format_g(expected) + "**";
}

// Runs whose rows are the same numbers (the same discretisation reached by two integrators).
std::vector<std::pair<std::string, std::string>> identical_runs(const std::vector<const SlackPoint*>& of_case) {
  std::map<std::string, std::vector<const SlackPoint*>> by_label;
  for (const SlackPoint* p : of_case)
    if (p->role == Role::Fixed) by_label[p->key.label()].push_back(p);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (auto a = by_label.begin(); a != by_label.end(); ++a)
    for (auto b = std::next(a); b != by_label.end(); ++b) {
      if (a->second.size() != b->second.size()) continue;
      bool same = true;
      for (size_t i = 0; i < a->second.size() && same; ++i) {
        const SlackRun &x = a->second[i]->measured, &y = b->second[i]->measured;
        same = x.outcome.ok() && y.outcome.ok() && x.final_configuration == y.final_configuration &&
               x.energy_err_max == y.energy_err_max && x.events.size() == y.events.size();
      }
      if (same) pairs.emplace_back(a->first, b->first);
    }
  return pairs;
}

void write_case_header(std::ostringstream& md, const Case& c, const SlackTaut& section, const Expectation& x) {
  md << "\n## " << c.name << "\n\n" << c.description << ".\n\n";
  if (x.closed) {
    md << "Closed form (" << x.closed->name << "): " << x.closed->basis << ".\n\n| quantity | closed form |\n|---|---:|\n";
    for (const auto& [name, value] : x.closed->quantities)
      md << "| " << name << " | " << format_g(value, 6) << " |\n";
    md << "\n";
  }
  md << "Expected switches over " << format_g(section.t_end, 6) << " s: " << x.switches.size() << ", from the " << x.basis;
  if (x.basis == "reference")
    md << " (its agreement with an independent check, the catalogue's reference solver at rtol " << format_g(kReferenceCheckRtol)
       << ", its events located: switch times " << cell(x.event_agreement) << " s, position at t_end "
       << cell(x.configuration_agreement) << " m)";
  md << "; the shortest phase between two switches of one element " << cell(x.shortest) << " s, the slowest crossing |ds/dt| "
     << cell(slowest_crossing(x.switches)) << " m/s. Each expected switch is matched one to one to the run's nearest unmatched "
     << "switch of the same element and direction within half the shortest phase (" << cell(x.window)
     << " s): unmatched expected switches are missed, unmatched run switches spurious, and chatter is a spurious switch "
        "followed by its element's switch back within two of the run's steps. A fixed-step run whose step exceeds half the "
        "shortest phase (marked ¹) can pass over a switch pair shorter than two of its steps: its switch counts and event "
        "times may miss that pair; its other columns stand. A matched switch's error is at most the window by construction, so where a "
        "run misses switches (each one it makes further from the expected time than the window, or not at all) its largest "
        "event-time error is printed as \"> the window\": censored there, not measured. Where the model does work (damping, a driven point) ΔE is the balance residual E − E0 − W (the case's description "
        "says what E and W are). The peak tension is the largest over the elements. "
     << (c.model->damped() ? std::string("The energy step at a switch is the balance residual's change across it. ")
                           : std::string("The energy step at a switch: for the second-order methods mostly the change of the "
                                         "O((ωh)²) offset between E and the method's modified energy across it (it scales as "
                                         "h² and is the same for methods that share it); for the fourth-order ones, whose "
                                         "offset is O(h⁴), the jumps still scale as h²: they are the kink's own error") +
                                 (section.long_t_end > 0.0 ? " (the long runs' flight energies measure what the kink leaves). "
                                                           : ". "))
     << "A fixed step that does not divide t_end ends with a shorter last "
        "step. The step cost of a tension-only tether beside the bilateral one, per segment and step: benchmarks.md.\n\n";
}

void write_runs_table(std::ostringstream& md, std::ostream& csv, const Case& c, const SlackTaut& section, const Expectation& x,
                      const std::vector<const SlackPoint*>& of_case) {
  const double stiffness = c.model->switching()->stiffness;
  // A motion whose first switch is taut -> slack starts taut: its "first taut phase" is the start's
  // tension, not a catch's.
  const bool starts_taut = !x.switches.empty() && !x.switches.front().to_taut;
  md << "| run | settings | status | switches: matched / missed / spurious; chatter | event-time error, median / max (s) | "
        "peak tension, first taut phase / over the run (N)"
     << (x.closed && std::isfinite(x.closed->peak_tension) ? "; closed form " + format_g(x.closed->peak_tension, 6) : std::string())
     << (x.closed && std::isfinite(x.closed->peak_tension_over_run)
             ? "; over the run, the closed form's snap " + format_g(x.closed->peak_tension_over_run, 6) +
                   (x.closed->exact ? std::string() : " (the stiff spring's response to the limit's catch state, not a limit answer: the limit table)")
             : std::string())
     << " | position error at t_end (m) | max \\|ΔE\\| (J) | energy step at a switch, max / mean (J) | steps | runtime (s) |\n"
        "|---|---|---|---|---|---|---:|---:|---|---:|---:|\n";
  for (const SlackPoint* p : of_case) {
    if (p->role == Role::Long || p->role == Role::Limit) continue;
    const SlackRun& r = p->measured;
    const bool ok = r.outcome.ok();
    const SwitchMatch m = ok ? match_switches(x.switches, r.events, x.window, chatter_gap(*p, r, section.t_end)) : SwitchMatch{};
    const double pos_err = ok ? max_abs_difference(r.final_configuration, x.configuration) : kNoNumber;
    // Fixed steps only: an adaptive method's steps shrink at the switches, whatever its mean step.
    const bool unresolved = ok && !p->adaptive() && p->h > x.window;
    // The reference check (the catalogue's reference solver) has no dense output: its samples are
    // its own steps, too far apart to read a peak from.
    const bool sampled_peaks = p->role != Role::ReferenceCheck;
    md << "| " << p->key.label() << " | " << point_words(*p) << (unresolved ? " ¹" : "") << " | "
       << (ok ? "ok" : r.outcome.describe()) << " | ";
    if (ok)
      md << m.matched << " / " << m.missed << " / " << m.spurious << "; " << m.chatter << " | " << cell(m.median_time_error) << " / "
         << (m.missed > 0 ? "> " + cell(x.window) : cell(m.max_time_error)) << " | "
         << (sampled_peaks ? (starts_taut ? std::string("— (starts taut)") : cell(stiffness * r.first_peak_stretch, 6)) + " / " +
                                 cell(stiffness * r.peak_stretch, 6)
                           : std::string("— (samples at its own steps only)"))
         << " | " << cell(pos_err) << " | " << cell(r.energy_err_max) << " | " << cell(r.jump_abs_max) << " / " << cell(r.jump_abs_mean);
    else
      md << "— | — | — | — | — | —";
    md << " | " << r.counters.steps << " | " << cell(r.runtime_s) << " |\n";
    csv << c.name << ',' << p->key.label() << ',' << role_name(p->role) << ',' << format_g(p->h, 6) << ','
        << (p->adaptive() ? format_g(p->rtol) : "") << ',' << (p->adaptive() ? (p->locate ? "1" : "0") : "") << ','
        << format_g(section.t_end, 6) << ',' << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ','
        << format_g(r.runtime_s, 4) << ',' << (ok ? std::to_string(r.events.size()) : "") << ',' << x.switches.size() << ',';
    if (ok)
      csv << m.matched << ',' << m.missed << ',' << m.spurious << ',' << m.chatter << ',' << format_g(m.median_time_error, 6) << ','
          << format_g(m.max_time_error, 6) << ',' << format_g(pos_err, 6) << ',' << format_g(stiffness * r.first_peak_stretch, 8)
          << ',' << format_g(stiffness * r.peak_stretch, 8) << ',' << format_g(r.energy_err_max, 6) << ','
          << format_g(r.jump_abs_max, 6) << ',' << format_g(r.jump_abs_mean, 6) << ',' << format_g(r.jump_sum, 6) << ','
          << format_g(r.phase_range_max, 6);
    else
      csv << ",,,,,,,,,,,,,";
    csv << ",,,,,,,,\n";
    for (const JitteredRun& j : r.jittered) {  // the moved runs the orders are fitted to
      const SwitchMatch jm = match_switches(x.switches, j.events, x.window, 2.0 * j.h);
      csv << c.name << ',' << p->key.label() << ",fixed_moved," << format_g(j.h, 8) << ",,," << format_g(section.t_end, 6) << ','
          << (j.ok ? "ok" : "failed") << ",,," << j.events.size() << ',' << x.switches.size() << ',' << jm.matched << ','
          << jm.missed << ',' << jm.spurious << ',' << jm.chatter << ',' << format_g(jm.median_time_error, 6) << ','
          << format_g(jm.max_time_error, 6) << ',' << format_g(max_abs_difference(j.final_configuration, x.configuration), 6)
          << ",,,,,,,,,,,,,,,\n";
    }
  }
  md << "\n";
  const auto same = identical_runs(of_case);
  if (!same.empty()) {
    md << "Identical rows (the same discretisation reached by two integrators, every number equal): ";
    for (size_t i = 0; i < same.size(); ++i) md << (i ? "; " : "") << same[i].first << " and " << same[i].second;
    md << ". Two integrators that coincide on one case and not on another discretise something differently there (a "
          "damping force, a constraint).\n\n";
  }
}

// Each integrator's finest step (fixed-step) or tightest tolerance (adaptive, once stepped through
// and once located) among the runs that completed, keyed by its label.
std::map<std::string, const SlackPoint*> finest_runs(const std::vector<const SlackPoint*>& of_case) {
  std::map<std::string, const SlackPoint*> finest;
  for (const SlackPoint* p : of_case) {
    if ((p->role != Role::Fixed && p->role != Role::Adaptive) || !p->measured.outcome.ok()) continue;
    const std::string id = p->key.label() + (p->adaptive() ? "|" + locate_words(p->locate) : "");
    auto it = finest.find(id);
    const double size = p->adaptive() ? p->rtol : p->h;
    if (it == finest.end() || size < (it->second->adaptive() ? it->second->rtol : it->second->h)) finest[id] = p;
  }
  return finest;
}

// A closed form's named quantity by the start of its name (NaN where it has none).
double closed_form_quantity(const SwitchingClosedForm& closed, const std::string& start) {
  for (const auto& [name, value] : closed.quantities)
    if (name.rfind(start, 0) == 0) return value;
  return kNoNumber;
}

// The limit's answers against each run's (closed forms that are a limit of the model, not its
// exact motion: the whirling string's inextensible limit): the first slack time, the catch (the
// next slack -> taut switch) and the peak tension over the run (the snap load), each beside the
// reference's (the model's own converged answer at the case's stiffness), so that a run's error
// (run - reference) and the model's distance from the limit (reference - limit) are told apart.
void write_limit_comparison(std::ostringstream& md, const Case& c, const Expectation& x,
                            const std::vector<const SlackPoint*>& of_case) {
  if (!x.closed || x.closed->exact) return;
  const double slack = closed_form_quantity(*x.closed, "slack time"), caught = closed_form_quantity(*x.closed, "catch time");
  const double snap = x.closed->peak_tension_over_run;
  if (!std::isfinite(slack) || !std::isfinite(caught)) return;
  const double stiffness = c.model->switching()->stiffness;
  struct Answers {
    double slack = kNoNumber, caught = kNoNumber, snap = kNoNumber;
  };
  const auto answers_of = [&](const SlackRun& r) {
    Answers a;
    for (size_t k = 0; k < r.events.size(); ++k)
      if (!r.events[k].to_taut) {
        a.slack = r.events[k].t;
        for (size_t j = k + 1; j < r.events.size(); ++j)
          if (r.events[j].to_taut && r.events[j].element == r.events[k].element) {
            a.caught = r.events[j].t;
            break;
          }
        break;
      }
    a.snap = stiffness * r.peak_stretch;
    return a;
  };
  const SlackPoint* ref = nullptr;
  for (const SlackPoint* p : of_case)
    if (p->role == Role::Reference && p->measured.outcome.ok()) ref = p;
  if (!ref) return;
  const Answers model = answers_of(ref->measured);
  md << "### The limit's answers against the measured\n\n" << x.closed->name << ": " << x.closed->basis
     << ". Its first slack time, its catch (the next slack → taut switch) and the snap load at the catch (the peak tension "
        "over the run) against the reference's, the model's own converged answers at the case's element stiffness "
     << format_g(stiffness, 6)
     << " N/m (their difference is the model's distance from the limit, O(m v²/(k L)): the table below), and for each "
        "integrator at its finest step or tightest tolerance its answers as errors against the reference (the run's own "
        "error; its error against the limit's times is that plus the model's distance, the third row). The snap load is the stiff "
        "spring's response to the limit's catch state, not a limit answer (the next table).\n\n"
        "| | slack time (s) | catch time (s) | snap load (N): the formula at the limit's catch state, not a limit |\n|---|---:|---:|---:|\n"
     << "| the limit (closed form) | " << format_g(slack, 9) << " | " << format_g(caught, 9) << " | " << cell(snap, 6) << " |\n"
     << "| the model (" << point_words(*ref) << ") | " << cell(model.slack, 9) << " | " << cell(model.caught, 9)
     << " | " << cell(model.snap, 6) << " |\n"
     << "| the model − the limit (snap: − the formula) | " << cell(model.slack - slack) << " | " << cell(model.caught - caught) << " | "
     << cell(model.snap - snap) << " |\n\n"
     << "| run | settings | slack time − reference (s) | catch time − reference (s) | snap load − reference (N) |\n"
        "|---|---|---:|---:|---:|\n";
  for (const auto& [id, p] : finest_runs(of_case)) {
    const Answers a = answers_of(p->measured);
    md << "| " << p->key.label() << " | " << point_words(*p) << " | " << cell(a.slack - model.slack) << " | "
       << cell(a.caught - model.caught) << " | " << cell(a.snap - model.snap) << " |\n";
  }
  md << "\n";
}

// The closed form's durations against each run's (exact closed forms only): entry speed from the
// crossing rates, taut duration and slack flight from successive switches, the first taut phase's peak tension.
void write_closed_form_comparison(std::ostringstream& md, const Case& c, const Expectation& x,
                                  const std::vector<const SlackPoint*>& of_case) {
  if (!x.closed || !x.closed->exact || x.closed->quantities.size() < 4) return;
  const double v0 = closed_form_quantity(*x.closed, "entry speed"), taut = closed_form_quantity(*x.closed, "taut duration"),
               flight = closed_form_quantity(*x.closed, "slack flight");
  if (!std::isfinite(v0) || !std::isfinite(taut) || !std::isfinite(flight)) return;
  const double stiffness = c.model->switching()->stiffness;
  md << "### The closed form against the measured\n\nFor each integrator its finest step (fixed-step) or tightest tolerance "
        "(adaptive, stepped through and located): the largest error over the run's switches of the entry speed (the "
        "crossing rate ds/dt at each slack → taut switch), of each taut duration and each slack flight (successive "
        "switches), and the first taut phase's peak tension. Both are read from the run's samples (a fixed-step run's step "
        "ends, an adaptive run's dense output on its grid) and its located switches' rates: the peak between two samples "
        "Δ apart is missed by up to ½ k A ω² (Δ/2)² (1e-5 N at Δ = 2.5e-4 s here), and a rate taken from an interpolant "
        "whose step straddles or restarts at the kink errs at the interpolant's order there, not the solution's.\n\n"
        "| run | settings | entry speed " << format_g(v0, 6) << " m/s: max error | taut duration " << format_g(taut, 6)
     << " s: max error | slack flight " << format_g(flight, 6) << " s: max error | peak tension " << format_g(x.closed->peak_tension, 6)
     << " N: error |\n|---|---|---:|---:|---:|---:|\n";
  for (const auto& [id, p] : finest_runs(of_case)) {
    const auto& ev = p->measured.events;
    double e_v = 0.0, e_taut = 0.0, e_flight = 0.0;
    for (size_t k = 0; k < ev.size(); ++k) {
      if (ev[k].to_taut) e_v = std::max(e_v, std::abs(std::abs(ev[k].rate) - v0));
      if (k + 1 < ev.size()) {
        const double d = ev[k + 1].t - ev[k].t;
        if (ev[k].to_taut && !ev[k + 1].to_taut) e_taut = std::max(e_taut, std::abs(d - taut));
        if (!ev[k].to_taut && ev[k + 1].to_taut) e_flight = std::max(e_flight, std::abs(d - flight));
      }
    }
    md << "| " << p->key.label() << " | " << point_words(*p) << " | " << cell(e_v) << " | " << cell(e_taut) << " | "
       << cell(e_flight) << " | " << cell(std::abs(stiffness * p->measured.first_peak_stretch - x.closed->peak_tension)) << " |\n";
  }
  md << "\n";
}

void write_orders(std::ostringstream& md, const SlackTaut& section, const Expectation& x, const std::vector<const SlackPoint*>& of_case) {
  md << "### Orders of the fixed-step methods through the kink\n\n"
        "Each step of the sweep is run at "
     << kJitters << " steps moved by up to ±" << format_g(100 * kJitterSpread)
     << " % around it: where in its step a kink falls changes with h and moves a run's error by an O(1) factor (the kink "
        "term of the step's quadrature is c h² f(θ), θ the kink's place in the step and f the method's: θ(1 − θ)/2 for "
        "the trapezoidal velocity update of Störmer–Verlet), so the root mean square over "
        "the moved runs is fitted, a least-squares slope of log error against log h ± its 95 % interval, with the points' "
        "scatter about the line. Theory: min(p, 2) (above); one rule for both judged columns: the interval holds it (and, "
        "for p > 2, excludes p), within the 0.1 margin the report's order rule allows (work_precision's orders.csv), or the "
        "verdict says what it holds. For the second-order "
        "methods min(p, 2) = p: their rows do not test the kink's effect, only the fourth-order ones do (the same methods "
        "reach their declared orders on the smooth elastic pendulum: the gate's order checks). The event times: a switch "
        "whose stretch crosses 0 at a rate ds/dt moves by δs/|ds/dt| for an error δs, at the order of the state, so the "
        "median over the switches is judged; the largest is printed, not judged: it is one switch's, whichever the matching "
        "window (half the shortest phase) lets through, and near a grazing switch δt ~ √(2δs/|d²s/dt²|). Fitted only: "
        "for the event times, steps of at most half the shortest phase and moved runs that miss or "
        "add at most 5 % of the expected switches; the moved runs are in slack_taut.csv (role fixed_moved).\n\n"
        "| run | theory min(p, 2) | position error at t_end: order | median event-time error: order | largest event-time error: order (not judged) |\n|---|---:|---|---|---|\n";
  std::vector<std::pair<std::string, std::vector<const SlackPoint*>>> sweeps;
  for (const SlackPoint* p : of_case) {
    if (p->role != Role::Fixed) continue;
    auto it = std::find_if(sweeps.begin(), sweeps.end(), [&](const auto& s) { return s.first == p->key.label(); });
    if (it == sweeps.end()) sweeps.push_back({p->key.label(), {p}});
    else it->second.push_back(p);
  }
  for (const auto& [label, sweep] : sweeps)
    md << "| " << label << " | " << format_g(std::min<double>(sweep.front()->key.integrator->order, 2.0)) << " | "
       << order_words(sweep, x, section.t_end, Measure::Position) << " | " << order_words(sweep, x, section.t_end, Measure::EventMedian)
       << " | " << order_words(sweep, x, section.t_end, Measure::EventMax) << " |\n";
  md << "\n";
}

// Located against stepped through, tolerance by tolerance: the ratios, and what they say.
void write_location_comparison(std::ostringstream& md, const Expectation& x,
                               const std::vector<const SlackPoint*>& of_case) {
  std::map<std::string, std::map<double, std::pair<const SlackPoint*, const SlackPoint*>>> pairs;  // label -> rtol -> (stepped, located)
  for (const SlackPoint* p : of_case) {
    if (p->role != Role::Adaptive) continue;
    auto& slot = pairs[p->key.label()][p->rtol];
    (p->locate ? slot.second : slot.first) = p;
  }
  bool any = false;
  for (const auto& [label, by_tol] : pairs)
    for (const auto& [tol, pr] : by_tol) any = any || (pr.first && pr.second);
  if (!any) return;
  md << "### Adaptive methods: events located against stepped through\n\nAt each tolerance, located over stepped through: the "
        "ratio of the median event-time error (the judged measure, as in the orders; none where either run misses switches, "
        "whose errors are then censored at the matching window, and none where the two are equal, the same computation up "
        "to the switch that sets it), of the position error at t_end, of the energy error, of the steps and of the runtime "
        "(single passes), and the matched switches of each. On the median ratios: a gain is a ratio below 0.8 at every "
        "tolerance that has one, a loss above 1.25 at every one, no gain every ratio at or above 0.8, and mixed (no "
        "consistent effect) anything else; a verdict needs two tolerances with a ratio, else it is inconclusive.\n\n"
        "| run | rtol | median event-time error | position error | max \\|ΔE\\| | steps | runtime | matched switches: stepped / "
        "located |\n|---|---:|---|---:|---:|---:|---:|---|\n";
  std::ostringstream verdicts;
  for (const auto& [label, by_tol] : pairs) {
    std::vector<double> ev_ratios, step_ratios, time_ratios;
    int more_matched = 0;  // tolerances at which the located run matches more switches
    std::string matched_words;
    for (const auto& [tol, pr] : by_tol) {
      if (!pr.first || !pr.second || !pr.first->measured.outcome.ok() || !pr.second->measured.outcome.ok()) continue;
      const SlackRun &a = pr.first->measured, &b = pr.second->measured;
      const SwitchMatch ma = match_switches(x.switches, a.events, x.window, 0.0), mb = match_switches(x.switches, b.events, x.window, 0.0);
      // A run that misses switches has its largest error censored at the window: no ratio.
      const bool censored = ma.missed > 0 || mb.missed > 0;
      if (mb.matched > ma.matched) {
        matched_words += std::string(more_matched ? ", " : "located, it matches more switches at rtol ") + format_g(tol) + " (" +
                         std::to_string(ma.matched) + " → " + std::to_string(mb.matched) + ")";
        ++more_matched;
      }
      const double ea = ma.median_time_error, eb = mb.median_time_error;
      const bool same = !censored && ea == eb;
      const double ratio = censored || same ? kNoNumber : eb / ea;
      const double pa = max_abs_difference(a.final_configuration, x.configuration), pb = max_abs_difference(b.final_configuration, x.configuration);
      const double sr = double(b.counters.steps) / double(std::max<long>(1, a.counters.steps));
      const double tr = b.runtime_s / a.runtime_s;
      md << "| " << label << " | " << format_g(tol) << " | "
         << (censored ? "— (censored: missed switches)" : same ? "— (equal: the same computation)" : cell(ratio)) << " | "
         << cell(pb / pa) << " | " << cell(b.energy_err_max / a.energy_err_max) << " | " << cell(sr) << " | " << cell(tr, 2)
         << " | " << ma.matched << " / " << mb.matched << " of " << x.switches.size() << " |\n";
      if (std::isfinite(ratio)) ev_ratios.push_back(ratio);
      step_ratios.push_back(sr);
      if (std::isfinite(tr)) time_ratios.push_back(tr);
    }
    if (ev_ratios.empty()) continue;
    if (ev_ratios.size() < 2) {
      verdicts << "- " << label << ": inconclusive: one tolerance with a ratio (median event-time error ×"
               << format_g(ev_ratios.front(), 2) << ")" << (more_matched > 0 ? "; " + matched_words : std::string()) << ".\n";
      continue;
    }
    const auto [lo, hi] = std::minmax_element(ev_ratios.begin(), ev_ratios.end());
    const auto [slo, shi] = std::minmax_element(step_ratios.begin(), step_ratios.end());
    std::string cost;
    if (!time_ratios.empty()) {
      const auto [tlo, thi] = std::minmax_element(time_ratios.begin(), time_ratios.end());
      cost = ", runtime ×" + format_g(*tlo, 2) + " to ×" + format_g(*thi, 2);
    }
    verdicts << "- " << label << ": median event-time error ×" << format_g(*lo, 2) << " to ×" << format_g(*hi, 2) << ", steps ×"
             << format_g(*slo, 2) << " to ×" << format_g(*shi, 2) << cost << ": "
             << (*hi < kNoEffectBand.first ? "locating the kinks is a gain in event timing at every tolerance with a ratio"
                 : *lo > kNoEffectBand.second ? "locating the kinks is a loss in event timing at every tolerance with a ratio"
                 : *lo >= kNoEffectBand.first ? "no gain from locating the kinks in event timing at any tolerance"
                                              : "mixed: no consistent effect of locating the kinks on event timing")
             << (more_matched > 0 ? "; " + matched_words + " (the stepped-through run at a tighter rtol is the other way to keep "
                                                           "them: compare its rows' runtimes)"
                                  : std::string())
             << ".\n";
  }
  // The adaptive methods' convergence in their tolerance, each mode apart (issue 47: "the order with
  // events located and stepped through"): the position error at t_end against rtol, a least-squares
  // slope of the logs. Printed, not judged: a method's error per unit step control and its step
  // selection set the slope (about p/(p+1) for an error-per-step control of order p), and the
  // kinks' O(h²) steps change it by a case-dependent amount.
  std::ostringstream slopes;
  for (const auto& [label, by_tol] : pairs)
    for (const bool located : {false, true}) {
      std::vector<double> tols, errs;
      for (const auto& [tol, pr] : by_tol) {
        const SlackPoint* p = located ? pr.second : pr.first;
        if (!p || !p->measured.outcome.ok()) continue;
        const double e = max_abs_difference(p->measured.final_configuration, x.configuration);
        if (!(e > std::max(x.configuration_agreement, 1e-15 * x.position_scale))) continue;  // at the reference's own floor
        tols.push_back(tol);
        errs.push_back(e);
      }
      slopes << (slopes.tellp() > 0 ? "; " : "") << label << ", " << locate_words(located) << ": ";
      if (tols.size() < 3) {
        slopes << "inconclusive (" << tols.size() << " tolerances above the reference's agreement, 3 needed)";
        continue;
      }
      const PowerLawFit fit = fit_power_law(tols, errs);
      slopes << format_g(fit.p, 3) << " ± " << format_g(fit.ci95, 2) << " (" << fit.points << " tolerances)";
    }
  md << "\n" << verdicts.str() << "\nThe position error at t_end against rtol (the slope of log error against log rtol ± its 95 % "
        "interval, each mode apart; printed, not judged: an error-per-step control of order p gives about p/(p+1) on a "
        "smooth problem, and the kinks' steps change it by an amount of the case's): " << slopes.str() << ".\n";
  md << "\nWhat locating can change: the step control already sees a step that contains a kink "
     << "(its local error is O(h²) there instead of O(h^(p+1))) and shrinks the step until its estimate meets the "
        "tolerance, so at a tight tolerance the kink is resolved either way and locating replaces that shrinking by a root "
        "search and a restart (a BDF method restarts at order 1), which the step counts above weigh. At a loose tolerance "
        "the stepped-through run's estimate lets a step straddle a kink with an O(h²) error, which can move a switch beyond "
        "the matching window; the located run ends its step at the root, and keeps more switches matched (the last column). "
        "Up to the first switch the two runs are the same computation. A located switch time is the root of the method's "
        "own interpolant, and the restart starts from the interpolated state: where the interpolant is of lower order than "
        "the step (Dormand–Prince's is of order 4 for a 5th-order step), a restart can cost accuracy, which ratios above 1 "
        "show where they occur.\n\n";
}

// The cheapest runs that time every switch within 1e-5 s and end within 1e-5 m.
void write_advice(std::ostringstream& md, const SlackTaut& section, const Expectation& x, const std::vector<const SlackPoint*>& of_case) {
  constexpr double kEventTarget = 1e-5, kPositionTarget = 1e-5;
  std::vector<std::pair<double, const SlackPoint*>> meeting;
  for (const SlackPoint* p : of_case) {
    if ((p->role != Role::Fixed && p->role != Role::Adaptive) || !p->measured.outcome.ok()) continue;
    // A fixed-step run meets the targets only if every moved run does too: the kink's phase must not be its luck.
    auto meets = [&](const std::vector<SwitchEvent>& events, const std::vector<double>& final_configuration) {
      const SwitchMatch m = match_switches(x.switches, events, x.window, chatter_gap(*p, p->measured, section.t_end));
      return m.missed == 0 && m.spurious == 0 && m.max_time_error <= kEventTarget &&
             max_abs_difference(final_configuration, x.configuration) <= kPositionTarget;
    };
    bool all = meets(p->measured.events, p->measured.final_configuration);
    for (const JitteredRun& j : p->measured.jittered) all = all && j.ok && meets(j.events, j.final_configuration);
    if (all) meeting.emplace_back(p->measured.runtime_s, p);
  }
  std::sort(meeting.begin(), meeting.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  md << "### Which run to use\n\nThe cheapest runs by runtime (single passes of milliseconds or less: runtimes within a "
        "factor 2 of one another do not rank them) that make every expected switch and no other, time each within "
     << format_g(kEventTarget) << " s and end within " << format_g(kPositionTarget)
     << " m, a fixed-step run at every one of its moved steps too: ";
  if (meeting.empty()) md << "none of the runs above.\n\n";
  for (size_t i = 0; i < meeting.size() && i < 5; ++i) {
    const SlackPoint& p = *meeting[i].second;
    md << (i ? "; " : "") << p.key.label() << " (" << point_words(p) << ", " << cell(meeting[i].first) << " s)";
  }
  if (!meeting.empty()) md << ".\n\n";
}

// The flight energies' structure function: the root mean square of E_{n+k} - E_n over n, for a
// lag of k flights. Flat in k: bounded; growing as sqrt(k): a random walk; as k: a drift.
double flight_increment_rms(const std::vector<double>& f, size_t k) {
  if (f.size() <= k) return kNoNumber;
  double sq = 0.0;
  for (size_t n = 0; n + k < f.size(); ++n) sq += (f[n + k] - f[n]) * (f[n + k] - f[n]);
  return std::sqrt(sq / double(f.size() - k));
}

// The sampling range of the structure function's exponent log10(rms_100 / rms_10) on a record of n
// entries under the null of an independent random walk (expected 1/2), from 400 simulated walks
// (fixed seed, so the page is reproducible): the 2.5 % and 97.5 % quantiles. A two-point exponent
// of a record of a few hundred entries scatters widely (about [0.21, 0.69] for a walk of 415). Below
// the range a record grows slower than a walk, as a bounded one does (its exponent depends on its
// correlation time: 0 for independent noise, up to the walk's for one correlated over ~100 flights,
// so a bounded record has no range of its own); above it, faster.
std::pair<double, double> walk_exponent_range(size_t n) {
  if (n <= 100) return {kNoNumber, kNoNumber};
  std::mt19937 generator(47u);
  std::normal_distribution<double> noise(0.0, 1.0);
  constexpr int kRecords = 400;
  std::vector<double> exponents, record(n);
  for (int m = 0; m < kRecords; ++m) {
    double level = 0.0;
    for (size_t i = 0; i < n; ++i) record[i] = (level += noise(generator));
    exponents.push_back(std::log10(flight_increment_rms(record, 100) / flight_increment_rms(record, 10)));
  }
  std::sort(exponents.begin(), exponents.end());
  return {exponents[size_t(0.025 * kRecords)], exponents[size_t(0.975 * kRecords) - 1]};
}

// A record's trend per entry: the mean increment (f_N - f_1)/(N - 1) and its 95 % half-width under
// independent increments, t * sd(increments) / sqrt(N - 1), the null of a random walk. (A
// least-squares slope's interval assumes independent residuals, which a walk's are not: on a walk
// it is far too narrow and calls every long record a drift, Granger & Newbold 1974.)
struct Trend {
  double mean = kNoNumber, half_width = kNoNumber;
  bool excludes_zero() const { return std::abs(mean) > half_width; }
};
Trend mean_increment(const std::vector<double>& f) {
  Trend out;
  if (f.size() < 3) return out;
  const double n = double(f.size() - 1);
  out.mean = (f.back() - f.front()) / n;
  double sq = 0.0;
  for (size_t i = 0; i + 1 < f.size(); ++i) sq += std::pow(f[i + 1] - f[i] - out.mean, 2);
  out.half_width = student_t975(n - 1.0) * std::sqrt(sq / (n - 1.0) / n);
  return out;
}

// The kink's place in the step at each slack -> taut switch of a fixed-step run, theta = frac(t/h):
// the length R of their mean on the circle (1: every switch at the same place; near 0: spread
// round it) and the mean advance per switch (in turns).
std::pair<double, double> phase_coherence(const std::vector<SwitchEvent>& events, double h) {
  double c = 0.0, s = 0.0, dc = 0.0, ds = 0.0, previous = kNoNumber;
  int n = 0, m = 0;
  for (const SwitchEvent& e : events) {
    if (!e.to_taut) continue;
    const double theta = e.t / h - std::floor(e.t / h);
    c += std::cos(2 * std::numbers::pi * theta), s += std::sin(2 * std::numbers::pi * theta), ++n;
    if (std::isfinite(previous)) dc += std::cos(2 * std::numbers::pi * (theta - previous)), ds += std::sin(2 * std::numbers::pi * (theta - previous)), ++m;
    previous = theta;
  }
  if (n == 0) return {kNoNumber, kNoNumber};
  return {std::hypot(c, s) / n, m ? std::atan2(ds, dc) / (2 * std::numbers::pi) : kNoNumber};
}

void write_long_runs(std::ostringstream& md, std::ostream& csv, const Case& c, const SlackTaut& section, const Expectation& x,
                     const std::vector<const SlackPoint*>& of_case) {
  bool any = false;
  for (const SlackPoint* p : of_case) any = any || p->role == Role::Long;
  if (!any) return;
  const size_t expected = x.closed && x.closed->exact ? x.closed->switches(section.long_t_end).size() : 0;
  // An exact closed form here is a periodic orbit (the bungee drop); a limit's is not.
  const bool periodic = x.closed && x.closed->exact;
  md << "### Over " << format_g(section.long_t_end, 6)
     << " s: does the energy error walk across many switches?\n\n"
        "The question (issue 47): a symplectic method has a modified energy on each smooth piece of the motion, but "
        "backward error analysis needs the vector field smooth over a step, and a step across the kink leaves the modified "
        "energy by O(h²), by an amount that depends on θ, the kink's place in the step. If the θ of successive switches "
        "were independent the jumps would add like a random walk and the error grow as √t. On a periodic motion they are "
        "not independent: θ advances by about the fractional part of T/h a period (a rotation of the circle), and the sum "
        "of a zero-mean jump of bounded variation along such a rotation grows at most like log N (Denjoy–Koksma, "
        "Ostrowski), while a non-zero mean jump drifts linearly. The measured θ: R, the length of the mean of e^(2πiθ) "
        "over the slack → taut switches (1: every switch at the same θ, near 0: spread round the circle), and the mean "
        "advance per switch. "
     << (periodic ? "The second step was chosen with T/h = 674 for the exact period; the method's own period differs by O(h²), "
                    "so whether its θ lock is what R says. "
                  : "This motion has no periodic closed form and no rotation that orders the θ of its switches (R near 0 says "
                    "only that they spread round the circle, not that they are independent); if the jumps are independent "
                    "they add like a walk. ")
     << "The flight energies are E − E0 at the start of each "
        "flight with every element slack, where a Störmer–Verlet step is exact (gravity alone): the run's irreversible "
        "record, free of the O((ωh)²) offset between E and the modified energy that the jump at a single switch mostly "
        "measures. Their law is read from the rms of E_(n+k) − E_n against the lag k: flat for a bounded record, ∝ √k "
        "for a random walk, ∝ k for a drift; its exponent between k = 10 and 100 flights is printed, with the trend per "
        "flight: the mean increment (E_N − E_1)/(N − 1) ± its 95 % interval under independent increments, the null of a "
        "walk (a least-squares slope's interval assumes independent residuals, which a walk's are not, and calls every long "
        "walk a drift). The law of |E − E0| fitted as long_time.md fits it stands beside, and the net "
        "jump of a taut phase (entry + exit).\n\n"
        "| run | settings | status | switches (closed form); chatter | θ at the switches: R; advance (turns) | flight energies: "
        "rms of E_(n+k) − E_n at k = 1, 10, 100 (J); exponent | flight energies: trend per flight (J) | law of \\|E − E0\\| | max \\|ΔE\\| (J) | "
        "net jump of a taut phase, rms (J) |\n|---|---|---|---|---|---|---|---|---:|---:|\n";
  std::vector<std::string> answers, drifting;
  std::vector<std::string> seen_runs;
  std::string ranges_words;  // the nulls' exponent ranges at the last record's length
  for (const SlackPoint* p : of_case) {
    if (p->role != Role::Long) continue;
    const SlackRun& r = p->measured;
    const bool ok = r.outcome.ok();
    const SwitchMatch m = ok ? match_switches({}, r.events, x.window, chatter_gap(*p, r, section.long_t_end)) : SwitchMatch{};
    std::string trend = "—", structure = "—", phases = "—";
    double exponent = kNoNumber;
    const auto& f = r.slack_energies;
    const Trend per_flight = mean_increment(f);
    if (ok && f.size() >= 200) {
      trend = format_g(per_flight.mean, 3) + " ± " + format_g(per_flight.half_width, 2);
      const double d1 = flight_increment_rms(f, 1), d10 = flight_increment_rms(f, 10), d100 = flight_increment_rms(f, 100);
      exponent = std::log(d100 / d10) / std::log(10.0);
      structure = cell(d1) + ", " + cell(d10) + ", " + cell(d100) + "; " + cell(exponent, 2);
    }
    if (ok && !p->adaptive()) {
      const auto [R, advance] = phase_coherence(r.events, p->h);
      phases = cell(R, 2) + "; " + cell(advance, 3);
      // Rayleigh's test of uniform theta: p ~ exp(-n R^2) for n switches. A locked or clustered theta
      // (an episode of recurring catches) gives the kinks' jumps a non-zero mean.
      const double n = double(std::count_if(r.events.begin(), r.events.end(), [](const SwitchEvent& e) { return e.to_taut; }));
      const double rayleigh = std::exp(-n * R * R);
      if (R < 0.9 && rayleigh < 0.01) phases += " (clustered: Rayleigh p = " + format_g(rayleigh, 1) + ")";
    }
    md << "| " << p->key.label() << " | " << point_words(*p) << " | " << (ok ? "ok" : r.outcome.describe()) << " | "
       << (ok ? std::to_string(r.events.size()) : "—") << " (" << (expected ? std::to_string(expected) : "—") << "); "
       << (ok ? std::to_string(m.chatter) : "—") << " | " << phases << " | " << structure << " | " << trend << " | "
       << (ok ? describe_growth(r.energy_growth) : "—") << " | " << (ok ? cell(r.energy_err_max) : "—") << " | "
       << (ok ? cell(r.phase_net_rms) : "—") << " |\n";
    csv << c.name << ',' << p->key.label() << ",long," << format_g(p->h, 12) << ',' << (p->adaptive() ? format_g(p->rtol) : "") << ','
        << (p->adaptive() ? (p->locate ? "1" : "0") : "") << ',' << format_g(section.long_t_end, 6) << ','
        << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ',' << format_g(r.runtime_s, 4) << ','
        << (ok ? std::to_string(r.events.size()) : "") << ',' << expected << ",,,," << (ok ? std::to_string(m.chatter) : "")
        << ",,,," << (ok ? format_g(c.model->switching()->stiffness * r.first_peak_stretch, 8) : "") << ','
        << (ok ? format_g(c.model->switching()->stiffness * r.peak_stretch, 8) : "") << ',' << (ok ? format_g(r.energy_err_max, 6) : "")
        << ',' << (ok ? format_g(r.jump_abs_max, 6) : "") << ',' << (ok ? format_g(r.jump_abs_mean, 6) : "") << ','
        << (ok ? format_g(r.jump_sum, 6) : "") << ',' << (ok ? format_g(r.phase_range_max, 6) : "") << ','
        << (ok ? to_string(r.energy_growth.law) : "") << ',' << (ok ? format_g(r.energy_growth.exponent, 4) : "") << ','
        << (ok ? format_g(r.energy_growth.ci95_low, 4) : "") << ',' << (ok ? format_g(r.energy_growth.ci95_high, 4) : "") << ','
        << (ok ? format_g(r.jump_rms, 6) : "") << ',' << (ok ? format_g(r.phase_net_rms, 6) : "") << ',' << r.taut_phases << ",\n";
    // The answer, per discretisation (identical runs once): the flight energies' law.
    if (!ok || !std::isfinite(exponent)) continue;
    // (Two integrators of one discretisation agree to round-off, which 700 000 steps accumulate.)
    const std::string id = format_g(r.energy_err_max, 4) + "|" + format_g(p->h, 12);
    if (std::find(seen_runs.begin(), seen_runs.end(), id) != seen_runs.end()) continue;
    seen_runs.push_back(id);
    // The law: the exponent against its sampling range under a walk of this many flights
    // (walk_exponent_range). Above it: a drift; in it: a walk, or a drifting walk where the mean
    // increment per flight is outside its interval under a walk's independent increments
    // (mean_increment); below it: bounded (slower than a walk).
    const auto [walk_low, walk_high] = walk_exponent_range(f.size());
    const bool drifts = exponent > walk_high || (exponent >= walk_low && per_flight.excludes_zero());
    const std::string law = drifts ? "a drift (∝ k)" : exponent >= walk_low ? "consistent with a random walk (√k)" : "slower than a walk";
    ranges_words = "for " + std::to_string(f.size()) + " flights a walk's exponent lies in [" + format_g(walk_low, 2) + ", " +
                   format_g(walk_high, 2) + "]";
    const std::string words = p->key.label() + " (" + point_words(*p) + "): " + law + ", exponent " + format_g(exponent, 2);
    (p->key.integrator->traits.symplectic ? answers : drifting).push_back(words + (drifts ? ", trend " + trend + " J a flight" : ""));
  }
  auto list = [](const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? "; " : "") + items[i];
    return out;
  };
  const bool all_bounded =
      !answers.empty() && std::all_of(answers.begin(), answers.end(), [](const std::string& a) { return a.find(": slower than a walk,") != std::string::npos; });
  const auto count_words = [](long n) { return n == 0 ? std::string("none") : std::to_string(n); };
  const auto tally = [&](const std::string& law) {
    return std::count_if(answers.begin(), answers.end(), [&](const std::string& a) { return a.find(": " + law) != std::string::npos; });
  };
  md << "\n**The answer.** " << (answers.empty() ? std::string() : all_bounded ? "No walk: every symplectic run's irreversible "
                                                                               "energy record grows slower than a walk over the "
                                                                               "switches, at these steps and over this horizon "
                                                                               "(bounded, or a growth like log N, which is not "
                                                                               "excluded). "
                                                                             : "Not every symplectic run's record grows slower than a walk: of " +
                                                                                   std::to_string(answers.size()) + ", " +
                                                                                   count_words(tally("slower than a walk")) + " slower, " +
                                                                                   count_words(tally("consistent with a random walk")) +
                                                                                   " consistent with a random walk, " +
                                                                                   count_words(tally("a drift")) + " a drift. " +
                                                                                   "Consistent with a walk means a walk is not "
                                                                                   "rejected: a bounded record correlated over 30 "
                                                                                   "flights or more reads as one at this length. ")
     << "The flight energies of the symplectic runs (identical runs once: two integrators of one discretisation agree to "
        "round-off on a periodic orbit, and part on a motion that amplifies round-off): "
     << (answers.empty() ? std::string("none ran") : list(answers))
     << ". The law is read from the exponent against its sampling range under a random walk, 95 % of 400 simulated walks of "
        "the same length (" << ranges_words << "): below it, slower than a walk (a bounded record's exponent depends on its "
        "correlation time and has no range of its own); in it, consistent with a random walk, or a drift where its trend's "
        "interval excludes 0; above it, a drift. A true walk meets two 95 % tests here (the range, then the trend), so about "
        "one in ten is read as something else by chance. The others: " << (drifting.empty() ? "none" : list(drifting))
     << " (where they drift, their smooth pieces' errors are as large or larger than the kinks': the explicit midpoint rule "
        "gains (hω)⁴/4 of the oscillation's energy a taut step, BDF loses energy by design, an adaptive method errs at its "
        "tolerance in either direction). Where a non-symplectic method reads as the symplectic ones do (rk4, "
        "generalized-α), its smooth pieces' energy error over the run is below the kinks' jumps: these records measure how "
        "the kinks' O(h²) errors add up, which is the backward-error question, not symplecticity on the smooth pieces. A "
        "switch count one off the closed form's is a switch near the "
        "horizon that the run's phase error moved across it, not chatter (the chatter column). "
     << (periodic ? "This is one degree of freedom on a periodic orbit; a motion whose switches do not recur is the whirling "
                    "string's long runs (T_whirling_string)."
                  : "This is a motion of two degrees of freedom whose switches do not recur; the periodic orbit, where the "
                    "rotation bounds the sum, is the bungee drop's (T_bungee_drop).")
     << "\n\nSettings of the long runs (the case's; the located runs set locate_events = 1): ";
  bool first = true;
  std::vector<std::string> seen;
  for (const SlackPoint* p : of_case) {
    if (p->role != Role::Long || std::find(seen.begin(), seen.end(), p->key.label()) != seen.end()) continue;
    seen.push_back(p->key.label());
    const IntegratorSettings s = p->key.c->settings_for(p->key.integrator->name);
    std::string words;
    for (const auto& spec : p->key.integrator->settings) words += (words.empty() ? "" : ", ") + spec.name + " = " + s.shown(spec.name);
    if (words.empty()) continue;
    md << (first ? "" : "; ") << p->key.label() << ": " << words;
    first = false;
  }
  md << ".\n\n";
}

void write_limit(std::ostringstream& md, std::ostream& csv, const Case& c, const SlackTaut& section, const Expectation& x,
                 const std::vector<const SlackPoint*>& of_case) {
  bool any = false;
  for (const SlackPoint* p : of_case) any = any || p->role == Role::Limit;
  if (!any || !x.closed) return;
  const auto limit = x.closed->switches(section.t_end);
  md << "### The model's approach to the closed form's limit\n\nThe reference solver on the case at each " << section.limit_key
     << ": its first switches against the limit's (" << x.closed->name
     << "), and q in |difference| ∝ " << section.limit_key << "^−q between successive values (theory: q = 1, the stretch "
        "m v²/(k L) the limit neglects; q from 1e3 to 1e4 is pre-asymptotic), and the snap rows (below).\n\n| "
     << section.limit_key << " | switch | reference (s; N for the snap) | limit (s; the formula for the snap) | difference (s; "
        "relative for the snap) | q |\n|---:|---|---:|---:|---:|---:|\n";
  std::vector<double> previous(limit.size(), kNoNumber);
  double previous_value = kNoNumber, previous_snap = kNoNumber;
  for (const SlackPoint* p : of_case) {
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
      const double q = std::isfinite(previous[k]) ? std::log(previous[k] / d) / std::log(p->limit_value / previous_value) : kNoNumber;
      md << "| " << format_g(p->limit_value) << " | " << (limit[k].second ? "taut" : "slack") << " | " << cell(t, 9) << " | "
         << format_g(limit[k].first, 9) << " | " << cell(d) << " | " << cell(q) << " |\n";
      csv << c.name << ',' << p->key.label() << ",limit," << format_g(p->h, 6) << ',' << format_g(p->rtol) << ",1,"
          << format_g(section.t_end, 6) << ',' << csv_quoted(r.outcome.describe()) << ',' << r.counters.steps << ','
          << format_g(r.runtime_s, 4) << ',' << r.events.size() << ',' << limit.size() << ",,,,,," << format_g(d, 6)
          << ",,,,,,,,,,,,,,,," << format_g(p->limit_value, 8) << '\n';
      previous[k] = d;
    }
    // The snap load: the run's peak tension against the formula at this stiffness (the variant's
    // own closed form), as a relative difference.
    const SwitchingClosedForm* own = p->key.c->model->switching_closed_form();
    if (own && std::isfinite(own->peak_tension_over_run) && r.outcome.ok()) {
      const double peak = p->key.c->model->switching()->stiffness * r.peak_stretch, formula = own->peak_tension_over_run;
      const double d = std::abs(peak - formula) / formula;
      const double q = std::isfinite(previous_snap) ? std::log(previous_snap / d) / std::log(p->limit_value / previous_value) : kNoNumber;
      md << "| " << format_g(p->limit_value) << " | snap load (N; relative difference) | " << cell(peak, 6) << " | "
         << cell(formula, 6) << " | " << cell(d) << " | " << cell(q) << " |\n";
      previous_snap = d;
    }
    previous_value = p->limit_value;
  }
  md << "\nAfter the catch the limit reflects the radial speed (a stiff spring returns it elastically within π√(m/k) → 0): "
        "the model's later switches have no closed form and are judged against the reference above. The snap load is not a "
        "limit answer: the limit catches impulsively, and the formula is the stiff spring's response to the limit's catch "
        "state, which grows like √k; its relative difference from the model's peak is its q rows' (not derived here: the "
        "measured q is what the page states).\n";
}

std::vector<std::string> SlackTautStudy::write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const {
  std::ofstream csv(dir / "slack_taut.csv");
  csv << "case,integrator,role,h,rtol,locate_events,t_end,status,steps,runtime_s,switches,expected_switches,matched,missed,"
         "spurious,chatter,event_time_err_median,event_time_err_max,position_err_end,first_peak_tension,peak_tension,"
         "energy_err_max,energy_jump_abs_max,energy_jump_abs_mean,energy_jump_sum,energy_phase_range_max,energy_growth_law,"
         "energy_growth_exponent,energy_growth_ci95_low,energy_growth_ci95_high,energy_jump_rms,taut_phase_net_rms,taut_phases,"
         "limit_value\n";
  std::ostringstream md;
  md << "# Cables that go slack: switches, energy and orders across the kink\n\n"
        "A tension-only element has no force while slack (|x| < u) and EA(|x| − u)/u when taut: the force is continuous, "
        "its derivative jumps, and the potential is C¹ but not C². Every run below is observed by one code: each sign "
        "change of an element's stretch s = |x| − u between two samples (every step end of a fixed-step method; a fine "
        "grid of an adaptive method's dense output) is a switch, timed by the zero of the cubic Hermite interpolant of s "
        "and ds/dt. Expected switches come from the closed form where the model's answers are exact, else from a "
        "reference (Dormand–Prince 5(4) with its events located at rtol 1e-12, its agreement measured against an independent "
        "solver). A located root is bracketed on the method's own interpolant: by rk45 to 4 ulps of t, by CVODE and IDA "
        "to their root finders' 100 ulps of t. "
        "A fixed-step method steps through the kink: the step that contains it integrates a force whose time derivative "
        "jumps, which a rule exact on linear functions integrates with an error O(h²) in the velocity, once per switch, so "
        "theory gives the global error O(h^min(p, 2)) for a method of order p. An adaptive method either steps through it, "
        "meeting it with its step control, or locates it (`locate_events = 1`: the step stops at the zero and the method "
        "restarts there). Every run: slack_taut.csv.\n";
  std::vector<std::vector<const Point*>> by_case;  // by the case whose section they are (a limit point's key is a variant)
  for (const Point& p : points) {
    if (by_case.empty() || by_case.back().front()->owner != p.owner) by_case.emplace_back();
    by_case.back().push_back(&p);
  }
  for (const std::vector<const Point*>& of_case : by_case) {
    const Case& c = *of_case.front()->owner;
    const SlackTaut& section = *c.section<SlackTaut>();
    const Expectation x = expectation_of(c, of_case);
    write_case_header(md, c, section, x);
    write_runs_table(md, csv, c, section, x, of_case);
    write_closed_form_comparison(md, c, x, of_case);
    write_limit_comparison(md, c, x, of_case);
    write_orders(md, section, x, of_case);
    write_location_comparison(md, x, of_case);
    write_advice(md, section, x, of_case);
    write_long_runs(md, csv, c, section, x, of_case);
    write_limit(md, csv, c, section, x, of_case);
  }
  std::ofstream(dir / "slack_taut.md") << md.str();
  return {(dir / "slack_taut.csv").string(), (dir / "slack_taut.md").string()};
}

}  // namespace

StudyInfo slack_taut_study() {
  StudyInfo info{SlackTaut::kStudy,
                 "cables that go slack ([report.slack_taut]): switches, event times, peak tension, energy steps and "
                 "orders across the kink for every integrator, adaptive ones with and without event location, against "
                 "the closed form or a located reference",
                 "slack_taut.csv, slack_taut.md",
                 false,
                 {},
                 why_not_without_table<SlackTaut>,
                 [] { return std::make_unique<SlackTautStudy>(); },
                 read_slack_taut};
  info.pages = {{"slack_taut.md", "cables that go slack: switches, event times, energy steps and orders across the kink"}};
  return info;
}

}  // namespace tb
