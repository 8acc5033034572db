// The CI regression gates and the reference data they read: a degraded property fails with a
// message naming case, integrator, metric, value and bound; a pair without an envelope fails;
// malformed data files are refused with the file and column named.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include "app/gates.hpp"
#include "core/table_reader.hpp"
#include "tests/test_support.hpp"

namespace fs = std::filesystem;
using namespace tb;
using namespace tb::testing;

namespace {

const std::string kCaseFile = std::string(TETHERBENCH_CASES_DIR) + "/A_string_pendulum_paper.toml";

fs::path temp_file(const std::string& stem) {
  std::random_device rd;
  return fs::temp_directory_path() / (stem + std::to_string(rd()) + ".csv");
}

Envelope envelope(const std::string& integrator, const std::string& metric, BoundType type, double bound) {
  return {"A_string_pendulum_paper", integrator, metric, type, bound, EnvelopePolicy::Fixed, 0.0, "test"};
}

const GateCheck* find(const std::vector<GateCheck>& checks, const std::string& integrator, const std::string& metric) {
  for (const auto& g : checks)
    if (g.integrator == integrator && g.metric == metric) return &g;
  return nullptr;
}

}  // namespace

TEST_CASE("gates pass within the envelope and fail outside it, naming case, integrator, metric, value, bound", "[gates]") {
  const Case c = load_case(kCaseFile);
  const std::vector<Envelope> envelopes = {
      envelope("lgvi", "orthogonality_err_max", BoundType::Max, 1e-13),  // holds: the LGVI keeps SO(3)
      envelope("rk4", "energy_err_max", BoundType::Max, 1e-20),          // below RK4's truncation error: must fail
      envelope("rk4", "orthogonality_err_max", BoundType::Min, 1e-13),   // RK4 drifts: holds
      envelope("rk4", "energy_drift_rate_abs", BoundType::Min, 1.0),     // RK4 does not drift that much: must fail
  };
  const auto checks = check_gates(c, catalogue(), envelopes);
  REQUIRE(find(checks, "lgvi", "orthogonality_err_max"));
  CHECK(find(checks, "lgvi", "orthogonality_err_max")->pass);
  const GateCheck* energy = find(checks, "rk4", "energy_err_max");
  REQUIRE(energy);
  CHECK_FALSE(energy->pass);
  CHECK(energy->message.find("case A_string_pendulum_paper, integrator rk4, metric energy_err_max = ") == 0);
  // The bound checked is the run's round-off floor (the stored 1e-20 is below round-off).
  CHECK(energy->message.find("round-off floor of this run; stored bound 1e-20") != std::string::npos);
  CHECK(find(checks, "rk4", "orthogonality_err_max")->pass);
  const GateCheck* drift = find(checks, "rk4", "energy_drift_rate_abs");
  REQUIRE(drift);
  CHECK_FALSE(drift->pass);
  CHECK(drift->message.find("bound >= 1") != std::string::npos);
  // rk45 has no envelope here: that is a failure too, so new pairs cannot slip through.
  const GateCheck* missing = find(checks, "rk45", "");
  REQUIRE(missing);
  CHECK_FALSE(missing->pass);
  CHECK(missing->message.find("no envelope") != std::string::npos);
}

TEST_CASE("recording re-measures recorded bounds, keeps fixed ones, and covers new pairs", "[gates]") {
  const Case c = load_case(kCaseFile);
  Envelope recorded = envelope("lgvi", "energy_err_max", BoundType::Max, 123.0);
  recorded.policy = EnvelopePolicy::Recorded;
  const Envelope fixed = envelope("lgvi", "orthogonality_err_max", BoundType::Max, 1e-13);
  const auto out = record_envelopes(c, catalogue(), {recorded, fixed});
  bool saw_recorded = false, saw_fixed = false, saw_new_pair = false;
  for (const auto& e : out) {
    if (e.integrator == "lgvi" && e.metric == "energy_err_max") {
      saw_recorded = true;
      CHECK(e.recorded_value > 0.0);
      CHECK(e.bound == Approx(2.0 * e.recorded_value));
    }
    if (e.integrator == "lgvi" && e.metric == "orthogonality_err_max") {
      saw_fixed = true;
      CHECK(e.bound == 1e-13);
    }
    if (e.integrator == "rk4") saw_new_pair = true;
  }
  CHECK(saw_recorded);
  CHECK(saw_fixed);
  CHECK(saw_new_pair);
  // The recorded envelopes hold for the run they were recorded from.
  for (const auto& g : check_gates(c, catalogue(), out)) CHECK(g.pass);
}

