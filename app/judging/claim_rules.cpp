#include "app/judging/claim_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/format.hpp"
#include "core/growth.hpp"

namespace tb::claim_rules {

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
bool contains(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }
bool is_ok(const std::string& status) { return status == "ok" || status.rfind("ok; ", 0) == 0; }
namespace {
bool is_law(const std::string& law) {
  static const std::set<std::string> laws = {"bounded", "sqrt_t", "linear", "faster", "decays", "power_law"};
  return laws.count(law) > 0;
}
}  // namespace

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

}  // namespace tb::claim_rules
