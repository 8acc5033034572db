// Integrator settings are declared once, with their integrator: case files, --set and
// `tetherbench list` read the declaration, and the settings table of cases/README.md must be
// exactly what the declarations generate.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "app/input/settings_doc.hpp"
#include "core/table_reader_toml.hpp"
#include "tests/test_support.hpp"

using namespace tb;

TEST_CASE("cases/README.md's settings table is the one the integrators' declarations generate", "[settings][docs]") {
  std::ifstream in(std::string(TETHERBENCH_CASES_DIR) + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- settings-table:begin", end = "<!-- settings-table:end -->";
  const auto b = doc.find(begin), e = doc.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  const auto first = doc.find('\n', b) + 1;
  INFO("regenerate with `build/tetherbench list --settings-table`");
  CHECK(doc.substr(first, e - first) == settings_markdown(testing::catalogue()));
}

TEST_CASE("every declared number setting is accepted at its default and refused outside its range - undeclared keys are refused",
          "[settings]") {
  for (const auto& info : testing::catalogue().integrators) {
    IntegratorSettings s = IntegratorSettings::defaults(info.settings, 1e-3);
    for (const auto& spec : info.settings) {
      if (!spec.is_number()) continue;  // words and texts: tests/test_word_settings.cpp
      INFO(info.name << "." << spec.name);
      CHECK(spec.accepts(spec.default_value));
      CHECK(s.get(spec.name) == spec.default_value);
      CHECK_FALSE(spec.accepts(spec.lower_inclusive ? spec.lower - 1.0 : spec.lower));
      CHECK_FALSE(spec.accepts(std::numeric_limits<double>::quiet_NaN()));
      // Through a case table: the value is read, an out-of-range one is an InputError naming the key.
      TableReader ok = table_reader_of("(test)", "integrators." + info.name,
                     spec.integer ? toml::value(toml::table{{spec.name, toml::integer(spec.default_value)}})
                                  : toml::value(toml::table{{spec.name, spec.default_value}}));
      CHECK_NOTHROW(read_integrator_settings(ok, info, s));
      const double bad = spec.lower_inclusive ? spec.lower - 1.0 : spec.lower;
      TableReader no = table_reader_of("(test)", "integrators." + info.name,
                     spec.integer ? toml::value(toml::table{{spec.name, toml::integer(bad)}})
                                  : toml::value(toml::table{{spec.name, bad}}));
      try {
        read_integrator_settings(no, info, s);
        FAIL("accepted " << bad);
      } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("integrators." + info.name + "." + spec.name) != std::string::npos);
      }
    }
    // A key the integrator does not declare is refused, and reading one is a programming error.
    TableReader unknown = table_reader_of("(test)", "integrators." + info.name, toml::value(toml::table{{"no_such_key", 1.0}}));
    CHECK_THROWS_AS(read_integrator_settings(unknown, info, s), InputError);
    CHECK_THROWS_AS(s.get("no_such_key"), std::logic_error);
  }
}