TEST_CASE("a run that fails at the case's step is recorded as expected to fail, and gated as such", "[gates][unstable]") {
  Case c = load_case(kCaseFile);
  // h = 3e-3 is beyond RK4's stability limit for the stiffest string mode (~2800 rad/s).
  c.only_integrators = {"rk4"};
  c.report.gate_t_end = 0.1;
  for (auto& [name, s] : c.settings) s.h = 3e-3;
  const auto recorded = record_envelopes(c, catalogue(), {});
  const Envelope* fails = nullptr;
  for (const auto& e : recorded)
    if (e.integrator == "rk4") {
      CHECK(e.metric == "outcome");  // its only row: no metric of a failed run is a result
      fails = &e;
    }
  REQUIRE(fails);
  CHECK(fails->bound_type == BoundType::Fails);
  CHECK(fails->note.rfind("unstable at h = 0.003: state became non-finite", 0) == 0);
  CHECK(fails->recorded_value > 0.0);  // the time it failed at
  for (const auto& g : check_gates(c, catalogue(), recorded)) {
    INFO(g.message);
    CHECK(g.pass);
  }
  // At a stable step the same envelope fails the gate: the method's behaviour changed.
  for (auto& [name, s] : c.settings) s.h = 1e-4;
  bool saw = false;
  for (const auto& g : check_gates(c, catalogue(), recorded))
    if (g.integrator == "rk4") {
      saw = true;
      CHECK_FALSE(g.pass);
      CHECK(g.message.find("it completed") != std::string::npos);
    }
  CHECK(saw);
  // Re-recording at the stable step replaces the expectation by the standard rows.
  for (const auto& e : record_envelopes(c, catalogue(), recorded))
    if (e.integrator == "rk4") CHECK(e.bound_type == BoundType::Max);
}

TEST_CASE("the bundled envelopes hold and cover every case x integrator", "[gates]") {
  const Case c = load_case(kCaseFile);
  const auto envelopes = read_envelopes(std::string(TETHERBENCH_REFERENCE_DIR) + "/envelopes.csv");
  for (const auto& g : check_gates(c, catalogue(), envelopes)) {
    INFO(g.message);
    CHECK(g.pass);
  }
}

TEST_CASE("envelope and reference files round-trip and bad ones are refused with file and column", "[gates][reference]") {
  const fs::path path = temp_file("tb_envelopes_");
  const std::vector<Envelope> rows = {envelope("lgvi", "momentum_err_max", BoundType::Max, 2.5e-13),
                                      envelope("rk4", "orthogonality_err_max", BoundType::Min, 1e-12)};
  write_envelopes(path.string(), rows);
  const auto back = read_envelopes(path.string());
  REQUIRE(back.size() == 2);
  CHECK(back[0].metric == "momentum_err_max");
  CHECK(back[0].bound == 2.5e-13);
  CHECK(back[1].bound_type == BoundType::Min);
  CHECK(back[1].note == "test");

  std::ofstream(path) << "case,integrator,metric,bound_type,bound,policy,recorded_value,note\n"
                         "A,lgvi,momentum_err_max,atmost,1,fixed,0,x\n";
  try {
    read_envelopes(path.string());
    FAIL("a bad bound_type was accepted");
  } catch (const InputError& e) {
    const std::string m = e.what();
    CHECK(m.find(path.string()) != std::string::npos);
    CHECK(m.find("bound_type") != std::string::npos);
  }
  std::ofstream(path) << "case,integrator,metric\nA,lgvi,x\n";
  CHECK_THROWS_AS(read_envelopes(path.string()), InputError);  // missing columns

  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(7, -1.0, 1.0) * M_PI;
  write_reference_state(path.string(), x, "test provenance");
  CHECK(read_reference_state(path.string()) == x);  // 17 significant digits: exact
  fs::remove(path);
  CHECK_THROWS_AS(read_reference_state(path.string()), InputError);
}

TEST_CASE("upper bounds are never below the run's round-off floor, which grows like sqrt(steps) (Brouwer's law)",
          "[gates]") {
  SummaryRow row;
  row.t_end = 2.0;
  row.counters.steps = 1000;
  row.metrics.energy_magnitude = 50.0;
  row.metrics.momentum_magnitude = 0.25;  // below the unit scale: floors use 1
  const double eps = std::numeric_limits<double>::epsilon();
  CHECK(round_off_floor("orthogonality_err_max", row) == Approx(8.0 * eps * std::sqrt(1000.0)));
  CHECK(round_off_floor("energy_err_max", row) == Approx(8.0 * eps * 50.0 * std::sqrt(1000.0)));
  CHECK(round_off_floor("energy_drift_rate_abs", row) == Approx(8.0 * eps * 25.0 * std::sqrt(1000.0)));
  CHECK(round_off_floor("momentum_err_max", row) == Approx(8.0 * eps * std::sqrt(1000.0)));
  SummaryRow longer = row;
  longer.counters.steps = 4000;
  CHECK(round_off_floor("orthogonality_err_max", longer) == Approx(2.0 * round_off_floor("orthogonality_err_max", row)));

  // On a real gate run: the LGVI's momentum is conserved to round-off, so a stored bound below
  // round-off (1e-20) is checked at the floor and holds; the message says so.
  const Case c = load_case(kCaseFile);
  const auto checks = check_gates(c, catalogue(), {envelope("lgvi", "momentum_err_max", BoundType::Max, 1e-20)});
  const GateCheck* momentum = find(checks, "lgvi", "momentum_err_max");
  REQUIRE(momentum);
  INFO(momentum->message);
  CHECK(momentum->pass);
  CHECK(momentum->message.find("round-off floor of this run; stored bound 1e-20") != std::string::npos);
}

