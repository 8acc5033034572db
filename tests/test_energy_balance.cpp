// Study energy_balance (studies/energy_balance/): the order at which each fixed-step run's energy
// balance E - E0 - W closes, on the damped lumped tether (its bundled [report.energy_balance]).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "app/common/csv_table.hpp"
#include "app/input/applicability.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
#include "core/format.hpp"
#include "studies/energy_balance/energy_balance.hpp"
#include "tests/temp_file.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

const std::string kDampedTether = std::string(TETHERBENCH_CASES_DIR) + "/T_hanging_tether_lumped.toml";

// The study on the tether through its own jobs, its CSV rows by "run|h".
std::map<std::string, std::map<std::string, std::string>> energy_balance_rows(const std::filesystem::path& out) {
  const Catalogue& c = tb::testing::catalogue();
  const std::vector<Case> cases = {tb::testing::load_case(kDampedTether)};
  auto study = c.find_study("energy_balance")->make();
  StudyContext context;
  context.catalogue = &c;
  context.cases = &cases;
  context.out_dir = out.string();
  for (auto& job : study->plan(context)) job.apply(job.run());
  const auto written = study->write(context);
  REQUIRE(written.size() == 2);
  std::map<std::string, std::map<std::string, std::string>> rows;
  for (const auto& row : read_csv_table((out / "energy_balance.csv").string()).rows)
    rows[row.at("integrator") + "|" + row.at("h")] = row;
  return rows;
}

}  // namespace

TEST_CASE("energy_balance: every fixed-step run of the damped tether at every step, its balance resolved, and the "
          "symplectic methods' balance closing at their declared order",
          "[energy_balance][study]") {
  const std::filesystem::path dir = tb::testing::scratch_dir("energy_balance");
  const auto rows = energy_balance_rows(dir);
  std::filesystem::remove_all(dir);
  const Case tether = tb::testing::load_case(kDampedTether);
  const EnergyBalance& table = *tether.section<EnergyBalance>();
  const OrderRules rules;
  int runs = 0;
  for (const RunKey& key : runs_of(tether, tb::testing::catalogue().integrators)) {
    if (key.integrator->adaptive || why_not_applicable(tether, *key.integrator, key.discretisation)) continue;
    ++runs;
    INFO(key.label());
    std::vector<OrderSweepPoint> sweep;
    for (double h : table.steps) {
      const auto it = rows.find(key.label() + "|" + format_g(h, 6));
      REQUIRE(it != rows.end());
      const auto& row = it->second;
      if (row.at("status") != "ok") continue;
      const double residual = std::stod(row.at("balance_err_max")), floor = std::stod(row.at("round_off_floor"));
      // The damping takes out most of the tether's energy in this second: W is no small term.
      CHECK(std::stod(row.at("external_work_max")) > 100.0);
      // Every completed point stands above its round-off floor: the sweep measures the method.
      CHECK(residual >= rules.resolution * floor);
      CHECK(row.at("resolved") == "yes");
      sweep.push_back({h, true, residual, residual / std::stod(row.at("energy_magnitude")), floor});
    }
    // A symplectic (variational or RATTLE-type) step with the trapezoidal work of its forces
    // (integrators/work_terms.hpp) accounts for W at its own order: the balance closes at the
    // declared order, by the one order rule. Dropping W from the balance would leave a residual
    // of ~150 J at every h: order 0, flagged.
    if (key.integrator->traits.symplectic) {
      const MeasuredOrder m = measure_order(sweep, key.integrator->order, rules);
      REQUIRE(m.fit.fitted);
      CHECK(m.flag.empty());
      CHECK(m.p == Approx(key.integrator->order).margin(rules.flag_band));
    }
  }
  CHECK(runs >= 4);
  CHECK(rows.size() == runs * table.steps.size());
}

TEST_CASE("energy_balance: its table is checked when the case is loaded, naming the key", "[energy_balance][input]") {
  std::ifstream in(kDampedTether);
  std::stringstream text;
  text << in.rdbuf();
  std::string base = text.str();
  base = base.substr(0, base.find("[report.energy_balance]"));
  auto with_table = [&](const std::string& table) {
    return std::make_unique<tb::testing::TempFile>("energy_balance_table", base + "[report.energy_balance]\n" + table);
  };
  CHECK_THROWS_WITH(tb::testing::load_case(with_table("steps = [1e-3, 5e-4]\n")->path.string()),
                    Catch::Contains("'report.energy_balance.steps'") && Catch::Contains("at least 3 steps"));
  CHECK_THROWS_WITH(tb::testing::load_case(with_table("t_end = 100.0\n")->path.string()),
                    Catch::Contains("'report.energy_balance.t_end'") && Catch::Contains("the case's t_end"));
  CHECK_THROWS_WITH(tb::testing::load_case(with_table("t_end = 0.01\nsteps = [0.02, 0.01, 0.005]\n")->path.string()),
                    Catch::Contains("'report.energy_balance.steps'") && Catch::Contains("no longer than t_end"));
  CHECK_THROWS_WITH(tb::testing::load_case(with_table("order = 2\n")->path.string()),
                    Catch::Contains("unknown key 'report.energy_balance.order'"));
  // Without the table the study does not apply, and says why.
  const Case without = tb::testing::load_case(with_table("")->path.string());
  CHECK(without.section<EnergyBalance>() != nullptr);  // an empty table takes the defaults
  const auto none = std::make_unique<tb::testing::TempFile>("energy_balance_none", base);
  CHECK(tb::testing::catalogue().find_study("energy_balance")->why_not(tb::testing::load_case(none->path.string())) ==
        "the case has no [report.energy_balance]");
}
