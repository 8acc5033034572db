#include "app/writing/report_index.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app/writing/coverage.hpp"
#include "app/common/markdown_table.hpp"
#include "app/judging/metric_cells.hpp"
#include "app/judging/recommendation.hpp"
#include "core/metric_registry.hpp"
#include "core/violable_invariants.hpp"
#include "core/format.hpp"
#include "core/growth.hpp"

namespace fs = std::filesystem;

namespace tb {

namespace {

std::string num(double x) { return format_g(x, 3); }

// A round_off law is a size (below 10 Brouwer floors), not a cause. Where the long-time study ran
// the same run at the same h over a longer horizon and its twin at 2h grew by the truncation
// ratio or more (and the study then judged it above round-off), the error is the method's own:
// said beside the label, with the evidence (issue 44: on the planar pendulum, three 4th-order
// methods read round_off over 10 s where their 1000 s twins grow x31.8, x13.9, x15.3).
std::string round_off_by_size_only(const ReportData& data, const RunRecord& run, const std::string& law,
                                   const std::string& quantity) {
  if (law != "round_off") return "";
  const LawRecord* rec = data.law(run.case_name, run.label, quantity);
  if (!rec || rec->law == "round_off" || !(rec->at_2h_ratio >= kGrowthTruncationRatio)) return "";
  return " by size only: its " + format_g(rec->t_end, 4) + " s long run's twin at 2h is x" + num(rec->at_2h_ratio) +
         " (order ~" + format_g(std::log2(rec->at_2h_ratio), 2) + "), the method's own error, long_time.csv";
}

using markdown::cell;
using markdown::table;

std::string anchor(const std::string& heading) {
  std::string a;
  for (char ch : heading) {
    const char c = char(std::tolower(static_cast<unsigned char>(ch)));
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') a += c;
    else if (c == ' ') a += '-';
  }
  return a;
}

// The n/a reason of a metric no run of a formulation of that kind can violate: what its
// registry row's declaration says ("no constraint", "no rotation integrated", ...).
std::string not_integrated_reason(const MetricSpec& metric) {
  ViolableInvariants none;
  none.momentum = none.linear_momentum = none.constraints = none.constraint_rates = none.rotations = false;
  none.invariants.fill(false);
  return none.why_not(metric);
}

std::string unit_of(const MetricSpec& m) { return m.unit == "1" ? std::string() : std::string(m.unit); }

// The ranking's first entries with their cost: "a 0.028 s < b 0.045 s = ... (4 more)".
std::string ranking_head(const RankingRecord& r, size_t show) {
  std::string out;
  size_t k = 0;
  std::istringstream in(r.ranking);
  std::string token;
  while (in >> token) {
    if (token == "<" || token == "=" || token == "?" || token == "≤") {
      if (k < show) out.append(" ").append(token).append(" ");
      continue;
    }
    if (k < show) {
      out += token;
      if (k < r.work_of_each.size()) out.append(r.bound(k) ? " ≤ " : " ").append(num(r.work_of_each[k])).append(" s");
    }
    ++k;
  }
  if (k > show) out += " … (" + std::to_string(k - show) + " more)";
  return out;
}

bool ranks(const RankingRecord& r) { return !r.work_of_each.empty(); }

// A ranking's horizon beside its case's (issue 44 point 19): shorter, "of the case's 1000 s";
// longer, said with why: a ranking needs kRankingPeriods of the model's slowest period
// (cases/README.md, "[report.ranking]"), which the case's own horizon does not hold, so it runs
// its own sweep and reference over them: the runs ranked are not the case's runs.
std::string ranking_horizon(const RankingRecord& r, double case_horizon) {
  std::string out = "over " + num(r.horizon_s) + " s";
  if (case_horizon > r.horizon_s) return out + " of the case's " + format_g(case_horizon, 6) + " s";
  if (!(case_horizon > 0.0) || r.horizon_s <= case_horizon * (1.0 + 1e-9)) return out;
  out += ", longer than the case's " + format_g(case_horizon, 6) + " s";
  if (r.slowest_period_s > 0.0)
    out += " (" + format_g(r.horizon_s / r.slowest_period_s, 3) + " of the model's slowest period " + format_g(r.slowest_period_s, 4) +
           " s, where the case's horizon holds " + format_g(case_horizon / r.slowest_period_s, 2) +
           ", and a ranking of trajectory errors needs 3: its own sweep and reference, not the case's runs)";
  return out;
}

// A ranking holds over its own horizon, which is the case's only when they are equal: say both.
std::string ranking_words(const RankingRecord& r, double case_horizon) {
  const std::string where = r.case_name + (r.discretisation.empty() ? "" : " (" + r.discretisation + ")");
  if (!ranks(r)) return where + ", " + ranking_horizon(r, case_horizon) + ": " + r.ranking + " — " + r.note;
  // The timing's noise beside the ranking it decides (issue 44 point 23).
  std::string noise;
  if (r.work == "runtime" && !r.spread_of_each.empty()) {
    const double spread = *std::max_element(r.spread_of_each.begin(), r.spread_of_each.end());
    noise = " (runtimes: each the minimum of " +
            (r.passes_of_each.empty()
                 ? std::string("its passes")
                 : std::to_string(*std::min_element(r.passes_of_each.begin(), r.passes_of_each.end())) + "-" +
                       std::to_string(*std::max_element(r.passes_of_each.begin(), r.passes_of_each.end())) + " passes") +
            ", run-to-run spread up to " + format_g(100.0 * spread, 2) + " %; \"=\" within it)";
  }
  if (std::find(r.bound_of_each.begin(), r.bound_of_each.end(), 1) != r.bound_of_each.end())
    noise += " (\"≤\": that run's cheapest sweep point is already more accurate than the matched error, so its "
             "runtime there only bounds the runtime it needs; \"?\": not ordered against the runs before it)";
  return where + ", " + ranking_horizon(r, case_horizon) + " at matched error " + num(r.matched_error) + ": " + ranking_head(r, 4) + noise;
}

// ---- which integrator: the advice of app/judging/recommendation.hpp in words ----

std::string column_of(const std::string& quantity) { return quantity + "_err_max"; }

// "max ΔE 1.5e-06 J over 1000 s": an error of a front entry, with its horizon where it is not the case's.
std::string error_words(const HorizonError& e, double case_horizon) {
  const MetricSpec& m = metric_spec(column_of(e.quantity));
  const std::string unit = unit_of(m);
  // "m or 1" (a length or a unit vector's norm) is said once in the case table's header, not per number.
  const bool plain = unit.empty() || unit.find(" or ") != std::string::npos;
  return std::string(m.label) + " " + num(e.value) + (plain ? "" : " " + unit) + (e.round_off ? " (round-off)" : "") +
         (e.t_end != case_horizon ? " over " + format_g(e.t_end, 6) + " s" : "");
}

// "status drifts in P (max ΔE 3.55e-05 J, the centre of mass's 2.78e-05 J; centre of mass moved 2.03 m),
// the motion's own energy ok; h/h_max = 0.96 (the implicit solver fails
// to converge above h_max)": what the run's status saw beside ok (a drift in P, an energy drift, a
// rise that slowed: the front ranks errors at the horizon, which such a run's need not keep beyond
// it) and how close its step is to its limit.
std::string step_caveat(const FrontEntry& e) {
  std::vector<std::string> parts;
  if (!e.runs.empty())
    if (const std::string s = e.runs.front()->short_status(); s != "ok") parts.push_back("status " + s);
  // Referee point N14: an envelope that steepens towards the horizon (the 4th-order Lie group
  // methods on the spinning case, local exponents 0.5, 0.92, 1.6, 2.5) says more about what follows the horizon
  // than a law its interval cannot carry.
  if (e.energy_accelerating)
    parts.push_back("its energy error's envelope accelerates towards the horizon (long_time.csv): beyond it the "
                    "error may grow faster than any law printed");
  else if (e.energy_exponential)
    parts.push_back("theory predicts exponential growth of its energy error on this model, whose own forces damp "
                    "none of its modes: it reads linear while λt is small and accelerates beyond" +
                    // When it would matter (the fourth-round read, R10; its second read, N1: not an e-folding
                    // time): the map's h_max, the step at which a run passes the map's bound, falls with the
                    // horizon at a measured rate; where it was measured, the horizon at which it reaches this
                    // run's step, i.e. over which this run would pass that bound.
                    (std::isfinite(e.limit_reaches_h_at)
                         ? std::string("; when it would matter: the stability map's h_max (the step at which a run passes the "
                                       "map's bound: an energy gain of 0.1 E_s, or a manifold error of 0.01 by an amplification) "
                                       "falls with the horizon like T^") +
                               format_g(e.horizon_exponent, 2) + " between its two horizon searches, and at that rate reaches "
                               "this run's step near T = " + format_g(e.limit_reaches_h_at, 2) +
                               " s, the horizon over which this run would pass that bound (a two-point extrapolation, not a "
                               "law, and not an e-folding time: the growth may still read linear there)"
                         : std::string("; when it would matter is not measured here (the map searched no two horizons for it)")));
  if (e.step_margin > kStepMarginNote)
    parts.push_back((e.step_margin_words.empty() ? "h/h_max = " + format_g(e.step_margin, 2) : e.step_margin_words) + " (" +
                    (e.step_limit == "instability" ? "the method goes unstable above h_max"
                     : e.step_limit == "energy bound"
                         ? "above h_max its energy balance passes 0.1 E_s: on this damped model a bound on the release "
                           "transient's accuracy error or on an amplification, which the map does not tell apart"
                     : e.step_limit == "constraint bound" || e.step_limit == "orthogonality bound"
                         ? std::string("an accuracy bound, not a stability limit: above h_max its ") +
                               (e.step_limit == "constraint bound" ? "constraint" : "orthogonality") +
                               " error passes 0.01 over the map's horizon, a drift off the manifold by a method stable on "
                               "the imaginary axis that grows with h and t: a longer run's bound is lower)"
                     : e.step_limit == "energy accuracy bound"
                         ? "an accuracy bound, not a stability limit: above h_max the energy error's amplitude passes 0.1 "
                           "E_s and falls back, a bounded error at that step"
                     : e.step_limit == "energy jump"
                         ? "above h_max a step adds more than 0.1 E_s of energy at once (an energy jump, not an "
                           "amplification); on a model with impacts failures need not be monotone in h"
                     : e.step_limit == "solver at the stability limit"
                         ? "above h_max the implicit solver finds no solution, where h ω_max κ is within 15 % of the "
                           "method's y* (stability_map.md; κ measured by the case's explicit methods' divergence): "
                           "consistent with the step leaving its stability interval there, an inference; the "
                           "solver's failure mode itself is not resolved"
                         : "the implicit solver fails to converge above h_max") +
                    ")");
  return join(parts, "; ");
}

// "0.00173 s" or "0.00173-0.00243 s (one discretisation)"
std::string runtime_words(const FrontEntry& e) {
  if (e.runs.size() == 1) return num(e.runtime_s) + " s";
  return num(e.runtime_s) + "-" + num(e.runtime_max_s) + " s (one entry: errors indistinguishable to 4 digits; their runtimes are not ranked)";
}

// The horizon of a front: "over 1000 s" or "over 1000 s (long-time study; runtimes and the other errors over the case's 20 s)".
std::string front_horizon(const CaseFront& f) {
  if (f.longest_s <= f.horizon_s) return "over " + format_g(f.horizon_s, 6) + " s";
  return "ΔE and Δπ over " + format_g(f.longest_s, 6) + " s (long-time study), runtime and the other errors over the case's " +
         format_g(f.horizon_s, 6) + " s";
}

std::string energy_of(const FrontEntry& e) {
  for (const auto& x : e.errors)
    if (x.quantity == "energy") return "ΔE " + num(x.value) + " " + unit_of(metric_spec(column_of(x.quantity)));
  return "";
}

// One row of the table at the top: the model, each case's front with its cost and energy error,
// the caveats, and the short-horizon ranking named as such.
// Where a faster entry of the front is as accurate in energy, the first screen's ΔE alone would
// drop this one: the error that keeps it ("on the front for its max Δπ 4.05e-14 N m s (round-off)";
// the fourth-round second read, N5: a fourth-order composition after an adaptive Lie group method on the
// cooperative case). "" otherwise.
std::string kept_by(const CaseFront& f, size_t i) {
  const auto value_of = [](const FrontEntry& e, const std::string& q) -> const HorizonError* {
    for (const auto& x : e.errors)
      if (x.quantity == q) return &x;
    return nullptr;
  };
  const FrontEntry& e = f.front[i];
  const HorizonError* energy = value_of(e, "energy");
  if (!energy) return "";
  // Each faster entry at least as accurate in energy is beaten by this one in another error (else it
  // would be off the front): name that error, against the faster entry's.
  std::vector<std::string> kept;
  for (size_t k = 0; k < i; ++k) {
    const HorizonError* other_energy = value_of(f.front[k], "energy");
    if (!other_energy || other_energy->value > energy->value) continue;
    for (const auto& x : e.errors) {
      if (x.quantity == "energy") continue;
      const HorizonError* other = value_of(f.front[k], x.quantity);
      if (!other || !(x.value < other->value) || (x.round_off && other->round_off)) continue;  // round-off values are alike
      kept.push_back("its " + error_words(x, f.horizon_s) + " against " + f.front[k].label() + "'s " + num(other->value));
      break;
    }
  }
  return kept.empty() ? "" : "on the front for " + join(kept, "; ");
}

// The setting a front entry ran at, "h 0.001" or "rtol 1e-06": a front ranks runs at the case's
// settings, and a method's place moves along its own sweep (the fourth-round read, R8).
std::string setting_words(const FrontEntry& e) {
  if (e.runs.empty()) return "";
  const RunRecord& r = *e.runs.front();
  return r.rtol > 0.0 ? "rtol " + format_g(r.rtol) : "h " + format_g(r.h);
}

// A case with impacts: the snap study's advice (snap_advice.csv) in a few words for the first
// screen: "an event-driven method (C_cooperative_snap, over 0.3 s: the cheapest to every position error at t_end
// judged, 0.01 m to 1e-06 m, 2.2-20x faster than the next method; snap.md)".
std::string snap_advice_glance(const std::string& case_name, const std::vector<SnapAdviceRecord>& targets) {
  std::vector<std::string> cheapest;
  double lo = 0.0, hi = 0.0;
  bool all_resolved = true;
  for (const auto& t : targets) {
    if (t.cheapest.empty()) continue;
    if (std::find(cheapest.begin(), cheapest.end(), t.cheapest) == cheapest.end()) cheapest.push_back(t.cheapest);
    all_resolved = all_resolved && t.resolved;
    if (t.next_runtime_s > 0.0 && t.runtime_s > 0.0) {
      const double f = t.next_runtime_s / t.runtime_s;
      lo = lo > 0.0 ? std::min(lo, f) : f, hi = std::max(hi, f);
    }
  }
  const std::string where = case_name + ", over " + format_g(targets.front().horizon_s, 6) + " s";
  if (cheapest.empty()) return "none (" + where + ": no run reached a position error judged; snap.md)";
  if (cheapest.size() == 1 && all_resolved)
    return cheapest.front() + " (" + where + ": the cheapest to every position error at t_end judged, " +
           format_g(targets.front().target_m) + " m to " + format_g(targets.back().target_m) + " m" +
           (hi > 0.0 ? ", " + (format_g(lo, 2) == format_g(hi, 2) ? format_g(lo, 2) : format_g(lo, 2) + "-" + format_g(hi, 2)) +
                           "x faster than the next method's cheapest run that made the reference's switches and no others"
                     : std::string()) +
           "; snap.md)";
  std::vector<std::string> per_target;
  for (const auto& t : targets) per_target.push_back(t.words);
  return "per position error at t_end (" + where + "; snap.md): " + join(per_target, "; ");
}

std::vector<std::string> glance_row(const ReportData& data, const ModelAdvice& a) {
  std::vector<std::string> fronts, caveats;
  for (const auto& f : a.fronts) {
    std::string line;
    for (size_t i = 0; i < f.front.size(); ++i) {
      const FrontEntry& e = f.front[i];
      line += (i == 0 ? "" : e.ties_previous ? " = " : " < ") +
              ("**" + e.label() + "** (" + setting_words(e) + ") " + num(e.runtime_s) + " s, " + energy_of(e));
      if (const std::string kept = kept_by(f, i); !kept.empty()) line += " (" + kept + ")";
      // The law beside the quantity it was fitted to (referee point 1 of the third read): where the
      // centre of mass is free it is ΔE_int's, not the whole ΔE printed before it.
      if (e.energy_law == "sqrt_t" || e.energy_law == "linear" || e.energy_law == "faster" || e.energy_law == "power_law") {
        const auto internal = e.runs.front()->value("energy_err_internal_max");
        line += " (" + (internal ? "ΔE_int " + num(*internal) + " " + unit_of(metric_spec("energy_err_internal_max")) + " " : std::string()) +
                growth_law_words(e.energy_law) + (e.energy_offset_drift ? " after an offset" : "") + ")";
      }
      if (const std::string c = step_caveat(e); !c.empty()) caveats.push_back(e.label() + (a.fronts.size() > 1 ? " on " + f.case_name : "") + ": " + c);
    }
    if (f.front.empty()) line = "no run completed";
    fronts.push_back((a.fronts.size() > 1 ? f.case_name + ", " : "") + front_horizon(f) + ": " + line);
  }
  std::string fastest;
  std::vector<std::string> snap_cases;
  for (const auto& f : a.fronts)
    if (const auto it = data.snap_advice.find(f.case_name); it != data.snap_advice.end() && !it->second.empty())
      fastest += (fastest.empty() ? "" : "; ") + snap_advice_glance(f.case_name, it->second), snap_cases.push_back(f.case_name);
  for (const RankingRecord* r : a.rankings)
    if (std::find(snap_cases.begin(), snap_cases.end(), r->case_name) != snap_cases.end()) {
      continue;  // a case with impacts: the snap study's advice above, not the oscillation ranking
    } else if (ranks(*r) && !r->first_is_least()) {
      fastest += (fastest.empty() ? "" : "; ") + std::string("inconclusive (") + r->case_name +
                 ": a run's sweep is more accurate than the matched error already at its cheapest point, so its runtime is only a bound; see below)";
    } else if (ranks(*r)) {
      double t_end = 0.0;
      for (const auto& f : a.fronts)
        if (f.case_name == r->case_name) t_end = f.horizon_s;
      const std::string first = r->ranking.substr(0, r->ranking.find(' '));
      fastest += (fastest.empty() ? "" : "; ") + first + " (" + r->case_name + ", over " + num(r->horizon_s) + " s" +
                 (t_end > r->horizon_s   ? " of its " + format_g(t_end, 6) + " s"
                  : t_end > 0.0 && r->horizon_s > t_end ? ", longer than its " + format_g(t_end, 6) + " s (3 slowest periods; see below)"
                                         : std::string()) +
                 " at error " + num(r->matched_error) + ")";
    }
  if (fastest.empty()) fastest = a.rankings.empty() ? "no ranking" : "inconclusive (see below)";
  return {a.model, join(fronts, "; "), caveats.empty() ? "–" : join(caveats, "; "), fastest};
}

// The case's measured error spread (error_spread.csv), and the factor the front compares errors by.
std::string spread_words(const CaseFront& f) {
  if (!(f.spread.factor > 0.0)) return "";
  return "; errors alike within " + format_g(f.error_factor, 2) + "x: " + f.spread.parameter + " changed by " +
         format_g(f.spread.relative_change, 2) + " (relative) moved the errors of " + f.spread.runs + " by up to " +
         format_g(f.spread.factor, 2) + "x (" + f.spread.run + "'s " + f.spread.quantity +
         " error; error_spread.csv; one changed run each: a lower bound on the spread, which more draws could only widen)";
}

// "each one timed pass (no spread measured on them)" or "each the minimum of 3-5 timed passes":
// what the front's runtimes are (summary.csv runtime_passes), "" for an older report.
std::string front_passes(const ReportData& data, const std::string& case_name) {
  int lo = 0, hi = 0;
  for (const RunRecord* r : data.runs_of(case_name))
    if (r->ok && r->timing_passes > 0) lo = lo ? std::min(lo, r->timing_passes) : r->timing_passes, hi = std::max(hi, r->timing_passes);
  if (hi == 0) return "";
  if (hi == 1) return ", each one timed pass (no spread measured on them)";
  return ", each the minimum of " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) + " timed passes";
}

void write_advice(std::ostringstream& md, const ReportData& data, const ModelAdvice& a, const std::vector<std::string>& restricted) {
  md << "### " << a.model << " — " << join(a.cases) << "\n\n";
  md << "- **Long simulations** — per case, the runs no other is at once as fast and as accurate over the whole horizon "
        "(error against runtime, fastest first; \"=\": within the case's timing noise; each at the case's own step h or "
        "tolerance rtol, printed beside it: a method's place moves along its own sweep, which the work–precision study "
        "below measures):\n";
  for (const auto& f : a.fronts) {
    // The noise and its source (issue 44 point 23): a "<" within it would be no ranking, and a
    // reader must see whether it was measured on this case, borrowed, or not measured.
    md << "  - **" << f.case_name << "**, " << front_horizon(f) << " (runtimes: summary.csv's runtime_s" << front_passes(data, f.case_name)
       << "; timing noise "
       << (f.timing_noise > 0.0 ? format_g(100.0 * f.timing_noise, 2) + " %, " : std::string()) << f.timing_noise_source
       << "; \"=\" within it" << spread_words(f) << "):\n";
    for (const auto& e : f.front) {
      std::vector<std::string> errors;
      for (const auto& x : e.errors) errors.push_back(error_words(x, f.horizon_s));
      md << "    - " << (e.ties_previous ? "= " : "");
      for (size_t i = 0; i < e.runs.size(); ++i) md << (i ? " = " : "") << "**" << e.runs[i]->label << "**";
      md << " (" << setting_words(e) << "): " << runtime_words(e) << "; " << join(errors) << "; " << e.extrapolation << ".";
      if (const std::string c = step_caveat(e); !c.empty()) md << " **Caveat:** " << c << ".";
      md << "\n";
    }
    std::vector<std::string> dominated, failed;
    for (const auto& o : f.off) (o.run->ok && !o.not_a_result ? dominated : failed).push_back(o.run->label + " (" + o.why + ")");
    if (!dominated.empty()) md << "    - not on the front: " << join(dominated, "; ") << ".\n";
    if (!failed.empty()) md << "    - not results: " << join(failed, "; ") << ".\n";
  }
  if (!a.rankings.empty()) {
    md << "- **Accuracy at a given cost over a short horizon** (work–precision, runtime at matched error, fastest first; "
          "it holds over the horizon named, not for a long simulation):\n";
    std::set<std::string> snap_advice_written;  // one line per case: its rankings (one per discretisation) share it
    for (const RankingRecord* r : a.rankings) {
      double t_end = 0.0;
      for (const auto& f : a.fronts)
        if (f.case_name == r->case_name) t_end = f.horizon_s;
      // On a case with impacts the oscillation ranking's few-periods rule has no meaning: the snap
      // study's work-precision, against its reference or closed form, is the answer there.
      if (const auto it = data.snap_advice.find(r->case_name); it != data.snap_advice.end() && !it->second.empty()) {
        if (!snap_advice_written.insert(r->case_name).second) continue;
        std::vector<std::string> per_target;
        for (const auto& t : it->second) per_target.push_back(t.words);
        md << "  - " << r->case_name << ", over " << format_g(it->second.front().horizon_s, 6)
           << " s: the snap study's work–precision (snap.md: each run's position error at t_end against the converged "
              "reference or the closed form, counted only where it followed every switch; in place of the oscillation "
              "ranking, whose few-periods rule has no meaning across impacts): the cheapest run "
           << join(per_target, "; ") << "\n";
        continue;
      }
      md << "  - " << ranking_words(*r, t_end) << "\n";
    }
  }
  if (!restricted.empty())
    md << "- Not in this advice: " << join(restricted) << " (each runs only a few integrators, to match a paper's set-up).\n";
  md << "\n";
}

// ---- the papers' verdicts: counts per source, then every row that is not "agrees" ----

void write_paper_digest(std::ostringstream& md, const ReportData& data) {
  if (data.paper.empty()) return;
  md << "## The papers' claims, judged on this report's runs\n\n";
  std::vector<std::string> verdicts = {"agrees", "disagrees", "contradicts", "exceeds", "inconclusive"};
  std::vector<std::string> sources;
  std::map<std::string, std::map<std::string, int>> count;
  // A verdict on something else than the paper's claim (issue 44 point 17: the paper's model used
  // outside the case it was derived for, SPEC's decision) is counted in a column of its own, so
  // that "contradicts" counts only the papers' claims about their own methods.
  auto counted_as = [](const PaperRecord& p) {
    return p.judges.empty() || p.judges == "the paper's claim" ? p.verdict : p.verdict + ": " + p.judges;
  };
  for (const auto& p : data.paper) {
    const std::string source = p.source.substr(0, p.source.find(','));
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
    const std::string v = counted_as(p);
    if (std::find(verdicts.begin(), verdicts.end(), v) == verdicts.end()) verdicts.push_back(v);
    ++count[source][v];
    ++count["all"][v];
  }
  std::vector<std::vector<std::string>> rows;
  sources.push_back("all");
  for (const auto& s : sources) {
    std::vector<std::string> row = {s == "all" ? "**all**" : s};
    int total = 0;
    for (const auto& [v, n] : count[s]) total += n;
    row.push_back(std::to_string(total));
    for (const auto& v : verdicts) row.push_back(std::to_string(count[s][v]));
    rows.push_back(row);
  }
  std::vector<std::string> header = {"source", "claims"};
  header.insert(header.end(), verdicts.begin(), verdicts.end());
  table(md, header, rows);
  md << "\nSources: the papers of ../shared/seeds (SPEC.md names them: seed 000 the 3D elastic string pendulum, Model A; "
        "seed 002 the string pendulum on a reel, Model B; seed 003 multirotors carrying a payload on cables, Model C; "
        "seed 004 Baumgarte-stabilised multibody DAEs and the textbook systems). Verdicts: *disagrees*, ours has the "
        "claimed behaviour but its number or time lies outside the tolerance (on a proxy of the suite's choosing, also "
        "the opposite); *contradicts*, ours shows the opposite on the paper's own quantity; *exceeds*, above a claimed "
        "bound; *inconclusive*, the data cannot carry a verdict (each row says why).\n"
     << "\nEvery claim that does not agree (its evidence, tolerance and cause: [paper_comparison.md](paper_comparison.md)):\n\n";
  rows.clear();
  for (const auto& p : data.paper)
    if (p.verdict != "agrees")
      rows.push_back({p.id, p.case_name + (p.integrator.empty() ? "" : " / " + p.integrator), p.metric, p.paper, p.ours, counted_as(p)});
  table(md, {"claim", "case / run", "quantity", "paper", "ours", "verdict"}, rows);
  md << "\n";
}

// ---- one case: the headline table of its runs, what it does not run, its figures ----

// Issue 44 (what the page does not disclose): each adaptive run's tolerances and step cap (the
// cases differ: rtol 1e-10 on Model B, 1e-6 on Model C, 1e-3 on the _ode45 cases, whose cap
// decides verdicts, tolerance_sweep.md), and where a model does external work the energy's start,
// end and the work W put in, the change the balance's error column is the residual of.
std::string run_settings_and_energy(const std::vector<const RunRecord*>& runs) {
  std::string adaptive, energy;
  for (const RunRecord* r : runs) {
    if (r->rtol > 0.0) {
      adaptive += (adaptive.empty() ? "" : "; ") + r->label + " rtol " + num(r->rtol) + ", atol " + num(r->atol);
      if (r->max_step) adaptive += *r->max_step > 0.0 ? ", max_step " + num(*r->max_step) + " s" : ", no max_step";
    }
    if (r->ok && r->energy_first && r->energy_last && r->external_work_last)
      energy += (energy.empty() ? "" : "; ") + r->label + " " + format_g(*r->energy_first, 5) + " -> " +
                format_g(*r->energy_last, 5) + " J, W = " + format_g(*r->external_work_last, 4) + " J";
  }
  std::string out;
  if (!adaptive.empty()) out += " Adaptive runs: " + adaptive + ".";
  if (!energy.empty())
    out += " Energy E(0) -> E(t_end) and the work W of the non-conservative forces (W > 0: put in): " + energy + ".";
  return out;
}

// The case table's columns: the registry's headline metrics, less those no run integrates
// (`never`, with the reason) and those exactly 0 in every run with a result (`zero`).
void choose_case_columns(const std::vector<const RunRecord*>& runs, std::vector<const MetricSpec*>& shown,
                         std::vector<std::string>& never, std::vector<std::string>& zero) {
  // Columns: a metric no run of the case integrates is dropped and said once.
  // Columns: the registry's headline metrics. One no run of the case integrates, or one exactly
  // 0 in every run that has a result (a structural zero of the case, not a score), is dropped
  // and said once.
  for (const MetricSpec* m : headline_metrics()) {
    const std::string column(m->name);
    const bool any = std::any_of(runs.begin(), runs.end(), [&](const RunRecord* r) { return !r->not_integrated.count(column); });
    bool all_zero = true, any_value = false;
    for (const RunRecord* r : runs)
      if (const auto x = r->ok ? r->value(column) : std::nullopt) any_value = true, all_zero = all_zero && *x == 0.0;
    if (!any) never.push_back(std::string(m->label) + " (" + not_integrated_reason(*m) + ")");
    else if (any_value && all_zero) zero.push_back(std::string(m->label));
    else shown.push_back(m);
  }
}

// A run's cell of each shown metric: n/a with the reason, its value, and for a growth-law
// owner the law beside the quantity it was fitted to.
void append_metric_cells(std::vector<std::string>& row, const ReportData& data, const RunRecord* r,
                         const std::vector<const MetricSpec*>& shown) {
  for (const auto* m : shown) {
    const std::string column(m->name);
    if (r->not_integrated.count(column)) {
      row.push_back("n/a (" + not_integrated_reason(*m) + ")");
      continue;
    }
    const auto x = r->completed ? r->value(column) : std::nullopt;
    std::string v = x ? num(*x) : "–";
    if (x && m->growth_owner) {
      const bool energy = m->growth == GrowthOf::Energy;
      // Where the centre of mass is free the energy law is of the motion's own error, not of the
      // whole (core/metrics.hpp): the law is printed beside the quantity it was fitted to.
      const auto internal = energy ? r->value("energy_err_internal_max") : std::nullopt;
      const std::string& law = energy ? r->energy_law : r->momentum_law;
      v += " (" + (internal ? "ΔE_int " + num(*internal) + ": " : std::string()) + law +
           ((energy ? r->energy_investigate : r->momentum_investigate) ? "!" : "") +
           round_off_by_size_only(data, *r, law, energy ? "energy" : "momentum") + ")";
    }
    row.push_back(v);
  }
}

// A run's h/h_max cell: its step against the stability map's limit for the method on this case,
// with what bounds that comparison.
void append_step_margin_cell(std::vector<std::string>& row, const ReportData& data, const Case& c, const RunRecord* r) {
  const StepLimit* limit = data.step_limit(c.name, r->label);
  if (r->rtol > 0.0) row.push_back("adaptive");
  else if (!limit) row.push_back("–");
  else {
    const double margin = limit->margin(r->h);
    std::string v = (limit->bound == "bracketed" ? "" : "≤ ") + format_g(margin, 2);
    if (limit->margin_is_lower_bound(r->t_end))  // a horizon-dependent h_max over a shorter horizon than the run's
      v = limit->bound == "bracketed" ? "≥ " + v + " (h_max over " + format_g(limit->t_horizon, 3) + " s; larger over " +
                                            format_g(r->t_end, 4) + " s)"
                                      : "– (h_max bounded over " + format_g(limit->t_horizon, 3) + " s only)";
    if (margin > kStepMarginNote) v += " (" + limit->limit + ")";
    // The map probes a shorter horizon than the case's: a run that fails below its h_max says
    // the limit over the probe's horizon does not hold over the run's.
    if (!r->ok && margin < 1.0 && limit->t_horizon < r->t_end && !limit->margin_is_lower_bound(r->t_end))
      v += " (h_max over " + format_g(limit->t_horizon, 3) + " s; not over " + format_g(r->t_end, 6) + " s)";
    row.push_back(v);
  }
}

// The headline table of the case's runs: status, horizon where they differ, runtime, the shown
// metrics, and h/h_max where the stability map covers any of them.
void write_case_table(std::ostringstream& md, const ReportData& data, const Case& c, const std::vector<const RunRecord*>& runs,
                      const std::set<double>& horizons, const std::vector<const MetricSpec*>& shown) {
  const bool any_map = std::any_of(runs.begin(), runs.end(), [&](const RunRecord* r) { return data.step_limit(c.name, r->label); });
  std::vector<std::string> header = {"run", "status"};
  if (horizons.size() > 1) header.push_back("T s");
  header.push_back("runtime s");
  for (const auto* m : shown) header.push_back(metric_header(*m) + (m->growth_owner ? " (law)" : ""));
  if (any_map) header.push_back("h/h_max");
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord* r : runs) {
    std::vector<std::string> row = {r->label, r->short_status()};
    if (horizons.size() > 1) row.push_back(format_g(r->t_end, 6));
    row.push_back(r->completed ? num(r->runtime_s) : "–");
    append_metric_cells(row, data, r, shown);
    if (any_map) append_step_margin_cell(row, data, c, r);
    rows.push_back(row);
  }
  table(md, header, rows);
  md << "\n";
}

