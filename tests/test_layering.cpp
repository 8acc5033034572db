// The layers of the suite (CMakeLists.txt: the kernel numerics <- core <- mechanics; models on
// mechanics, integrators on core; the application app on core; studies on app and models; the
// conformance checks on app; suite on all). The build already refuses a wrong-way
// include path; these checks keep the rest honest: the kernel includes nothing of the
// application; core, app, conformance and the command line name no model and no integrator of
// the catalogue (they get them from it), no source climbs
// out of its folder with "../", and no model includes another model's folder.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <regex>
#include <sstream>

#include "tests/test_support.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = TETHERBENCH_SOURCE_DIR;

std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".hpp")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Lines of `text` in which `word` stands as a whole word (letters, digits and '_' around it end it).
std::vector<std::string> lines_naming(const std::string& text, const std::string& word) {
  std::vector<std::string> hits;
  const std::regex pattern("(^|[^a-z0-9_])" + word + "($|[^a-z0-9_])");
  std::istringstream lines(lower(text));
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, pattern)) hits.push_back(line);
  return hits;
}

std::vector<std::string> includes_of(const std::string& text) {
  std::vector<std::string> out;
  const std::regex pattern("^\\s*#\\s*include\\s*\"([^\"]+)\"");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, pattern)) out.push_back(m[1]);
  }
  return out;
}

}  // namespace

TEST_CASE("core, app, the conformance checks, the command line and the Python bindings name no model and no integrator of the catalogue",
          "[layering]") {
  std::vector<std::string> names = tb::testing::catalogue().model_names();
  for (const auto& n : tb::testing::catalogue().integrator_names()) names.push_back(n);
  REQUIRE(names.size() > 5);
  std::vector<fs::path> files = sources_under(kRoot / "core");
  for (const char* layer : {"app", "conformance", "cli", "python"})
    for (const auto& f : sources_under(kRoot / layer)) files.push_back(f);
  for (const auto& file : files) {
    const std::string text = slurp(file);
    for (const auto& name : names) {
      INFO(file.string() << " names '" << name << "'");
      CHECK(lines_naming(text, name).empty());
    }
  }
}

TEST_CASE("includes run down the layers: no '../', no model reaching into another model", "[layering]") {
  for (const char* layer : {"numerics", "core", "mechanics", "app", "models", "integrators", "studies", "conformance", "suite", "cli"})
    for (const auto& file : sources_under(kRoot / layer)) {
      const std::string own = fs::relative(file, kRoot).begin()->string();  // the layer folder
      std::string own_unit;  // models/<name> or integrators/<name>
      const fs::path rel = fs::relative(file, kRoot);
      if ((own == "models" || own == "integrators") && std::distance(rel.begin(), rel.end()) > 2)
        own_unit = own + "/" + std::next(rel.begin())->string();
      for (const auto& inc : includes_of(slurp(file))) {
        INFO(file.string() << " includes \"" << inc << "\"");
        CHECK(inc.find("..") == std::string::npos);
        if (!own_unit.empty() && inc.rfind(own + "/", 0) == 0 && inc.find('/', own.size() + 1) != std::string::npos)
          CHECK(inc.rfind(own_unit + "/", 0) == 0);  // only its own folder among its siblings
      }
    }
}

TEST_CASE("the kernel (numerics, core, mechanics) includes only the kernel: it installs without the application", "[layering]") {
  for (const char* layer : {"numerics", "core", "mechanics"})
    for (const auto& file : sources_under(kRoot / layer))
      for (const auto& inc : includes_of(slurp(file))) {
        INFO(file.string() << " includes \"" << inc << "\"");
        const std::string top = inc.substr(0, inc.find('/'));
        CHECK((top == "numerics" || top == "core" || top == "mechanics"));
      }
}

TEST_CASE("the conformance checks include no model and no integrator: they get both from their callers", "[layering]") {
  // conformance/ sees the application only (the orders' rule is app/judging/order_fit.hpp); the checks
  // must stay generic (a plugin's entries are checked by the same code).
  for (const auto& file : sources_under(kRoot / "conformance"))
    for (const auto& inc : includes_of(slurp(file))) {
      INFO(file.string() << " includes \"" << inc << "\"");
      const std::string top = inc.substr(0, inc.find('/'));
      CHECK((top == "numerics" || top == "core" || top == "mechanics" || top == "app" || top == "conformance"));
    }
}

