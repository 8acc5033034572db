#include "app/judging/claims_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <cctype>

#include "app/common/csv_table.hpp"
#include "core/format.hpp"
#include "app/judging/order_fit.hpp"
#include "core/growth.hpp"

namespace tb {

namespace {

constexpr double kGainOverKinetic = 0.1;  // the instability criterion's energy gain
constexpr double kConstraintBound = 1e-2; // and its constraint / orthogonality bound
constexpr int kOrderPoints = 3;
// An order fitted over errors above this fraction of the quantity's own scale is a fit over O(1)
// errors, not an asymptotic range (issue 32 item 5). A report without the relative column
// (relative_error_max) is held to its absolute errors: 1 in the state's own units (m, m/s, rad).
constexpr double kOrderCeiling = 0.1;
constexpr double kOrderCeilingAbsolute = 1.0;
// A ranking needs a horizon of this many slowest periods; shorter, the table says so instead.
constexpr double kRankingPeriods = 3.0;
constexpr const char* kShortTimeOnly = "short-time accuracy only";
// A ranking's matched error must stand this many times above the references' agreement.
constexpr double kRankingResolution = 10.0;

double number(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  if (it == row.end() || it->second.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end && *end == '\0' ? v : std::nan("");
}
std::string text(const std::map<std::string, std::string>& row, const std::string& column) {
  const auto it = row.find(column);
  return it == row.end() ? std::string() : it->second;
}
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    const size_t j = std::min(s.find(' ', i), s.size());
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}
// "ok", or "ok; drift from t = ..." (a drift within the physical scale keeps its metrics).
bool is_ok(const std::string& status) { return status == "ok" || status.rfind("ok; ", 0) == 0; }
bool is_law(const std::string& law) {
  static const std::set<std::string> laws = {"bounded", "sqrt_t", "linear", "faster", "decays", "power_law"};
  return laws.count(law) > 0;
}

// A growth law and its interval, the words printed beside it and the theory column.
void check_law(const std::string& file, const std::string& where, const std::string& law, double lo, double hi,
               const std::string& theory, const std::string& words, std::vector<ClaimViolation>& out) {
  if (!is_law(law)) return;
  if (!(std::isfinite(lo) && std::isfinite(hi)))
    out.push_back({file, where, "law '" + law + "' printed without its 95% interval"});
  // The law must be the one its interval carries, by the rule that names it (core/growth.hpp
  // classify_growth, one rule for every law: issue 44 class 4); an accelerating envelope is an
  // observation in the words, never a law its interval does not carry.
  // The offset-plus-drift law (core/growth.hpp, referee point N6) is linear by its own fit, not by
  // the power law's interval: allowed where the rule tries it (an interval between -s and 1 + s)
  // and its words give the fit.
  else if (law == "linear" && words.find("grows linearly after an offset: |e| ~ a + b t") != std::string::npos) {
    if (!(lo > -kGrowthLawSlack && hi < 1.0 + kGrowthLawSlack))
      out.push_back({file, where, "law 'linear' by an offset-plus-drift fit on an interval [" + format_g(lo, 3) + ", " +
                                      format_g(hi, 3) + "] outside the one that fit is tried on"});
  } else if (const GrowthLaw carried = classify_growth(lo, hi); to_string(carried) != law)
    out.push_back({file, where, "law '" + law + "' on an interval [" + format_g(lo, 3) + ", " + format_g(hi, 3) +
                                    "] that carries " +
                                    (carried == GrowthLaw::Inconclusive ? "no law: " + why_no_law(lo, hi)
                                                                        : "'" + to_string(carried) + "'")});
  if (theory == "bounded" && (law == "linear" || law == "faster" || law == "power_law" || law == "sqrt_t") &&
      words.find("investigate") == std::string::npos && words.find("round-off random walk") == std::string::npos)
    out.push_back({file, where, "law '" + law + "' contradicts the theory (bounded) but is printed as a finding"});
}

void check_summary(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/summary.csv");
  const std::string file = "summary.csv";
  std::map<std::string, std::set<std::string>> horizons;
  for (const auto& row : t.rows) {
    const std::string where = text(row, "case") + " / " + text(row, "integrator");
    const std::string status = text(row, "status");
    if (text(row, "steps") != "n/a" && is_ok(status)) horizons[text(row, "case")].insert(text(row, "t_end"));
    // A metric the run's formulation cannot violate (its not_integrated column) has no number.
    for (const std::string& metric : words(text(row, "not_integrated")))
      for (const std::string& column : {metric, metric + "_shared"})
        if (t.has(column) && !text(row, column).empty())
          out.push_back({file, where, column + " = " + text(row, column) +
                                          " printed as a result, but the run's formulation cannot violate it"});
    if (!is_ok(status)) continue;
    for (const std::string q : {"energy", "momentum"}) {
      const std::string law = text(row, q + "_growth_law");
      const double lo = t.has(q + "_growth_ci95_low") ? number(row, q + "_growth_ci95_low") : std::nan("");
      double hi = t.has(q + "_growth_ci95_high") ? number(row, q + "_growth_ci95_high") : std::nan("");
      double low = lo;
      if (!t.has(q + "_growth_ci95_low") && t.has(q + "_growth_ci95")) {  // an older report: p and a half-width
        low = number(row, q + "_growth_exponent") - number(row, q + "_growth_ci95");
        hi = number(row, q + "_growth_exponent") + number(row, q + "_growth_ci95");
      }
      check_law(file, where + " " + q, law, low, hi, text(row, q + "_growth_theory"), text(row, q + "_growth_verdict"), out);
    }
    // The instability criterion: the signed gain where the table has it, else |dE| with a
    // rising energy (a drift rate > 0) standing for a gain.
    double gain = t.has("energy_gain_rel_ke") ? number(row, "energy_gain_rel_ke")
                  : number(row, "energy_drift_rate") > 0.0 ? number(row, "energy_err_rel_ke")
                                                           : 0.0;
    // Where the centre of mass is free the criterion judges the motion's own energy (issue 44
    // class 1: a drift of P moves E by the centre of mass's kinetic energy, whatever the method
    // does to the motion): the gain is at most the internal error, in the same units.
    if (t.has("energy_err_internal_max") && !text(row, "energy_err_internal_max").empty() && t.has("energy_err_rel_ke")) {
      const double whole = number(row, "energy_err_max"), rel = number(row, "energy_err_rel_ke");
      if (whole > 0.0 && rel > 0.0) gain = std::min(gain, number(row, "energy_err_internal_max") * rel / whole);
    }
    if (gain > kGainOverKinetic)
      out.push_back({file, where, "status ok with an energy gain of " + format_g(gain, 3) +
                                      " x the maximum kinetic energy (criterion: " + format_g(kGainOverKinetic) + ")"});
    for (const std::string c : {"constraint_err_max", "orthogonality_err_max"})
      if (number(row, c) > kConstraintBound)
        out.push_back({file, where, "status ok with " + c + " = " + text(row, c) + " > " + format_g(kConstraintBound)});
  }
  for (const auto& [name, set] : horizons)
    if (set.size() > 1 && !(t.has("t_end") && t.has("shared_t_end") && t.has("energy_err_max_shared")))
      out.push_back({file, name, "runs over different horizons without the shared-window columns"});
}

void check_orders(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/orders.csv");
  for (const auto& row : t.rows) {
    const double p = number(row, "measured_order");
    if (!std::isfinite(p)) continue;
    const std::string where = text(row, "case") + " / " + text(row, "integrator");
    const int points = std::atoi(text(row, "points").c_str());  // "k of n"
    if (points < kOrderPoints)
      out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " from " + std::to_string(points) + " points"});
    if (!t.has("order_ci95") || text(row, "order_ci95").empty())
      out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " without an interval"});
    const double declared = number(row, "declared_order");
    // The one rule that flags an order (app/judging/order_fit.hpp judge_order): a row it flags must say so.
    const double ci = number(row, "order_ci95");
    const OrderJudgement j = judge_order(p, std::isfinite(ci) ? ci : 0.0, declared);
    if (std::abs(p - declared) > OrderRules{}.flag_band && text(row, "flag").empty())
      out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " against the declared " + format_g(declared) +
                                              " without a flag"});
    else if (std::isfinite(ci) && j.material() && text(row, "flag").empty())
      out.push_back({"orders.csv", where, "order " + format_g(p, 4) + " +- " + format_g(ci, 2) + ": its interval [" +
                                              format_g(p - ci, 3) + ", " + format_g(p + ci, 3) + "] excludes the declared " +
                                              format_g(declared) + " without a flag (local orders " +
                                              text(row, "local_orders") + ")"});
    if (t.has("relative_error_max")) {
      const double relative = number(row, "relative_error_max");
      if (relative > kOrderCeiling)
        out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " fitted over errors up to " + format_g(relative, 3) +
                                                " of the quantity's scale (above " + format_g(kOrderCeiling) +
                                                ": O(1) errors, not an asymptotic range)"});
    } else if (number(row, "error_max") >= kOrderCeilingAbsolute) {
      out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " fitted over errors " + text(row, "error_min") +
                                              " ... " + text(row, "error_max") +
                                              ": O(1) errors in the state's units, not an asymptotic range"});
    }
  }
}

