// The worked examples of examples/ (integrators, a model and a study a researcher keeps in their
// own repository and loads with --plugin), compiled here into the suite's catalogue as the
// in-tree path would: they must do what the README and docs/plugins.md say (rk3: order 3; the
// chain's lowest normal mode; bs23: its error follows the tolerance, its steps as tol^(-1/3);
// symplectic_euler: order 1, bounded energy, declining constrained forms; observed_order: the
// declared orders).
// tests/install_examples.sh builds the same files out of tree against an installation.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/input/integrator_selection.hpp"
#include "app/input/limits.hpp"
#include "app/running/reference.hpp"
#include "app/running/runner.hpp"
#include "app/running/job_result.hpp"
#include "examples/integrator_bs23/bs23.hpp"
#include "examples/integrator_rk3/rk3.hpp"
#include "examples/integrator_symplectic_euler/symplectic_euler.hpp"
#include "examples/model_spring_chain/model.hpp"
#include "examples/study_observed_order/observed_order.hpp"
#include "app/common/csv_table.hpp"
#include "app/writing/figure_plan.hpp"
#include "numerics/convergence.hpp"
#include "suite/catalogue.hpp"
#include "tests/temp_file.hpp"

using namespace tb;

namespace {

const Catalogue& extended_catalogue() {
  static const Catalogue catalogue = [] {
    Catalogue c = suite_catalogue();
    // A contributor who has added these to the suite itself (the in-tree path): the examples'
    // copy takes their place, so what is tested is the example.
    auto without = [](auto& list, const std::string& name) {
      list.erase(std::remove_if(list.begin(), list.end(), [&](const auto& i) { return i.name == name; }), list.end());
    };
    for (const char* name : {"rk3", "bs23", "symplectic_euler"}) without(c.integrators, name);
    without(c.models, "spring_chain");
    without(c.studies, "observed_order");
    c.integrators.push_back(my_methods::rk3_info());
    c.integrators.push_back(my_methods::bs23_info());
    c.integrators.push_back(my_methods::symplectic_euler_info());
    c.models.push_back(my_models::spring_chain::info());
    c.studies.push_back(my_studies::observed_order_info());
    auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
    std::sort(c.integrators.begin(), c.integrators.end(), by_name);
    std::sort(c.models.begin(), c.models.end(), by_name);
    std::sort(c.studies.begin(), c.studies.end(), by_name);
    c.validate();
    return c;
  }();
  return catalogue;
}

const std::string kExamples = TETHERBENCH_EXAMPLES;
const std::string kCases = TETHERBENCH_CASES;

// A run to t_end; observed (metrics) on the case's grid, or only its final state.
Measurement run(const Case& c, const IntegratorInfo& info, IntegratorSettings s, double t_end, bool observe = false) {
  MeasureOptions m;
  m.t_end = t_end;
  m.sample_interval = observe ? c.sample_interval : t_end;
  m.observe = observe;
  return measure({RunKey{&c, &info, c.model->default_discretisation()}, s, m});
}

}  // namespace

TEST_CASE("example: the integrator and the model join the catalogue and load the example's case files",
          "[examples]") {
  const Catalogue& c = extended_catalogue();
  REQUIRE(c.find_integrator("rk3"));
  REQUIRE(c.find_model("spring_chain"));
  const Case chain = load_case(kExamples + "/model_spring_chain/cases/T_spring_chain.toml", c);
  const Case fixture = load_case(kExamples + "/model_spring_chain/fixture_spring_chain.toml", c);
  CHECK(chain.model_name == "spring_chain");
  CHECK(fixture.model_name == "spring_chain");
  // rk3 runs the chain; the Lie group and DAE integrators are n/a with the model's reasons.
  CHECK_FALSE(why_not_applicable(chain, *c.find_integrator("rk3"), ""));
  const auto lgvi_why = why_not_applicable(chain, *c.find_integrator("lgvi"), "");
  REQUIRE(lgvi_why);
  CHECK(lgvi_why->rfind("spring_chain offers no discrete-lie-group form: no discrete Lagrangian", 0) == 0);
}

