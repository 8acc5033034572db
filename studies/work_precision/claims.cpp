// The work-precision study's tables as a referee reads them (StudyInfo::check_claims; the rules
// are listed in app/judging/claims_check.hpp):
//   orders     a measured order needs >= 3 fitted points and an interval, and one more than 0.5
//              from the declared order, or whose interval excludes it, needs a flag; a fit over
//              errors above 0.1 of the quantity's scale (relative_error_max; an older report
//              without it: errors >= 1 in the state's units) is a fit over O(1) errors and fails;
//   rankings   a ranking names runs of one discretisation only, states its horizon and the
//              model's slowest period, and a horizon under 3 slowest periods prints "short-time
//              accuracy only" instead of a ranking; a ranking's matched error stands 10x above the
//              references' agreement over its horizon (reference_agreement), else "inconclusive".

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "app/common/csv_table.hpp"
#include "app/judging/claim_rules.hpp"
#include "app/judging/claims_check.hpp"
#include "app/judging/order_fit.hpp"
#include "core/format.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace tb {

namespace work_precision_claims {
using namespace claim_rules;

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

}  // namespace work_precision_claims

void check_work_precision_claims(const std::string& dir, std::vector<ClaimViolation>& out) {
  work_precision_claims::check_orders(dir, out);
  work_precision_claims::check_rankings(dir, out);
}

}  // namespace tb