void check_rankings(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/work_precision_rankings.csv");
  for (const auto& row : t.rows) {
    const std::string where = text(row, "case") + " / " + text(row, "work") + " / " + text(row, "measure");
    std::set<std::string> discretisations;
    std::string name, ranking = text(row, "ranking");
    for (size_t i = 0; i <= ranking.size(); ++i) {
      const char ch = i < ranking.size() ? ranking[i] : ' ';
      if (ch == ' ' || ch == '<' || ch == '=' || ch == '?') {
        if (!name.empty() && name != "≤") {  // "≤": a relation (UTF-8), not a run
          const size_t at = name.find('@');
          discretisations.insert(at == std::string::npos ? std::string() : name.substr(at + 1));
        }
        name.clear();
      } else {
        name += ch;
      }
    }
    if (discretisations.size() > 1)
      out.push_back({"work_precision_rankings.csv", where, "a ranking across discretisations: " + ranking});
    if (!t.has("horizon_s") || text(row, "horizon_s").empty())
      out.push_back({"work_precision_rankings.csv", where, "a ranking without its horizon"});
    // A ranking over less than kRankingPeriods of the model's slowest period ranks the start-up,
    // not the methods (issue 32 item 6): such a row must say so instead of ranking.
    const double horizon = number(row, "horizon_s"), period = number(row, "slowest_period_s");
    const bool ranks = !ranking.empty() && ranking.find(kShortTimeOnly) == std::string::npos;
    if (ranks && t.has("slowest_period_s") && std::isfinite(period) && horizon < kRankingPeriods * period)
      out.push_back({"work_precision_rankings.csv", where, "a ranking over " + format_g(horizon, 3) + " s, " +
                                                              format_g(horizon / period, 2) + " of the slowest period " +
                                                              format_g(period, 3) + " s (fewer than " +
                                                              format_g(kRankingPeriods) + "): '" + kShortTimeOnly +
                                                              "' instead"});
    else if (ranks && ranking.find("inconclusive") == std::string::npos && t.has("reference_agreement") &&
             !(number(row, "matched_error") > kRankingResolution * number(row, "reference_agreement")))
      out.push_back({"work_precision_rankings.csv", where, "a ranking at matched error " + text(row, "matched_error") +
                                                              ", not " + format_g(kRankingResolution) +
                                                              "x above the references' agreement " +
                                                              text(row, "reference_agreement") + " over its horizon"});
    else if (ranks && !t.has("slowest_period_s"))
      out.push_back({"work_precision_rankings.csv", where, "a ranking without the slowest period its horizon is judged by"});
  }
}