// The integrators the case declined, one line per reason.
void write_declined(std::ostringstream& md, const Case& c, const std::vector<const RunRecord*>& declined) {
  // Declined integrators, grouped by reason; runs a [case] list leaves out are not named one by one.
  std::map<std::string, std::vector<std::string>> why_not;
  for (const RunRecord* r : declined) {
    std::string why = r->status.substr(r->status.find(':') + 1);
    if (!why.empty() && why[0] == ' ') why.erase(0, 1);
    why_not[why].push_back(r->label);
  }
  // The reason's first clause ("the model offers no X form"); the derivation of why is the
  // detail table's (summary.md), not the front page's.
  for (const auto& [why, labels] : why_not)
    if (why.rfind("not among this case's", 0) == 0) md << "This case runs only " << join(c.only_integrators) << ".\n";
    else md << "Not run: " << join(labels) << " — " << why.substr(0, why.find(": ")) << ".\n";
}

// The case's figures, then the ones left out and why (figures_omitted.csv).
void write_case_figures(std::ostringstream& md, const ReportData& data, const Case& c) {
  // Each figure with its caption; a second view of the same data (the trajectory errors against
  // evaluations beside the one against runtime) is linked, not repeated.
  for (const auto& f : data.figures) {
    if (f.case_name != c.name) continue;
    const bool second_view = f.file.size() > 8 && f.file.ends_with("_rhs.png");
    if (second_view) md << "The same against right-hand-side or residual evaluations: [" << f.file << "](" << f.file << ").\n\n";
    else md << "![" << c.name << ": " << f.section << "](" << f.file << ")\n\n" << f.caption << "\n\n";
  }
  std::vector<std::string> omitted;
  for (const auto& o : data.omitted_figures)
    if (o.case_name == c.name) {  // "<quantity>: <why> (<evidence>)" -> "<section> (<why>)"
      const size_t colon = o.reason.find(": ");
      const std::string why = colon == std::string::npos ? o.reason : o.reason.substr(colon + 2);
      omitted.push_back(o.section + " (" + why.substr(0, why.find(" (")) + ")");
    }
  if (!omitted.empty()) md << "No figure of " << join(omitted, "; ") << " (figures_omitted.csv).\n\n";
}

