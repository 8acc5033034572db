#pragma once
// One conformance check's record: every assertion it made, passed or failed, with what it
// compared, so that one implementation serves two readers. The generic Catch2 tests
// (tests/test_integrators_generic.cpp, tests/test_models_generic.cpp) replay each assertion as a
// CHECK carrying the same message; `tetherbench check-plugin` prints one table row per check
// (conformance/plugin_check.hpp). The recorder follows Catch's two kinds: expect() records and
// goes on, require() records and, when it fails, ends the check (the later assertions depend on
// it). A check that does not apply to an entry (a trait it does not declare) says why instead.

#include <functional>
#include <string>
#include <vector>

#include "core/format.hpp"

namespace tb::conformance {

// A measured number in a check's text: three significant digits unless more are asked for.
inline std::string g(double x, int digits = 3) { return format_g(x, digits); }

struct Assertion {
  bool passed = false;
  std::string what;  // the context (fixture, formulation) and what was compared, with its numbers
};

class Check {
 public:
  enum class Result { Pass, Fail, NotApplicable };

  Check(std::string entry, std::string name) : entry_(std::move(entry)), name_(std::move(name)) {}
  const std::string& entry() const { return entry_; }  // "integrator rk3", "model spring_chain (fixture ...)"
  const std::string& name() const { return name_; }    // the check: "declared order", "failed step", ...

  // Records an assertion; returns `ok`.
  bool expect(bool ok, const std::string& what);
  // Records it, and ends the check when it fails (Catch's REQUIRE).
  void require(bool ok, const std::string& what);
  // The check does not apply to this entry; ends it.
  [[noreturn]] void not_applicable(const std::string& why);
  // The measured numbers, one line for the table (several calls join with "; ").
  void measured(const std::string& line);
  // A detail a reader may want (TB_GENERIC_REPORT prints them in the tests).
  void note(const std::string& line) { notes_.push_back(line); }

  // Context for the assertions made while it lives (Catch's INFO): prefixed to their text.
  class Scope {
   public:
    Scope(Check& check, std::string text);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Check& check_;
  };
  Scope context(std::string text) { return Scope(*this, std::move(text)); }

  const std::vector<Assertion>& assertions() const { return assertions_; }
  const std::string& measurements() const { return measured_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const std::string& why_not_applicable() const { return why_not_; }
  Result result() const;
  // The first failed assertion's text (Fail), why it does not apply (NotApplicable), or "".
  std::string reason() const;

  // Runs body(check); an exception escaping it (a check's code or the entry under test threw)
  // is a failed assertion naming it. With isolate_checks(true) (check-plugin: the code under test
  // is a plugin's) the body runs in a worker process (app/running/isolation.hpp): a crash or hang inside
  // one of its runs is that run's failure, and one outside every run a failed assertion naming
  // the signal and the plugin; the other checks go on.
  static Check run(std::string entry, std::string name, const std::function<void(Check&)>& body);
  static void isolate_checks(bool on);

 private:
  struct Stop {};
  static Check run_here(std::string entry, std::string name, const std::function<void(Check&)>& body);
  std::string bytes() const;              // what a worker sends back
  void read_bytes(const std::string& bytes);
  std::string prefixed(const std::string& what) const;
  std::string entry_, name_;
  std::vector<Assertion> assertions_;
  std::vector<std::string> context_;
  std::string measured_, why_not_;
  std::vector<std::string> notes_;
};

}  // namespace tb::conformance
