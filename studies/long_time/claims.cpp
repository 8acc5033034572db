// The long-time study's table as a referee reads it (StudyInfo::check_claims): every growth law
// of long_time.csv by the growth rule of app/judging/claims_check.hpp (the law its 95% interval
// carries, and "investigate" where it contradicts the theory column).

#include <string>
#include <vector>

#include "app/judging/claim_rules.hpp"
#include "studies/long_time/long_time.hpp"

namespace tb {

namespace long_time_claims {
using namespace claim_rules;

void check_long_time(const std::string& dir, std::vector<ClaimViolation>& out) {
  const CsvTable t = read_csv_table(dir + "/long_time.csv");
  for (const auto& row : t.rows)
    if (is_ok(text(row, "status")))
      check_law("long_time.csv", text(row, "case") + " / " + text(row, "integrator") + " " + text(row, "quantity"),
                text(row, "law"), number(row, "ci95_low"), number(row, "ci95_high"), text(row, "theory"),
                text(row, "words") + " " + text(row, "verdict"), out);
}

}  // namespace long_time_claims

void check_long_time_claims(const std::string& dir, std::vector<ClaimViolation>& out) { long_time_claims::check_long_time(dir, out); }

}  // namespace tb
