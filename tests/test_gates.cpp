// The CI regression gates and the reference data they read: a degraded property fails with a
// message naming case, integrator, metric, value and bound; a pair without an envelope fails;
// malformed data files are refused with the file and column named.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include "app/common/data_paths.hpp"
#include "app/judging/gate_session.hpp"
#include "app/judging/gates.hpp"
#include "app/judging/order_gate.hpp"
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
  return {"A_string_pendulum_paper", integrator, metric, type, bound, EnvelopePolicy::Fixed, 0.0, FailureKind::None, 0, "test"};
}

const EnvelopeFileHint kHint{"test_envelopes.csv", "tetherbench gate --record --envelopes test_envelopes.csv"};

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
  const auto checks = check_gates(c, catalogue(), envelopes, kHint);
  REQUIRE(find(checks, "lgvi", "orthogonality_err_max"));
  CHECK(find(checks, "lgvi", "orthogonality_err_max")->pass());
  const GateCheck* energy = find(checks, "rk4", "energy_err_max");
  REQUIRE(energy);
  CHECK_FALSE(energy->pass());
  CHECK(energy->message.find("case A_string_pendulum_paper, integrator rk4, metric energy_err_max = ") == 0);
  // The bound checked is the run's round-off floor (the stored 1e-20 is below round-off).
  CHECK(energy->message.find("round-off floor of this run; stored bound 1e-20") != std::string::npos);
  CHECK(find(checks, "rk4", "orthogonality_err_max")->pass());
  const GateCheck* drift = find(checks, "rk4", "energy_drift_rate_abs");
  REQUIRE(drift);
  CHECK_FALSE(drift->pass());
  CHECK(drift->message.find("bound >= 1") != std::string::npos);
  // rk45 has no envelope here: that is a failure too, so new pairs cannot slip through; its row names
  // what is missing (issue 46: a blank metric read as a failed check of nothing).
  const GateCheck* missing = find(checks, "rk45", "envelope");
  REQUIRE(missing);
  CHECK_FALSE(missing->pass());
  // Against the file in use, with the command that records into it.
  CHECK(missing->message.find("no envelope in test_envelopes.csv (record one with `tetherbench gate --record --envelopes "
                              "test_envelopes.csv`)") != std::string::npos);
}

TEST_CASE("recording re-measures recorded bounds, keeps fixed ones, and covers new pairs", "[gates]") {
  const Case c = load_case(kCaseFile);
  Envelope recorded = envelope("lgvi", "energy_err_max", BoundType::Max, 123.0);
  recorded.policy = EnvelopePolicy::Recorded;
  const Envelope fixed = envelope("lgvi", "orthogonality_err_max", BoundType::Max, 1e-13);
  const auto out = record_envelopes(c, catalogue(), {recorded, fixed}, false).rows;
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
  for (const auto& g : check_gates(c, catalogue(), out, kHint)) CHECK(g.pass());
}