void check_long_time(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/long_time.csv");
  for (const auto& row : t.rows)
    if (is_ok(text(row, "status")))
      check_law("long_time.csv", text(row, "case") + " / " + text(row, "integrator") + " " + text(row, "quantity"),
                text(row, "law"), number(row, "ci95_low"), number(row, "ci95_high"), text(row, "theory"),
                text(row, "words") + " " + text(row, "verdict"), out);
}

// The two numbers of "between A and B" in a text ("" -> NaN): an older report's spread.
std::pair<double, double> between(const std::string& text) {
  const size_t at = text.find("between ");
  if (at == std::string::npos) return {std::nan(""), std::nan("")};
  char* end = nullptr;
  const double a = std::strtod(text.c_str() + at + 8, &end);
  const size_t and_at = text.find(" and ", at);
  if (and_at == std::string::npos) return {std::nan(""), std::nan("")};
  const double b = std::strtod(text.c_str() + and_at + 5, nullptr);
  return {a, b};
}

bool contains(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

// The leading number of a paper cell ("< 1e-4", "2.4029e-4", "diverges after ~400 s").
double leading_number(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(text[i]))) return std::strtod(text.c_str() + i, nullptr);
  return std::nan("");
}

// A claim's words that place it in time: "after t = 5 s", "after around 400 s", "at t = 7 s".
bool located_in_time(const std::string& words) {
  for (const std::string cue : {"after t =", "after around", "after about", "at t =", "starts to", "starts tumbling"})
    if (contains(words, cue)) return true;
  return false;
}