// Issue 45 item 2: app/ is split into rooms by what they do, each looking only down:
//   common   formats and process plumbing (records' field visitor, CSV/Markdown tables, fingerprints, paths)
//   input    what to run: cases, the catalogue, studies' interface, limits, applicability, the run records
//   running  one run: the runner, its step loop, isolation, round-off floors, reference solutions, plugins
//   jobs     many runs: the job list, store, transport, workers and MPI distribution, progress, provenance
//   judging  what the runs mean: gates, order gate, claims check, recommendation, metric cells
//   writing  what is written: summaries, the report and its index, figure plan, coverage, manifest
// The rooms stay small enough to read (at most 25 files, at most 5 levels of headers including
// headers of the same room), and every file of app/ is in one of them.
TEST_CASE("app/ is split into rooms that include only their own room and the rooms below it", "[layering]") {
  const std::vector<std::string> rooms = {"common", "input", "running", "jobs", "judging", "writing"};
  auto rank = [&](const std::string& room) {
    return std::distance(rooms.begin(), std::find(rooms.begin(), rooms.end(), room));
  };
  std::map<std::string, std::vector<std::string>> headers_included;  // header -> headers of its room it includes
  std::map<std::string, int> files_in;
  for (const auto& file : sources_under(kRoot / "app")) {
    const fs::path rel = fs::relative(file, kRoot);  // app/<room>/<file>
    INFO(rel.string());
    REQUIRE(std::distance(rel.begin(), rel.end()) == 3);
    const std::string room = std::next(rel.begin())->string();
    REQUIRE(rank(room) < std::ssize(rooms));
    ++files_in[room];
    for (const auto& inc : includes_of(slurp(file))) {
      if (inc.rfind("app/", 0) != 0) continue;
      const std::string to = inc.substr(4, inc.find('/', 4) - 4);
      INFO("includes \"" << inc << "\"");
      CHECK(rank(to) <= rank(room));
      if (to == room && file.extension() == ".hpp") headers_included[rel.string()].push_back(inc);
    }
  }
  for (const auto& [room, n] : files_in) {
    INFO("app/" << room << " holds " << n << " files");
    CHECK(n <= 25);
  }
  std::map<std::string, int> level;  // 1 + the longest chain of same-room headers below it
  std::function<int(const std::string&)> level_of = [&](const std::string& h) {
    if (auto it = level.find(h); it != level.end()) return it->second;
    level[h] = 0;  // a cycle would show as a short chain; the next test refuses cycles
    int deepest = 0;
    for (const auto& below : headers_included[h]) deepest = std::max(deepest, level_of(below));
    return level[h] = deepest + 1;
  };
  for (const auto& [header, _] : headers_included) {
    INFO(header << " sits " << level_of(header) << " headers deep in its room");
    CHECK(level_of(header) <= 5);
  }
}

// No include cycle among app/'s components (X.hpp with X.cpp), at any depth: a cycle is how a
// shared record came to live beside the code that uses it (issue 45: runner.hpp held the run
// records, and the headers that carried them included it back).
TEST_CASE("app/'s components include one another without a cycle", "[layering]") {
  std::map<std::string, std::set<std::string>> uses;  // app/<room>/<component> -> the components it includes
  for (const auto& file : sources_under(kRoot / "app")) {
    const std::string from = (fs::relative(file, kRoot).parent_path() / file.stem()).string();
    for (const auto& inc : includes_of(slurp(file)))
      if (inc.rfind("app/", 0) == 0) {
        const std::string to = (fs::path(inc).parent_path() / fs::path(inc).stem()).string();
        if (to != from) uses[from].insert(to);
      }
  }
  REQUIRE(uses.size() > 20);
  std::map<std::string, int> state;  // 0 unvisited, 1 on the current path, 2 done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& c) {
    state[c] = 1;
    path.push_back(c);
    for (const auto& next : uses[c]) {
      if (state[next] == 1) {
        std::string cycle;
        for (auto it = std::find(path.begin(), path.end(), next); it != path.end(); ++it) cycle += *it + " -> ";
        FAIL_CHECK("include cycle: " << cycle << next);
      } else if (state[next] == 0) {
        visit(next);
      }
    }
    path.pop_back();
    state[c] = 2;
  };
  for (const auto& [component, _] : uses)
    if (state[component] == 0) visit(component);
}
