// The measured orders cases/README.md quotes are generated from orders.csv (app/judging/readme_orders.hpp;
// issue 32): the block's rendering and replacement, and the README's block against what the
// work-precision study measures now on the cheap cases (a stale quote fails here, as the lgvi4
// orders -1.4/-0.4 on C_single_multirotor would have).

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "app/common/csv_table.hpp"
#include "app/judging/readme_orders.hpp"
#include "core/table_reader.hpp"
#include "tests/temp_file.hpp"

using namespace tb;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

TEST_CASE("readme-orders renders orders.csv rows and replaces only the marked block", "[orders][readme]") {
  const fs::path dir = testing::scratch_dir("readme_orders_render");
  std::ofstream(dir / "orders.csv")
      << "case,integrator,declared_order,measured_order,order_ci95,h_min,h_max,error_min,error_max,relative_error_max,"
         "points,local_orders,flag,note\n"
         "X,rk4,4,4.367,0.2,0.00025,0.002,1e-10,1e-3,0.001,4 of 4,4.51 4.37 4.22,"
         "\"interval [4.17, 4.57] excludes the declared 4 (local orders 4.51 -> 4.37 -> 4.22)\",\"rule\"\n"
         "X,generalized_alpha,2,,,,,,,,0 of 4,2 2 2,inconclusive,\"no order\"\n";
  const std::string block = render_orders_block({(dir / "orders.csv").string()});
  CHECK(block.find("| X | rk4 | 4 | 4.367 ± 0.2 | 0.00025 – 0.002 | 1e-10 – 1e-3 | 4 of 4 | interval [4.17, 4.57] "
                   "excludes the declared 4 (local orders 4.51 -> 4.37 -> 4.22) |") != std::string::npos);
  CHECK(block.find("| X | generalized_alpha | 2 | inconclusive | — | — | 0 of 4 | inconclusive |") != std::string::npos);
  const std::string text = "before\n" + std::string(kOrdersBlockBegin) + "\nold | rows\n" + kOrdersBlockEnd + "\nafter\n";
  const std::string updated = replace_orders_block(text, block, "README");
  CHECK(updated == "before\n" + block + "\nafter\n");
  const auto quoted = quoted_orders(updated, "README");
  REQUIRE(quoted.size() == 2);
  CHECK(quoted[0].case_name == "X");
  CHECK(quoted[0].run == "rk4");
  CHECK(quoted[0].measured == "4.367 ± 0.2");
  CHECK(quoted[1].measured == "inconclusive");
  CHECK_THROWS_AS(replace_orders_block("no markers", block, "README"), InputError);
  CHECK_THROWS_AS(replace_orders_block(updated + updated, block, "README"), InputError);
  fs::remove_all(dir);
}

TEST_CASE("cases/README.md quotes the orders the work-precision study measures now", "[orders][readme][cli]") {
  // The cheap cases (a few seconds): every fixed-step run's order as the study measures it now
  // must be the README's, cell for cell (measured order with its interval, or inconclusive; flag).
  const fs::path dir = testing::scratch_dir("readme_orders_study");
  const std::string cases = std::string(TETHERBENCH_CASES_DIR) + "/T_hanging_tether_full.toml " + TETHERBENCH_CASES_DIR +
                            "/T_planar_pendulum_60deg.toml";
  const std::string study = std::string(TETHERBENCH_BINARY) + " study work_precision " + cases + " --jobs 2 --out " +
                            (dir / "wp").string() + " > " + (dir / "log.txt").string() + " 2>&1";
  REQUIRE(std::system(study.c_str()) == 0);
  const CsvTable measured = read_csv_table((dir / "wp" / "orders.csv").string());
  REQUIRE(measured.rows.size() >= 4);
  const std::string readme = std::string(TETHERBENCH_CASES_DIR) + "/README.md";
  const auto quoted = quoted_orders(slurp(readme), readme);
  for (const auto& row : measured.rows) {
    INFO(row.at("case") << " / " << row.at("integrator"));
    const QuotedOrder* q = nullptr;
    for (const auto& candidate : quoted)
      if (candidate.case_name == row.at("case") && candidate.run == row.at("integrator")) q = &candidate;
    REQUIRE(q != nullptr);  // every run the study measures is quoted
    CHECK(q->measured == measured_order_cell(row.at("measured_order"), row.at("order_ci95")));
    std::string flag = row.at("flag");
    for (auto& ch : flag)
      if (ch == '|') ch = '/';
    CHECK(q->flag == flag);
  }
  fs::remove_all(dir);
}