// The verdict against the row's evidence and its run: a claim placed in time needs the time
// series, and a run's status stands in neither for a completed run's numbers nor for a run not ok.
void check_paper_evidence(const std::string& file, const std::string& where, const std::map<std::string, std::string>& row,
                          const std::string& verdict, const std::string& kind, const std::string& size,
                          const std::string& status, const std::string& claim, std::vector<ClaimViolation>& out) {
  // A claim placed in time is judged on the recorded time series, never on a summary number or a status.
  if (located_in_time(claim) && !contains(text(row, "evidence"), "timeseries.csv"))
    out.push_back({file, where, "a claim placed in time ('" + claim.substr(0, 60) + "') judged without the run's time series"});
  if (kind == "diverges" && contains(size, "without diverging") && !contains(text(row, "evidence"), "timeseries.csv"))
    out.push_back({file, where, "'diverges' judged by the run's status (" + size.substr(0, 60) + "), not by its time series"});
  // A run that completed has metrics: its status may not stand in for them. Failed runs say
  // "at t = ... s, step ...", n/a rows "n/a"; a completed run past the criterion names no step.
  const bool completed = !status.empty() && !contains(status, "failed") && !contains(status, "n/a") &&
                         !contains(status, "interrupted") && !contains(status, ", step ");
  if (completed && text(row, "ours").empty() && (verdict == "contradicts" || verdict == "agrees" || verdict == "disagrees"))
    out.push_back({file, where, "verdict '" + verdict + "' from the status of a run that completed (" + status.substr(0, 60) +
                                    ") with no number of its own"});
  // A run that is not ok (past the instability criterion, failed) carries no verdict but on a
  // claim that it diverges: its errors measure its instability (issue 44 class 7). A static
  // shape has no run (empty status).
  const bool run_ok = status.empty() || status == "ok" || status.rfind("ok;", 0) == 0 || contains(status, "n/a");
  if (!run_ok && kind != "diverges" && verdict != "inconclusive")
    out.push_back({file, where, "verdict '" + verdict + "' on a run that is not ok (" + status.substr(0, 60) + ")"});
  // The verdict counted is the verdict the row's words give: words that say ours contradicts,
  // disagrees or exceeds under another verdict make the counts say what the rows do not.
  for (const std::string said : {"contradicts", "disagrees", "exceeds"})
    if (verdict != said && contains(size, "ours " + said))
      out.push_back({file, where, "verdict '" + verdict + "' while its words say 'ours " + said + "'"});
}

// The sensitivity runs' spread against the paper's number: a verdict the spread contradicts, or a
// cause of chaos the spread does not show.
void check_paper_sensitivity(const std::string& file, const std::string& where, const std::map<std::string, std::string>& row,
                             const std::string& verdict, const std::string& kind, const std::string& size,
                             const std::string& paper, std::vector<ClaimViolation>& out) {
  // The sensitivity runs: the spread's columns, or an older report's "between A and B".
  double low = number(row, "spread_low"), high = number(row, "spread_high");
  if (!std::isfinite(low)) std::tie(low, high) = between(text(row, "cause") + " " + size);
  const double tolerance = leading_number(text(row, "tolerance")), reference = leading_number(paper);
  if (std::isfinite(low) && std::isfinite(reference) && std::isfinite(tolerance)) {
    if (kind == "upper_bound" && low > reference * tolerance && verdict != "exceeds")
      out.push_back({file, where, "every sensitivity run (" + format_g(low, 3) + " to " + format_g(high, 3) + ") exceeds the bound " +
                                      format_g(reference, 3) + ", yet the verdict is '" + verdict + "'"});
    if (kind == "value" && (low > reference * tolerance || high < reference / tolerance) && verdict == "inconclusive" &&
        !contains(size, "source inconsistent") && !contains(size, "no verdict either way"))
      out.push_back({file, where, "every sensitivity run (" + format_g(low, 3) + " to " + format_g(high, 3) +
                                      ") lies outside x" + format_g(tolerance) + " of the paper's " + format_g(reference, 5) +
                                      " on one side: a systematic offset, yet 'inconclusive'"});
    if (contains(text(row, "cause"), "chaotic") && high / low - 1.0 < 1e-4)
      out.push_back({file, where, "a cause of chaos printed while the sensitivity runs agree to " +
                                      format_g(-std::log10(high / low - 1.0 + 1e-17), 2) + " digits (" + format_g(low, 6) + " to " +
                                      format_g(high, 6) + ")"});
  }
}