TEST_CASE("example: rk3 converges at order 3 on the spring chain and keeps its lowest mode", "[examples]") {
  const Catalogue& c = extended_catalogue();
  const Case chain = load_case(kExamples + "/model_spring_chain/cases/T_spring_chain.toml", c);
  const IntegratorInfo& rk3 = *c.find_integrator("rk3");
  const double T = 2.0;
  const Eigen::VectorXd reference = compute_reference(c.reference(), *chain.model, "", T, 1e-3).physical;
  std::vector<double> hs, errors;
  for (double h : {2e-2, 1e-2, 5e-3, 2.5e-3}) {
    IntegratorSettings s = chain.settings_for("rk3");
    s.h = h;
    MeasureOptions m;
    m.t_end = m.sample_interval = T;
    const Measurement run = measure({RunKey{&chain, &rk3, ""}, s, m});
    REQUIRE(run.outcome.ok());
    hs.push_back(h);
    errors.push_back((run.final_physical - reference).lpNorm<Eigen::Infinity>());
  }
  const double order = fitted_order(hs, errors);
  INFO("measured order " << order << ", errors " << errors.front() << " .. " << errors.back());
  CHECK(std::abs(order - 3.0) < 0.25);
  // The lowest normal mode: x_1(t) = A sin(pi / (N + 1)) cos(omega_1 t),
  // omega_1 = 2 sqrt(k / m) sin(pi / (2 (N + 1))), with the case's N = 8, k = 20, m = 0.5, A = 0.1.
  const double omega = 2.0 * std::sqrt(20.0 / 0.5) * std::sin(M_PI / 18.0);
  const double x1 = 0.1 * std::sin(M_PI / 9.0) * std::cos(omega * T);
  CHECK(std::abs(reference(0) - x1) < 1e-9);
}

TEST_CASE("example: bs23, an adaptive method - its error follows the tolerance and its steps grow as tol^(-1/3)",
          "[examples]") {
  const Catalogue& c = extended_catalogue();
  const Case chain = load_case(kExamples + "/model_spring_chain/cases/T_spring_chain.toml", c);
  const IntegratorInfo& bs23 = *c.find_integrator("bs23");
  CHECK(bs23.adaptive);
  const double T = 2.0;
  const Eigen::VectorXd reference = compute_reference(c.reference(), *chain.model, "", T, 1e-3).physical;
  std::vector<double> tols = {1e-5, 1e-7, 1e-9}, errors, steps;
  for (double tol : tols) {
    IntegratorSettings s = chain.settings_for("bs23");
    s.set_tolerances({tol, tol * 1e-2});
    const Measurement r = run(chain, bs23, s, T);
    REQUIRE(r.outcome.ok());
    CHECK(r.t_final == T);  // landed on the end time, not past it
    errors.push_back((r.final_physical - reference).lpNorm<Eigen::Infinity>());
    steps.push_back(double(r.counters.steps));
  }
  const double error_slope = fitted_order(tols, errors), step_slope = fitted_order(tols, steps);
  std::printf("bs23 on the spring chain: errors %.3g, %.3g, %.3g at rtol 1e-5, 1e-7, 1e-9 (slope %.3f); steps %g, %g, %g "
              "(slope %.3f, third order: -1/3)\n",
              errors[0], errors[1], errors[2], error_slope, steps[0], steps[1], steps[2], step_slope);
  INFO("errors " << errors[0] << ", " << errors[1] << ", " << errors[2] << "; steps " << steps[0] << ", " << steps[1] << ", "
                 << steps[2] << "; slopes " << error_slope << ", " << step_slope);
  // Error per step controlled to tol with a third-order step: the global error follows tol (a
  // slope near 1) and the number of steps grows as tol^(-1/3).
  CHECK(error_slope > 0.7);
  CHECK(error_slope < 1.3);
  CHECK(errors.back() < 1e-7);
  CHECK(std::abs(step_slope + 1.0 / 3.0) < 0.06);
  // Its dense output on a grid finer than its steps: the observed run is the same run (same steps).
  IntegratorSettings s = chain.settings_for("bs23");
  MeasureOptions fine;
  fine.t_end = T;
  fine.sample_interval = T / 400;
  const Measurement sampled = measure({RunKey{&chain, &bs23, ""}, s, fine});
  REQUIRE(sampled.outcome.ok());
  CHECK(sampled.counters.steps == run(chain, bs23, s, T).counters.steps);
  CHECK(sampled.counters.steps < 400);  // so the grid is served by interpolation
}