void write_case(std::ostringstream& md, const ReportData& data, const Case& c) {
  md << "### " << c.name << "\n\n" << c.description << ".";
  std::vector<const RunRecord*> runs, declined;
  for (const RunRecord* r : data.runs_of(c.name)) (r->not_applicable ? declined : runs).push_back(r);
  std::set<double> horizons, steps, first_steps;
  for (const RunRecord* r : runs) horizons.insert(r->t_end), (r->rtol > 0.0 ? first_steps : steps).insert(r->h);
  if (horizons.size() == 1) md << " Every run covers " << format_g(*horizons.begin(), 6) << " s.";
  // The steps the runs ran (summary.csv's h), not the case file's (issue 45 item 3: what is printed
  // is what ran); the file's when no run of the case is here. A fixed-step run's h is its step; an
  // adaptive run's only its first, h0 (its tolerances decide the rest): the two are kept apart.
  if (steps.empty() && first_steps.empty()) steps.insert(c.h);
  auto texts = [](const std::set<double>& hs) {
    std::vector<std::string> out;
    for (const double h : hs) out.push_back(num(h));
    return join(out);
  };
  if (!steps.empty()) md << (steps.size() == 1 ? " Step h = " : " Steps h = ") << texts(steps) << " s.";
  if (!first_steps.empty())
    md << (steps.empty() ? " Adaptive runs only, their first step h0 = " : " Adaptive runs' first step h0 = ") << texts(first_steps)
       << " s.";
  md << run_settings_and_energy(runs) << "\n\n";
  if (runs.empty()) {
    md << "_No run of this case in this report._\n\n";
    return;
  }
  std::vector<const MetricSpec*> shown;
  std::vector<std::string> never, zero;
  choose_case_columns(runs, shown, never, zero);
  write_case_table(md, data, c, runs, horizons, shown);
  if (!never.empty()) md << "Not shown, no run of this case integrates them: " << join(never) << ".\n";
  if (!zero.empty()) md << "Not shown: " << join(zero) << " — exactly 0 in every run that completed (a property of the case, not of the methods).\n";
  write_declined(md, c, declined);
  const fs::path detail = fs::path(c.name) / "summary.md";
  md << "Every column of every run: [" << detail.string() << "](" << detail.string() << ").\n\n";

  write_case_figures(md, data, c);
}