// A growth law that cannot see a smooth monotone rise of its own envelope: an 'inconclusive'
// on a rise of 10x or more. Not where the row gives its reason for no verdict by the judge's
// stated rules: a claim turning on a setting or word the paper does not print, a stand-in that
// cannot fail, a jump (regime change) with no law after it (issue 44 class 7), or a rise of
// round-off (the max within 10 floors: judge_conservation's 'conserved').
void check_paper_rising_envelope(const std::string& file, const std::string& where, const std::string& verdict,
                                 const std::string& kind, const std::string& size, std::vector<ClaimViolation>& out) {
  if ((kind == "drifts" || kind == "no_drift" || kind == "no_secular_drift") && verdict == "inconclusive" && contains(size, "rises monotonically")) {
    const double rise = std::strtod(size.c_str() + size.find("rises monotonically") + 20, nullptr);
    const size_t interval = size.find("p in [");
    const double p_low = interval == std::string::npos ? std::nan("") : std::strtod(size.c_str() + interval + 6, nullptr);
    const size_t floors_at = size.find("x the round-off floor");
    double floors = std::nan("");
    if (floors_at != std::string::npos) {
      const size_t eq = size.rfind("= ", floors_at);
      if (eq != std::string::npos) floors = std::strtod(size.c_str() + eq + 2, nullptr);
    }
    const bool reasoned = contains(size, "no verdict either way") || contains(size, "cannot fail") ||
                          contains(size, "regime change") || (std::isfinite(floors) && floors <= 10.0);
    if (rise >= 10.0 && !reasoned)
      out.push_back({file, where, "'inconclusive' on a drift claim whose envelope rises monotonically " + format_g(rise, 3) + "x" +
                                      (std::isfinite(p_low) ? " (its 95% interval of p from " + format_g(p_low, 3) + ")" : "")});
  }
}

// A step cap the source prints for its own runs, held against the steps the run compared took
// (separate: the only check of a comparison that reads the summary).
void check_paper_step_cap(const std::string& file, const std::string& where, const std::map<std::string, std::string>& row,
                          const std::string& claim, const CsvTable& summary, std::vector<ClaimViolation>& out) {
  // Seed 003 Sect. 5.2: ODE45 ran at the step of 0.001 s "for both continuous-time ... solvers".
  // (Sect. 5.1 prints the 1 ms step for the fixed-step method and the VI only, ODE45 "variable-step".)
  if (contains(text(row, "source"), "seed 003, Sect. 5.2") && (contains(claim, "ODE45") || contains(text(row, "case"), "_ode45")))
    for (const auto& s : summary.rows)
      if (text(s, "case") == text(row, "case") && text(s, "integrator") == text(row, "integrator")) {
        const double steps = number(s, "steps"), t_end = number(s, "t_end");
        if (std::isfinite(steps) && std::isfinite(t_end) && steps < 0.999 * t_end / 1e-3)
          out.push_back({file, where, "seed 003's ODE45 ran with its step capped at 1e-3 s (Sect. 5.2); this run took " +
                                          format_g(steps, 6) + " steps over " + format_g(t_end, 6) + " s (a mean step above 1e-3 s)"});
      }
}

// A source that contradicts itself: a printed mean above the same paper's bound on the maximum.
void check_self_contradicting_sources(const std::string& file, const CsvTable& t, std::vector<ClaimViolation>& out) {
  for (const auto& row : t.rows) {
    const std::string metric = text(row, "metric");
    if (text(row, "kind") != "value" || metric.size() < 5 || metric.compare(metric.size() - 5, 5, "_mean") != 0) continue;
    for (const auto& b : t.rows)
      if (text(b, "kind") == "upper_bound" && text(b, "case") == text(row, "case") && text(b, "integrator") == text(row, "integrator") &&
          text(b, "metric") == metric.substr(0, metric.size() - 5) + "_max" &&
          leading_number(text(row, "paper")) > leading_number(text(b, "paper")) && text(row, "verdict") != "inconclusive")
        out.push_back({file, text(row, "case") + " / " + text(row, "integrator") + " (" + text(row, "id") + ")",
                       "the paper's mean " + text(row, "paper") + " exceeds its own bound " + text(b, "paper") +
                           " on the maximum: a source inconsistent with itself, yet '" + text(row, "verdict") + "'"});
  }
}