TEST_CASE("example: symplectic_euler, a partitioned method on the constrained-mechanical form - order 1, bounded "
          "energy, constrained forms declined",
          "[examples]") {
  const Catalogue& c = extended_catalogue();
  const IntegratorInfo& se = *c.find_integrator("symplectic_euler");
  CHECK(se.consumes == FormulationKind::ConstrainedMechanical);
  const Case elastic = load_case(kCases + "/T_elastic_pendulum.toml", c);
  REQUIRE_FALSE(why_not_applicable(elastic, se, ""));
  const double T = 1.0;
  const Eigen::VectorXd reference = compute_reference(c.reference(), *elastic.model, "", T, 1e-3).physical;
  std::vector<double> hs, errors;
  for (double h : {2e-3, 1e-3, 5e-4, 2.5e-4}) {
    IntegratorSettings s = elastic.settings_for("symplectic_euler");
    s.h = h;
    const Measurement r = run(elastic, se, s, T);
    REQUIRE(r.outcome.ok());
    hs.push_back(h);
    errors.push_back((r.final_physical - reference).lpNorm<Eigen::Infinity>());
  }
  const double order = fitted_order(hs, errors);
  INFO("measured order " << order << ", errors " << errors.front() << " .. " << errors.back());
  std::printf("symplectic_euler on the elastic pendulum: order %.3f (errors %.3g .. %.3g)\n", order, errors.front(), errors.back());
  CHECK(std::abs(order - 1.0) < 0.25);
  // Symplectic: a modified energy is conserved, so the energy error reaches its bound within the
  // first periods and stays there (measured: 5.59e-4 J over 2.5 s, 5.62e-4 J over 40 s); a
  // non-symplectic first-order method's error would grow linearly, 16 times over that span.
  IntegratorSettings s = elastic.settings_for("symplectic_euler");
  const Measurement short_run = run(elastic, se, s, elastic.t_end / 8, true);
  const Measurement long_run = run(elastic, se, s, 2 * elastic.t_end, true);
  INFO(long_run.outcome.describe() << "; max |dE| over " << elastic.t_end / 8 << " s: " << short_run.metrics.energy_err_max
                                   << " J, over " << 2 * elastic.t_end << " s: " << long_run.metrics.energy_err_max << " J");
  REQUIRE(short_run.outcome.ok());
  REQUIRE(long_run.outcome.ok());
  std::printf("symplectic_euler max |dE| over %g s: %.3g J, over %g s: %.3g J\n", elastic.t_end / 8,
              short_run.metrics.energy_err_max, 2 * elastic.t_end, long_run.metrics.energy_err_max);
  CHECK(long_run.metrics.energy_err_max < 1.5 * short_run.metrics.energy_err_max);
  // A constrained form (the planar pendulum's rod) is declined, with the method's reason.
  const Case planar = load_case(kCases + "/T_planar_pendulum_60deg.toml", c);
  const auto why = why_not_applicable(planar, se, "");
  REQUIRE(why);
  CHECK(why->find("without constraints; this form has 1") != std::string::npos);
}