void write_rules(std::ostringstream& md) {
  md << "## How to read this page\n\n"
     << "- **Growth laws** (core/growth.hpp) of |E − E0 − W| and |π − π0| over a run: *zero*, *round_off* (below 10× the "
        "run's Brouwer floor: a size, not a cause, since a method's own error that small reads the same in one run; the "
        "long-time study tests each fixed-step run's against a twin at 2h, long_time.md), *bounded*, *sqrt_t*, *linear*, *faster*, *power_law*; *too_short* when the run spans too few "
        "of the model's slowest periods for a law (3 for the start-up, then 2 octaves of envelope), *regime_change* when the "
        "envelope jumps, *inconclusive* when the 95 % interval of the exponent cannot separate the laws. The long-time study "
        "(long_time.md) fits the same laws over longer runs where a case has one; the advice uses the longest horizon measured. A law marked ! contradicts what theory predicts for the method "
        "(each case's summary.md: investigate).\n"
     << "- **Long simulations**: a long simulation is a choice between error and cost over its whole horizon. For "
        "each case (those that run every applicable integrator), the completed runs no other beats on both: none is at "
        "once as fast (within the case's timing noise) and no less accurate on every error — max ΔE and max Δπ over the "
        "longest horizon measured (the long-time study's run where there is one), max ΔP and the constraint error over "
        "the case's — where an error more than " << format_g(kErrorFactor, 2) << "x another is larger and two errors at "
        "round-off are alike; on a case that measures how far a round-off change of its inputs moves its runs' errors "
        "(error_spread.csv: named runs again with one [model] number changed by about 1e-15), errors within the largest "
        "such factor are alike too, when it exceeds " << format_g(kErrorFactor, 2) << "x (a motion that depends "
        "sensitively on its start, e.g. after a symmetry breaks, does not tell the methods apart by less). Fastest first; a small error is not traded for a bounded one: each run's growth law says "
        "whether its place extrapolates beyond the horizon (bounded where theory predicts it; no growth measured where "
        "theory allows drift is not guaranteed; a growing law is not). Runs with identical errors to 4 digits are one "
        "discretisation, one entry. Timing noise: the largest run-to-run spread of the case's work-precision timings "
        "(else the report's); runtimes within it are ties (\"=\"). Runs that are not ok are no choice (listed as not "
        "results). Cases that run only a paper's few integrators are left out. The work-precision ranking beside it "
        "holds over its own horizon only: shorter than the case's where that is long, longer where the case's horizon holds "
        "fewer than 3 of the model's slowest periods, which a ranking of trajectory errors needs (then said beside it with "
        "the periods: its own sweep and reference, not the case's runs).\n"
     << "- **h/h_max**: the run's step over the largest step at which the same method completes the case stably "
        "(stability_map.md: each probe runs 10^4 steps or the case's t_end, whichever is shorter); its *limit* is what "
        "happens above it, named when h/h_max is above "
        << format_g(kStepMarginNote, 2) << " — *instability* (the method amplifies), *energy bound* (on a damped model, "
        "an energy balance past 0.1 E_s that the map does not tell from an amplification), *energy jump* (a step adds "
        "more than 0.1 E_s at once and the energy stays raised), *energy accuracy bound* (the energy error passes 0.1 E_s "
        "and falls back without growing: a bounded error's amplitude, not a stability limit), *constraint bound* or *orthogonality bound* (the error passes 0.01 by a drift "
        "that grows with h and t: an accuracy bound, not a stability limit, lower over a longer horizon), *solver "
        "failure* (the implicit solver finds no solution), *solver at the stability limit* (it fails where h ω_max κ "
        "is within 15 % of the method's y*: consistent with the step leaving its stability interval, an inference from "
        "κ, which the case's explicit methods measure; the failure mode itself is not resolved); ≤ where the map found no limit below its largest probe (h_max is then a "
        "lower bound). A method without a stability interval on the imaginary axis gains energy at every step, so its "
        "h_max falls with the horizon (stability_map.md): where the run is longer than the probes, the map's h/h_max is "
        "a lower bound of the run's, marked ≥ (carried by no law: how fast h_max falls depends on the motion). A run that fails below its h_max shows the probes' horizon: the limit held over it, not over the "
        "run's.\n"
     << "- **Status** says what happened, by its mechanism (core/stability_criterion.hpp). *ok*, with what it saw: "
        "*drifts in P* (a conservation drift: the method on the run's formulation does not keep the total linear momentum "
        "(Runge-Kutta and BDF keep linear invariants of their own state, so it is the form's, e.g. unit-vector link "
        "directions whose P is not linear in the state), so the centre of mass "
        "moves and its kinetic energy |ΔP|²/2M enters the energy error; said where ΔP is beyond the round-off bound n ε p_s "
        "and material: that kinetic energy past 0.01 E_s, or the centre of mass moved past 0.01 v_s T, v_s = √(2E_s/M) "
        "and T the slowest period; smaller drifts are in the ΔP column only; the distance moved and the share of the "
        "energy error in summary.csv), *drifts off the constraint manifold* / *drifts off SO(3) from t = …* (the constraint or "
        "orthogonality error passed 0.01 while the energy gained nothing past 0.1 E_s, by a method stable on the imaginary "
        "axis: a velocity-level scheme's O(h) creep of a taut link's length, or a contraction of R: a drift, not an "
        "amplification), *dissipates* / *gains energy from t = …* (a drift of the energy balance, by its sign: the energy error of the motion, "
        "without that share, passed 0.01 E_s and kept growing, its running max rising more than ×1.25 over the run's "
        "last octave; *gains energy by its amplification* where the method has no stability interval on the imaginary axis, whose gain is the amplification |R(ihω)| > 1 still under the instability bound, exponential beyond; on a case with impacts a loss also counts what a time-stepping scheme's impact steps take beyond the impact law's booking, which snap.md splits from its cascade; one that passed it and then stopped growing, an accuracy error built up over a damped transient, "
        "reads *an energy-balance error that stopped growing*, ok), *a rise that slowed* (the "
        "energy error rose more than ×100 within an octave of t, then less than ×100 an octave (the status gives the "
        "last octave's rise): the motion changed, e.g. a symmetry broke, and every method's error rose with it; a "
        "numerical instability keeps amplifying; summary.csv's episode_from marks the runs whose rise passed ×100, "
        "those whose error was small before the change, while the others' rose less in the same window). *unstable from t = …*: a numerical instability, the energy error of "
        "the motion gaining more than 0.1 E_s or growing exponentially to the end of the run, or, by a method with no "
        "stability interval on the imaginary axis, a constraint or rotation amplified off its manifold (which the energy "
        "need not see) (the onset; the run went on and its metrics are shown). *energy jump at t = …*: a gain past 0.1 E_s "
        "that came within one sampling interval and then stayed (within ×1.1 over ten such intervals, below E_s): energy "
        "added once by a step, not an amplification, which would have compounded; still no result (its status says "
        "whether the step also moved P, which no internal force does). E_s is the case's: the maximum "
        "kinetic energy over its first slowest period on the case's reference solution, the same for every run and "
        "every stability probe. *diverged at t = …* (the state became non-finite, or the step found it had left its "
        "method's stability region, its reason says which); "
        "*failed at t = …* (its solver gave up); *threw at t = …* (the model or integrator threw); a plugin's faults: "
        "*crashed at t = …* (its process died of a signal or exit()), *hung at t = …* (no progress past --time-limit), "
        "*broke the integrator contract at t = …* (a step returned success with a non-finite or wrong-size state, or a "
        "time that did not advance) — the reason in summary.csv. A run that did not reach its end has no metrics: its "
        "cells are –. On a model with a free centre of mass the energy law is fitted to the energy error of the motion "
        "relative to the centre of mass (max ΔE_int); max ΔE is the whole error.\n"
     << "- **Step h** of a case: the fixed step of its fixed-step runs; **h0** the first step of its adaptive runs, "
        "whose tolerances decide every later step (each case's summary.md).\n"
     << "- **Figures**: one panel per integrator family (symplectic; explicit, not symplectic; implicit, not "
        "symplectic: from the integrators' declared traits), at most 8 series a panel, each integrator in the same "
        "colour and dash in every figure; log axes where a panel's values span 2 decades or more (samples exactly 0 "
        "are not drawn: such a run reads \"exactly 0\" in the legend); a run that stopped is drawn to where it "
        "stopped (×), an unstable one to its end with its × at the onset; neither sets the axes.\n"
     << "- **n/a**: the run's formulation cannot violate that quantity, so there is no error to report (never a 0).\n\n";
}

