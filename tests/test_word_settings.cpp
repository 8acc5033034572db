// Settings whose value is a word of a declared list (an enum) or a free text, beside numbers
// (core/integrator.hpp): read from case files and --set, refused by name with the allowed words,
// part of every run's fingerprint, and documented from their declaration like numbers.

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <set>

#include "app/running/job_result.hpp"
#include "app/input/settings_doc.hpp"
#include "core/table_reader_toml.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

// A bundled case the integrator runs on the model's default discretisation (nullptr if none).
const Case* case_run_by(const std::vector<Case>& cases, const IntegratorInfo& info) {
  for (const auto& c : cases)
    if (!why_not_applicable(c, info, "")) return &c;
  return nullptr;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// A copy of the catalogue's first ODE integrator that declares a text setting too: what a
// plugin naming a tableau would declare. Its stepper ignores it; what is tested is the path.
Catalogue with_text_setting(IntegratorInfo& added) {
  Catalogue c = testing::catalogue();
  const auto ode = std::find_if(c.integrators.begin(), c.integrators.end(), [](const IntegratorInfo& i) {
    return i.consumes == FormulationKind::EmbeddedOde && !i.adaptive;
  });
  REQUIRE(ode != c.integrators.end());
  added = *ode;
  added.name = "zz_text_test";
  added.settings.push_back(text_setting("tableau", "the tableau's name", "kutta"));
  c.integrators.push_back(added);
  c.validate();
  return c;
}

}  // namespace

TEST_CASE("a word setting accepts exactly its words and a text setting any one-line text", "[settings][words]") {
  const SettingSpec word = word_setting("scheme", "which scheme", {"alpha", "beta"}, "beta");
  CHECK(word.accepts(std::string("alpha")));
  CHECK(word.accepts(std::string("beta")));
  CHECK_FALSE(word.accepts(std::string("gamma")));
  CHECK_FALSE(word.accepts(std::string("Alpha")));  // words are exact
  CHECK_FALSE(word.accepts(1.0));                   // never a number
  CHECK(word.expectation() == "one of the words \"alpha\", \"beta\"");
  const SettingSpec text = text_setting("tableau", "a name", "kutta");
  CHECK(text.accepts(std::string("any name, with spaces")));
  CHECK_FALSE(text.accepts(std::string("")));
  CHECK_FALSE(text.accepts(std::string("two\nlines")));
  CHECK(text.expectation() == "a non-empty text on one line");
  // Numbers keep their own expectation and never accept a text.
  const SettingSpec number = positive_setting("rtol", "r", 1e-6);
  CHECK_FALSE(number.accepts(std::string("1e-6")));

  IntegratorSettings s = IntegratorSettings::defaults({word, text, number}, 1e-3);
  CHECK(s.word("scheme") == "beta");
  CHECK(s.word("tableau") == "kutta");
  CHECK(s.get("rtol") == 1e-6);
  CHECK(s.declares("rtol"));
  CHECK_FALSE(s.declares("scheme"));  // declares() is about numbers
  CHECK(s.declares_word("scheme"));
  // Reading or setting a word as a number (or the reverse) is a programming error, named.
  CHECK_THROWS_WITH(s.get("scheme"), Catch::Contains("declared as a word or text"));
  CHECK_THROWS_WITH(s.word("rtol"), Catch::Contains("declared as a number"));
  CHECK_THROWS_AS(s.set("scheme", 1.0), std::logic_error);
  CHECK_THROWS_AS(s.set_word("rtol", "x"), std::logic_error);
  s.set_word("scheme", "alpha");
  CHECK(s.shown("scheme") == "\"alpha\"");
}

TEST_CASE("the catalogue refuses a word setting whose default is not one of its words, or with no words", "[settings][words]") {
  Catalogue c = testing::catalogue();
  IntegratorInfo& first = c.integrators.front();
  first.settings.push_back(word_setting("zz_choice", "x", {"a", "b"}, "c"));
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("'zz_choice' has a default outside one of the words \"a\", \"b\""));
  first.settings.back() = word_setting("zz_choice", "x", {}, "");
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("lists no words"));
}

