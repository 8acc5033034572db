// The work-precision rankings' order words (studies/work_precision_ranking.hpp): "<" only where the
// printed works differ beyond the timing spread.
#include <catch2/catch.hpp>

#include "studies/work_precision_ranking.hpp"

using namespace tb;

TEST_CASE("rankings: works that print alike tie whatever the spread, and a difference in print ranks", "[rankings]") {
  // Evaluation counts (spread 0) interpolated at the matched error 1e-3: 40000 and 40004 print as
  // 4e+04 both (4 digits), so "<" between them would be read as a difference the table cannot show.
  std::map<std::string, std::vector<CurvePoint>> curves = {
      {"a", {{1e-2, 20000.0, 0.0}, {1e-3, 40000.0, 0.0}}},
      {"b", {{1e-2, 20002.0, 0.0}, {1e-3, 40004.0, 0.0}}},
      {"c", {{1e-2, 21000.0, 0.0}, {1e-3, 41000.0, 0.0}}},
  };
  const Ranking r = rank_at_matched_error(curves);
  REQUIRE(r.matched_error == Approx(1e-3));
  CHECK(r.text() == "a = b < c");
  // Runtimes: within the measured spread they tie, beyond it they rank.
  std::map<std::string, std::vector<CurvePoint>> timed = {
      {"fast", {{1e-2, 1.0, 0.05}, {1e-3, 2.0, 0.05}}},
      {"near", {{1e-2, 1.04, 0.05}, {1e-3, 2.08, 0.05}}},
      {"slow", {{1e-2, 1.5, 0.05}, {1e-3, 3.0, 0.05}}},
  };
  CHECK(rank_at_matched_error(timed).text() == "fast = near < slow");
}
