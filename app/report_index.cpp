#include "app/report_index.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app/coverage.hpp"
#include "app/markdown_table.hpp"
#include "app/metric_cells.hpp"
#include "app/recommendation.hpp"
#include "core/metric_registry.hpp"
#include "core/violable_invariants.hpp"
#include "core/format.hpp"

namespace fs = std::filesystem;

namespace tb {

namespace {

std::string num(double x) { return format_g(x, 3); }

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

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
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

// "1.4e-05 J" of a metric of the registry.
std::string metric_with_unit(const RunRecord& r, const std::string& column) {
  const auto x = r.value(column);
  const std::string unit = unit_of(metric_spec(column));
  return x ? num(*x) + (unit.empty() ? "" : " " + unit) : "–";
}

// ---- which integrator: the advice of app/recommendation.hpp in words ----

// "energy bounded over 1000 s; max ΔE 1.4e-05 J, max ΔP 1.8e-12 kg m/s over the case's 1000 s in 3.5 s"
std::string judgement_numbers(const LongRunJudgement& j) {
  const RunRecord& r = *j.run;
  if (!r.ok) return j.why;
  std::string out = j.why;
  if (j.law_t_end != r.t_end) out += " (long-time study)";
  // the conservation errors of the headline table the run integrates
  std::string sep = "; ";
  for (const MetricSpec* m : headline_metrics())
    if (m->violable != Violable::Constraints && m->violable != Violable::Rotations && !r.not_integrated.count(std::string(m->name)) &&
        r.value(std::string(m->name))) {
      out += sep + std::string(m->label) + " " + metric_with_unit(r, std::string(m->name));
      sep = ", ";
    }
  return out + " over the case's " + format_g(r.t_end, 6) + " s in " + num(r.runtime_s) + " s";
}

std::string standing_words(const Standing& s, const std::vector<std::string>& cases) {
  std::vector<std::string> parts;
  for (const auto& j : s.per_case)
    parts.push_back((cases.size() > 1 ? j.run->case_name + ": " : "") + judgement_numbers(j));
  return join(parts, ". ");
}

// "h/h_max = 0.96 on A and B (the implicit solver fails to converge above h_max)": every case
// where the run's step is within a factor 2 of the largest that works.
std::string step_caveat(const Standing& s, bool several_cases) {
  if (s.close_to_limit.empty()) return "";
  std::map<std::string, std::vector<std::string>> by_margin;  // "0.96 (solver failure)" -> cases
  for (const auto& [c, margin, limit] : s.close_to_limit) by_margin[format_g(margin, 2) + "|" + limit].push_back(c);
  std::vector<std::string> parts;
  for (const auto& [key, cases] : by_margin) {
    const std::string margin = key.substr(0, key.find('|')), limit = key.substr(key.find('|') + 1);
    const std::string above = limit == "instability" ? "the method goes unstable above h_max"
                                                     : "the implicit solver fails to converge above h_max";
    parts.push_back("h/h_max = " + margin + (several_cases ? " on " + join(cases, " and ") : std::string()) + " (" + above + ")");
  }
  return join(parts, "; ");
}

// The ranking's first entries with their cost: "a 0.028 s < b 0.045 s = ... (4 more)".
std::string ranking_head(const RankingRecord& r, size_t show) {
  std::string out;
  size_t k = 0;
  std::istringstream in(r.ranking);
  std::string token;
  while (in >> token) {
    if (token == "<" || token == "=") {
      if (k < show) out.append(" ").append(token).append(" ");
      continue;
    }
    if (k < show) {
      out += token;
      if (k < r.work_of_each.size()) out.append(" ").append(num(r.work_of_each[k])).append(" s");
    }
    ++k;
  }
  if (k > show) out += " … (" + std::to_string(k - show) + " more)";
  return out;
}

bool ranks(const RankingRecord& r) { return !r.work_of_each.empty(); }

std::string ranking_words(const RankingRecord& r) {
  const std::string where = r.case_name + (r.discretisation.empty() ? "" : " (" + r.discretisation + ")");
  if (!ranks(r)) return where + ": " + r.ranking + " — " + r.note;
  return where + ", over " + num(r.horizon_s) + " s at matched error " + num(r.matched_error) + ": " + ranking_head(r, 4);
}

// One row of the table at the top: the model, what to use for long runs with the numbers that
// justify it, the caveat, the fastest at matched accuracy.
// What the fastest at matched accuracy does over the case's whole horizon when that is not what a
// long simulation wants (a ranking over 10 s says nothing of 1000 s): "; over 1000 s: unstable
// from t = 349.9 s" or "; over 1000 s its energy error grows faster than linearly".
std::string long_run_warning(const ReportData& data, const std::string& case_name, const std::string& label) {
  for (const RunRecord* r : data.runs_of(case_name)) {
    if (r->label != label || r->not_applicable) continue;
    if (!r->ok) return "; over " + format_g(r->t_end, 6) + " s: " + r->short_status();
    for (const auto& [quantity, law] : {std::pair{"energy", r->energy_law}, std::pair{"momentum", r->momentum_law}})
      if (law == "sqrt_t" || law == "linear" || law == "faster" || law == "power_law")
        return "; over " + format_g(r->t_end, 6) + " s its " + quantity + " error " + growth_law_words(law);
  }
  return "";
}

std::vector<std::string> glance_row(const ModelAdvice& a, const ReportData& data) {
  auto names = [](const std::vector<Standing>& list) {
    std::vector<std::string> out;
    for (const auto& s : list) out.push_back("**" + s.label + "**");
    return join(out);
  };
  // The first's worst energy error over the cases, and its cost.
  auto numbers = [](const Standing& s) {
    double worst = 0.0;
    for (const auto& j : s.per_case)
      if (const auto x = j.run->value("energy_err_max")) worst = std::max(worst, *x);
    return s.label + ": max ΔE " + num(worst) + " J" + (s.per_case.size() > 1 ? " (worst case)" : "") + ", " +
           num(s.runtime_s) + " s" + (s.per_case.size() > 1 ? " for all " + std::to_string(s.per_case.size()) + " cases" : "");
  };
  std::string long_runs, caveat;
  const std::vector<Standing>& named = a.recommended.empty() ? a.partial : a.recommended;
  if (!a.recommended.empty()) {
    long_runs = names(a.recommended) + (a.cases.size() > 1 ? " (bounded on every case)" : " (bounded)") + "; " +
                numbers(a.recommended.front());
  } else if (!a.partial.empty()) {
    long_runs = "undecided: " + a.inconclusive_why + "; closest: " + names(a.partial) + " (" + numbers(a.partial.front()) + ")";
  } else {
    long_runs = "undecided: " + a.inconclusive_why;
  }
  for (const auto& s : named)
    if (const std::string c = step_caveat(s, a.cases.size() > 1); !c.empty()) caveat += (caveat.empty() ? "" : "; ") + s.label + ": " + c;
  std::string fastest;
  for (const RankingRecord* r : a.rankings)
    if (ranks(*r)) {
      const std::string first = r->ranking.substr(0, r->ranking.find(' '));
      fastest += (fastest.empty() ? "" : "; ") + first + " (" + r->case_name + ", over " + num(r->horizon_s) + " s at error " +
                 num(r->matched_error) + long_run_warning(data, r->case_name, first) + ")";
    }
  if (fastest.empty()) fastest = a.rankings.empty() ? "no ranking" : "inconclusive (see below)";
  return {a.model, long_runs, caveat.empty() ? "–" : caveat, fastest};
}

void write_advice(std::ostringstream& md, const ModelAdvice& a, const std::vector<std::string>& restricted) {
  md << "### " << a.model << " — " << join(a.cases) << "\n\n";
  auto standing_line = [&](const Standing& s) {
    md << "  - **" << s.label << "**: " << standing_words(s, a.cases) << ".";
    if (const std::string c = step_caveat(s, a.cases.size() > 1); !c.empty()) md << " **Caveat:** " << c << ".";
    md << "\n";
  };
  if (!a.recommended.empty()) {
    md << "- **Long simulations**, cheapest first:\n";
    for (const auto& s : a.recommended) standing_line(s);
  } else {
    md << "- **Long simulations: undecided** — " << a.inconclusive_why << ".\n";
    if (!a.partial.empty()) {
      md << "  Closest, never growing or failing, cheapest first:\n";
      for (const auto& s : a.partial) standing_line(s);
    }
  }
  for (const auto& s : a.contrasts)
    md << "  - not " << s.label << " (" << (s.grows_somewhere ? "grows or fails" : "undecided") << "): " << standing_words(s, a.cases)
       << ".\n";
  if (!a.rankings.empty()) {
    md << "- **Accuracy at a given cost** (work–precision, runtime at matched error, fastest first):\n";
    for (const RankingRecord* r : a.rankings) md << "  - " << ranking_words(*r) << "\n";
  }
  if (!restricted.empty())
    md << "- Not in this advice: " << join(restricted) << " (each runs only a few integrators, to match a paper's set-up).\n";
  md << "\n";
}

// ---- the papers' verdicts: counts per source, then every row that is not "agrees" ----

void write_paper_digest(std::ostringstream& md, const ReportData& data) {
  if (data.paper.empty()) return;
  md << "## The papers' claims, judged on this report's runs\n\n";
  const std::vector<std::string> verdicts = {"agrees", "disagrees", "contradicts", "exceeds", "inconclusive"};
  std::vector<std::string> sources;
  std::map<std::string, std::map<std::string, int>> count;
  for (const auto& p : data.paper) {
    const std::string source = p.source.substr(0, p.source.find(','));
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
    ++count[source][p.verdict];
    ++count["all"][p.verdict];
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
        "seed 004 Baumgarte-stabilised multibody DAEs and the textbook systems).\n"
     << "\nEvery claim that does not agree (its evidence, tolerance and cause: [paper_comparison.md](paper_comparison.md)):\n\n";
  rows.clear();
  for (const auto& p : data.paper)
    if (p.verdict != "agrees")
      rows.push_back({p.id, p.case_name + (p.integrator.empty() ? "" : " / " + p.integrator), p.metric, p.paper, p.ours, p.verdict});
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

void write_case(std::ostringstream& md, const ReportData& data, const Case& c) {
  md << "### " << c.name << "\n\n" << c.description << ".";
  std::vector<const RunRecord*> runs, declined;
  for (const RunRecord* r : data.runs_of(c.name)) (r->not_applicable ? declined : runs).push_back(r);
  std::set<double> horizons;
  for (const RunRecord* r : runs) horizons.insert(r->t_end);
  if (horizons.size() == 1) md << " Every run covers " << format_g(*horizons.begin(), 6) << " s.";
  md << " Step h = " << num(c.h) << " s." << run_settings_and_energy(runs) << "\n\n";
  if (runs.empty()) {
    md << "_No run of this case in this report._\n\n";
    return;
  }
  // Columns: a metric no run of the case integrates is dropped and said once.
  // Columns: the registry's headline metrics. One no run of the case integrates, or one exactly
  // 0 in every run that has a result (a structural zero of the case, not a score), is dropped
  // and said once.
  std::vector<const MetricSpec*> shown;
  std::vector<std::string> never, zero;
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
    row.push_back(r->ok ? num(r->runtime_s) : "–");
    for (const auto* m : shown) {
      const std::string column(m->name);
      if (r->not_integrated.count(column)) {
        row.push_back("n/a (" + not_integrated_reason(*m) + ")");
        continue;
      }
      const auto x = r->ok ? r->value(column) : std::nullopt;
      std::string v = x ? num(*x) : "–";
      if (x && m->growth_owner) {
        const bool energy = m->growth == GrowthOf::Energy;
        v += " (" + (energy ? r->energy_law : r->momentum_law) + ((energy ? r->energy_investigate : r->momentum_investigate) ? "!" : "") + ")";
      }
      row.push_back(v);
    }
    if (any_map) {
      const StepLimit* limit = data.step_limit(c.name, r->label);
      if (r->rtol > 0.0) row.push_back("adaptive");
      else if (!limit) row.push_back("–");
      else {
        const double margin = r->h / limit->h_max;
        std::string v = (limit->bound == "bracketed" ? "" : "≤ ") + format_g(margin, 2);
        if (margin > kStepMarginNote) v += " (" + limit->limit + ")";
        // The map probes a shorter horizon than the case's: a run that fails below its h_max says
        // the limit over the probe's horizon does not hold over the run's.
        if (!r->ok && margin < 1.0 && limit->t_horizon < r->t_end)
          v += " (h_max over " + format_g(limit->t_horizon, 3) + " s; not over " + format_g(r->t_end, 6) + " s)";
        row.push_back(v);
      }
    }
    rows.push_back(row);
  }
  table(md, header, rows);
  md << "\n";
  if (!never.empty()) md << "Not shown, no run of this case integrates them: " << join(never) << ".\n";
  if (!zero.empty()) md << "Not shown: " << join(zero) << " — exactly 0 in every run that completed (a property of the case, not of the methods).\n";
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
  const fs::path detail = fs::path(c.name) / "summary.md";
  md << "Every column of every run: [" << detail.string() << "](" << detail.string() << ").\n\n";

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

void write_rules(std::ostringstream& md) {
  md << "## How to read this page\n\n"
     << "- **Growth laws** (core/growth.hpp) of |E − E0 − W| and |π − π0| over a run: *zero*, *round_off* (below 10× the "
        "run's Brouwer floor), *bounded*, *sqrt_t*, *linear*, *faster*, *power_law*; *too_short* when the run spans too few "
        "of the model's slowest periods for a law (3 for the start-up, then 2 octaves of envelope), *regime_change* when the "
        "envelope jumps, *inconclusive* when the 95 % interval of the exponent cannot separate the laws. The long-time study "
        "(long_time.md) fits the same laws over longer runs where a case has one; the advice uses the longest horizon measured. A law marked ! contradicts what theory predicts for the method "
        "(each case's summary.md: investigate).\n"
     << "- **Long simulations**: an integrator is advised for a model when it completes every case of the model and "
        "its energy and momentum errors hold on every one: a law of *zero*, or *round_off* or *bounded* where theory "
        "predicts the method keeps the quantity (a symplectic method's modified energy on a conservative model; a "
        "momentum map kept by the discrete Noether theorem), so that no growth was measured and none is expected beyond "
        "the horizon. Round-off or boundedness where theory predicts drift is drift below detection at that step and "
        "horizon, not advice. Where no integrator holds on every case the advice is *undecided*, naming the closest "
        "(holding on the most cases, never growing or failing). *not X* lines: up to " << kMaxContrasts
     << " runs of comparable cost, or that fail, cheapest first. Cases that run only a paper's few integrators are "
        "left out. Runtimes of a few milliseconds compare within their timing noise (each case's summary.md).\n"
     << "- **h/h_max**: the run's step over the largest step at which the same method completes the case stably "
        "(stability_map.md: each probe runs 10^4 steps or the case's t_end, whichever is shorter); its *limit* is what "
        "happens above it (instability, or the implicit solver's failure), named when h/h_max is above "
        << format_g(kStepMarginNote, 2) << "; ≤ where the map found no limit below its largest probe (h_max is then a "
        "lower bound). A run that fails below its h_max shows the probes' horizon: the limit held over it, not over the "
        "run's.\n"
     << "- **Status**: ok; *unstable from t = …* (the instability criterion's onset; the run went on); *diverged at t = …* (the state became non-finite); "
        "*failed at t = …* (its solver gave up); *threw at t = …* (the model or integrator threw); a plugin's faults: "
        "*crashed at t = …* (its process died of a signal or exit()), *hung at t = …* (no progress past --time-limit), "
        "*broke the integrator contract at t = …* (a step returned success with a non-finite or wrong-size state, or a "
        "time that did not advance) — the reason in summary.csv. A run that is not ok has no metrics: its cells are –.\n"
     << "- **Step h** of a case: the fixed step of fixed-step methods, the first step of adaptive ones (their "
        "tolerances: each case's summary.md).\n"
     << "- **Figures**: one panel per integrator family (symplectic; explicit, not symplectic; implicit, not "
        "symplectic: from the integrators' declared traits), at most 8 series a panel, each integrator in the same "
        "colour and dash in every figure; log axes where a panel's values span 2 decades or more (samples exactly 0 "
        "are not drawn: such a run reads \"exactly 0\" in the legend); a run that is not a result is drawn to where "
        "it stopped (×) and never sets the axes.\n"
     << "- **n/a**: the run's formulation cannot violate that quantity, so there is no error to report (never a 0).\n\n";
}

void write_other_results(std::ostringstream& md, const std::string& dir) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"summary.md", "every run, every column"},
      {"coverage.md", "which integrator runs which case, and why not (coverage.csv: the same as rows)"},
      {"paper_comparison.md", "every claim of the papers with its evidence"},
      {"long_time.md", "growth laws over long runs"},
      {"stability_map.md", "largest stable step per method and case"},
      {"tolerance_sweep.md", "adaptive methods against their tolerance"},
      {"parameter_map.md", "where the variational integrator completes"},
      {"benchmarks.md", "cost per step against problem size"},
      {"orders.csv", "measured convergence orders"},
      {"work_precision_rankings.csv", "work–precision rankings"},
      {"build_info.csv", "the full build and machine record"}};
  std::vector<std::string> links;
  for (const auto& [file, what] : files)
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
  // A plugin compiled without optimisation (build_info.csv "plugin NAME build", app/manifest.hpp)
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

std::string index_markdown(const ReportData& data, const std::vector<Case>& cases) {
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
  for (const auto& a : advice) glance.push_back(glance_row(a, data));
  table(md, {"model", "long simulations: energy and momentum bounded on every case (cheapest first)", "caveat",
             "fastest at matched accuracy (trajectory error, scaled L2)"},
        glance);
  write_plugins_glance(md, data);
  md << "\nThe numbers behind each line, and the runs not advised, follow.\n\n";
  for (size_t i = 0; i < models.size(); ++i) write_advice(md, advice[i], restricted[models[i]]);

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
  write_other_results(md, data.dir);
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

void write_index(const std::string& dir, const std::vector<Case>& cases) {
  const ReportData data = read_report_data(dir);
  const auto coverage = coverage_of_runs(data, cases);
  write_text(fs::path(dir) / "coverage.md",
             "# Which integrator runs which case\n\nRead from summary.csv: what each run did over its case's horizon, "
             "and n/a with the reason of the form or integrator that declined.\n\n" +
                 coverage_by_case_markdown(coverage));
  write_text(fs::path(dir) / "coverage.csv", coverage_csv(coverage));
  write_text(fs::path(dir) / "index.md", index_markdown(data, cases));
}

}  // namespace tb
