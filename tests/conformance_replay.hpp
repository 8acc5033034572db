#pragma once
// The generic tests run the shared conformance checks (conformance/: the same code as
// `tetherbench check-plugin`) and replay every assertion a check made as a Catch2 CHECK with the
// check's own message, so that a failure reads the same here and in check-plugin's table.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include "conformance/check.hpp"

namespace tb::testing {

// Set TB_GENERIC_REPORT=1 to print every measured value the checks note.
inline bool generic_reporting() {
  static const bool on = std::getenv("TB_GENERIC_REPORT") != nullptr;
  return on;
}

// Every assertion of `check` as a CHECK. A check that does not apply counts as one passing
// assertion when `succeed_when_not_applicable` (the tests that said so with SUCCEED).
inline void replay(const conformance::Check& check, bool succeed_when_not_applicable = false) {
  for (const auto& a : check.assertions()) {
    INFO(check.entry() << ", " << check.name() << ": " << a.what);
    CHECK(a.passed);
  }
  if (succeed_when_not_applicable && check.result() == conformance::Check::Result::NotApplicable)
    SUCCEED(check.why_not_applicable());
  if (generic_reporting())
    for (const auto& note : check.notes()) std::printf("  %-40s %s\n", check.entry().c_str(), note.c_str());
}

}  // namespace tb::testing