TEST_CASE("every word setting of the catalogue: each word read from a case file and --set, others refused with the words",
          "[settings][words]") {
  const std::vector<Case> cases = testing::bundled_cases();
  int word_settings = 0;
  for (const auto& info : testing::catalogue().integrators) {
    for (const auto& spec : info.settings) {
      if (spec.type != SettingSpec::Type::Word) continue;
      ++word_settings;
      const Case* runs = case_run_by(cases, info);
      REQUIRE(runs);
      INFO(info.name << "." << spec.name << " on " << runs->name);
      CHECK(spec.accepts(spec.default_text));
      CHECK(runs->settings_for(info.name).word(spec.name) == spec.default_text);
      std::set<std::string> fingerprints;
      for (const auto& word : spec.words) {
        // A case table, as [integrators.NAME] KEY = "WORD".
        Case c = *runs;
        TableReader table = table_reader_of(c.file, "integrators." + info.name, toml::value(toml::table{{spec.name, word}}));
        read_integrator_settings(table, info, c.settings.at(info.name));
        CHECK(c.settings_for(info.name).word(spec.name) == word);
        // --set, with and without the TOML quotes (a shell takes them).
        Case bare = *runs, quoted = *runs;
        apply_setting_override(bare, info.name + "." + spec.name + "=" + word, testing::catalogue());
        apply_setting_override(quoted, info.name + "." + spec.name + "=\"" + word + "\"", testing::catalogue());
        CHECK(bare.settings_for(info.name).word(spec.name) == word);
        CHECK(quoted.settings_for(info.name).word(spec.name) == word);
        CHECK(run_inputs(c, info.name) == run_inputs(bare, info.name));
        fingerprints.insert(run_inputs(c, info.name));
      }
      // Each word its own fingerprint: a run with another word is never reused for this one.
      CHECK(fingerprints.size() == spec.words.size());
      // A word outside the list, through --set: exit-2 message with the option, the key and the words.
      Case c = *runs;
      const std::string bad = message_of([&] {
        apply_setting_override(c, info.name + "." + spec.name + "=no_such_word", testing::catalogue());
      });
      CHECK(bad.find("--set " + info.name + "." + spec.name + "=no_such_word") != std::string::npos);
      CHECK(bad.find("'integrators." + info.name + "." + spec.name + "'") != std::string::npos);
      CHECK(bad.find(spec.expectation()) != std::string::npos);
      // A retired integer code: refused, naming the word it stood for.
      for (std::size_t code = 0; code < spec.former_codes.size(); ++code) {
        const std::string retired = message_of([&] {
          apply_setting_override(c, info.name + "." + spec.name + "=" + std::to_string(code), testing::catalogue());
        });
        CHECK(retired.find("got " + std::to_string(code) + " (the retired code of \"" + spec.former_codes[code] + "\"") !=
              std::string::npos);
      }
    }
  }
  // The suite itself declares word settings (the compositions' scheme); otherwise this tests nothing.
  CHECK(word_settings > 0);
}

TEST_CASE("a text setting: read, fingerprinted and documented like a number", "[settings][words]") {
  IntegratorInfo added;
  const Catalogue c = with_text_setting(added);
  const std::vector<Case> cases = testing::bundled_cases();
  const Case* runs = case_run_by(cases, added);
  REQUIRE(runs);
  Case base = load_case(runs->file, c);
  CHECK(base.settings_for(added.name).word("tableau") == "kutta");
  Case other = base;
  apply_setting_override(other, added.name + ".tableau=heun 3", c);
  CHECK(other.settings_for(added.name).word("tableau") == "heun 3");
  CHECK(run_inputs(base, added.name) != run_inputs(other, added.name));
  CHECK(run_inputs(other, added.name).find("word=heun 3") != std::string::npos);
  CHECK(message_of([&] { apply_setting_override(other, added.name + ".tableau=\"\"", c); })
            .find("expected a non-empty text on one line") != std::string::npos);
  // `list --settings-table`: the default in quotes, the expectation in words.
  const std::string table = settings_markdown(c);
  CHECK(table.find("| `" + added.name + "` | `tableau` | \"kutta\" | a non-empty text on one line | the tableau's name |") !=
        std::string::npos);
}