void check_papers(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/paper_comparison.csv");
  const CsvTable summary = read_csv_table(dir + "/summary.csv");
  const std::string file = "paper_comparison.csv";
  std::map<std::string, std::string> seen;  // one comparison -> its first row's id
  for (const auto& row : t.rows) {
    const std::string where = text(row, "case") + " / " + text(row, "integrator") +
                              (text(row, "id").empty() ? "" : " (" + text(row, "id") + ")");
    const std::string verdict = text(row, "verdict"), kind = text(row, "kind"), size = text(row, "direction_size"),
                      status = text(row, "status"), claim = text(row, "claim"), paper = text(row, "paper");
    if (contains(verdict, "same order of magnitude"))
      out.push_back({file, where, "a factor-10 band ('same order of magnitude') is no verdict: ratio " + text(row, "ratio")});
    // One comparison is one row.
    const std::string key = text(row, "case") + "|" + text(row, "integrator") + "|" + kind + "|" + text(row, "metric") + "|" + paper;
    if (!kind.empty()) {
      if (seen.count(key)) out.push_back({file, where, "the same comparison as " + seen[key] + ", counted twice"});
      else seen[key] = text(row, "id");
    }
    check_paper_evidence(file, where, row, verdict, kind, size, status, claim, out);
    check_paper_sensitivity(file, where, row, verdict, kind, size, paper, out);
    check_paper_rising_envelope(file, where, verdict, kind, size, out);
    // An oscillation claim is not a drift claim.
    if ((kind == "drifts" || kind == "no_drift" || kind == "no_secular_drift") && contains(claim, "oscillation"))
      out.push_back({file, where, "a claim about oscillations judged as a drift ('" + claim.substr(0, 50) + "')"});
    check_paper_step_cap(file, where, row, claim, summary, out);
  }
  check_self_contradicting_sources(file, t, out);
}

// A completed run's instability, where the table gives one, is dated by its onset: a time equal
// to the run's end is the time of a maximum, not of an onset.
void check_instability_onsets(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/summary.csv");
  for (const auto& row : t.rows) {
    const std::string status = text(row, "status");
    // The onset: "unstable from t = ..." (this suite), else an older report's "... at t = ...".
    const size_t from = status.find("from t = "), at = from != std::string::npos ? from + 2 : status.find("at t = ");
    if (!contains(status, "unstable") || contains(status, ", step ") || at == std::string::npos) continue;
    const double t_at = std::strtod(status.c_str() + at + 7, nullptr), t_end = number(row, "t_end");
    if (std::isfinite(t_end) && std::abs(t_at - t_end) <= 1e-9 * t_end)
      out.push_back({"summary.csv", text(row, "case") + " / " + text(row, "integrator"),
                     "instability dated at the run's end (" + status.substr(0, 80) + "): the time of a maximum, not its onset"});
  }
}

// Two runs with the same integrator whose errors agree to every printed digit (the same
// dynamics under another name, e.g. a case and its spinning copy) must read the same law: the
// data decide a law, not a declared period.
void check_laws_alike(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/summary.csv");
  for (size_t i = 0; i < t.rows.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const auto &a = t.rows[i], &b = t.rows[j];
      if (text(a, "case") == text(b, "case") || text(a, "integrator") != text(b, "integrator") || text(a, "status") != "ok" ||
          text(b, "status") != "ok")
        continue;
      const std::string ea = text(a, "energy_err_max"), eb = text(b, "energy_err_max");
      if (ea.empty() || ea == "0" || ea != eb || text(a, "t_end") != text(b, "t_end") || text(a, "steps") != text(b, "steps")) continue;
      // The law (the verdict); its interval's digits may differ where the run is short enough
      // for the start-up, a physical notion the cases declare, to set the window.
      for (const std::string c : {"energy_growth_law"})
        if (t.has(c) && text(a, c) != text(b, c)) {
          out.push_back({"summary.csv", text(a, "case") + " / " + text(b, "case") + " / " + text(a, "integrator"),
                         "identical errors (energy_err_max " + ea + ") read different laws: " + c + " " + text(a, c) + " vs " + text(b, c)});
          break;
        }
    }
}

// A law under which the error grows: the advice may not rest on it without a word.
bool is_growing_law(const std::string& law) { return law == "sqrt_t" || law == "linear" || law == "faster" || law == "power_law"; }

