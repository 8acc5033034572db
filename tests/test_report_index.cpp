// The front page's advice (app/recommendation.hpp) and layout (app/report_index.hpp) on report
// tables with known answers: which run is advised, which is not and why, which columns a case
// table drops, and that the answer comes first.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "app/recommendation.hpp"
#include "app/report_index.hpp"
#include "tests/temp_file.hpp"

using namespace tb;

namespace {

// A scratch folder removed with its contents at the end of the test.
struct ScratchDir {
  std::filesystem::path dir = tb::testing::scratch_dir("report_index");
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::filesystem::path path() const { return dir; }
};

RunRecord run(const std::string& c, const std::string& label, double runtime, const std::string& energy_law,
              const std::string& momentum_law = "round_off", double energy_err = 1e-6) {
  RunRecord r;
  r.case_name = c;
  r.label = label;
  r.integrator = label.substr(0, label.find('@'));
  r.h = 1e-3;
  r.t_end = 1000.0;
  r.status = "ok";
  r.ok = true;
  r.runtime_s = runtime;
  r.energy_law = energy_law;
  r.momentum_law = momentum_law;
  r.energy_theory = "bounded";  // a symplectic method on a conservative model
  r.momentum_theory = "round_off";
  r.metric["energy_err_max"] = energy_err;
  r.metric["momentum_err_max"] = 1e-15;
  r.metric["linear_momentum_err_max"] = 1e-12;
  r.metric["constraint_err_max"] = 0.0;
  r.metric["orthogonality_err_max"] = 0.0;
  r.not_integrated = {"constraint_err_max"};
  return r;
}

RunRecord failed(const std::string& c, const std::string& label) {
  RunRecord r = run(c, label, 0.0, "");
  r.status = "unstable from t = 349.9 s (step 349900): energy gain 0.2 × E_s > 0.1, at h = 0.001";
  r.ok = false;
  r.metric.clear();
  return r;
}

const Standing* find(const std::vector<Standing>& list, const std::string& label) {
  for (const auto& s : list)
    if (s.label == label) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("a run that grows or fails on one case is never advised, however cheap", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("single", "vi", 3.0, "bounded"),    run("coop", "vi", 5.0, "bounded"),
               run("single", "rk4", 1.0, "faster"),    failed("coop", "rk4"),
               run("single", "cheap", 0.5, "bounded"), run("coop", "cheap", 0.5, "linear"),
               run("single", "slow", 9.0, "bounded"),  run("coop", "slow", 9.0, "round_off")};
  const ModelAdvice a = advise(data, "m", {{"single", true}, {"coop", true}});
  REQUIRE(a.recommended.size() == 2);
  CHECK(a.recommended[0].label == "vi");  // cheapest first of those bounded on both
  CHECK(a.recommended[0].runtime_s == Approx(8.0));
  CHECK(a.recommended[1].label == "slow");
  CHECK_FALSE(find(a.recommended, "rk4"));
  CHECK_FALSE(find(a.recommended, "cheap"));
  // The runs not advised are shown with why: the failure's onset, the law that grows.
  const Standing* rk4 = find(a.contrasts, "rk4");
  REQUIRE(rk4);
  CHECK(rk4->failed_somewhere);
  CHECK(rk4->per_case[1].why == "unstable from t = 349.9 s");
  CHECK(rk4->per_case[0].why.find("energy grows faster than linearly over 1000 s") != std::string::npos);
  const Standing* cheap = find(a.contrasts, "cheap");
  REQUIRE(cheap);
  CHECK(cheap->per_case[1].verdict == LongRunVerdict::Grows);
}

TEST_CASE("the longest horizon measured decides a law, and a regime change is judged after it", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("c", "a", 1.0, "too_short"), run("c", "b", 1.0, "regime_change"), run("c", "d", 2.0, "regime_change")};
  data.runs[0].t_end = 20.0;
  data.laws[{"c", "a", "energy"}] = {"bounded", "long run", 1000.0, 1e-6};
  data.laws[{"c", "b", "energy"}] = {"regime_change", "full run", 1000.0, 1e-6, 244.0, 487.0, 13.0, "bounded"};
  data.laws[{"c", "d", "energy"}] = {"regime_change", "full run", 1000.0, 1e-6, 244.0, 487.0, 13.0, "too_short"};
  const auto ja = judge_long_run(data, data.runs[0]);
  CHECK(ja.verdict == LongRunVerdict::Holds);
  CHECK(ja.law_t_end == 1000.0);
  const auto jb = judge_long_run(data, data.runs[1]);
  CHECK(jb.verdict == LongRunVerdict::Holds);
  CHECK(jb.why.find("bounded after a 13-fold rise between 244 s and 487 s") != std::string::npos);
  const auto jd = judge_long_run(data, data.runs[2]);
  CHECK(jd.verdict == LongRunVerdict::Open);
  CHECK(jd.why.find("then too short for a law") != std::string::npos);
}