TEST_CASE("a run that fails at the case's step is refused by --record, or recorded with its kind and time when accepted, and gated as such",
          "[gates][unstable]") {
  Case c = load_case(kCaseFile);
  // h = 3e-3 is beyond RK4's stability limit for the stiffest string mode (~2800 rad/s).
  c.only_integrators = {"rk4"};
  c.report.gate_t_end = 0.1;
  for (auto& [name, s] : c.settings) s.h = 3e-3;
  // Not accepted: the run is named with its status, and a caller writes nothing.
  const RecordedEnvelopes refused = record_envelopes(c, catalogue(), {}, false);
  // Every failing run is named (rk4, and rk4@lumped on the case's other discretisation).
  const auto runs = runs_of(c, catalogue().integrators);
  size_t applicable = 0;
  for (const auto& key : runs)
    if (!why_not_applicable(c, *key.integrator, key.discretisation)) ++applicable;
  CHECK(refused.refused.size() == applicable);
  CHECK(std::count_if(refused.refused.begin(), refused.refused.end(), [](const std::string& line) {
          return line.rfind("case A_string_pendulum_paper, run rk4: diverged at h = 0.003: state became non-finite", 0) == 0;
        }) == 1);
  // Accepted: one fails row with the kind, the time and the step, and the bound the tolerance gives.
  const RecordedEnvelopes accepted = record_envelopes(c, catalogue(), {}, true);
  CHECK(accepted.refused.empty());
  const auto& recorded = accepted.rows;
  const Envelope* fails = nullptr;
  for (const auto& e : recorded)
    if (e.integrator == "rk4") {
      CHECK(e.metric == "outcome");  // its only row: no metric of a failed run is a result
      fails = &e;
    }
  REQUIRE(fails);
  CHECK(fails->bound_type == BoundType::Fails);
  CHECK(fails->note.rfind("diverged at h = 0.003: state became non-finite", 0) == 0);
  CHECK(fails->failure_kind == FailureKind::Diverged);
  REQUIRE(fails->failure_step > 1);
  // The time of the last accepted step: (step - 1) h on a fixed step.
  CHECK(fails->recorded_value == Approx((fails->failure_step - 1) * 3e-3));
  CHECK(fails->bound == Approx(std::max(0.0, fails->recorded_value - std::max(0.1 * fails->recorded_value, 5 * 3e-3))));
  for (const auto& g : check_gates(c, catalogue(), recorded, kHint)) {
    INFO(g.message);
    CHECK(g.pass());
  }
  // Once recorded, re-recording the same failure needs no --accept-failures (the file expects it).
  CHECK(record_envelopes(c, catalogue(), recorded, false).refused.empty());
  // Recorded as failing later than it does: the gate fails, with the tolerance stated.
  std::vector<Envelope> later = recorded;
  for (auto& e : later)
    if (e.integrator == "rk4") e.recorded_value += 0.05, e.bound = failure_time_bound(e.recorded_value, 3e-3);
  bool saw_earlier = false;
  for (const auto& g : check_gates(c, catalogue(), later, kHint))
    if (g.integrator == "rk4") {
      saw_earlier = true;
      CHECK_FALSE(g.pass());
      CHECK(g.message.find("fails earlier than recorded") != std::string::npos);
      CHECK(g.message.find("10% of the recorded time or 5 steps, whichever is more") != std::string::npos);
    }
  CHECK(saw_earlier);
  // ... and --record refuses to move the recorded failure earlier without --accept-failures.
  CHECK(record_envelopes(c, catalogue(), later, false).refused.size() == 1);
  // At a stable step the same envelope fails the gate: the method's behaviour changed.
  for (auto& [name, s] : c.settings) s.h = 1e-4;
  bool saw = false;
  for (const auto& g : check_gates(c, catalogue(), recorded, kHint))
    if (g.integrator == "rk4") {
      saw = true;
      CHECK_FALSE(g.pass());
      CHECK(g.message.find("changed outcome: expected to fail (diverged at t = ") != std::string::npos);
      CHECK(g.message.find("re-record with `tetherbench gate --record --envelopes test_envelopes.csv`") != std::string::npos);
    }
  CHECK(saw);
  // Re-recording at the stable step replaces the expectation by the standard rows.
  for (const auto& e : record_envelopes(c, catalogue(), recorded, false).rows)
    if (e.integrator == "rk4") CHECK(e.bound_type == BoundType::Max);
}

TEST_CASE("a fails row passes the same kind no earlier than its bound, and fails another kind or an earlier failure",
          "[gates][unstable]") {
  Envelope e = envelope("rk4", "outcome", BoundType::Fails, 0.0);
  e.failure_kind = FailureKind::Diverged;
  e.recorded_value = 0.130;  // step 261 at h = 5e-4
  e.failure_step = 261;
  e.bound = failure_time_bound(e.recorded_value, 5e-4);
  CHECK(e.bound == Approx(0.117));  // 10% of 0.13 s (26 steps) is more than 5 steps
  CHECK(failure_time_bound(0.002, 5e-4) == 0.0);  // 5 steps (2.5 ms) is more than 10%: floored at t0
  SummaryRow row;
  row.integrator = "rk4";
  auto diverging_at = [](long step) {
    RunOutcome o = RunOutcome::failed_at("state became non-finite (NaN/Inf)", (step - 1) * 5e-4, step, true);
    o.h = 5e-4;
    return o;
  };
  row.outcome = diverging_at(261);
  CHECK(judge_failure(e, row, kHint).pass());
  row.outcome = diverging_at(236);  // 0.1175 s: within the tolerance
  CHECK(judge_failure(e, row, kHint).pass());
  row.outcome = diverging_at(2);  // the regression: step 260 to step 1
  GateCheck g = judge_failure(e, row, kHint);
  CHECK_FALSE(g.pass());
  CHECK(g.message.find("fails earlier than recorded: now diverged at t = 0.0005 s, step 2, recorded diverged at t = 0.13 s, step 261") !=
        std::string::npos);
  row.outcome = diverging_at(2000);  // later: no regression
  CHECK(judge_failure(e, row, kHint).pass());
  row.outcome = RunOutcome::failed_at("Newton did not converge", 0.2, 401);
  g = judge_failure(e, row, kHint);
  CHECK_FALSE(g.pass());
  CHECK(g.message.find("fails another way: now solver at t = 0.2 s, step 401") != std::string::npos);
}