// The report's own pages, then each study's (StudyInfo::pages), each listed where the report holds it.
void write_other_results(std::ostringstream& md, const std::string& dir, const std::vector<StudyPage>& study_pages) {
  std::vector<StudyPage> pages = {{"summary.md", "every run, every column"},
                                  {"coverage.md", "which integrator runs which case, and why not (coverage.csv: the same as rows)"}};
  pages.insert(pages.end(), study_pages.begin(), study_pages.end());
  pages.push_back({"benchmarks.md", "cost per step against problem size"});
  pages.push_back({"build_info.csv", "the full build and machine record"});
  std::vector<std::string> links;
  for (const auto& [file, what] : pages)
    if (fs::exists(fs::path(dir) / file)) links.push_back("[" + file + "](" + file + ") — " + what);
  if (links.empty()) return;
  md << "## Other results\n\n";
  for (const auto& l : links) md << "- " << l << "\n";
  md << "\n";
}

std::string build_value(const ReportData& data, const std::string& key) {
  for (const auto& [k, v] : data.build)
    if (k == key) return v;
  return "";
}

// Under the first table, for a report with plugins: each plugin's build (an unoptimised one's
// runtimes are not comparable) and its runs that did not complete, in the tables' words
// ("crashed", "broke the integrator contract", ...), so that a plugin's fault is read first, not
// found in a case's table.
void write_plugins_glance(std::ostringstream& md, const ReportData& data) {
  bool any = false;
  for (const auto& [key, value] : data.build) {
    if (key.rfind("plugin ", 0) != 0 || key.find(' ', 7) != std::string::npos) continue;
    const std::string name = key.substr(7);
    // "version, file hash H, FILE (integrator a; model b)": its integrators.
    std::set<std::string> integrators;
    if (const size_t open = value.rfind(" ("); open != std::string::npos) {
      std::stringstream entries(value.substr(open + 2, value.size() - open - 3));
      for (std::string e; std::getline(entries, e, ';');) {
        while (!e.empty() && e.front() == ' ') e.erase(0, 1);
        if (e.rfind("integrator ", 0) == 0) integrators.insert(e.substr(11));
      }
    }
    std::vector<std::string> notes;
    const std::string build = build_value(data, key + " build");
    if (build.rfind("NOT optimised", 0) == 0) notes.push_back(build + ": its runtimes are not comparable with the others'");
    std::map<std::string, std::vector<std::string>> faults;  // run status -> cases
    std::vector<std::string> order;
    for (const auto& r : data.runs)
      if (integrators.count(r.integrator) && !r.ok && !r.not_applicable) {
        const std::string what = r.label + " " + r.short_status();
        if (!faults.count(what)) order.push_back(what);
        faults[what].push_back(r.case_name);
      }
    for (const auto& what : order) notes.push_back(what + " (" + join(faults[what]) + ")");
    if (!any) md << "\n**Plugins.**\n";
    any = true;
    md << "- " << name << ": " << (notes.empty() ? "an optimised build; every run of it completed" : join(notes, "; "))
       << ".\n";
  }
  if (any) md << "\nA run that crashed, hung, threw or broke the integrator contract is its plugin's own fault (the reason in summary.csv), not a result of the method.\n";
}

