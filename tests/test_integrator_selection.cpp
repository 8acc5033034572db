// `table`/`report --integrator NAME` (app/input/integrator_selection.hpp) and the reference search path
// of `--reference-dir` (app/common/reference_search.hpp): what a plugin author needs to compare their
// method with a few built-ins, and their own case beside a bundled one.

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/input/integrator_selection.hpp"
#include "app/running/reference.hpp"
#include "studies/error_spread/error_spread.hpp"
#include "studies/setting_sweep/setting_sweep.hpp"
#include "studies/tolerance_sweep/tolerance_sweep.hpp"
#include "tests/temp_file.hpp"
#include "tests/test_support.hpp"

namespace fs = std::filesystem;
using namespace tb;
using tb::testing::catalogue;

namespace {

const std::string kPendulum = std::string(TETHERBENCH_CASES_DIR) + "/T_planar_pendulum_60deg.toml";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The bundled case `file` with `from` replaced by `to` (must occur), written into `dir` as `name`.
fs::path variant(const fs::path& dir, const std::string& file, const std::string& name, const std::string& from,
                 const std::string& to) {
  std::string text = read_text(file);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(dir / name) << text;
  return dir / name;
}

// The compared integrators of the registry that run case c (any discretisation).
std::vector<std::string> runs_case(const Case& c) {
  std::vector<std::string> names;
  for (const auto& info : catalogue().integrators)
    for (const auto& d : c.model->discretisations())
      if (!why_not_applicable(c, info, d)) {
        names.push_back(info.name);
        break;
      }
  return names;
}

struct Ran {
  int status;
  std::string err;
};
Ran tetherbench(const fs::path& dir, const std::string& args) {
  const fs::path err = dir / "stderr.txt";
  const int status = std::system((std::string(TETHERBENCH_BINARY) + " " + args + " >/dev/null 2>" + err.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(err)};
}

}  // namespace

TEST_CASE("selecting integrators narrows the catalogue to the named integrators, the reference solvers kept", "[selection]") {
  const Case c = tb::testing::load_case(kPendulum);
  // Two integrators that run the case and are not the cross-check solver: the cross-check is
  // then left out of the comparison and must still be there to read the references with.
  std::vector<std::string> chosen;
  for (const auto& name : runs_case(c))
    if (name != catalogue().crosscheck_integrator && chosen.size() < 2) chosen.push_back(name);
  REQUIRE(chosen.size() == 2);
  const Catalogue selected = selected_catalogue(catalogue(), {chosen[1], chosen[0]});
  CHECK(selected.integrator_names() == chosen);  // sorted, as every catalogue list
  CHECK(selected.left_out.size() + chosen.size() == catalogue().integrators.size());
  for (const auto& name : catalogue().integrator_names()) {
    INFO(name);
    CHECK(selected.knows_integrator(name));
    CHECK((selected.find_integrator(name) != nullptr) == (std::find(chosen.begin(), chosen.end(), name) != chosen.end()));
  }
  CHECK(selected.reference().name == catalogue().reference().name);
  CHECK(selected.crosscheck().name == catalogue().crosscheck_integrator);
  CHECK_NOTHROW(selected.validate());
  CHECK(selected.find_integrator(catalogue().crosscheck_integrator) == nullptr);  // not compared

  SECTION("no names: the whole catalogue") {
    CHECK(selected_catalogue(catalogue(), {}).integrator_names() == catalogue().integrator_names());
    CHECK(selected_catalogue(catalogue(), {}).left_out.empty());
  }
  SECTION("an unknown name is refused naming the option and listing the names") {
    CHECK_THROWS_WITH(selected_catalogue(catalogue(), {chosen[0], "no_such_method"}),
                      Catch::Matchers::Contains("--integrator: unknown integrator 'no_such_method'") &&
                          Catch::Matchers::Contains(join_names(catalogue().integrator_names())));
  }
  SECTION("a name given twice is refused") {
    CHECK_THROWS_WITH(selected_catalogue(catalogue(), {chosen[0], chosen[0]}),
                      Catch::Matchers::Contains("--integrator: '" + chosen[0] + "' is given twice"));
  }
}

TEST_CASE("selecting integrators drops the cases' own sweeps of an integrator left out and refuses a selection with nothing to run",
          "[selection]") {
  const Case c = tb::testing::load_case(kPendulum);
  REQUIRE(c.section<tb::SettingSweep>());
  const std::string swept = c.section<tb::SettingSweep>()->integrator;
  const auto applicable = runs_case(c);
  std::string other;
  for (const auto& name : applicable)
    if (name != swept && other.empty()) other = name;
  REQUIRE(!other.empty());

  const auto kept = selected_cases({c}, selected_catalogue(catalogue(), {swept, other}), {});
  REQUIRE(kept.front().section<tb::SettingSweep>());
  CHECK(kept.front().section<tb::SettingSweep>()->values == c.section<tb::SettingSweep>()->values);
  const auto dropped = selected_cases({c}, selected_catalogue(catalogue(), {other}), {});
  CHECK_FALSE(dropped.front().section<tb::SettingSweep>());
  CHECK(dropped.front().settings.size() == c.settings.size());  // every setting kept: the fingerprints do not move

  SECTION("a comparison run by an integrator left out is dropped from its sweep") {
    // The bundled cases whose tolerance sweep compares with another integrator.
    int seen = 0;
    for (const Case& t : tb::testing::bundled_cases()) {
      if (!t.section<tb::ToleranceSweep>() || t.section<tb::ToleranceSweep>()->compare_with.empty()) continue;
      ++seen;
      const std::string adaptive = t.section<tb::ToleranceSweep>()->integrator;
      const auto narrowed = selected_cases({t}, selected_catalogue(catalogue(), {adaptive}), {});
      REQUIRE(narrowed.front().section<tb::ToleranceSweep>());
      CHECK(narrowed.front().section<tb::ToleranceSweep>()->compare_with.empty());
      CHECK(narrowed.front().section<tb::ToleranceSweep>()->rtol == t.section<tb::ToleranceSweep>()->rtol);
    }
    CHECK(seen > 0);
  }
  SECTION("an error spread keeps the runs of the integrators selected, and is dropped with none left") {
    // The bundled cases with a [report.error_spread]: `report --integrator X` on them once
    // refused the case because the spread named a run of an integrator left out.
    int seen = 0;
    for (const Case& t : tb::testing::bundled_cases()) {
      const auto* spread = t.section<tb::ErrorSpread>();
      if (!spread || spread->runs.empty()) continue;
      ++seen;
      const std::string label = spread->runs.front(), name = label.substr(0, label.find('@'));
      const auto narrowed = selected_cases({t}, selected_catalogue(catalogue(), {name}), {});
      REQUIRE(narrowed.front().section<tb::ErrorSpread>());
      for (const auto& kept : narrowed.front().section<tb::ErrorSpread>()->runs) CHECK(kept.substr(0, kept.find('@')) == name);
      CHECK(narrowed.front().section<tb::ErrorSpread>()->values == spread->values);
      // An integrator the spread does not name, which runs the case: the spread is dropped.
      std::string other;
      for (const auto& candidate : runs_case(t)) {
        bool named = false;
        for (const auto& l : spread->runs) named = named || l.substr(0, l.find('@')) == candidate;
        if (!named && other.empty()) other = candidate;
      }
      REQUIRE(!other.empty());
      CHECK_FALSE(selected_cases({t}, selected_catalogue(catalogue(), {other}), {}).front().section<tb::ErrorSpread>());
    }
    CHECK(seen > 0);
  }
  SECTION("a selection that runs none of the cases is refused, with each run's reason") {
    std::string none;
    for (const auto& name : catalogue().integrator_names())
      if (std::find(applicable.begin(), applicable.end(), name) == applicable.end() && none.empty()) none = name;
    REQUIRE(!none.empty());
    CHECK_THROWS_WITH(selected_cases({c}, selected_catalogue(catalogue(), {none}), {}),
                      Catch::Matchers::Contains("--integrator: none of the chosen integrators (" + none + ")") &&
                          Catch::Matchers::Contains(c.name + " " + none + ": "));
  }
  SECTION("--set for an integrator left out could never act: refused") {
    CHECK_THROWS_WITH(selected_cases({c}, selected_catalogue(catalogue(), {other}), {swept + ".rtol=1e-6"}),
                      Catch::Matchers::Contains("--set " + swept + ".rtol=1e-6") &&
                          Catch::Matchers::Contains("not among the --integrator selection"));
  }
}

TEST_CASE("table --integrator writes the rows of the named integrators only, and bad selections exit 2 writing nothing",
          "[selection][cli]") {
  const fs::path dir = tb::testing::scratch_dir("selection_cli");
  const fs::path file = variant(dir, kPendulum, "pendulum.toml", "t_end = 10.0", "t_end = 0.5");
  const Case c = tb::testing::load_case(file.string());
  std::vector<std::string> chosen;
  for (const auto& name : runs_case(c))
    if (!catalogue().find_integrator(name)->adaptive && chosen.size() < 2) chosen.push_back(name);
  REQUIRE(chosen.size() == 2);
  const fs::path out = dir / "out";
  const Ran ok = tetherbench(dir, "table " + file.string() + " --integrator " + chosen[0] + " --integrator " + chosen[1] +
                                      " --out " + out.string());
  INFO(ok.err);
  REQUIRE(ok.status == 0);
  const CsvTable summary = read_csv_table((out / "summary.csv").string());
  std::set<std::string> rows;
  for (const auto& row : summary.rows) rows.insert(row.at("integrator"));
  CHECK(rows == std::set<std::string>(chosen.begin(), chosen.end()));

  for (const auto& [args, expected] : std::vector<std::pair<std::string, std::string>>{
           {"table --integrator no_such_method", "--integrator: unknown integrator 'no_such_method'"},
           {"report --no-benchmarks --no-plots --integrator " + chosen[0] + " --integrator " + chosen[0], "is given twice"}}) {
    const Ran bad = tetherbench(dir, args + " " + file.string() + " --out " + (dir / "never").string());
    INFO(args << ": " << bad.err);
    CHECK(bad.status == 2);
    CHECK(bad.err.find(expected) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "never"));
  }
  fs::remove_all(dir);
}