TEST_CASE("a failure's kind comes from its outcome, one word per way of failing", "[gates]") {
  CHECK(failure_kind(RunOutcome{}) == FailureKind::None);
  CHECK(failure_kind(RunOutcome::not_applicable_because("no form")) == FailureKind::None);
  CHECK(failure_kind(RunOutcome::failed_at("state became non-finite (NaN/Inf)", 0.1, 3, true)) == FailureKind::Diverged);
  CHECK(failure_kind(RunOutcome::failed_at("Newton did not converge in 20 iterations", 0.1, 3)) == FailureKind::Solver);
  CHECK(failure_kind(RunOutcome::failed_at("exception: plugin bug in step", 0.0, 1)) == FailureKind::Exception);
  CHECK(failure_kind(RunOutcome::failed_at("building the stepper failed: bad tableau", 0.0, 1)) == FailureKind::Exception);
  CHECK(failure_kind(RunOutcome::failed_at("crashed (SIGSEGV) in plugin p, integrator i, case c", 0.0, 1)) == FailureKind::Crashed);
  CHECK(failure_kind(RunOutcome::failed_at("integrator contract: a non-finite state returned as success", 0.1, 2)) ==
        FailureKind::Contract);
  CHECK(failure_kind(RunOutcome::failed_at("hung: no progress for 60 s (the per-run time limit, --time-limit) in plugin p", 0.1, 2)) ==
        FailureKind::Timeout);
  RunOutcome unstable;
  unstable.kind = RunOutcome::Kind::Unstable;
  CHECK(failure_kind(unstable) == FailureKind::Unstable);
  // The same from the status texts that old fails rows recorded as their note.
  CHECK(failure_kind_of_status("diverged at h = 0.001: state became non-finite (NaN/Inf) at t = 0.216 s, step 217") ==
        FailureKind::Diverged);
  CHECK(failure_kind_of_status("unstable from t = 2 s (step 2000): energy gain ..., at h = 0.001") == FailureKind::Unstable);
  CHECK(failure_kind_of_status("energy jump at t = 0.248 s (step 993): energy jump: ..., at h = 0.00025") == FailureKind::Unstable);
  CHECK(failure_kind_of_status("failed: exception: plugin bug in step at t = 0 s, step 1") == FailureKind::Exception);
  CHECK(failure_kind_of_status("ok") == FailureKind::None);
}

TEST_CASE("an envelope file of the old format is refused by the gate, naming the file and the header expected, and read by --record",
          "[gates][reference]") {
  const fs::path path = temp_file("tb_old_envelopes_");
  std::ofstream(path) << "# old\ncase,integrator,metric,bound_type,bound,policy,recorded_value,note\n"
                         "A,rk2,outcome,fails,0,recorded,0.038,\"diverged at h = 0.0005: state became non-finite (NaN/Inf) at t = 0.038 s, step 77\"\n"
                         "A,rk4,energy_err_max,max,1e-08,recorded,5e-09,\"\"\n";
  try {
    read_envelopes(path.string());
    FAIL("an old-format envelope file was read by the gate");
  } catch (const InputError& e) {
    const std::string m = e.what();
    CHECK(m.rfind(path.string() + ": an envelope file of the format before fails rows recorded their kind and step", 0) == 0);
    CHECK(m.find("expected the header '" + csv_header<Envelope>() + "'") != std::string::npos);
    CHECK(m.find("tetherbench gate --record --envelopes " + path.string()) != std::string::npos);
  }
  const auto rows = read_envelopes(path.string(), /*accept_old_format=*/true);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].failure_kind == FailureKind::None);  // its kind is read from its note by --record
  CHECK(failure_kind_of_status(rows[0].note) == FailureKind::Diverged);
  CHECK(rows[1].bound == 1e-8);
  // A fails row of the new format says how it fails; another row says nothing of it.
  std::ofstream(path) << csv_header<Envelope>() << "\nA,rk2,outcome,fails,0.03,recorded,0.038,,77,\"x\"\n";
  CHECK_THROWS_WITH(read_envelopes(path.string()), Catch::Contains("column 'failure_kind': expected how the run fails"));
  std::ofstream(path) << csv_header<Envelope>() << "\nA,rk4,energy_err_max,max,1,recorded,0.5,diverged,0,\"x\"\n";
  CHECK_THROWS_WITH(read_envelopes(path.string()), Catch::Contains("column 'failure_kind': expected nothing on a row that is not a fails row"));
  std::ofstream(path) << "case,integrator\nA,rk4\n";
  CHECK_THROWS_WITH(read_envelopes(path.string()), Catch::Contains("expected an envelope file with the header"));
  fs::remove(path);
}