TEST_CASE("round-off or boundedness where theory predicts drift is no advice: drift below detection", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("c", "explicit", 1.0, "round_off"), run("c", "vi", 3.0, "bounded")};
  data.runs[0].energy_theory = "linear";  // a non-symplectic method: theory predicts drift
  const auto j = judge_long_run(data, data.runs[0]);
  CHECK(j.verdict == LongRunVerdict::Open);
  CHECK(j.why.find("energy at round-off (theory predicts at most linear growth for this method: drift below detection here)") !=
        std::string::npos);
  const ModelAdvice a = advise(data, "m", {{"c", true}});
  REQUIRE(a.recommended.size() == 1);
  CHECK(a.recommended[0].label == "vi");
}

TEST_CASE("an integrator bounded on some cases only is the closest, not advised", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("single", "vi", 3.0, "bounded"), run("coop", "vi", 4.0, "regime_change"),
               run("single", "rk4", 2.5, "faster"), run("coop", "rk4", 2.5, "linear")};
  const ModelAdvice a = advise(data, "m", {{"single", true}, {"coop", true}});
  CHECK(a.recommended.empty());
  REQUIRE(a.partial.size() == 1);
  CHECK(a.partial[0].label == "vi");
  CHECK(a.inconclusive_why == "no method is shown bounded on every case; bounded on 1 of 2 (the others: see below)");
}

TEST_CASE("a model no method is predicted to keep the energy of is undecided, and says why", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("damped", "vi", 1.0, "too_short")};
  data.runs[0].energy_theory = "linear";
  const ModelAdvice a = advise(data, "m", {{"damped", true}});
  CHECK(a.recommended.empty());
  CHECK(a.inconclusive_why.find("no method's energy balance is predicted bounded on this model") != std::string::npos);
}

TEST_CASE("nothing is advised where no law is decided, and the page says why", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("c", "a", 1.0, "too_short", "too_short"), run("c", "b", 2.0, "inconclusive", "round_off")};
  const ModelAdvice a = advise(data, "m", {{"c", true}});
  CHECK(a.recommended.empty());
  CHECK(a.inconclusive_why.find("too short for a law") != std::string::npos);
  CHECK(a.inconclusive_why.find("inconclusive") != std::string::npos);
}

TEST_CASE("a case restricted to a paper's integrators is left out of the advice", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("full", "vi", 3.0, "bounded"), run("paper", "rk45", 1.0, "bounded"), run("full", "rk45", 9.0, "linear")};
  const ModelAdvice a = advise(data, "m", {{"full", true}, {"paper", false}});
  REQUIRE(a.cases == std::vector<std::string>{"full"});
  REQUIRE(a.recommended.size() == 1);
  CHECK(a.recommended[0].label == "vi");
}

TEST_CASE("the step margin h/h_max of an advised run is its caveat", "[report_index][advice]") {
  ReportData data;
  data.runs = {run("c", "vi", 3.0, "bounded")};
  data.step_limits[{"c", "vi"}] = {1e-3, 1.044e-3, 10.0, "bracketed", "solver failure"};
  const ModelAdvice a = advise(data, "m", {{"c", true}});
  REQUIRE(a.recommended.size() == 1);
  CHECK(a.recommended[0].worst_step_margin == Approx(1e-3 / 1.044e-3));
  CHECK(a.recommended[0].worst_step_limit == "solver failure");
}

