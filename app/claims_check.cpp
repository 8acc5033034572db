#include "app/claims_check.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "app/csv_table.hpp"
#include "core/format.hpp"

namespace tb {

namespace {

constexpr double kLawHalfWidth = 0.25;    // widest interval a law may rest on
constexpr double kBoundedUpper = 0.5;     // "bounded" excludes a random walk
constexpr double kGainOverKinetic = 0.1;  // the instability criterion's energy gain
constexpr double kConstraintBound = 1e-2; // and its constraint / orthogonality bound
constexpr int kOrderPoints = 3;
constexpr double kOrderOff = 0.5;

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
  else if (0.5 * (hi - lo) > kLawHalfWidth)
    out.push_back({file, where, "law '" + law + "' on an interval [" + format_g(lo, 3) + ", " + format_g(hi, 3) +
                                    "] wider than +-" + format_g(kLawHalfWidth)});
  if (law == "bounded" && std::isfinite(hi) && hi >= kBoundedUpper)
    out.push_back({file, where, "'bounded' with the interval's upper end " + format_g(hi, 3) + " >= 1/2"});
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
    const double gain = t.has("energy_gain_rel_ke") ? number(row, "energy_gain_rel_ke")
                        : number(row, "energy_drift_rate") > 0.0 ? number(row, "energy_err_rel_ke")
                                                                 : 0.0;
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
    if (std::abs(p - declared) > kOrderOff && text(row, "flag").empty())
      out.push_back({"orders.csv", where, "order " + format_g(p, 3) + " against the declared " + format_g(declared) +
                                              " without a flag"});
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
      if (ch == ' ' || ch == '<' || ch == '=') {
        if (!name.empty()) {
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

void check_papers(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/paper_comparison.csv");
  for (const auto& row : t.rows)
    if (text(row, "verdict").find("same order of magnitude") != std::string::npos)
      out.push_back({"paper_comparison.csv", text(row, "case") + " / " + text(row, "integrator"),
                     "a factor-10 band ('same order of magnitude') is no verdict: ratio " + text(row, "ratio")});
}

}  // namespace

std::vector<ClaimViolation> check_claims(const std::string& report_dir) {
  std::vector<ClaimViolation> out;
  check_summary(report_dir, out);
  check_orders(report_dir, out);
  check_rankings(report_dir, out);
  check_long_time(report_dir, out);
  check_papers(report_dir, out);
  return out;
}

}  // namespace tb