void write_build(std::ostringstream& md, const ReportData& data) {
  if (data.build.empty()) return;
  md << "## Build\n\n";
  // The dependencies in one row and no CPU flags: the page's record of the build, the whole of
  // it in build_info.csv.
  std::vector<std::vector<std::string>> rows;
  std::string dependencies;
  for (const auto& [key, value] : data.build)
    if (key.rfind("dependency ", 0) == 0) dependencies += (dependencies.empty() ? "" : ", ") + key.substr(11) + " " + value;
  // A plugin compiled without optimisation (build_info.csv "plugin NAME build", app/writing/manifest.hpp)
  // makes every runtime comparison with it unfair: said before the table, not only in it.
  for (const auto& [key, value] : data.build)
    if (key.rfind("plugin ", 0) == 0 && key.size() > 6 && key.substr(key.size() - 6) == " build" &&
        value.rfind("NOT optimised", 0) == 0)
      md << "**Warning: " << key.substr(7, key.size() - 13) << " is not an optimised build** (" << value
         << "): its runtimes here are not comparable with the other integrators'; rebuild the plugin with "
            "`-DCMAKE_BUILD_TYPE=Release`.\n\n";
  for (const auto& [key, value] : data.build) {
    if (key == "cpu_flags" || key.rfind("dependency ", 0) == 0) continue;
    const bool code = key == "flags" || key == "command" || (key.rfind("plugin ", 0) == 0 && key.size() > 6 &&
                                                             key.substr(key.size() - 6) == " flags" && value.rfind("unknown", 0) != 0);
    rows.push_back({key, code ? "`" + value + "`" : value});
    if (key == "build_type" && !dependencies.empty()) rows.push_back({"dependencies", dependencies});
  }
  table(md, {"key", "value"}, rows);
  md << "\n";
}

}  // namespace