// The summary's run of one integrator on one case, or none.
const std::map<std::string, std::string>* run_of(const CsvTable& summary, const std::string& c, const std::string& label) {
  for (const auto& row : summary.rows)
    if (text(row, "case") == c && text(row, "integrator") == label) return &row;
  return nullptr;
}

// The energy error and law over the longest horizon measured.
std::pair<double, std::string> energy_over_longest_horizon(const CsvTable& long_time,
                                                          const std::map<std::string, std::string>& run) {
  double value = number(run, "energy_err_max"), longest = number(run, "t_end");
  std::string law = text(run, "energy_growth_law");
  for (const auto& row : long_time.rows)
    if (text(row, "case") == text(run, "case") && text(row, "integrator") == text(run, "integrator") && text(row, "quantity") == "energy" &&
        text(row, "status") == "ok" && number(row, "t_end") > longest && std::isfinite(number(row, "err_max")))
      value = number(row, "err_max"), law = text(row, "law"), longest = number(row, "t_end");
  return std::pair{value, law};
}

// The timing noise: the largest spread of the case's work-precision timings, else the report's.
double case_timing_noise(const CsvTable& rankings, const std::string& c) {
  double own = 0.0, any = 0.0;
  for (const auto& row : rankings.rows) {
    if (text(row, "work") != "runtime") continue;
    for (const auto& w : words(text(row, "spread_of_each"))) {
      const double x = std::strtod(w.c_str(), nullptr);
      any = std::max(any, x);
      if (text(row, "case") == c) own = std::max(own, x);
    }
  }
  return own > 0.0 ? own : any;
}

using FrontRuns = std::vector<std::pair<std::string, std::string>>;         // (label, its line)
using AdviceFront = std::map<std::string, FrontRuns>;                        // case -> its front
using BeatenBy = std::map<std::string, std::map<std::string, std::string>>;  // case -> label -> the run named

// Each case's front as the page lists it: "  - **case**, ..." then "    - [= ]**a** = **b**: ...",
// and the runs off it with the run named as beating each: "    - not on the front: x (a is ...); ...".
void read_advice_fronts(std::istream& in, AdviceFront& front, BeatenBy& beaten_by) {
  std::string line, current;
  bool in_advice = false;
  const std::string off_prefix = "    - not on the front: ";
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_advice = line == "## Which integrator?";
    if (!in_advice) continue;
    if (line.rfind("### ", 0) == 0 || line.rfind("- ", 0) == 0) current.clear();
    if (line.rfind("  - **", 0) == 0) {
      const size_t end = line.find("**", 6);
      if (end != std::string::npos) current = line.substr(6, end - 6), front[current];
      continue;
    }
    if (current.empty() || line.rfind("    - ", 0) != 0) continue;
    if (line.rfind(off_prefix, 0) == 0) {
      std::string rest = line.substr(off_prefix.size());
      if (!rest.empty() && rest.back() == '.') rest.pop_back();
      for (size_t at = 0; at < rest.size();) {
        const size_t end = std::min(rest.find("; ", at), rest.size());
        const std::string item = rest.substr(at, end - at);
        const size_t open = item.find(" (");
        if (open != std::string::npos) {
          const std::string by = item.substr(open + 2, item.find(" is ", open) - open - 2);
          beaten_by[current][item.substr(0, open)] = by.substr(0, by.find(" = "));
        }
        at = end + 2;
      }
      continue;
    }
    const size_t colon = line.find(": ");
    const std::string head = line.substr(0, colon);
    for (size_t at = head.find("**"); at != std::string::npos;) {
      const size_t end = head.find("**", at + 2);
      if (end == std::string::npos) break;
      front[current].emplace_back(head.substr(at + 2, end - at - 2), line);
      at = head.find("**", end + 2);
    }
  }
}