TEST_CASE("example: the observed_order study - self-convergence of three final states, the declared orders",
          "[examples]") {
  // The formula on exact data: differences C (h^p - (h/2)^p) and C ((h/2)^p - (h/4)^p).
  Eigen::VectorXd a(2), b(2), d(2);
  for (double p : {1.0, 2.0, 3.0, 4.0}) {
    a << 3.0 * std::pow(0.1, p), 1.0;
    b << 3.0 * std::pow(0.05, p), 1.0;
    d << 3.0 * std::pow(0.025, p), 1.0;
    CHECK(my_studies::observed_order(a, b, d) == Approx(p).epsilon(1e-12));
  }
  // On the planar pendulum, through the study's own jobs and CSV.
  const Catalogue& c = extended_catalogue();
  const std::vector<Case> cases = {load_case(kCases + "/T_planar_pendulum_60deg.toml", c)};
  const StudyInfo& info = *c.find_study("observed_order");
  auto study = info.make();
  StudyContext context;
  context.catalogue = &c;
  context.cases = &cases;
  context.out_dir = (std::filesystem::temp_directory_path() / "tetherbench_observed_order_test").string();
  std::filesystem::create_directories(context.out_dir);
  for (auto& job : study->plan(context)) job.apply(job.run());
  const auto written = study->write(context);
  REQUIRE(written.size() == 1);
  std::ifstream in(written.front());
  std::string line;
  std::getline(in, line);
  CHECK(line == "case,integrator,declared_order,h,observed_order,status");
  int rows = 0;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::string case_name, integrator, declared, h, observed;
    std::getline(cells, case_name, ',');
    std::getline(cells, integrator, ',');
    std::getline(cells, declared, ',');
    std::getline(cells, h, ',');
    std::getline(cells, observed, ',');
    INFO(line);
    REQUIRE_FALSE(observed.empty());
    // Within the flag rule of orders.csv: no more than 0.5 from the declared order.
    CHECK(std::abs(std::stod(observed) - std::stod(declared)) <= 0.5);
    ++rows;
  }
  // Every fixed-step integrator that runs the case, the example rk3 among them.
  int expected = 0;
  for (const auto& i : c.integrators)
    if (!i.adaptive && !why_not_applicable(cases.front(), i, "")) ++expected;
  CHECK(rows == expected);
  CHECK(rows >= 3);
  // Its own figure, planned by the report's figure plan from the study's StudyInfo::figures: the
  // case's one figure, a series per integrator in the report's colours, and the diagonal.
  std::ofstream(std::filesystem::path(context.out_dir) / "summary.csv")
      << "case,integrator,discretisation,status,not_integrated\nT_planar_pendulum_60deg,rk4,,ok,\n";
  write_figure_plan(context.out_dir, c);
  const std::string figure_file = "figures/T_planar_pendulum_60deg_observed_order.png";
  int figures = 0, series = 0, diagonals = 0;
  for (const auto& row : read_csv_table(context.out_dir + "/figures.csv").rows)
    if (row.at("file") == figure_file) {
      ++figures;
      CHECK(row.at("section") == "observed_order");
      CHECK(row.at("case") == "T_planar_pendulum_60deg");
      CHECK_THAT(row.at("caption"), Catch::Matchers::Contains(std::to_string(rows) + " integrators"));
    }
  for (const auto& row : read_csv_table(context.out_dir + "/figure_series.csv").rows) {
    if (row.at("file") != figure_file) continue;
    if (row.at("kind") == "fit") ++diagonals;
    else {
      ++series;
      CHECK(row.at("data") == "observed_order.csv");
      CHECK(row.at("colour").size() == 7);  // "#rrggbb": the integrator's style, as in every figure
    }
  }
  CHECK(figures == 1);
  CHECK(series == rows);
  CHECK(diagonals == 1);
  std::filesystem::remove_all(context.out_dir);
}

