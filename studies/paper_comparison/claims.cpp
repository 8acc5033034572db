// The paper comparison's table as a referee reads it (StudyInfo::check_claims; the rules are
// listed under "papers" in app/judging/claims_check.hpp): no factor-10 band, one comparison one
// row, a claim placed in time judged on the time series, the sensitivity runs' spread against the
// verdict, no "inconclusive" on a monotone 10-fold rise, seed 003's ODE45 step cap, and no source
// inconsistent with itself under a verdict.

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "app/judging/claim_rules.hpp"
#include "core/format.hpp"
#include "studies/paper_comparison/paper_comparison.hpp"

namespace tb {

namespace paper_claims {
using namespace claim_rules;

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
    // A verdict withheld either way by a stated reason (an unprinted setting that could flip it) is no
    // verdict the spread contradicts (the fourth-round read, R5a).
    if (kind == "upper_bound" && low > reference * tolerance && verdict != "exceeds" && !contains(size, "no verdict either way"))
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

}  // namespace paper_claims

void check_paper_comparison_claims(const std::string& dir, std::vector<ClaimViolation>& out) {
  paper_claims::check_papers(dir, out);
}

}  // namespace tb
