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
  // conformance/ sees the application only (the orders' rule is app/order_fit.hpp); the checks
  // must stay generic (a plugin's entries are checked by the same code).
  for (const auto& file : sources_under(kRoot / "conformance"))
    for (const auto& inc : includes_of(slurp(file))) {
      INFO(file.string() << " includes \"" << inc << "\"");
      const std::string top = inc.substr(0, inc.find('/'));
      CHECK((top == "numerics" || top == "core" || top == "mechanics" || top == "app" || top == "conformance"));
    }
}