TEST_CASE("example: the observed_order study reads its own [report.observed_order] table when the case is loaded",
          "[examples]") {
  // A plugin study's table of the case file: read and checked by the study, kept by the case,
  // and refused as an unknown key by a catalogue without the study.
  std::ifstream in(kCases + "/T_planar_pendulum_60deg.toml");
  std::stringstream text;
  text << in.rdbuf();
  auto with_table = [&](const std::string& table) {
    return std::make_unique<tb::testing::TempFile>("observed_order_table", text.str() + "\n[report.observed_order]\n" + table);
  };
  const Catalogue& c = extended_catalogue();
  {
    const auto file = with_table("h = 0.02\nt_end = 0.5\n");
    const std::vector<Case> cases = {load_case(file->path.string(), c)};
    REQUIRE(cases.front().sections.count("observed_order") == 1);
    auto study = c.find_study("observed_order")->make();
    StudyContext context;
    context.catalogue = &c;
    context.cases = &cases;
    const auto jobs = study->plan(context);
    REQUIRE(jobs.size() >= 3);
    // Three steps per integrator, from the table's h, over its t_end (the job's expected cost: t_end / h).
    CHECK(jobs[0].label.find("h = 0.02") != std::string::npos);
    CHECK(jobs[1].label.find("h = 0.01") != std::string::npos);
    CHECK(jobs[2].label.find("h = 0.005") != std::string::npos);
    CHECK(jobs[0].expected_cost == Approx(0.5 / 0.02));
  }
  CHECK_THROWS_WITH(load_case(with_table("h = 0.2\nt_end = 0.5\n")->path.string(), c),
                    Catch::Matchers::Contains("'report.observed_order.h'") && Catch::Matchers::Contains("t_end / 4 = 0.125"));
  CHECK_THROWS_WITH(load_case(with_table("h = -1\n")->path.string(), c),
                    Catch::Matchers::Contains("'report.observed_order.h'"));
  CHECK_THROWS_WITH(load_case(with_table("t_end = 1e6\n")->path.string(), c),
                    Catch::Matchers::Contains("'report.observed_order.t_end'") && Catch::Matchers::Contains("the case's t_end"));
  CHECK_THROWS_WITH(load_case(with_table("steps = 3\n")->path.string(), c),
                    Catch::Matchers::Contains("unknown key 'report.observed_order.steps'"));
  // Without the plugin's study, the table is an unknown key of [report].
  CHECK_THROWS_WITH(load_case(with_table("h = 0.02\n")->path.string(), suite_catalogue()),
                    Catch::Matchers::Contains("unknown key 'report.observed_order'"));
  // Its finest runs (h/4 over t_end) are held to --max-steps: 10 s at 4e-6/4 is 1e7 steps, ten
  // times the case's longest other run (its long-time study's 1e6 steps).
  {
    const Case small_steps = load_case(with_table("h = 4.0e-6\nt_end = 10.0\n")->path.string(), c);
    RunLimits limits;
    limits.max_steps = 5e6;
    CHECK_THROWS_WITH(check_limits(small_steps, limits), Catch::Matchers::Contains("report.observed_order.h"));
    limits.max_steps = 1e9;
    CHECK_NOTHROW(check_limits(small_steps, limits));
  }
  // A narrower --integrator selection keeps the table whole (its h and t_end serve every run).
  {
    const std::vector<Case> cases = {load_case(with_table("h = 0.02\n")->path.string(), c)};
    std::string one;  // the first integrator of the catalogue that runs the case
    for (const auto& i : c.integrators)
      if (one.empty() && !why_not_applicable(cases.front(), i, "")) one = i.name;
    REQUIRE_FALSE(one.empty());
    const auto kept = selected_cases(cases, selected_catalogue(c, {one}), {});
    REQUIRE(kept.front().sections.count("observed_order") == 1);
    CHECK(kept.front().sections.at("observed_order") == cases.front().sections.at("observed_order"));
  }
}

TEST_CASE("example: a study whose table reader throws, or returns nothing, is named with the case file and table",
          "[examples]") {
  std::ifstream in(kCases + "/T_planar_pendulum_60deg.toml");
  std::stringstream text;
  text << in.rdbuf();
  const tb::testing::TempFile file("observed_order_faulty", text.str() + "\n[report.observed_order]\nh = 0.02\n");
  auto with_reader = [](auto reader) {
    Catalogue c = extended_catalogue();
    for (auto& s : c.studies)
      if (s.name == "observed_order") s.read_section = reader;
    return c;
  };
  const Catalogue throwing = with_reader([](TableReader&, const SectionInputs&) -> std::shared_ptr<const StudySection> {
    throw std::runtime_error("the study's own fault");
  });
  CHECK_THROWS_WITH(load_case(file.path.string(), throwing),
                    Catch::Matchers::Contains(file.path.string() + ": [report.observed_order]: the study 'observed_order'") &&
                        Catch::Matchers::Contains("failed to read its table: the study's own fault"));
  const Catalogue empty = with_reader([](TableReader&, const SectionInputs&) { return std::shared_ptr<const StudySection>(); });
  CHECK_THROWS_WITH(load_case(file.path.string(), empty), Catch::Matchers::Contains("returned no section"));
}

TEST_CASE("example: a study may not take a key of [report] as its name", "[examples]") {
  for (const std::string& key : report_own_keys()) {
    Catalogue c = extended_catalogue();
    StudyInfo renamed = *c.find_study("observed_order");
    renamed.name = key;
    c.studies.push_back(renamed);
    std::sort(c.studies.begin(), c.studies.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    INFO(key);
    CHECK_THROWS_WITH(c.validate(), Catch::Matchers::Contains("named like a key of [report]"));
  }
}
