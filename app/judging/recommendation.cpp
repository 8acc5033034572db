#include "app/judging/recommendation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/judging/metric_cells.hpp"
#include "app/running/round_off.hpp"
#include "core/growth.hpp"
#include "core/format.hpp"

namespace tb {

namespace {

bool grows(const std::string& law) {
  return law == "sqrt_t" || law == "linear" || law == "faster" || law == "power_law";
}
bool no_growth(const std::string& law) { return law == "zero" || law == "round_off" || law == "bounded"; }
bool at_round_off(const std::string& law) { return law == "zero" || law == "round_off"; }

// An error a summary metric gives over the case's horizon, at round-off when the one rule for
// "conserved" (core/growth.hpp judge_conservation: within 10x) holds against the
// suite's round-off floor of a quantity of size 1 after the run's steps (app/running/round_off.hpp: the
// floor's scale never goes below 1, so this is the least floor any run of the case has).
std::optional<HorizonError> metric_error(const RunRecord& run, const std::string& quantity, const std::string& column) {
  const auto x = run.not_integrated.count(column) ? std::nullopt : run.value(column);
  if (!x) return std::nullopt;
  const auto steps = run.value("steps");
  const double floor = steps && *steps > 0.0 ? round_off_floor(1.0, long(*steps)) : 0.0;
  return HorizonError{quantity, *x, run.t_end, judge_conservation(*x, floor) == Conservation::Conserved};  // core/growth.hpp: the one rule
}

// An error with a growth law: over the long-time study's longer run where there is one.
std::optional<HorizonError> law_error(const ReportData& data, const RunRecord& run, const std::string& quantity,
                                      const std::string& column, const std::string& own_law) {
  if (run.not_integrated.count(column)) return std::nullopt;
  if (const LawRecord* rec = data.law(run.case_name, run.label, quantity); rec && rec->t_end > run.t_end && rec->err_max > 0.0)
    return HorizonError{quantity, rec->err_max, rec->t_end, at_round_off(rec->law)};
  const auto x = run.value(column);
  if (!x) return std::nullopt;
  return HorizonError{quantity, *x, run.t_end, at_round_off(own_law) || *x == 0.0};
}

// The energy law over the longest horizon measured, and what it says beyond that horizon.
struct Extrapolation {
  std::string law, words;
  bool holds = false;
  bool accelerating = false;  // the law's envelope steepens (an observation beside it)
  bool exponential = false;   // theory predicts exponential growth for this method on this model
  bool offset_drift = false;  // the law is linear by the offset-plus-drift fit (LawRecord::offset_drift)
};
Extrapolation extrapolation(const ReportData& data, const RunRecord& run) {
  const LawRecord* rec = data.law(run.case_name, run.label, "energy");
  const bool longer = rec && rec->t_end >= run.t_end;
  std::string law = longer ? rec->law : run.energy_law;
  const std::string theory = longer && !rec->theory.empty() ? rec->theory : run.energy_theory;
  const double t_end = longer ? rec->t_end : run.t_end;
  const std::string over = " over " + format_g(t_end, 6) + " s";
  std::string prefix;
  if (law == "regime_change" && longer) {
    prefix = "a " + format_g(rec->jump_ratio, 2) + "-fold rise between " + format_g(rec->jump_from, 3) + " s and " +
             format_g(rec->jump_to, 3) + " s, then ";
    law = rec->after_law;
  }
  const bool accelerating = longer && rec->accelerating;
  // A method whose stability region holds no interval of the imaginary axis amplifies every
  // undamped mode by |R(ihω)| > 1 a step (predicted_growth): whatever law its run reads over the
  // horizon, the error accelerates beyond it (second referee read of issue 44, N3: the explicit midpoint
  // method on the retrieving reel read "too short for a law" with no word of it).
  const bool exponential = theory == "exponential";
  if (law.empty()) return {law, "energy: " + prefix + "no growth law" + over, false, accelerating, exponential};
  const bool offset = longer && rec->offset_drift && law == "linear";
  std::string words = (prefix.empty() ? "energy " : "energy: " + prefix) + growth_law_words(law) +
                      (offset ? " after an offset (a + b t, long_time.md)" : "") + over;
  const bool holds = law == "zero" || (no_growth(law) && (theory == "bounded" || theory == "round_off"));
  if (holds)
    words += ", as theory predicts for this method: extrapolates";
  else if (no_growth(law))
    words += ", but theory allows " + (theory.empty() ? std::string("drift") : "at most " + theory + " growth") +
             " for this method (drift below detection): not guaranteed beyond";
  else if (grows(law))
    words += ": larger beyond, and its place on the front does not extrapolate";
  else
    words += ": no law to extrapolate";
  if (exponential && !holds)
    words += "; theory predicts exponential growth for this method on this model, whose own forces damp none of its "
             "modes (the method's stability region holds no interval of the imaginary axis): the error accelerates "
             "beyond the horizon once λt is no longer small (λ, the log of the amplification factor per step over h)";
  // Where the centre of mass is free the law is of the motion's own error ΔE_int (core/metrics.hpp),
  // while the front ranks the whole ΔE. When the centre of mass's share |ΔP|^2/2M (the drift in P)
  // is most of that whole, no law printed covers what is ranked (the fifth referee read: the
  // classical Runge-Kutta method on the single multirotor, ΔE_int linear, but 2.78e-5 of its
  // 3.55e-5 J the drift in P, |P| growing x3 an octave): said, and the place does not extrapolate.
  const auto whole = run.value("energy_err_max"), internal = run.value("energy_err_internal_max"),
             centre = run.value("energy_err_com_max");
  if (whole && internal && centre && *centre > 0.5 * *whole && (!longer || rec->t_end == run.t_end)) {
    // The two maxima are taken at their own times and the parts can have either sign, so the centre of
    // mass's share can exceed the whole (the internal part then partly cancels it): said as such.
    const std::string share = *centre <= *whole ? " J of the ranked ΔE " + format_g(*whole, 3) + " J is"
                                                : " J, more than the whole ranked ΔE " + format_g(*whole, 3) +
                                                      " J (the motion's own part partly cancels it), is";
    words += "; that law is of the motion's own ΔE_int (" + format_g(*internal, 3) + " J), while " + format_g(*centre, 3) +
             share + " the centre of mass's |ΔP|²/2M, the drift in P, which no law here covers: its place on the front "
             "does not extrapolate";
    return {law, words, false, accelerating, exponential, offset};
  }
  return {law, words, holds, accelerating, exponential, offset};
}

bool same_to_4_digits(double a, double b) { return format_g(a, 4) == format_g(b, 4); }

// One discretisation: every error both runs have above round-off the same to 4 digits, the
// energy error's maximum and mean among them (a coincidence of one number is no identity).
bool identical(const RunRecord& a, const RunRecord& b, const std::vector<HorizonError>& ea, const std::vector<HorizonError>& eb) {
  // The same discretisation reads the same growth laws: a coincidence of numbers between runs
  // whose laws differ is no identity.
  if (a.discretisation != b.discretisation || a.energy_law != b.energy_law || a.momentum_law != b.momentum_law) return false;
  int compared = 0;
  for (const std::string column : {"energy_err_max", "energy_err_mean"}) {
    const auto x = a.value(column), y = b.value(column);
    if (!x || !y || !(*x > 0.0) || !same_to_4_digits(*x, *y)) return false;
    ++compared;
  }
  for (const auto& e : ea)
    for (const auto& f : eb)
      if (e.quantity == f.quantity && !(e.round_off && f.round_off)) {
        if (e.t_end != f.t_end || !same_to_4_digits(e.value, f.value)) return false;
        ++compared;
      }
  return compared >= 2 && !ea.empty() && !ea.front().round_off;
}

// A no slower (within the noise) and no less accurate than B on every error both have, and
// better on one.
bool dominates(const FrontEntry& a, const FrontEntry& b, double noise, double factor) {
  if (a.runtime_s > b.runtime_s * (1.0 + noise)) return false;
  if (b.extrapolates && !a.extrapolates) return false;  // alike at the horizon, b alone beyond it
  bool better = a.runtime_s * (1.0 + noise) < b.runtime_s;
  for (const auto& e : a.errors)
    for (const auto& f : b.errors) {
      if (e.quantity != f.quantity) continue;
      if (e.round_off && f.round_off) continue;  // alike: both our arithmetic
      if (e.value > factor * f.value && !e.round_off) return false;
      better = better || (e.value * factor < f.value);
    }
  return better;
}

// The exponent a growth law names: 1/2 (sqrt_t) or 1 (linear); none for the others (faster and
// power_law have no single exponent the front could use without its interval).
std::optional<double> law_exponent(const std::string& law) {
  if (law == "sqrt_t") return 0.5;
  if (law == "linear") return 1.0;
  return std::nullopt;
}

const HorizonError* energy_error(const FrontEntry& e) {
  for (const auto& x : e.errors)
    if (x.quantity == "energy") return &x;
  return nullptr;
}

// The energy error the entry's law was fitted to: ΔE_int where the centre of mass is free and the
// error is the run's own (core/metrics.hpp; a longer study's error is of the quantity its law
// names), else the energy error at the horizon. NaN where there is none.
double lawful_energy(const FrontEntry& e) {
  const HorizonError* x = energy_error(e);
  if (!x) return std::nan("");
  if (const auto internal = e.runs.front()->value("energy_err_internal_max"); internal && x->t_end == e.runs.front()->t_end)
    return *internal;
  return x->value;
}

// Where a growing entry's accuracy advantage ends (referee point h-10 #9: "does not extrapolate"
// with no time beside it): its energy error grown by its own law, e (t / t_h)^p (through the
// origin: where the law is an offset plus a drift, the offset makes this rate an upper bound and
// the times early), comes within the front's factor f (errors alike within it) of the smallest
// larger energy error of an entry whose law extrapolates (bounded as theory predicts) at
// t_f = t_h (E_b / (f e))^(1/p), and passes it at t_x = t_h (E_b / e)^(1/p). Said for sqrt_t and
// linear only, and only against an entry it leads at the horizon on the ranked whole ΔE.
void add_crossings(std::vector<FrontEntry>& front, double factor) {
  for (auto& a : front) {
    const auto p = law_exponent(a.energy_law);
    // The law's own quantity on both sides (the third read: a law of ΔE_int beside a whole ΔE).
    const HorizonError* ea = energy_error(a);
    const double e = lawful_energy(a);
    if (!p || !ea || ea->round_off || !(e > 0.0)) continue;
    const FrontEntry* first = nullptr;
    double eb_first = 0.0;
    for (const auto& b : front) {
      const double eb = lawful_energy(b);
      if (&b == &a || !b.extrapolates || !(eb > e)) continue;
      // An advantage that can end must exist: a leads b on the quantity the front ranks, the whole
      // ΔE at the horizon (the fourth read: a classical RK on the single-multirotor case, ΔE_int
      // 1.4e-6 J but ΔE 3.55e-5 J with its drift in P, already 2.5x the variational integrator's
      // 1.41e-5 J, was said to lose its advantage at 910 s).
      const HorizonError* ranked_b = energy_error(b);
      if (!ranked_b || !(ranked_b->value > ea->value)) continue;
      if (!first || eb < eb_first) first = &b, eb_first = eb;
    }
    if (!first) continue;
    const double t_x = ea->t_end * std::pow(eb_first / e, 1.0 / *p);
    const double t_f = ea->t_end * std::pow(eb_first / (factor * e), 1.0 / *p);
    const bool internal = e != ea->value;  // ΔE_int (a free centre of mass)
    a.extrapolation += " (grown like t^" + format_g(*p, 2) + " from its horizon, its max |ΔE" + (internal ? "_int" : "") +
                       "| comes within " +
                       format_g(factor, 2) + "x of " + first->label() + "'s bounded " + format_g(eb_first, 3) +
                       " at about " + format_g(t_f, 2) + " s and passes it at about " + format_g(t_x, 2) +
                       " s: its accuracy advantage over " + first->label() + " ends there)";
  }
}

}  // namespace

std::string FrontEntry::label() const {
  std::string out;
  for (const RunRecord* r : runs) out += (out.empty() ? "" : " = ") + r->label;
  return out;
}

std::vector<HorizonError> horizon_errors(const ReportData& data, const RunRecord& run) {
  std::vector<HorizonError> out;
  if (auto e = law_error(data, run, "energy", "energy_err_max", run.energy_law)) out.push_back(*e);
  if (auto e = law_error(data, run, "momentum", "momentum_err_max", run.momentum_law)) out.push_back(*e);
  if (auto e = metric_error(run, "linear_momentum", "linear_momentum_err_max")) out.push_back(*e);
  if (auto e = metric_error(run, "constraint", "constraint_err_max")) out.push_back(*e);
  return out;
}

double timing_noise(const ReportData& data, const std::string& case_name) {
  double own = 0.0, any = 0.0;
  for (const auto& r : data.rankings) {
    if (r.work != "runtime") continue;
    for (double s : r.spread_of_each) {
      any = std::max(any, s);
      if (r.case_name == case_name) own = std::max(own, s);
    }
  }
  return own > 0.0 ? own : any;
}

ErrorSpreadMeasure error_spread(const ReportData& data, const std::string& case_name) {
  ErrorSpreadMeasure m;
  static const std::pair<const char*, const char*> kErrors[] = {{"energy", "energy_err_max"},
                                                                {"momentum", "momentum_err_max"},
                                                                {"linear_momentum", "linear_momentum_err_max"},
                                                                {"constraint", "constraint_err_max"}};
  for (const auto& s : data.spread_runs) {
    if (s.run.case_name != case_name || !s.run.ok) continue;
    const RunRecord* own = nullptr;
    for (const RunRecord* r : data.runs_of(case_name))
      if (r->label == s.run.label && r->ok) own = r;
    if (!own) continue;
    if (m.runs.find(s.run.label) == std::string::npos) m.runs += (m.runs.empty() ? "" : ", ") + s.run.label;
    m.parameter = s.parameter;
    if (s.case_value != 0.0) m.relative_change = std::max(m.relative_change, std::abs(s.value / s.case_value - 1.0));
    for (const auto& [quantity, column] : kErrors) {
      const auto a = metric_error(*own, quantity, column), b = metric_error(s.run, quantity, column);
      if (!a || !b || a->round_off || b->round_off || !(a->value > 0.0) || !(b->value > 0.0)) continue;
      const double ratio = std::max(a->value / b->value, b->value / a->value);
      if (ratio > m.factor) m.factor = ratio, m.run = s.run.label, m.quantity = quantity;
    }
  }
  return m;
}

std::string timing_noise_source(const ReportData& data, const std::string& case_name) {
  double own = 0.0, any = 0.0;
  std::string any_case;
  int passes = 0;
  for (const auto& r : data.rankings) {
    if (r.work != "runtime") continue;
    for (size_t k = 0; k < r.spread_of_each.size(); ++k) {
      if (r.spread_of_each[k] > any) any = r.spread_of_each[k], any_case = r.case_name;
      if (r.case_name != case_name) continue;
      own = std::max(own, r.spread_of_each[k]);
      if (k < r.passes_of_each.size()) passes = passes ? std::min(passes, r.passes_of_each[k]) : r.passes_of_each[k];
    }
  }
  if (own > 0.0)
    return "the largest run-to-run spread of this case's work-precision timings" +
           (passes > 0 ? " (each the minimum of " + std::to_string(passes) + "+ passes)" : std::string());
  if (any > 0.0)
    return "not measured on this case (no timed ranking of it): the report's largest spread, on " + any_case;
  return "not measured: runtimes are single measurements, and their order may lie within the noise";
}

CaseFront case_front(const ReportData& data, const std::string& case_name) {
  CaseFront cf;
  cf.case_name = case_name;
  cf.timing_noise = timing_noise(data, case_name);
  cf.spread = error_spread(data, case_name);
  cf.error_factor = std::max(kErrorFactor, cf.spread.factor);
  cf.timing_noise_source = timing_noise_source(data, case_name);
  std::vector<FrontEntry> entries;
  for (const RunRecord* r : data.runs_of(case_name)) {
    if (r->not_applicable) continue;
    cf.horizon_s = std::max(cf.horizon_s, r->t_end);
    if (!r->ok) {  // a run that is not a result is no choice (RunOutcome kinds other than Ok)
      cf.off.push_back({r, r->short_status()});
      continue;
    }
    // On a case with impacts the snap study judged each run against a converged reference: a run
    // that left its cascade of snaps computed another motion, whose energy and constraint errors
    // say nothing of that (a velocity-level time-stepping scheme on C_cooperative_snap: 15 of 18 switches, 5.8x the
    // reference's loss, 0.48 m off at t_end, and "ok" by the instability criterion). It is no choice:
    // the fourth-round read, R1, found it first on the front as the cheapest run.
    if (const CascadeRecord* c = data.cascade(case_name, r->label, r->h, r->rtol); c && !c->follows()) {
      cf.off.push_back({r,
                        "completed, but off the converged reference's cascade of snaps (snap.md): it matched " +
                            std::to_string(c->matched) + " of the reference's " + std::to_string(c->expected) + " switches" +
                            (c->made > c->matched ? " and made " + std::to_string(c->made - c->matched) + " the reference did not"
                                                  : std::string()) +
                            ", its configuration " + format_g(c->position_error, 2) +
                            " m off at t_end: another switch sequence, whose errors are not compared",
                        true});
      continue;
    }
    const std::vector<HorizonError> errors = horizon_errors(data, *r);
    auto same = std::find_if(entries.begin(), entries.end(), [&](const FrontEntry& e) {
      return identical(*e.runs.front(), *r, e.errors, errors);
    });
    if (same != entries.end()) {
      same->runs.push_back(r);
      if (r->runtime_s < same->runtime_s) {
        std::rotate(same->runs.begin(), same->runs.end() - 1, same->runs.end());  // the fastest first
        same->runtime_s = r->runtime_s;
      }
      same->runtime_max_s = std::max(same->runtime_max_s, r->runtime_s);
      continue;
    }
    FrontEntry e;
    e.runs = {r};
    e.runtime_s = e.runtime_max_s = r->runtime_s;
    e.errors = errors;
    const Extrapolation x = extrapolation(data, *r);
    e.energy_law = x.law, e.extrapolation = x.words, e.extrapolates = x.holds, e.energy_accelerating = x.accelerating,
      e.energy_exponential = x.exponential, e.energy_offset_drift = x.offset_drift;
    entries.push_back(std::move(e));
  }
  for (auto& e : entries)
    for (const RunRecord* r : e.runs)
      if (const StepLimit* limit = data.step_limit(case_name, r->label); limit && r->rtol == 0.0 && limit->h_max > 0.0 &&
                                                                            limit->margin(r->h) > e.step_margin)
        e.step_margin = limit->margin(r->h),
        e.step_limit = limit->limit == "instability" || limit->limit == "energy bound" || limit->limit == "energy jump" || limit->limit == "energy accuracy bound" ||
                               limit->limit == "constraint bound" || limit->limit == "orthogonality bound"
                           ? limit->limit
                       : limit->solver_at_stability_limit ? "solver at the stability limit"
                                                          : limit->limit,
        e.step_margin_words = limit->margin_words(r->h, r->t_end);
  for (auto& e : entries)
    if (e.energy_exponential && !e.runs.empty() && e.runs.front()->rtol == 0.0)
      if (const StepLimit* limit = data.step_limit(case_name, e.runs.front()->label))
        e.limit_reaches_h_at = limit->horizon_reaching(e.runs.front()->h), e.horizon_exponent = limit->horizon_exponent;
  for (const auto& b : entries) {
    const FrontEntry* by = nullptr;
    for (const auto& a : entries)
      if (&a != &b && dominates(a, b, cf.timing_noise, cf.error_factor) && (!by || a.runtime_s < by->runtime_s)) by = &a;
    if (!by) {
      cf.front.push_back(b);
      continue;
    }
    for (const RunRecord* r : b.runs)
      cf.off.push_back({r, by->label() + (by->runtime_s * (1.0 + cf.timing_noise) < b.runtime_s ? " is faster" : " is as fast") +
                               " and no error of it is " + format_g(cf.error_factor, 2) + "x larger"});
  }
  add_crossings(cf.front, cf.error_factor);
  std::sort(cf.front.begin(), cf.front.end(), [](const FrontEntry& a, const FrontEntry& b) { return a.runtime_s < b.runtime_s; });
  for (size_t i = 1; i < cf.front.size(); ++i)
    cf.front[i].ties_previous = cf.front[i].runtime_s <= cf.front[i - 1].runtime_s * (1.0 + cf.timing_noise);
  for (const auto& e : cf.front)
    for (const auto& x : e.errors) cf.longest_s = std::max(cf.longest_s, x.t_end);
  // An error exactly 0 in every completed run is a property of the case (the case's table drops
  // it too), not a score: left out of the words.
  for (const std::string q : {"energy", "momentum", "linear_momentum", "constraint"}) {
    bool any = false;
    for (const auto& e : entries)
      for (const auto& x : e.errors) any = any || (x.quantity == q && x.value != 0.0);
    if (!any)
      for (auto& e : cf.front) std::erase_if(e.errors, [&](const HorizonError& x) { return x.quantity == q; });
  }
  return cf;
}

ModelAdvice advise(const ReportData& data, const std::string& model, const std::vector<CaseInput>& cases) {
  ModelAdvice advice;
  advice.model = model;
  for (const auto& c : cases)
    if (c.runs_everything) advice.cases.push_back(c.name);
  if (advice.cases.empty())
    for (const auto& c : cases) advice.cases.push_back(c.name);
  for (const auto& c : advice.cases) advice.fronts.push_back(case_front(data, c));
  for (const auto& c : advice.cases)
    for (const auto& r : data.rankings)
      if (r.case_name == c && r.work == "runtime") advice.rankings.push_back(&r);
  return advice;
}

}  // namespace tb
