// The snap study's advice (studies/snap/cheapest_runs.cpp) on made-up runs whose runtimes and errors
// are set here: which method it names cheapest, which it leaves unranked (runtimes within a factor 2,
// of the cheapest or of the next method), the cheapest fixed step beside an adaptive cheapest (the
// issue's "at what step", or that none reached the target), and what it says of a method that reached no target.

#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "studies/snap/cheapest_runs.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::snap;

namespace {

// The first adaptive integrator of the registry and the first two fixed-step ones.
struct Roles {
  const IntegratorInfo* adaptive = nullptr;
  const IntegratorInfo* fixed[2] = {nullptr, nullptr};
};

Roles roles() {
  Roles r;
  for (const IntegratorInfo& info : testing::catalogue().integrators) {
    if (info.adaptive && !r.adaptive) r.adaptive = &info;
    if (!info.adaptive) {
      if (!r.fixed[0]) r.fixed[0] = &info;
      else if (!r.fixed[1]) r.fixed[1] = &info;
    }
  }
  REQUIRE(r.adaptive);
  REQUIRE(r.fixed[1]);
  return r;
}

SnapPoint point(const Case& c, const IntegratorInfo* info, double setting, double runtime, bool failed = false) {
  SnapPoint p;
  p.key = RunKey{&c, info, c.model->default_discretisation()};
  (info->adaptive ? p.rtol : p.h) = setting;
  p.measured.runtime_s = runtime;
  if (failed) p.measured.outcome.kind = RunOutcome::Kind::Failed;
  return p;
}

std::vector<std::string> advise(const std::vector<SnapPoint>& points, const std::map<const SnapPoint*, double>& error) {
  std::vector<const SnapPoint*> of_case;
  for (const SnapPoint& p : points) of_case.push_back(&p);
  CheapestRunsRules rules;
  rules.targets = {1e-2};
  rules.error = [&](const SnapPoint& p) { return error.at(&p); };
  rules.counts = [](const SnapPoint&) { return true; };
  rules.counts_words = "(test)";
  std::ostringstream md;
  return write_cheapest_runs(md, of_case, rules);
}

}  // namespace

TEST_CASE("snap advice: nobody ranked within a factor 2 of the next method, the cheapest fixed step beside an adaptive "
          "cheapest, and a method that reached nothing says whether its runs failed",
          "[snap][advice]") {
  const Roles r = roles();
  const Case c = testing::bundled_cases().front();
  const std::string A = r.adaptive->name, F0 = r.fixed[0]->name, F1 = r.fixed[1]->name;
  {
    // Adaptive 1 s; fixed 3 s and 4 s, within a factor 2 of each other: the second is not ranked below the first.
    const std::vector<SnapPoint> pts{point(c, r.adaptive, 1e-6, 1.0), point(c, r.fixed[0], 1e-3, 3.0), point(c, r.fixed[1], 1e-3, 4.0)};
    const auto words = advise(pts, {{&pts[0], 1e-3}, {&pts[1], 1e-3}, {&pts[2], 1e-3}});
    REQUIRE(words.size() == 1);
    INFO(words[0]);
    CHECK(words[0].find("3× faster than the next method's cheapest, " + F0) != std::string::npos);
    CHECK(words[0].find("not resolved from " + F1) != std::string::npos);
    CHECK(words[0].find("(within a factor 2 of " + F0 + ")") != std::string::npos);
    CHECK(words[0].find("the cheapest fixed step") == std::string::npos);  // already named
  }
  {
    // Adaptive 1 s and 1.5 s (unresolved), fixed 10 s: the cheapest fixed step is named with its ratio.
    const IntegratorInfo* second_adaptive = nullptr;
    for (const IntegratorInfo& info : testing::catalogue().integrators)
      if (info.adaptive && &info != r.adaptive) second_adaptive = &info;
    REQUIRE(second_adaptive);
    const std::vector<SnapPoint> pts{point(c, r.adaptive, 1e-6, 1.0), point(c, second_adaptive, 1e-6, 1.5),
                                     point(c, r.fixed[0], 1e-3, 10.0)};
    const auto words = advise(pts, {{&pts[0], 1e-3}, {&pts[1], 1e-3}, {&pts[2], 1e-3}});
    INFO(words[0]);
    CHECK(words[0].find("the cheapest fixed step: " + F0 + " at h = 0.001 (10 s), 10× the cheapest's time") != std::string::npos);
    CHECK(words[0].find("faster than the next method's cheapest") == std::string::npos);
  }
  {
    // A fixed-step method with one failed run and one run short of the target: both said.
    const std::vector<SnapPoint> pts{point(c, r.adaptive, 1e-6, 1.0), point(c, r.fixed[0], 1e-3, 2.0, true),
                                     point(c, r.fixed[0], 5e-4, 4.0)};
    std::vector<const SnapPoint*> of_case{&pts[0], &pts[1], &pts[2]};
    CheapestRunsRules rules;
    rules.targets = {1e-2};
    rules.error = [&](const SnapPoint& p) { return &p == &pts[2] ? 0.1 : 1e-3; };
    rules.counts = [](const SnapPoint&) { return true; };
    std::ostringstream md;
    const auto words = write_cheapest_runs(md, of_case, rules);
    INFO(md.str());
    CHECK(md.str().find("not reached (1 of its 2 runs failed; none of the others qualified)") != std::string::npos);
    REQUIRE(words.size() == 1);
    CHECK(words[0].find("no fixed step reached it") != std::string::npos);
  }
}
