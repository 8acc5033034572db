#include "app/judging/claims_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "app/common/csv_table.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/claim_rules.hpp"
#include "app/judging/report_data.hpp"
#include "core/format.hpp"

namespace tb {

namespace report_claims {
using namespace claim_rules;

constexpr double kGainOverKinetic = 0.1;  // the instability criterion's energy gain
constexpr double kConstraintBound = 1e-2; // and its constraint / orthogonality bound

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
    // Past the bound an ok status must say the manifold drift it saw (core/stability_criterion.hpp
    // ManifoldDrift: a method stable on the imaginary axis drifts off it, an accuracy limit), else
    // the criterion missed an amplification.
    for (const std::string c : {"constraint_err_max", "orthogonality_err_max"})
      if (number(row, c) > kConstraintBound &&
          !contains(text(row, "status"), c == "constraint_err_max" ? "drifts off the constraint manifold" : "drifts off SO(3)"))
        out.push_back({file, where, "status ok with " + c + " = " + text(row, c) + " > " + format_g(kConstraintBound) +
                                        " and no drift off the manifold in its status"});
  }
  for (const auto& [name, set] : horizons)
    if (set.size() > 1 && !(t.has("t_end") && t.has("shared_t_end") && t.has("energy_err_max_shared")))
      out.push_back({file, name, "runs over different horizons without the shared-window columns"});
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

// The energy error and law over the longest horizon measured: the run's, or the long-time study's
// longer run's (its records, StudyInfo::read_back).
std::pair<double, std::string> energy_over_longest_horizon(const ReportData& data, const std::map<std::string, std::string>& run) {
  double value = number(run, "energy_err_max");
  std::string law = text(run, "energy_growth_law");
  if (const LawRecord* longer = data.law(text(run, "case"), text(run, "integrator"), "energy");
      longer && longer->t_end > number(run, "t_end"))
    value = longer->err_max, law = longer->law;
  return std::pair{value, law};
}

// The timing noise: the largest spread of the case's work-precision timings, else the report's.
double case_timing_noise(const ReportData& data, const std::string& c) {
  double own = 0.0, any = 0.0;
  for (const RankingRecord& r : data.rankings) {
    if (r.work != "runtime") continue;
    for (double x : r.spread_of_each) {
      any = std::max(any, x);
      if (r.case_name == c) own = std::max(own, x);
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
void check_front_runs(const std::string& c, const FrontRuns& listed, const CsvTable& summary, const ReportData& data,
                      std::vector<ClaimViolation>& out) {
  for (const auto& [label, text_line] : listed) {
    const std::string where = "index.md advice / " + c + " / " + label;
    const auto* run = run_of(summary, c, label);
    if (!run || !is_ok(text(*run, "status"))) {
      out.push_back({"index.md", where, "on the front for long simulations, but the run " +
                                            (run ? "is '" + text(*run, "status").substr(0, 60) + "'" : std::string("is absent"))});
      continue;
    }
    const auto [e, law] = energy_over_longest_horizon(data, *run);
    if (is_growing_law(law) && !contains(text_line, "does not extrapolate"))
      out.push_back({"index.md", where, "on the front with a growing energy law (" + law + ") and no word that its place does not extrapolate"});
    // The step limit at the case's parameters (the stability map's records; the longest horizon's,
    // the smallest h_max where a method is mapped at several).
    if (const StepLimit* limit = data.step_limit(c, label); limit && text(*run, "rtol").empty()) {
      const double margin = number(*run, "h") / limit->h_max;
      if (std::isfinite(margin) && margin > 0.5 && !contains(text_line, "Caveat"))
        out.push_back({"index.md", where, "on the front at h/h_max = " + format_g(margin, 2) + " without a caveat"});
    }
  }
}

// A completed run left off the front is named with the run that beats it, and that run is
// at once as fast (within the noise) and no less accurate in energy (within x2, or both at
// round-off): else the page prefers a bounded error to a small one, or a slow run to a fast one.
void check_runs_off_front(const std::string& c, const FrontRuns& listed, double noise, BeatenBy& beaten_by,
                          const CsvTable& summary, const ReportData& data, std::vector<ClaimViolation>& out) {
  for (const auto& row : summary.rows) {
    if (text(row, "case") != c || !is_ok(text(row, "status"))) continue;
    const std::string label = text(row, "integrator");
    if (std::any_of(listed.begin(), listed.end(), [&](const auto& l) { return l.first == label; })) continue;
    // A completed run off the snap study's converged cascade is no result for the choice (the page
    // lists it under "not results"): it needs no run that beats it.
    const double h = number(row, "h"), rtol = number(row, "rtol");
    if (const CascadeRecord* cascade = data.cascade(c, label, std::isfinite(h) ? h : 0.0, std::isfinite(rtol) ? rtol : 0.0);
        cascade && !cascade->follows())
      continue;
    const std::string where = "index.md advice / " + c + " / " + label;
    const auto by = beaten_by[c].find(label);
    if (by == beaten_by[c].end()) {
      out.push_back({"index.md", where, "a completed run neither on the front nor off it with the run that beats it"});
      continue;
    }
    const auto [ey, law_y] = energy_over_longest_horizon(data, row);
    const double ty = number(row, "runtime_s");
    const auto* rx = run_of(summary, c, by->second);
    if (!rx || !std::isfinite(ey) || !std::isfinite(ty)) continue;
    const auto [ex, law_x] = energy_over_longest_horizon(data, *rx);
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
// long-time study's longer run), and a step within 2x of its h_max at the case's parameters (the
// stability map's) is printed as a caveat. The studies' numbers are their records as each study
// reads its own tables back (StudyInfo::read_back), read only where the page has advice.
void check_advice(const std::string& dir, const Catalogue& catalogue, std::vector<ClaimViolation>& out) {
  std::ifstream in(dir + "/index.md");
  if (!in) return;
  const CsvTable summary = read_csv_table(dir + "/summary.csv");
  ReportData data;
  read_study_records(dir, catalogue, data);
  AdviceFront front;
  BeatenBy beaten_by;
  read_advice_fronts(in, front, beaten_by);
  for (const auto& [c, listed] : front) {
    const double noise = case_timing_noise(data, c);
    check_front_runs(c, listed, summary, data, out);
    check_runs_off_front(c, listed, noise, beaten_by, summary, data, out);
  }
}

}  // namespace report_claims

std::vector<ClaimViolation> check_claims(const std::string& report_dir, const Catalogue& catalogue) {
  std::vector<ClaimViolation> out;
  report_claims::check_summary(report_dir, out);
  // Each study's rules for its own tables, in the catalogue's order (StudyInfo::check_claims).
  for (const StudyInfo& study : catalogue.studies)
    if (study.check_claims) study.check_claims(report_dir, out);
  report_claims::check_instability_onsets(report_dir, out);
  report_claims::check_laws_alike(report_dir, out);
  report_claims::check_advice(report_dir, catalogue, out);
  return out;
}

}  // namespace tb
