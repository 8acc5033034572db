#include "app/recommendation.hpp"

#include <algorithm>
#include <set>

#include "app/metric_cells.hpp"
#include "core/format.hpp"

namespace tb {

namespace {

// Cheaper or comparable: a run not recommended is shown as the contrast when it costs at most
// this many times the recommendation (a reader choosing by cost asks about those).
constexpr double kContrastCost = 2.0;

bool holds(const std::string& law) { return law == "zero" || law == "round_off" || law == "bounded"; }
bool grows(const std::string& law) {
  return law == "sqrt_t" || law == "linear" || law == "faster" || law == "power_law";
}


struct LawSeen {
  std::string law, words, theory;
  double t_end = 0.0;
};

// The law of one quantity over the longest horizon measured; a regime change is judged on the
// span after it when that span has a law of its own.
LawSeen law_of(const ReportData& data, const RunRecord& run, const std::string& quantity, const std::string& from_summary,
               const std::string& theory) {
  const LawRecord* rec = data.law(run.case_name, run.label, quantity);
  LawSeen seen{rec ? rec->law : from_summary, "", rec && !rec->theory.empty() ? rec->theory : theory,
               rec ? rec->t_end : run.t_end};
  if (seen.law == "regime_change" && rec) {
    const std::string jump = format_g(rec->jump_ratio, 2) + "-fold rise between " + format_g(rec->jump_from, 3) + " s and " +
                             format_g(rec->jump_to, 3) + " s";
    if (holds(rec->after_law) || grows(rec->after_law)) {
      seen.law = rec->after_law;
      seen.words = growth_law_words(rec->after_law) + " after a " + jump;
    } else {
      seen.words = "a " + jump + ", then " + growth_law_words(rec->after_law);
    }
    return seen;
  }
  seen.words = growth_law_words(seen.law);
  return seen;
}

// Whether a law that shows no growth also rests on theory: no growth measured over a finite
// horizon says nothing beyond it unless the method is predicted to keep the quantity (a modified
// energy of a symplectic method on a conservative model, a momentum map of a Noether-conserving
// one). Measured round-off or boundedness where theory predicts drift is drift below detection
// at this step and horizon, not a property to rely on in a longer run.
bool backed(const LawSeen& law) {
  return law.law == "zero" || (holds(law.law) && (law.theory == "bounded" || law.theory == "round_off"));
}

}  // namespace

LongRunJudgement judge_long_run(const ReportData& data, const RunRecord& run) {
  LongRunJudgement j;
  j.run = &run;
  if (!run.ok) {
    j.verdict = LongRunVerdict::Grows;
    j.why = run.short_status();
    return j;
  }
  const LawSeen energy = law_of(data, run, "energy", run.energy_law, run.energy_theory);
  j.energy_law = energy.law;
  j.law_t_end = energy.t_end;
  std::vector<std::pair<std::string, LawSeen>> seen = {{"energy", energy}};
  if (!run.not_integrated.count("momentum_err_max")) {
    const LawSeen momentum = law_of(data, run, "momentum", run.momentum_law, run.momentum_theory);
    j.momentum_law = momentum.law;
    seen.emplace_back("momentum", momentum);
  }
  bool all_backed = true, any_grows = false;
  for (const auto& [quantity, law] : seen) all_backed = all_backed && backed(law), any_grows = any_grows || grows(law.law);
  j.verdict = any_grows ? LongRunVerdict::Grows : all_backed ? LongRunVerdict::Holds : LongRunVerdict::Open;
  // Say what decided: the growing or open quantity first; every quantity when all hold.
  std::string words;
  for (const auto& [quantity, law] : seen) {
    const bool decisive = j.verdict == LongRunVerdict::Holds || (any_grows ? grows(law.law) : !backed(law));
    if (!decisive) continue;
    words += (words.empty() ? "" : ", ") + quantity + " " + law.words;
    if (holds(law.law) && !backed(law) && law.law != "zero")
      words += " (theory predicts " + (law.theory.empty() ? std::string("no bound") : "at most " + law.theory + " growth") +
               " for this method: drift below detection here)";
  }
  j.why = words + " over " + format_g(j.law_t_end, 6) + " s";
  return j;
}

ModelAdvice advise(const ReportData& data, const std::string& model, const std::vector<CaseInput>& cases) {
  ModelAdvice advice;
  advice.model = model;
  for (const auto& c : cases)
    if (c.runs_everything) advice.cases.push_back(c.name);
  if (advice.cases.empty())
    for (const auto& c : cases) advice.cases.push_back(c.name);

  // Every run label of the model's cases, in the order of the first case's table.
  std::vector<std::string> labels;
  for (const auto& c : advice.cases)
    for (const RunRecord* r : data.runs_of(c))
      if (!r->not_applicable && std::find(labels.begin(), labels.end(), r->label) == labels.end()) labels.push_back(r->label);

  std::vector<Standing> standings;
  for (const auto& label : labels) {
    Standing s;
    s.label = label;
    bool everywhere = true;
    for (const auto& c : advice.cases) {
      const RunRecord* run = nullptr;
      for (const RunRecord* r : data.runs_of(c))
        if (r->label == label && !r->not_applicable) run = r;
      if (!run) {
        everywhere = false;
        continue;
      }
      s.per_case.push_back(judge_long_run(data, *run));
      const auto& j = s.per_case.back();
      s.holds += j.verdict == LongRunVerdict::Holds;
      s.grows_somewhere = s.grows_somewhere || j.verdict == LongRunVerdict::Grows;
      if (run->ok) s.runtime_s += run->runtime_s;
      s.failed_somewhere = s.failed_somewhere || !run->ok;
      if (const StepLimit* limit = data.step_limit(c, label); limit && run->rtol == 0.0 && limit->h_max > 0.0) {
        const double margin = run->h / limit->h_max;
        if (margin > s.worst_step_margin) s.worst_step_margin = margin, s.worst_step_limit = limit->limit;
        if (margin > kStepMarginNote) s.close_to_limit.emplace_back(c, margin, limit->limit);
      }
    }
    if (everywhere) standings.push_back(std::move(s));  // a run only some cases have is not compared across them
  }

  // Advised: bounded (with theory behind it) on every case of the model. Otherwise undecided,
  // with the candidates that hold on the most cases and what keeps them from the rest.
  std::vector<const Standing*> candidates;
  for (const auto& s : standings)
    if (!s.grows_somewhere) candidates.push_back(&s);
  std::sort(candidates.begin(), candidates.end(), [](const Standing* a, const Standing* b) {
    return a->holds != b->holds ? a->holds > b->holds : a->runtime_s < b->runtime_s;
  });
  const int all_cases = int(advice.cases.size());
  for (const Standing* s : candidates)
    if (s->holds == all_cases) advice.recommended.push_back(*s);
  if (advice.recommended.empty()) {
    const int best = candidates.empty() ? 0 : candidates.front()->holds;
    for (const Standing* s : candidates)
      if (best > 0 && s->holds == best) advice.partial.push_back(*s);
    bool any_bounded_theory = false;
    std::set<std::string> open;
    for (const auto& s : standings)
      for (const auto& j : s.per_case) {
        any_bounded_theory = any_bounded_theory || j.run->energy_theory == "bounded";
        if (j.verdict == LongRunVerdict::Open)
          open.insert(holds(j.energy_law) ? "below detection where theory predicts drift" : growth_law_words(j.energy_law));
      }
    std::string list;
    for (const auto& w : open) list += (list.empty() ? "" : ", ") + w;
    if (!any_bounded_theory)
      advice.inconclusive_why = "no method's energy balance is predicted bounded on this model (it does work on or "
                                "dissipates energy: theory allows at most linear growth for every method)";
    else if (!advice.partial.empty())
      advice.inconclusive_why = "no method is shown bounded on every case; bounded on " + std::to_string(best) + " of " +
                                std::to_string(all_cases) + " (the others: see below)";
    else if (candidates.empty())
      advice.inconclusive_why = "every run grows or fails on at least one case";
    else
      advice.inconclusive_why = "no run's growth laws are decided over the horizons measured (" + list + ")";
  }
  {
    double cost = 0.0;
    for (const auto& s : advice.recommended.empty() ? advice.partial : advice.recommended) cost = std::max(cost, s.runtime_s);
    std::vector<const Standing*> others;
    for (const auto& s : standings) {
      auto named = [&](const std::vector<Standing>& list) {
        return std::any_of(list.begin(), list.end(), [&](const Standing& r) { return r.label == s.label; });
      };
      if (!named(advice.recommended) && !named(advice.partial) && (s.failed_somewhere || s.runtime_s <= kContrastCost * cost))
        others.push_back(&s);
    }
    // Runs that completed first, cheapest first, then those that failed somewhere: a failed run
    // (no runtime, perhaps a plugin's crash) is no alternative of comparable cost, and must not
    // take the place of one that is.
    std::sort(others.begin(), others.end(), [](const Standing* a, const Standing* b) {
      if (a->failed_somewhere != b->failed_somewhere) return !a->failed_somewhere;
      return a->runtime_s < b->runtime_s;
    });
    for (size_t i = 0; i < others.size() && i < kMaxContrasts; ++i) advice.contrasts.push_back(*others[i]);
  }
  for (const auto& c : advice.cases)
    for (const auto& r : data.rankings)
      if (r.case_name == c && r.work == "runtime") advice.rankings.push_back(&r);
  return advice;
}

}  // namespace tb