// Each run on a case's front completed, its place is not advised past a growing energy law, and a
// step near its stability limit carries a caveat.
void check_front_runs(const std::string& c, const FrontRuns& listed, const CsvTable& summary, const CsvTable& long_time,
                      const CsvTable& map, std::vector<ClaimViolation>& out) {
  for (const auto& [label, text_line] : listed) {
    const std::string where = "index.md advice / " + c + " / " + label;
    const auto* run = run_of(summary, c, label);
    if (!run || !is_ok(text(*run, "status"))) {
      out.push_back({"index.md", where, "on the front for long simulations, but the run " +
                                            (run ? "is '" + text(*run, "status").substr(0, 60) + "'" : std::string("is absent"))});
      continue;
    }
    const auto [e, law] = energy_over_longest_horizon(long_time, *run);
    if (is_growing_law(law) && !contains(text_line, "does not extrapolate"))
      out.push_back({"index.md", where, "on the front with a growing energy law (" + law + ") and no word that its place does not extrapolate"});
    if (text(*run, "rtol").empty())
      for (const auto& row : map.rows)
        if (text(row, "case") == c && text(row, "run") == label && text(row, "swept").empty()) {
          const double margin = number(*run, "h") / number(row, "h_max");
          if (std::isfinite(margin) && margin > 0.5 && !contains(text_line, "Caveat"))
            out.push_back({"index.md", where, "on the front at h/h_max = " + format_g(margin, 2) + " without a caveat"});
        }
  }
}

// A completed run left off the front is named with the run that beats it, and that run is
// at once as fast (within the noise) and no less accurate in energy (within x2, or both at
// round-off): else the page prefers a bounded error to a small one, or a slow run to a fast one.
void check_runs_off_front(const std::string& c, const FrontRuns& listed, double noise, BeatenBy& beaten_by,
                          const CsvTable& summary, const CsvTable& long_time, std::vector<ClaimViolation>& out) {
  for (const auto& row : summary.rows) {
    if (text(row, "case") != c || !is_ok(text(row, "status"))) continue;
    const std::string label = text(row, "integrator");
    if (std::any_of(listed.begin(), listed.end(), [&](const auto& l) { return l.first == label; })) continue;
    const std::string where = "index.md advice / " + c + " / " + label;
    const auto by = beaten_by[c].find(label);
    if (by == beaten_by[c].end()) {
      out.push_back({"index.md", where, "a completed run neither on the front nor off it with the run that beats it"});
      continue;
    }
    const auto [ey, law_y] = energy_over_longest_horizon(long_time, row);
    const double ty = number(row, "runtime_s");
    const auto* rx = run_of(summary, c, by->second);
    if (!rx || !std::isfinite(ey) || !std::isfinite(ty)) continue;
    const auto [ex, law_x] = energy_over_longest_horizon(long_time, *rx);
    const bool alike = (law_x == "round_off" || law_x == "zero") && (law_y == "round_off" || law_y == "zero");
    if (!(number(*rx, "runtime_s") <= ty * (1.0 + noise) && (ex <= 2.0 * ey || alike)))
      out.push_back({"index.md", where, "off the front as beaten by " + by->second + ", but " + by->second + " is not as fast (" +
                                            format_g(number(*rx, "runtime_s"), 3) + " s against " + format_g(ty, 3) +
                                            " s) and as accurate in energy (" + format_g(ex, 3) + " against " + format_g(ey, 3) + ")"});
  }
}

// The front page's advice (index.md, "Which integrator?"): an integrator advised for long
// simulations ("  - **label**: ..." under "### model — case, case") completed every one of
// those cases, no growth law of its energy or momentum error there grows (summary.csv, or the
// long-time study's longer run, long_time.csv), and a step within 2x of its h_max at the case's
// parameters (stability_map.csv) is printed as a caveat.
void check_advice(const std::string& dir, std::vector<ClaimViolation>& out) {
  std::ifstream in(dir + "/index.md");
  if (!in) return;
  const CsvTable summary = read_csv_table(dir + "/summary.csv");
  const CsvTable long_time = read_csv_table(dir + "/long_time.csv");
  const CsvTable map = read_csv_table(dir + "/stability_map.csv");
  const CsvTable rankings = read_csv_table(dir + "/work_precision_rankings.csv");
  AdviceFront front;
  BeatenBy beaten_by;
  read_advice_fronts(in, front, beaten_by);
  for (const auto& [c, listed] : front) {
    const double noise = case_timing_noise(rankings, c);
    check_front_runs(c, listed, summary, long_time, map, out);
    check_runs_off_front(c, listed, noise, beaten_by, summary, long_time, out);
  }
}

}  // namespace

std::vector<ClaimViolation> check_claims(const std::string& report_dir) {
  std::vector<ClaimViolation> out;
  check_summary(report_dir, out);
  check_orders(report_dir, out);
  check_rankings(report_dir, out);
  check_long_time(report_dir, out);
  check_papers(report_dir, out);
  check_instability_onsets(report_dir, out);
  check_laws_alike(report_dir, out);
  check_advice(report_dir, out);
  return out;
}

}  // namespace tb