TEST_CASE("every metric has its registry row - another name is an error, not a default scale", "[gates]") {
  for (const auto& name : tb::metric_names()) CHECK_NOTHROW(tb::metric_spec(name));
  CHECK(tb::metric_registry().size() == tb::metric_names().size());
  CHECK_THROWS_AS(tb::metric_spec("energy_wobble"), std::out_of_range);
  tb::SummaryRow row;
  CHECK_THROWS_AS(tb::round_off_floor("energy_wobble", row), std::out_of_range);
  // The scales the floors used to take from the names' first words.
  CHECK(tb::metric_spec("linear_momentum_err_max").scale == tb::RoundOffScale::LinearMomentum);
  CHECK(tb::metric_spec("energy_drift_rate_abs").scale == tb::RoundOffScale::EnergyPerSecond);
  CHECK(tb::metric_spec("energy_err_rel_ke").growth == tb::GrowthOf::Energy);
  CHECK(tb::metric_spec("constraint_err_max").scale == tb::RoundOffScale::Unit);
}

TEST_CASE("gate --record adds a default metric's envelope to a run that already has others", "[gates]") {
  // A run recorded before a default metric existed keeps its envelopes and gains the new one:
  // here rk4 has only energy_err_max, and every other default metric its form can violate is added.
  Case c = load_case(kCaseFile);
  c.only_integrators = {"rk4"};
  c.report.gate_t_end = 0.02;
  Envelope energy = envelope("rk4", "energy_err_max", BoundType::Max, 1.0);
  energy.policy = EnvelopePolicy::Recorded;
  const auto out = record_envelopes(c, catalogue(), {energy});
  std::set<std::string> metrics;
  for (const auto& e : out)
    if (e.integrator == "rk4") CHECK(metrics.insert(e.metric).second);  // each once
  int defaults = 0;
  RunOptions gate_run;
  gate_run.t_end = c.report.gate_t_end;
  std::optional<SummaryRow> found;
  for (const auto& key : runs_of(c, catalogue().integrators))
    if (key.label() == "rk4") found = run_case(key, gate_run);
  REQUIRE(found);
  const SummaryRow& row = *found;
  for (const auto& m : tb::metric_registry()) {
    if (!m.default_gate) continue;
    INFO(m.name);
    const bool covered = row.violable.covers(m) && !std::isnan(m.value(row.metrics));
    CHECK(metrics.count(std::string(m.name)) == (covered ? 1u : 0u));
    defaults += covered;
  }
  CHECK(defaults >= 3);  // energy, its drift rate, the momentum at least
}

TEST_CASE("the bundled envelopes are written back byte for byte from their typed rows", "[gates][reference]") {
  // Bound types and policies are enumerations now, their CSV text from Envelope's description:
  // reading the bundled file and writing it again gives the same bytes.
  const std::string bundled = std::string(TETHERBENCH_REFERENCE_DIR) + "/envelopes.csv";
  const fs::path copy = temp_file("tb_envelopes_copy_");
  write_envelopes(copy.string(), read_envelopes(bundled));
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(bytes(copy.string()) == bytes(bundled));
  fs::remove(copy);
}

TEST_CASE("gates: an envelope on a metric the run's form cannot violate fails, and --record drops it", "[gates][n/a]") {
  // rk4 on Model A's embedded ODE: the body rides on the end node, no constraint to violate, so
  // constraint_err_max is 0 by construction and a bound on it would pass whatever rk4 does.
  Case c = load_case(kCaseFile);
  c.report.gate_t_end = 0.02;  // the cells, not the physics: a few steps
  const std::vector<Envelope> envelopes = {envelope("rk4", "constraint_err_max", BoundType::Max, 1e-10),
                                           envelope("ida", "constraint_err_max", BoundType::Max, 1.0)};
  const auto checks = check_gates(c, catalogue(), envelopes);
  const GateCheck* none = find(checks, "rk4", "constraint_err_max");
  REQUIRE(none);
  CHECK_FALSE(none->pass);
  CHECK(none->message.find("is not integrated by this run's formulation") != std::string::npos);
  const GateCheck* ida = find(checks, "ida", "constraint_err_max");  // the DAE integrates the attachment
  REQUIRE(ida);
  CHECK(ida->pass);
  for (const auto& e : record_envelopes(c, catalogue(), envelopes)) {
    INFO(e.integrator << " " << e.metric);
    CHECK_FALSE((e.integrator == "rk4" && e.metric.rfind("constraint", 0) == 0));
  }
}