TEST_CASE("the page answers first, lists only the runs a case runs, and drops columns that hold no result",
          "[report_index][page]") {
  ReportData data;
  data.runs = {run("c", "vi", 3.0, "bounded"), run("c", "rk4", 2.9, "faster", "round_off", 3.6e-2), failed("c", "rk2")};
  RunRecord declined = run("c", "rattle", 0.0, "");
  declined.status = "n/a: the model offers no constrained form";
  declined.ok = false;
  declined.not_applicable = true;
  data.runs.push_back(declined);
  Case c;
  c.name = "c";
  c.model_name = "m";
  c.description = "a case";
  c.h = 1e-3;
  const std::string page = index_markdown(data, {c});
  // The answer within the first lines: the table of advice opens the page.
  const size_t advice = page.find("## Which integrator?");
  REQUIRE(advice != std::string::npos);
  CHECK(std::count(page.begin(), page.begin() + long(advice), '\n') < 6);
  CHECK(page.find("| m | **vi** (bounded); vi: max ΔE 1e-06 J, 3 s |") != std::string::npos);
  CHECK(page.find("**vi**: energy bounded, momentum at round-off over 1000 s; max ΔE 1e-06 J, max Δπ 1e-15 N m s, "
                  "max ΔP 1e-12 N s over the case's 1000 s in 3 s.") != std::string::npos);
  CHECK(page.find("not rk4 (grows or fails): energy grows faster than linearly over 1000 s") != std::string::npos);
  // The case table: the declined run is named once below it, not as a row of n/a cells.
  // (the coverage matrix above the cases names every integrator as a column: look below it)
  const size_t cases_at = page.find("## Cases");
  REQUIRE(cases_at != std::string::npos);
  CHECK(page.find("\n| rattle |", cases_at) == std::string::npos);
  CHECK(page.find("| c | vi | rk4 | rattle |") == std::string::npos);
  CHECK(page.find("Not run: rattle — the model offers no constrained form.") != std::string::npos);
  // constraint: integrated by no run; orthogonality: exactly 0 in every run: neither is a column.
  CHECK(page.find("| max constraint err") == std::string::npos);
  CHECK(page.find("max ‖I − RᵀR‖ |") == std::string::npos);
  CHECK(page.find("Not shown, no run of this case integrates them: max constraint err (no constraint).") != std::string::npos);
  CHECK(page.find("Not shown: max ‖I − RᵀR‖ — exactly 0 in every run that completed") != std::string::npos);
  // The metrics shown carry the registry's units, the growth law beside the error it belongs to.
  CHECK(page.find("| run | status | runtime s | max ΔE (J) (law) | max Δπ (N m s) (law) | max ΔP (N s) | h/h_max |") ==
        std::string::npos);  // no stability map here: no h/h_max column
  CHECK(page.find("| run | status | runtime s | max ΔE (J) (law) | max Δπ (N m s) (law) | max ΔP (N s) |") != std::string::npos);
  // A run that went unstable shows its onset and no number.
  CHECK(page.find("| rk2 | unstable from t = 349.9 s | – | – |") != std::string::npos);
  // With a stability map over a shorter horizon than the run's, the failed run's h/h_max says so.
  data.step_limits[{"c", "rk2"}] = {1e-3, 1.2e-2, 123.4, "bracketed", "instability"};
  const std::string mapped = index_markdown(data, {c});
  CHECK(mapped.find("| 0.083 (h_max over 123 s; not over 1000 s) |") != std::string::npos);
}

TEST_CASE("the fastest at matched accuracy is shown with what it does over the case's whole horizon", "[report_index][page]") {
  ReportData data;
  data.runs = {run("c", "vi", 3.0, "bounded"), failed("c", "rk4")};
  RankingRecord ranking;
  ranking.case_name = "c";
  ranking.work = "runtime";
  ranking.ranking = "rk4 < vi";
  ranking.horizon_s = 10.0;
  ranking.matched_error = 0.0265;
  ranking.work_of_each = {0.026, 0.041};
  data.rankings = {ranking};
  Case c;
  c.name = "c";
  c.model_name = "m";
  c.h = 1e-3;
  const std::string page = index_markdown(data, {c});
  CHECK(page.find("rk4 (c, over 10 s at error 0.0265; over 1000 s: unstable from t = 349.9 s)") != std::string::npos);
}

TEST_CASE("the index links only figures that were drawn, and states the omitted ones once", "[report_index][page]") {
  ScratchDir dir;
  std::ofstream(dir.path() / "summary.csv")
      << "case,integrator,discretisation,h,rtol,t_end,status,runtime_s,not_integrated,energy_growth_law,momentum_growth_law,"
         "energy_growth_theory,momentum_growth_theory,"
         "energy_err_max,energy_err_rel_ke,energy_drift_rate,momentum_err_max,constraint_err_max,linear_momentum_err_max,"
         "orthogonality_err_max,steps,rhs_evals\n"
         "c,vi,,0.001,,10,ok,1.5,constraint_err_max,bounded,round_off,bounded,round_off,1e-6,1e-6,0,1e-15,,1e-12,1e-15,10000,10000\n";
  std::ofstream(dir.path() / "figures.csv") << "file,case,section,caption\n"
                                              "figures/c_energy.png,c,energy,Energy error.\n"
                                              "figures/c_missing.png,c,momentum,Never drawn.\n";
  std::ofstream(dir.path() / "figures_omitted.csv") << "case,section,reason\nc,orthogonality,identically zero for every run\n";
  std::filesystem::create_directories(dir.path() / "figures");
  std::ofstream(dir.path() / "figures/c_energy.png") << "png";
  Case c;
  c.name = "c";
  c.model_name = "m";
  c.h = 1e-3;
  write_index(dir.path().string(), {c});
  std::ifstream in(dir.path() / "index.md");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(page.find("](figures/c_energy.png)") != std::string::npos);
  CHECK(page.find("c_missing.png") == std::string::npos);
  CHECK(page.find("No figure of orthogonality (identically zero for every run) (figures_omitted.csv).") != std::string::npos);
}

TEST_CASE("a report table of another layout is refused with its file and column", "[report_index][input]") {
  ScratchDir dir;
  std::ofstream(dir.path() / "summary.csv") << "case,integrator\nc,vi\n";
  CHECK_THROWS_WITH(read_report_data(dir.path().string()),
                    Catch::Contains("summary.csv: no column 'discretisation'"));
}