TEST_CASE("the reference folders are a search path, the user's folders first and then the bundled one, its hints writing into the user's",
          "[selection][reference]") {
  const fs::path dir = tb::testing::scratch_dir("reference_search");
  const fs::path mine = dir / "my_reference", empty = dir / "empty";
  fs::create_directories(empty);
  // The user's own case (the bundled pendulum under another name) with its references in their folder.
  const Case own = tb::testing::load_case(variant(dir, kPendulum, "own.toml", "name = \"T_planar_pendulum_60deg\"",
                                                  "name = \"T_own_pendulum\"").string());
  REQUIRE(own.name == "T_own_pendulum");
  write_references({own}, catalogue(), mine.string(), "test");
  const Case bundled = tb::testing::load_case(kPendulum);

  ReferenceSearch search;
  search.user = {empty.string(), mine.string()};
  search.bundled = TETHERBENCH_REFERENCE_DIR;
  search.bundled_in_checkout = false;  // as an installation: hints never write there
  CHECK(search.folder_for(own) == mine.string());
  CHECK(search.folder_for(bundled) == TETHERBENCH_REFERENCE_DIR);
  // Both read, each from its own folder: the same solver on the same model gives the same states.
  const auto from_mine = read_references(own, search, catalogue().reference());
  const auto from_bundled = read_references(bundled, search, catalogue().reference());
  REQUIRE(from_mine.size() == from_bundled.size());
  for (const auto& [d, x] : from_mine) CHECK((x - from_bundled.at(d)).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(read_reference_trajectories(own, search, catalogue().crosscheck(), ReferenceRole::CrossCheck).size() == from_mine.size());

  SECTION("the user's folder shadows the bundled one for a case both hold") {
    fs::create_directories(empty / bundled.name);
    CHECK(search.folder_for(bundled) == empty.string());
    CHECK_THROWS_WITH(read_references(bundled, search, catalogue().reference()),
                      Catch::Matchers::Contains((empty / bundled.name / "final_state.csv").string()) &&
                          Catch::Matchers::Contains("missing reference solution") &&
                          Catch::Matchers::Contains("taken from " + empty.string()) &&
                          Catch::Matchers::Contains("--out " + empty.string() + "`"));
  }
  SECTION("a case no folder holds: the case file, every folder searched, and the user's first folder as --out") {
    const Case nowhere = tb::testing::load_case(variant(dir, kPendulum, "nowhere.toml", "name = \"T_planar_pendulum_60deg\"",
                                                        "name = \"T_nowhere\"").string());
    CHECK_THROWS_WITH(read_references(nowhere, search, catalogue().reference()),
                      Catch::Matchers::Contains(nowhere.file) && Catch::Matchers::Contains("missing reference solutions") &&
                          Catch::Matchers::Contains("searched " + empty.string() + ", " + mine.string() +
                                                    ", then the bundled " + TETHERBENCH_REFERENCE_DIR) &&
                          Catch::Matchers::Contains("reference " + nowhere.file + " --out " + empty.string() + "`"));
  }
  SECTION("a stale bundled reference of an installation: the hint writes into a new folder of the user's, never there") {
    ReferenceSearch installed;
    installed.bundled = TETHERBENCH_REFERENCE_DIR;
    Case stale = bundled;
    stale.model_inputs += ";changed";
    try {
      read_references(stale, installed, catalogue().reference());
      FAIL("a stale reference was read");
    } catch (const InputError& e) {
      const std::string message = e.what();
      INFO(message);
      CHECK(message.find(std::string(TETHERBENCH_REFERENCE_DIR) + "/" + bundled.name + "/final_state.csv: stale") == 0);
      CHECK(message.find("--out my_reference`, then give the report --reference-dir my_reference") != std::string::npos);
      CHECK(message.find(std::string("--out ") + TETHERBENCH_REFERENCE_DIR) == std::string::npos);
    }
    SECTION("in a source checkout a bundled case's hint writes the bundled folder, named") {
      installed.bundled_in_checkout = true;
      CHECK_THROWS_WITH(read_references(stale, installed, catalogue().reference()),
                        Catch::Matchers::Contains(std::string("--out ") + TETHERBENCH_REFERENCE_DIR + "`"));
    }
  }
  fs::remove_all(dir);
}
