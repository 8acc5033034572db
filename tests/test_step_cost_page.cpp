// The benchmarks' page (app/writing/step_cost_page.hpp) and the JSON it reads (app/common/json.hpp):
// Google Benchmark output read exactly (medians over repetitions, time units, counters, errors,
// aggregates left out), merged parts written back digit for digit, cost exponents fitted on
// power laws with known exponents and judged by the page's rule (yes, no, inconclusive), and the
// comparisons the catalogue declares computed and flagged from numbers set up to cross each bound.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/common/json.hpp"
#include "app/writing/step_cost_page.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "tests/temp_file.hpp"
#include "tests/test_support.hpp"

namespace fs = std::filesystem;
using namespace tb;

namespace {

std::string page_file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::string& text) {
  try {
    parse_json(text, "part.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// One Google Benchmark entry of step/<model>/<integrator>/N:<n> (or mass_solve when model is "").
std::string entry(const std::string& model, const std::string& integrator, long n, double cpu_ns, double rhs = -1,
                  double newton = -1, const std::string& extra = "") {
  const std::string name =
      model.empty() ? "mass_solve/N:" + std::to_string(n) : "step/" + model + "/" + integrator + "/N:" + std::to_string(n);
  std::ostringstream e;
  e.precision(17);
  e << "{\"name\": \"" << name << "\", \"run_name\": \"" << name << "\", \"run_type\": \"iteration\", \"cpu_time\": " << cpu_ns
    << ", \"real_time\": " << cpu_ns << ", \"time_unit\": \"ns\"";
  if (rhs >= 0) e << ", \"rhs_evals\": " << rhs;
  if (newton >= 0) e << ", \"newton_iters\": " << newton;
  e << extra << "}";
  return e.str();
}

std::string document(const std::vector<std::string>& entries, const std::string& context_extra = "") {
  std::string list;
  for (const auto& e : entries) list += (list.empty() ? "" : ",\n") + e;
  return "{\"context\": {\"date\": \"2026-11-30T00:00:00+00:00\", \"host_name\": \"h\", \"num_cpus\": 2, "
         "\"mhz_per_cpu\": 2600, \"cpu_scaling_enabled\": false, \"caches\": [{\"type\": \"Data\", \"level\": 1, "
         "\"size\": 49152}], \"load_avg\": [1.5, 2, 2.25], \"library_build_type\": \"release\", "
         "\"size_of_chain\": \"links n [dimensionless count]\"" +
         context_extra + "},\n\"benchmarks\": [" + list + "]}";
}

const std::vector<long> kSizes = {10, 20, 50, 100, 200, 500, 1000, 2000, 5000};

}  // namespace

TEST_CASE("JSON is read as written and written back digit for digit, and a malformed document names its line and column",
          "[step_cost]") {
  const std::string text =
      "{\"a\": [1, -2.5e-3, 0.1000, NaN, -Infinity, true, false, null],\n \"s\": \"q\\\"\\\\\\/\\n\\u00e9\\ud83d\\ude00\","
      " \"o\": {}, \"e\": []}";
  const JsonValue v = parse_json(text, "x.json");
  REQUIRE(v.is(JsonValue::Kind::object));
  const JsonValue& a = *v.find("a");
  REQUIRE(a.items.size() == 8);
  CHECK(a.items[1].number() == -2.5e-3);
  CHECK(a.items[2].text == "0.1000");  // the text as written, trailing zeros kept
  CHECK(std::isnan(a.items[3].number()));
  CHECK(a.items[4].number() == -HUGE_VAL);
  CHECK(a.items[5].boolean);
  CHECK_FALSE(a.items[6].boolean);
  CHECK(a.items[7].is(JsonValue::Kind::null));
  CHECK(v.find("s")->text == "q\"\\/\n\xC3\xA9\xF0\x9F\x98\x80");  // é and U+1F600 from a surrogate pair, in UTF-8
  CHECK(v.find("missing") == nullptr);
  // Written and read again: the same tree, and the same text a second time round.
  const std::string once = to_json(v);
  CHECK(to_json(parse_json(once, "again")) == once);
  CHECK(once.find("0.1000") != std::string::npos);
  CHECK(once.find("-Infinity") != std::string::npos);

  CHECK(error_of("{\"a\": 1,}") == "part.json: line 1, column 9: expected a member name in double quotes");
  CHECK(error_of("{\"a\" 1}") == "part.json: line 1, column 6: expected ':' after the member name \"a\"");
  CHECK(error_of("[1,\n 2") == "part.json: line 2, column 3: expected ',' or ']' in an array");
  CHECK(error_of("\"abc") == "part.json: line 1, column 5: expected '\"' closing the string");
  CHECK(error_of("\"a\\x\"") == "part.json: line 1, column 4: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
  CHECK(error_of("\"\\ud83d\"") == "part.json: line 1, column 8: expected the low half of a surrogate pair (\\uDC00-\\uDFFF)");
  CHECK(error_of("1.") == "part.json: line 1, column 3: expected a digit after the decimal point");
  CHECK(error_of("01") == "part.json: line 1, column 2: expected the end of the document");
  CHECK(error_of("{} x") == "part.json: line 1, column 4: expected the end of the document");
  CHECK(error_of("nul") == "part.json: line 1, column 1: expected a value (a number, a string, true, false, null, an array or an object)");
  CHECK(error_of(std::string(300, '[') + std::string(300, ']')).find("levels of nesting") != std::string::npos);
  CHECK(error_of("") == "part.json: line 1, column 1: expected a value");
}

TEST_CASE("benchmark rows: the median over repetitions in ns, counters, errors and aggregates as Google Benchmark writes them",
          "[step_cost]") {
  const std::string doc = document({
      entry("chain", "m", 100, 10.0, 2, 1), entry("chain", "m", 100, 30.0, 4, 1), entry("chain", "m", 100, 20.0, 3, 1),
      // An aggregate of those repetitions: left out (the median is taken here).
      "{\"name\": \"step/chain/m/N:100_mean\", \"run_name\": \"step/chain/m/N:100\", \"run_type\": \"aggregate\", "
      "\"cpu_time\": 1e9, \"time_unit\": \"ns\"}",
      // Microseconds, and two repetitions: the mean of the middle two.
      "{\"name\": \"mass_solve/N:50\", \"run_type\": \"iteration\", \"cpu_time\": 1.5, \"time_unit\": \"us\"}",
      "{\"name\": \"mass_solve/N:50\", \"run_type\": \"iteration\", \"cpu_time\": 2.5, \"time_unit\": \"us\"}",
      "{\"name\": \"step/chain/m/N:200\", \"run_type\": \"iteration\", \"error_occurred\": true, \"error_message\": \"diverged\", "
      "\"cpu_time\": 0, \"time_unit\": \"ns\"}",
      "{\"name\": \"other/thing\", \"run_type\": \"iteration\", \"cpu_time\": 5, \"time_unit\": \"ns\"}",
  });
  const StepCosts costs = read_step_costs(parse_json(doc, "doc"));
  REQUIRE(costs.rows.size() == 2);
  const StepCostRow& step = costs.rows[0];  // steps first, mass_solve last
  CHECK(step.model == "chain");
  CHECK(step.integrator == "m");
  CHECK(step.n == 100);
  CHECK(step.ns_per_step == 20.0);
  CHECK(*step.rhs_evals_per_step == 3.0);
  CHECK(*step.newton_iters_per_step == 1.0);
  CHECK(step.size == "links n [dimensionless count]");
  const StepCostRow& mass = costs.rows[1];
  CHECK(mass.is_mass_solve());
  CHECK(mass.ns_per_step == 2000.0);
  CHECK_FALSE(mass.rhs_evals_per_step);
  REQUIRE(costs.errors.size() == 1);
  CHECK(costs.errors.at("step/chain/m/N:200") == "diverged");

  const std::string bad_unit =
      document({"{\"name\": \"mass_solve/N:50\", \"run_type\": \"iteration\", \"cpu_time\": 1.5, \"time_unit\": \"h\"}"});
  CHECK_THROWS_WITH(read_step_costs(parse_json(bad_unit, "doc")),
                    "benchmark mass_solve/N:50: time_unit 'h': expected ns, us, ms or s");
}

TEST_CASE("cost exponents: exact on exact power laws, and judged O(N) yes, no or inconclusive by the page's rule", "[step_cost]") {
  std::vector<std::string> entries;
  for (long n : kSizes) {
    // Linear per evaluation, with evaluations per step growing like N^0.5 (a method's convergence,
    // not its algebra): p = 1.5 per step, p_eval = 1, O(N).
    const double evals = 2.0 * std::sqrt(double(n));
    entries.push_back(entry("chain", "linear", n, 7.0 * double(n) * evals, evals, 0));
    entries.push_back(entry("chain", "dense", n, 0.5 * double(n) * double(n), 4, 0));  // O(N^2): p_eval = 2
  }
  // Three points at slope 1.3 with scatter: an interval that reaches the band.
  entries.push_back(entry("chain", "noisy", 50, 50.0 * std::exp(0.3), 1, 0));
  entries.push_back(entry("chain", "noisy", 100, std::pow(100.0, 1.3) * std::pow(50.0, -0.3) * std::exp(-0.6), 1, 0));
  entries.push_back(entry("chain", "noisy", 200, std::pow(200.0, 1.3) * std::pow(50.0, -0.3) * std::exp(0.3), 1, 0));
  // Two points: no interval.
  entries.push_back(entry("chain", "two", 50, 50.0, 1, 0));
  entries.push_back(entry("chain", "two", 500, std::pow(500.0, 1.5) / std::sqrt(50.0), 1, 0));
  const StepCosts costs = read_step_costs(parse_json(document(entries), "doc"));
  std::map<std::string, StepCostGrowth> growth;
  for (const auto& g : step_cost_growth(costs)) growth[g.integrator] = g;

  const StepCostGrowth& linear = growth.at("linear");
  CHECK(linear.n_min == 50);  // below fit_min_n left out
  CHECK(linear.n_max == 5000);
  CHECK(linear.per_step.points == 7);
  CHECK(linear.per_step.p == Approx(1.5).margin(1e-12));
  CHECK(linear.per_evaluation->p == Approx(1.0).margin(1e-12));
  CHECK(linear.verdict == "yes");  // judged per evaluation, not per step
  CHECK(growth.at("dense").per_evaluation->p == Approx(2.0).margin(1e-12));
  CHECK(growth.at("dense").verdict == "**no — check**");
  CHECK(growth.at("noisy").per_step.p == Approx(1.3).margin(1e-3));
  CHECK(growth.at("noisy").verdict.rfind("inconclusive: the 95% interval [", 0) == 0);
  CHECK(growth.at("two").per_step.p == Approx(1.5).margin(1e-12));
  CHECK(growth.at("two").verdict == "inconclusive: 2 points, no interval to tell noise from growth");

  // The band's edges, judged on the interval alike on both sides: inside 1 +- linear_band, yes;
  // wholly outside, no; across an edge, inconclusive (also when the exponent itself is 1).
  PowerLawFit fit;
  fit.points = 7, fit.ci95 = 0.005;
  fit.p = 1.144;
  CHECK(linear_verdict(fit) == "yes");
  fit.p = 0.856;
  CHECK(linear_verdict(fit) == "yes");
  fit.p = 1.149;
  CHECK(linear_verdict(fit) == "inconclusive: the 95% interval [1.14, 1.15] crosses the band's edge");
  fit.p = 1.17, fit.ci95 = 0.01;
  CHECK(linear_verdict(fit) == "**no — check**");
  fit.p = 0.83;
  CHECK(linear_verdict(fit) == "**no — check**");
  fit.ci95 = 0.03;
  CHECK(linear_verdict(fit).rfind("inconclusive", 0) == 0);
  fit.p = 1.0, fit.ci95 = 0.2;
  CHECK(linear_verdict(fit).rfind("inconclusive", 0) == 0);
}

TEST_CASE("the page's comparisons: the catalogue's declared pairs, their ratios and the flags at each bound", "[step_cost]") {
  const StepCostComparisons& declared = testing::catalogue().step_cost;
  REQUIRE_FALSE(declared.ratios.empty());
  REQUIRE_FALSE(declared.same_equations.empty());
  for (const auto& name : declared.named()) CHECK(testing::catalogue().knows_integrator(name));
  const auto& ratio = declared.ratios.front();
  const auto& same = declared.same_equations.front();
  REQUIRE(same.pairs.size() >= 1);
  const auto& pair = same.pairs.front();

  std::vector<std::string> entries;
  // The ratio pair on one model: the method at 3 evaluations costs 600 ns, the baseline at 4 costs 400 ns.
  entries.push_back(entry("ratio_model", ratio.method, 100, 600.0, 3, 1));
  entries.push_back(entry("ratio_model", ratio.baseline, 100, 400.0, 4, 0));
  // The twins on the declared model: iterations at their bound per substep, the twin's the same,
  // and a cost ratio just under its bound at N = 100; both just above their bounds at N = 200.
  const double at_bound = same.max_iterations * pair.substeps;
  entries.push_back(entry(same.model, pair.method, 100, 100.0, at_bound, at_bound));
  entries.push_back(entry(same.model, pair.twin, 100, 100.0 / (same.max_cost_ratio * 0.99), at_bound, at_bound));
  entries.push_back(entry(same.model, pair.method, 200, 1000.0, at_bound * 1.01, at_bound * 1.01));
  entries.push_back(entry(same.model, pair.twin, 200, 1000.0 / (same.max_cost_ratio * 1.01), at_bound * 1.01, at_bound * 1.01));
  // The twin stopping after one evaluation: different Newton work, the cost not judged.
  entries.push_back(entry(same.model, pair.method, 300, 150.0, 2, 2));
  entries.push_back(entry(same.model, pair.twin, 300, 100.0, 1, 1));
  entries.push_back(entry(same.model, pair.method, 400, 100.0, 2, 2));
  entries.push_back(entry(same.model, pair.twin, 400, 100.0 * same.max_cost_ratio * 1.1, 2, 2));
  const StepCosts costs = read_step_costs(parse_json(document(entries), "doc"));

  CsvTable summary;
  summary.columns = {"case", "integrator", "status", "runtime_s", "newton_iters", "steps", "h", "t_end"};
  summary.rows = {{{"case", "A"}, {"integrator", ratio.method}, {"status", "ok"}, {"runtime_s", "3"}, {"newton_iters", "300"},
                   {"steps", "100"}, {"h", "0.001"}, {"t_end", "10"}},
                  {{"case", "A"}, {"integrator", ratio.baseline}, {"status", "ok"}, {"runtime_s", "2"}, {"newton_iters", "0"},
                   {"steps", "100"}, {"h", "0.001"}, {"t_end", "10"}},
                  {{"case", "B"}, {"integrator", ratio.method}, {"status", "ok"}, {"runtime_s", "3"}, {"newton_iters", "200"},
                   {"steps", "100"}, {"h", "0.001"}, {"t_end", "10"}},
                  {{"case", "B"}, {"integrator", ratio.baseline}, {"status", "ok"}, {"runtime_s", "2"}, {"newton_iters", "0"},
                   {"steps", "100"}, {"h", "0.002"}, {"t_end", "10"}}};
  const std::string md = step_cost_markdown(costs, declared, summary);
  INFO(md);
  // Per step 600/400 = 1.50; per evaluation 200 ns against 100 ns = 2.
  CHECK(md.find("| 100 | 600 ns | 400 ns | 1.50 | 200 ns | 100 ns | 2 |") != std::string::npos);
  // The twins: no flag at or under the bounds, both flags just above them.
  const std::string bound_text = format_g(at_bound, 3);
  CHECK(md.find("| 100 | " + bound_text + " | " + bound_text + " | " + format_g(same.max_cost_ratio * 0.99, 3) + " | — |") !=
        std::string::npos);
  const size_t at200 = md.find("| 200 | ");
  REQUIRE(at200 != std::string::npos);
  const std::string line200 = md.substr(at200, md.find('\n', at200) - at200);
  CHECK(line200.find(pair.method + ": " + format_g(at_bound * 1.01, 3) + " iterations") != std::string::npos);
  char above[32];
  std::snprintf(above, sizeof above, "%.2f", same.max_cost_ratio * 1.01);
  CHECK(line200.find(pair.method + ": " + above + "× " + pair.twin + " at the same iterations") != std::string::npos);
  CHECK(md.find("| 300 | 2 | 1 | 1.5 | cost not judged: 2 against 1 iterations (the stopping rules differ) |") !=
        std::string::npos);
  // Judged both ways: the twin's step dearer at the same iterations is flagged too.
  std::snprintf(above, sizeof above, "%.2f", same.max_cost_ratio * 1.1);
  CHECK(md.find("| 400 | 2 | 2 | " + format_g(1 / (same.max_cost_ratio * 1.1), 3) + " | **" + pair.twin + ": " + above + "× " +
                pair.method + " at the same iterations** |") != std::string::npos);
  // Whole runs: iterations per step 3; the runtime ratio 1.5 at the same h (A), none across steps (B).
  CHECK(md.find("| A | 3 | 3 | 2 | 1.5 |") != std::string::npos);
  CHECK(md.find("| B | 2 | 3 | 2 | — |") != std::string::npos);
}

TEST_CASE("the page's model comparisons: one model beside another per element and step, at the page's sizes", "[step_cost]") {
  const StepCostComparisons& declared = testing::catalogue().step_cost;
  REQUIRE_FALSE(declared.model_ratios.empty());
  for (const auto& pair : declared.model_ratios) CHECK(pair.model != pair.baseline);
  const auto& pair = declared.model_ratios.front();
  std::vector<std::string> entries;
  // At N = 200 the model costs 300 ns per step against the baseline's 400: 1.5 and 2 ns per
  // element and step, 0.75. The model's short elements counted (0.5 -> 0.25), the baseline's not.
  const std::string shares = ", \"short_fraction_start\": 0.5, \"short_fraction_end\": 0.25";
  entries.push_back(entry(pair.model, "m", 200, 300.0, 4, 0, shares));
  entries.push_back(entry(pair.baseline, "m", 200, 400.0, 4, 1));
  // Sizes off the page's table, and an integrator measured on one model only: no rows.
  entries.push_back(entry(pair.model, "m", 300, 300.0, 4, 0));
  entries.push_back(entry(pair.baseline, "m", 300, 400.0, 4, 0));
  entries.push_back(entry(pair.model, "alone", 200, 300.0, 4, 0));
  const StepCosts costs = read_step_costs(parse_json(document(entries), "doc"));
  const std::string md = step_cost_markdown(costs, declared, CsvTable{});
  INFO(md);
  CHECK(md.find("## " + pair.model + " beside " + pair.baseline + ": cost per element and step") != std::string::npos);
  CHECK(md.find("| m | 200 | 1.5 | 2 | 0.75 | 4 / 4 | 0 / 1 | 0.50 → 0.25 | — |") != std::string::npos);
  CHECK(md.find("| m | 300 |") == std::string::npos);
  CHECK(md.find("| alone | 200 |") == std::string::npos);
}

TEST_CASE("the page from the benchmark binary's parts: merged JSON, CSV and Markdown, and a bad part named", "[step_cost]") {
  const fs::path dir = testing::scratch_dir("step_cost_page");
  std::vector<std::string> first, second;
  for (long n : kSizes) first.push_back(entry("chain", "m", n, 3.0 * double(n), 2, 0));
  second.push_back(entry("", "", 50, 25.0));
  {
    std::ofstream(dir / "a.json") << document(first);
    std::ofstream(dir / "b.json") << document(second, ", \"plugin p\": \"1.0, file hash abc\"");
  }
  REQUIRE(write_step_cost_page({(dir / "a.json").string(), (dir / "b.json").string()}, dir.string(), testing::catalogue().step_cost));
  const JsonValue merged = read_json_file((dir / "benchmarks.json").string());
  CHECK(merged.find("benchmarks")->items.size() == kSizes.size() + 1);
  CHECK(merged.find("context")->find("plugin p") == nullptr);  // the first part's context
  const std::string csv = page_file_text(dir / "benchmarks.csv");
  CHECK(csv.rfind("benchmark,model,integrator,N,size,ns_per_step,rhs_evals_per_step,newton_iters_per_step\n", 0) == 0);
  CHECK(csv.find("step/chain/m/N:200,chain,m,200,links n [dimensionless count],600,2,0\n") != std::string::npos);
  CHECK(csv.find("mass_solve/N:50,,mass_solve,50,,25,,\n") != std::string::npos);
  const std::string md = page_file_text(dir / "benchmarks.md");
  CHECK(md.find("| chain | m | 60 ns | 600 ns | 6 µs | 2/2/2 | 0/0/0 |") != std::string::npos);
  CHECK(md.find("| chain | m | 1.5 | 1.5 | 1.5 |") != std::string::npos);  // ns per element per evaluation
  CHECK(md.find("| chain | m | 1 ± ") != std::string::npos);  // an exact law: the interval is round-off
  CHECK(md.find(" | 50–5000 | 7 | yes |") != std::string::npos);
  CHECK(md.find("| caches | L1 data 48 KiB |") != std::string::npos);
  CHECK(md.find("| load average | 1.50, 2.00, 2.25 |") != std::string::npos);

  std::ofstream(dir / "bad.json") << "{\"benchmarks\": [}";
  CHECK_FALSE(write_step_cost_page({(dir / "bad.json").string()}, (dir / "out").string(), testing::catalogue().step_cost));
  CHECK_THROWS_WITH(merge_benchmark_parts({(dir / "bad.json").string()}),
                    (dir / "bad.json").string() +
                        ": line 1, column 17: expected a value (a number, a string, true, false, null, an array or an object)");
  std::ofstream(dir / "nolist.json") << "{\"context\": {}}";
  CHECK_THROWS_WITH(merge_benchmark_parts({(dir / "nolist.json").string()}),
                    (dir / "nolist.json").string() + ": key 'benchmarks': expected Google Benchmark's array of benchmarks");
  fs::remove_all(dir);
}
