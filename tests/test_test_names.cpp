// Every Catch2 test must be one CTest test: catch_discover_tests hands the names to CMake, whose
// list separator is ';', so a name with a ';' becomes two CTest tests that match nothing and
// fail on every run (it happened: tests/test_run_timing.cpp). Checked here, in the source,
// where the test that would be split is named.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/test_support.hpp"

namespace fs = std::filesystem;

TEST_CASE("no test's name holds a semicolon, CMake's list separator, which would split it into two CTest tests",
          "[tests]") {
  const std::regex test_case("TEST_CASE\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  int names = 0;
  for (const auto& e : fs::directory_iterator(fs::path(TETHERBENCH_SOURCE_DIR) / "tests")) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    for (auto it = std::sregex_iterator(s.begin(), s.end(), test_case); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1];
      INFO(e.path().filename().string() << ": " << name);
      CHECK(name.find(';') == std::string::npos);
      ++names;
    }
  }
  CHECK(names > 300);  // the scan found the suite's tests (466 when this was written)
}
