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
    rows[row.at("integrator") + "|" + (row.at("role") == "reference" ? std::string("reference") : row.at("h"))] = row;
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
  // The reference solver's own balance closes to round-off: the E(T) and W(T) errors of the runs
  // are measured against it.
  const auto reference = rows.find(tb::testing::catalogue().reference().name + "|reference");
  REQUIRE(reference != rows.end());
  CHECK(reference->second.at("status") == "ok");
  CHECK(std::stod(reference->second.at("balance_err_max")) < 1e-9);
  int runs = 0;
  for (const RunKey& key : runs_of(tether, tb::testing::catalogue().integrators)) {
    if (key.integrator->adaptive || why_not_applicable(tether, *key.integrator, key.discretisation)) continue;
    ++runs;
    INFO(key.label());
    std::vector<OrderSweepPoint> sweep, energy_end, work_end;
    int resolved = 0;
    for (double h : table.steps) {
      const auto it = rows.find(key.label() + "|" + format_g(h, 6));
      REQUIRE(it != rows.end());
      const auto& row = it->second;
      if (row.at("status") != "ok") continue;
      const double residual = std::stod(row.at("balance_err_max")), floor = std::stod(row.at("round_off_floor"));
      // The damping takes out most of the tether's energy in this second: W is no small term.
      CHECK(std::stod(row.at("external_work_max")) > 100.0);
      // "resolved": the residual stands 10x above its round-off floor (the finest 4th-order points
      // do not: 1e-10 J against floors of 6e-11).
      CHECK(row.at("resolved") == (residual >= rules.resolution * floor ? "yes" : "no"));
      resolved += row.at("resolved") == "yes" ? 1 : 0;
      const double scale = std::stod(row.at("energy_magnitude")) + std::stod(row.at("external_work_max"));
      sweep.push_back({h, true, residual, residual / scale, floor});
      // The residual's two parts at t_end: E_n - E_ref(T) and W_n - W_ref(T); E_ref - E0 - W_ref = 0
      // to the reference's residual, so their difference is the run's own residual at t_end.
      const double e = std::stod(row.at("energy_err_end")), w = std::stod(row.at("work_err_end"));
      CHECK(std::abs(e - w) <= residual * (1.0 + 1e-5) + 1e-9);  // the residual printed to 6 digits
      energy_end.push_back({h, true, std::abs(e), std::abs(e) / scale, floor});
      work_end.push_back({h, true, std::abs(w), std::abs(w) / scale, floor});
    }
    // A symplectic (variational or RATTLE-type) step with the trapezoidal work of its forces
    // (integrators/work_terms.hpp) accounts for W at its own order: the balance closes at the
    // declared order, by the one order rule. Dropping W from the balance would leave a residual
    // of ~150 J at every h: order 0, flagged.
    // Enough points above the floor for an order: the sweep measures the method.
    CHECK(resolved >= int(rules.min_points));
    // So do both parts: the energy at the horizon and the work.
    if (key.integrator->traits.symplectic)
      for (const auto* points : {&sweep, &energy_end, &work_end}) {
        const MeasuredOrder m = measure_order(*points, key.integrator->order, rules);
        REQUIRE(m.fit.fitted);
        CHECK(m.flag.empty());
        CHECK(m.p == Approx(key.integrator->order).margin(rules.flag_band));
      }
  }
  CHECK(runs >= 4);
  CHECK(rows.size() == runs * table.steps.size() + 1);  // and the reference
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
