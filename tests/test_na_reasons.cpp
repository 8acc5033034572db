// The reason of every n/a run names what actually declined (issue 32 item 7): the model, not
// offering the equation type the integrator consumes in that discretisation (with the model's
// reason), or the integrator, declining the form that was built (with the integrator's reason).
// Never a text written for another integrator: a reason that names an integrator other than the
// row's own fails. Every model (its fixtures and every bundled case), every integrator and every
// discretisation come from the registries, none is listed here.

#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "app/running/runner.hpp"
#include "tests/moving_reel.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

bool word_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

// Whether `text` holds `word` as a whole word, case-insensitively ("RATTLE" names rattle;
// "rattle4" and "lie_generalized_alpha" do not name rattle and generalized_alpha).
bool names(const std::string& text, const std::string& word) {
  const std::string t = lower(text), w = lower(word);
  for (size_t at = t.find(w); at != std::string::npos; at = t.find(w, at + 1)) {
    const bool starts = at == 0 || !word_char(t[at - 1]);
    const bool ends = at + w.size() == t.size() || !word_char(t[at + w.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The integrators of the catalogue (compared ones, then reference solvers), other than `own`,
// that `reason` names.
std::vector<std::string> other_integrators_named(const std::string& reason, const std::string& own) {
  std::vector<std::string> out;
  for (const auto* list : {&testing::catalogue().integrators, &testing::catalogue().reference_solvers})
    for (const auto& info : *list)
      if (info.name != own && names(reason, info.name)) out.push_back(info.name);
  return out;
}

// Every model's fixture cases and every bundled case: each model in the registry has a fixture
// (tests/test_models_generic.cpp checks it), the bundled cases add the variants the report runs.
std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& e : std::filesystem::directory_iterator(TETHERBENCH_MODEL_FIXTURES_DIR))
    if (e.path().extension() == ".toml") cases.push_back(testing::load_case(e.path().string()));
  for (auto& c : testing::bundled_cases()) cases.push_back(std::move(c));
  // The bundled cases run every method on every model it fits (issue 35): no integrator declines
  // a form they offer any more. The paper's printed LGVI rule for a moving reel (in code only) is
  // a form lgvi4 declines (its step is not symmetric), so the integrator's branch stays exercised.
  cases.push_back(testing::make_case(testing::moving_reel(reel_pendulum::Parameters::Discretization::Paper),
                                     "moving reel, the paper's one-sided LGVI rule", 0.01, 5e-4, 5e-3));
  return cases;
}

}  // namespace

TEST_CASE("n/a reasons: the checker flags a reason that names another integrator", "[runner][n/a]") {
  // The reason B_reel_deployment's generalized_alpha row gave before: written for RATTLE.
  const std::string old_reason =
      "the string slides through the guide way: its mass matrix in natural coordinates depends on the deployed "
      "length s_p (a configuration variable), so there is no constant mass matrix for RATTLE";
  CHECK(other_integrators_named(old_reason, "generalized_alpha") == std::vector<std::string>{"rattle"});
  CHECK(other_integrators_named(old_reason, "rattle").empty());
  CHECK(other_integrators_named("rkmk4 and cf4 are rk4, rkmk45 is rk45", "rkmk4") ==
        std::vector<std::string>({"cf4", "rk4", "rk45", "rkmk45"}));
  CHECK_FALSE(names("lie_generalized_alpha declines it", "generalized_alpha"));
  CHECK_FALSE(names("rattle4's step", "rattle"));
}

TEST_CASE("n/a reasons: every n/a run names what declined, never another integrator", "[runner][n/a]") {
  const auto cases = all_cases();
  REQUIRE(cases.size() >= testing::catalogue().models.size());
  int model_declines = 0, integrator_declines = 0;
  for (const auto& c : cases)
    for (const auto& d : c.model->discretisations())
      for (const auto& info : testing::catalogue().integrators) {
        const auto why = why_not_applicable(c, info, d);
        if (!why) continue;
        INFO(c.file << " | " << run_label(info.name, *c.model, d) << ": n/a: " << *why);
        if (*why == "not among this case's [case] integrators") {
          CHECK_FALSE(c.lists(info.name));
          continue;
        }
        const std::string form = to_string(info.consumes) + " form";
        std::string model_why;
        const bool offered = c.model->offers(info.consumes, d, model_why);
        if (!offered) {
          // The model declines the type the integrator consumes, with the model's own reason.
          CHECK(why->rfind(c.model->name() + " offers no " + form, 0) == 0);
          CHECK(why->find(model_why) != std::string::npos);
          CHECK_FALSE(model_why.empty());
          ++model_declines;
        } else if (const SwitchingFunctions* sw = c.model->switching(); sw && !sw->impacts.empty() && info.impacts_by.empty()) {
          // Offered, on a model whose motion jumps (issue 48), to a method with no way to take a jump:
          // declined with the model's impacts in the method's name.
          CHECK(why->rfind(info.name + " declines " + c.model->name() + "'s " + form, 0) == 0);
          CHECK(why->find(sw->impacts) != std::string::npos);
          ++integrator_declines;
        } else {
          // Offered, so only the integrator can have declined the built form, with its reason.
          REQUIRE(info.why_not);
          std::string unused;
          const auto built = c.model->make_formulation(info.consumes, d, unused);
          REQUIRE(built);
          const std::string own = info.why_not(*built);
          CHECK_FALSE(own.empty());
          CHECK(why->rfind(info.name + " declines " + c.model->name() + "'s " + form, 0) == 0);
          CHECK(why->find(own) != std::string::npos);
          ++integrator_declines;
        }
        CHECK(other_integrators_named(*why, info.name).empty());
      }
  // Both kinds occur (the planar pendulum declines the Lie group ODE form; lgvi4 declines the
  // moving reel's LGVI form with the paper's one-sided rule), so both branches are exercised.
  CHECK(model_declines > 0);
  CHECK(integrator_declines > 0);
}
