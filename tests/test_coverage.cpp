// The coverage matrix (app/writing/coverage.hpp; issue 35): which integrator runs which case and why not.
// The READMEs' generated blocks must be what the registries say now, every n/a reason must say who
// declined what, and a report's matrix must carry each run's own status.

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "app/writing/coverage.hpp"
#include "app/common/markdown_table.hpp"
#include "test_support.hpp"

using namespace tb;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<CoverageEntry> bundled_coverage() {
  return coverage_of_cases(testing::bundled_cases(), testing::catalogue().integrators);
}
}  // namespace

TEST_CASE("README.md and cases/README.md show the coverage the registries give now", "[coverage][readme]") {
  const auto entries = bundled_coverage();
  const std::string readme = std::string(TETHERBENCH_SOURCE_DIR) + "/README.md";
  const std::string cases_readme = std::string(TETHERBENCH_CASES_DIR) + "/README.md";
  INFO("regenerate with: tetherbench coverage --by model --readme README.md; tetherbench coverage --by case --readme cases/README.md");
  CHECK(markdown::block_of(slurp(readme), kCoverageByModelBegin, kCoverageByModelEnd, readme) ==
        coverage_block(entries, true));
  CHECK(markdown::block_of(slurp(cases_readme), kCoverageByCaseBegin, kCoverageByCaseEnd, cases_readme) ==
        coverage_block(entries, false));
}

TEST_CASE("every n/a cell of the bundled cases says who declined which form, and why", "[coverage]") {
  const auto entries = bundled_coverage();
  const auto cases = testing::bundled_cases();
  REQUIRE(entries.size() >= cases.size() * testing::catalogue().integrators.size());
  for (const auto& e : entries) {
    if (!e.not_applicable()) continue;
    INFO(e.case_name << " × " << e.integrator << ": " << e.reason);
    const bool model_declined = e.reason.rfind(e.model + " offers no ", 0) == 0;
    const bool integrator_declined = e.reason.rfind(e.integrator + " declines " + e.model + "'s ", 0) == 0;
    CHECK((model_declined || integrator_declined));
    // "...: <why>", the why a sentence of its own, not a bare verdict
    const size_t colon = e.reason.find(": ");
    REQUIRE(colon != std::string::npos);
    CHECK(e.reason.size() - colon > 40);
  }
  const auto [na, all] = count_not_applicable(entries);
  CHECK(all > 0);
  CHECK(na < all);
}

TEST_CASE("the coverage matrix letters each distinct reason once and lists the cells it covers", "[coverage]") {
  const std::vector<CoverageEntry> entries = {
      {"case_a", "m1", "i1", "", true, "runs", ""},
      {"case_a", "m1", "i2", "", true, "n/a", "m1 offers no x form: because of one thing"},
      {"case_b", "m1", "i1", "", true, "n/a", "m1 offers no x form: because of one thing"},
      {"case_b", "m1", "i2", "", true, "not listed", "not among this case's [case] integrators"},
      {"case_c", "m2", "i1", "", true, "diverged", ""},
      {"case_c", "m2", "i2", "", true, "n/a", "i2 declines m2's x form: because of another"},
      {"case_c", "m2", "i1", "lumped", false, "ok", ""},
      {"case_c", "m2", "i2", "lumped", false, "n/a", "m2 offers no x form of its lumped discretisation: no"}};
  const std::string by_case = coverage_by_case_markdown(entries);
  CHECK(by_case.find("| case_a | ✓ | n/a [a] |") != std::string::npos);
  CHECK(by_case.find("| case_b | n/a [a] | — |") != std::string::npos);
  CHECK(by_case.find("| case_c | diverged | n/a [b] |") != std::string::npos);
  CHECK(by_case.find("| case_c @ lumped | ok | n/a [c] |") != std::string::npos);
  CHECK(by_case.find("**[a]** m1 offers no x form: because of one thing (2 cells: case_a × i2, case_b × i1)") !=
        std::string::npos);
  // n/a among the listed cells of the cases' own discretisations: case_a/i2, case_b/i1, case_c/i2 of 5
  CHECK(count_not_applicable(entries) == std::pair<int, int>{3, 5});
  CHECK(by_case.find("3 of the 5 cells") != std::string::npos);

  const std::string by_model = coverage_by_model_markdown(entries);
  CHECK(by_model.find("| i1 | ✓ 1 of 2 [a] | ✓ |") != std::string::npos);
  CHECK(by_model.find("| i2 | n/a [a] | n/a [b] |") != std::string::npos);

  const std::string csv = coverage_csv(entries);
  CHECK(csv.find("case_b,,i2,not listed,\"not among this case's [case] integrators\"") == std::string::npos);
  CHECK(csv.find("case_b,,i2,not listed,not among this case's [case] integrators\n") != std::string::npos);
  CHECK(csv.find("case_c,lumped,i2,n/a,m2 offers no x form of its lumped discretisation: no\n") != std::string::npos);
}

TEST_CASE("a report's coverage reads each run's status from summary.csv", "[coverage][report]") {
  ReportData data;
  RunRecord ok;
  ok.case_name = "c";
  ok.label = ok.integrator = "good";
  ok.status = "ok";
  ok.ok = true;
  RunRecord diverged = ok;
  diverged.label = diverged.integrator = "bad";
  diverged.ok = false;
  diverged.status = "unstable from t = 2.018 s (step 20180): energy gain 0.101 × E_s > 0.1";
  RunRecord declined = ok;
  declined.label = declined.integrator = "other";
  declined.ok = false;
  declined.not_applicable = true;
  declined.status = "n/a: m offers no x form: its space is a vector space, and so on for a while";
  data.runs = {ok, diverged, declined};
  const auto entries = coverage_of_runs(data, {});
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].state == "ok");
  CHECK(entries[1].state == "unstable");  // the summary's own word for a run past the instability criterion
  CHECK(entries[2].state == "n/a");
  CHECK(entries[2].reason == "m offers no x form: its space is a vector space, and so on for a while");
}
