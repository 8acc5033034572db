// The work-precision rankings' order words (studies/work_precision/work_precision_ranking.hpp): "<" only where the
// printed works differ beyond the timing spread.
#include <catch2/catch.hpp>

#include "studies/work_precision/work_precision_ranking.hpp"

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

TEST_CASE("rankings: a sweep that does not bracket the matched error gives a bound, unordered before it", "[rankings]") {
  // Referee point N1 (issue 44): "fine" is already more accurate than the matched error (1e-3, set
  // by "coarse") at its cheapest point, so its work there (3 s) bounds from above what it needs:
  // a coarser step might reach 1e-3 for less than coarse's 2 s. It is placed by its bound, "?"
  // before it, and the first entry is no longer known to be the fastest.
  std::map<std::string, std::vector<CurvePoint>> curves = {
      {"coarse", {{1e-2, 1.0, 0.0}, {1e-3, 2.0, 0.0}}},
      {"fine", {{1e-5, 3.0, 0.0}, {1e-7, 6.0, 0.0}}},
      {"slow", {{1e-2, 4.0, 0.0}, {1e-4, 8.0, 0.0}}},
  };
  const Ranking r = rank_at_matched_error(curves);
  REQUIRE(r.matched_error == Approx(1e-3));
  CHECK(r.text() == "coarse ? fine < slow");
  REQUIRE(r.order.size() == 3);
  CHECK(r.order[1].bound);
  CHECK(r.order[1].work == Approx(3.0));
  CHECK(r.order[1].cheapest_error == Approx(1e-5));
  CHECK_FALSE(r.order[0].bound);
  CHECK_FALSE(r.order[2].bound);
  CHECK_FALSE(r.orders_all());
  // A bound below every measured work is still the least: its true work is lower still.
  curves["fine"] = {{1e-5, 0.5, 0.0}, {1e-7, 1.0, 0.0}};
  const Ranking first = rank_at_matched_error(curves);
  CHECK(first.text() == "fine < coarse < slow");
  CHECK(first.orders_all());
  // A bound within the spread of the work after it is at most that work, not alike it: "≤".
  curves["fine"] = {{1e-5, 1.9, 0.0}, {1e-7, 3.8, 0.0}};
  curves["coarse"] = {{1e-2, 1.0, 0.1}, {1e-3, 2.0, 0.1}};
  CHECK(rank_at_matched_error(curves).text() == "fine ≤ coarse < slow");
}