TEST_CASE("the bundled envelopes hold and cover every case x integrator", "[gates]") {
  const Case c = load_case(kCaseFile);
  const auto envelopes = read_envelopes(std::string(TETHERBENCH_REFERENCE_DIR) + "/envelopes.csv");
  for (const auto& g : check_gates(c, catalogue(), envelopes, kHint)) {
    INFO(g.message);
    CHECK(g.pass());
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

  std::ofstream(path) << csv_header<Envelope>() << "\nA,lgvi,momentum_err_max,atmost,1,fixed,0,,0,x\n";
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
  const auto checks = check_gates(c, catalogue(), {envelope("lgvi", "momentum_err_max", BoundType::Max, 1e-20)}, kHint);
  const GateCheck* momentum = find(checks, "lgvi", "momentum_err_max");
  REQUIRE(momentum);
  INFO(momentum->message);
  CHECK(momentum->pass());
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
  const auto out = record_envelopes(c, catalogue(), {energy}, false).rows;
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

TEST_CASE("gate --record --integrator re-measures that integrator's runs on every discretisation, each row once",
          "[gates]") {
  // On the unilateral drop rk4 runs only the penalty discretisation (rk4@penalty). Recording with --integrator rk4
  // once kept its old rows beside the re-measured ones (the row's run was looked up as an integrator named
  // "rk4@penalty", found in no registry), so every rk4@penalty row was written twice.
  const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_pendulum_drop.toml");
  const fs::path root = fs::path(TETHERBENCH_CASES_DIR).parent_path();
  std::vector<Envelope> rows;
  for (Envelope& e : read_envelopes((root / "reference" / "envelopes.csv").string(), false))
    if (e.case_name == c.name) rows.push_back(std::move(e));
  const auto count = [](const std::vector<Envelope>& of, const std::string& run) {
    return std::count_if(of.begin(), of.end(), [&](const Envelope& e) { return e.integrator == run; });
  };
  REQUIRE(count(rows, "rk4@penalty") > 0);
  const fs::path path = temp_file("tb_envelopes_one_integrator_");
  write_envelopes(path.string(), rows);
  DataPaths data;
  data.root = root.string();
  data.cases = (root / "cases").string();
  data.reference = (root / "reference").string();
  GateRequest request;
  request.integrators = {"rk4"};
  request.record = true;
  request.envelopes = path.string();
  const GateOutcome out = run_gates(catalogue(), data, {c}, request);
  REQUIRE(out.recorded);
  const std::vector<Envelope> after = read_envelopes(path.string(), false);
  fs::remove(path);
  std::set<std::string> seen;
  for (const Envelope& e : after) CHECK(seen.insert(e.integrator + " " + e.metric).second);
  CHECK(count(after, "rk4@penalty") == count(rows, "rk4@penalty"));
  CHECK(after.size() == rows.size());  // the other runs' rows kept, none added
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
  const auto checks = check_gates(c, catalogue(), envelopes, kHint);
  const GateCheck* none = find(checks, "rk4", "constraint_err_max");
  REQUIRE(none);
  CHECK_FALSE(none->pass());
  CHECK(none->message.find("is not integrated by this run's formulation") != std::string::npos);
  const GateCheck* ida = find(checks, "ida", "constraint_err_max");  // the DAE integrates the attachment
  REQUIRE(ida);
  CHECK(ida->pass());
  for (const auto& e : record_envelopes(c, catalogue(), envelopes, false).rows) {
    INFO(e.integrator << " " << e.metric);
    CHECK_FALSE((e.integrator == "rk4" && e.metric.rfind("constraint", 0) == 0));
  }
}

TEST_CASE("the order gate passes every fixed-step integrator at its declared order and fails it at another", "[gates][orders]") {
  // The planar pendulum: every fixed-step integrator of the catalogue that runs it has a clear
  // asymptotic range over the gate's short sweep (no check is inconclusive there).
  const Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml");
  const auto checks = check_orders(c, catalogue());
  size_t fixed_step = 0;
  for (const auto& info : catalogue().integrators)
    if (!info.adaptive && !why_not_applicable(c, info, c.model->default_discretisation())) ++fixed_step;
  REQUIRE(checks.size() == fixed_step);
  REQUIRE(fixed_step >= 3);
  for (const auto& g : checks) {
    INFO(g.message);
    CHECK(g.metric == "order");
    CHECK(g.pass());
    CHECK_FALSE(g.inconclusive());
    CHECK(g.message.find(", order: measured ") != std::string::npos);
  }
  // The same methods declaring one order more, and one less: each is a wrong declaration by a
  // whole unit, which the gate must fail, naming the measured and the declared order.
  for (int shift : {+1, -1}) {
    Catalogue mislabelled = catalogue();
    for (auto& info : mislabelled.integrators) info.order += shift;
    for (const auto& g : check_orders(c, mislabelled)) {
      INFO(g.message);
      CHECK_FALSE(g.pass());
      CHECK_FALSE(g.inconclusive());
      const IntegratorInfo* info = mislabelled.find_integrator(g.integrator);
      REQUIRE(info);
      CHECK(g.message.find("declared " + std::to_string(info->order) + ": " + (shift > 0 ? "order reduction" : "above the declared order")) !=
            std::string::npos);
    }
  }
}