std::string index_markdown(const ReportData& data, const std::vector<Case>& cases, const std::vector<StudyPage>& study_pages) {
  std::ostringstream md;
  md << "# tetherbench report\n\n";
  const std::string version = build_value(data, "version"), date = build_value(data, "date");
  md << "Every statement on this page is read from this report's own tables by stated rules "
        "([how to read this page](#how-to-read-this-page))"
     << (version.empty() ? "" : "; tetherbench " + version) << (date.empty() ? "" : ", " + date) << ".\n\n";

  // Models in the order of their first case.
  std::vector<std::string> models;
  std::map<std::string, std::vector<CaseInput>> model_cases;
  std::map<std::string, std::vector<std::string>> restricted;
  for (const auto& c : cases) {
    if (!model_cases.count(c.model_name)) models.push_back(c.model_name);
    model_cases[c.model_name].push_back({c.name, c.only_integrators.empty()});
    if (!c.only_integrators.empty()) restricted[c.model_name].push_back(c.name);
  }
  std::vector<ModelAdvice> advice;
  for (const auto& m : models) advice.push_back(advise(data, m, model_cases[m]));
  md << "## Which integrator?\n\n";
  if (const std::string chosen = build_value(data, "integrators"); !chosen.empty())
    md << "Among the integrators this report ran only: " << chosen << ".\n\n";
  std::vector<std::vector<std::string>> glance;
  for (const auto& a : advice) glance.push_back(glance_row(data, a));
  table(md, {"model", "long simulations: error over the whole horizon against runtime (the runs no other beats on both, fastest first, each at the case's own step or tolerance: a method's place moves along its own sweep)",
             "caveat", "fastest at matched accuracy over a short horizon (trajectory error, scaled L2; not advice for long runs; on a case with impacts, the snap study's position error at t_end)"},
        glance);
  write_plugins_glance(md, data);
  md << "\nThe numbers behind each front, and the runs off it and why, follow.\n\n";
  for (size_t i = 0; i < models.size(); ++i) write_advice(md, data, advice[i], restricted[models[i]]);

  write_paper_digest(md, data);

  md << "## Which integrator runs which case\n\n"
     << "What each run did over its case's horizon (ok, or how it stopped), and n/a where the integrator does not "
        "apply to the case's formulation, with the reason the form or the integrator gives.\n\n"
     << coverage_by_case_markdown(coverage_of_runs(data, cases)) << "\n";

  md << "## Cases\n\n";
  std::vector<std::string> links;
  for (const auto& c : cases) links.push_back("[" + c.name + "](#" + anchor(c.name) + ")");
  md << join(links) << "\n\n";
  for (const auto& c : cases) write_case(md, data, c);

  std::vector<std::string> report_wide;
  for (const auto& f : data.figures)
    if (f.case_name.empty()) report_wide.push_back("![" + f.section + "](" + f.file + ")\n\n" + f.caption + "\n");
  if (!report_wide.empty()) {
    md << "## Across cases\n\n";
    for (const auto& f : report_wide) md << f << "\n";
  }
  write_other_results(md, data.dir, study_pages);
  write_rules(md);
  write_build(md, data);
  return md.str();
}

namespace {
void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << text;
}
}  // namespace

void write_index(const std::string& dir, const std::vector<Case>& cases, const Catalogue& catalogue) {
  const ReportData data = read_report_data(dir, catalogue);
  const auto coverage = coverage_of_runs(data, cases);
  write_text(fs::path(dir) / "coverage.md",
             "# Which integrator runs which case\n\nRead from summary.csv: what each run did over its case's horizon, "
             "and n/a with the reason of the form or integrator that declined.\n\n" +
                 coverage_by_case_markdown(coverage));
  write_text(fs::path(dir) / "coverage.csv", coverage_csv(coverage));
  std::vector<StudyPage> study_pages;
  for (const StudyInfo& study : catalogue.studies) study_pages.insert(study_pages.end(), study.pages.begin(), study.pages.end());
  write_text(fs::path(dir) / "index.md", index_markdown(data, cases, study_pages));
}

}  // namespace tb
