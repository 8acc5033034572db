#include "conformance/check.hpp"

#include "app/running/isolation.hpp"
#include "app/running/job_result.hpp"

#include <exception>

namespace tb::conformance {

std::string Check::prefixed(const std::string& what) const {
  std::string out;
  for (const auto& c : context_) out += c + ": ";
  return out + what;
}

bool Check::expect(bool ok, const std::string& what) {
  assertions_.push_back({ok, prefixed(what)});
  return ok;
}

void Check::require(bool ok, const std::string& what) {
  if (!expect(ok, what)) throw Stop{};
}

void Check::not_applicable(const std::string& why) {
  why_not_ = why;
  throw Stop{};
}

void Check::measured(const std::string& line) { measured_ += (measured_.empty() ? "" : "; ") + line; }

Check::Scope::Scope(Check& check, std::string text) : check_(check) { check_.context_.push_back(std::move(text)); }
Check::Scope::~Scope() { check_.context_.pop_back(); }

Check::Result Check::result() const {
  for (const auto& a : assertions_)
    if (!a.passed) return Result::Fail;
  // A check that asserted nothing has not shown conformance: it must have said why it does not apply.
  if (!why_not_.empty() || assertions_.empty()) return Result::NotApplicable;
  return Result::Pass;
}

std::string Check::reason() const {
  for (const auto& a : assertions_)
    if (!a.passed) return a.what;
  if (!why_not_.empty()) return why_not_;
  return assertions_.empty() ? "nothing was checked" : "";
}

namespace {
bool g_isolate_checks = false;
}  // namespace

void Check::isolate_checks(bool on) { g_isolate_checks = on; }

std::string Check::bytes() const {
  ResultWriter w;
  w << long(assertions_.size());
  for (const auto& a : assertions_) w << a.passed << a.what;
  w << measured_ << why_not_ << notes_;
  return w.bytes();
}

void Check::read_bytes(const std::string& bytes) {
  ResultReader r(bytes);
  long n = 0;
  r >> n;
  assertions_.assign(size_t(n), {});
  for (auto& a : assertions_) r >> a.passed >> a.what;
  r >> measured_ >> why_not_ >> notes_;
  r.expect_end();
}

Check Check::run(std::string entry, std::string name, const std::function<void(Check&)>& body) {
  if (!isolates(g_isolate_checks)) return run_here(std::move(entry), std::move(name), body);
  Check check(entry, name);
  try {
    check.read_bytes(run_maybe_isolated(true, "check '" + name + "' of " + entry,
                                        [&] { return run_here(entry, name, body).bytes(); }));
  } catch (const JobCrashed& e) {  // outside every run of the check: its one failed assertion
    check.expect(false, e.what());
  }
  return check;
}

Check Check::run_here(std::string entry, std::string name, const std::function<void(Check&)>& body) {
  Check check(std::move(entry), std::move(name));
  try {
    body(check);
  } catch (const Stop&) {
  } catch (const std::exception& e) {
    check.context_.clear();
    check.expect(false, std::string("threw: ") + e.what());
  } catch (...) {
    check.context_.clear();
    check.expect(false, "threw an exception that is not a std::exception");
  }
  return check;
}

}  // namespace tb::conformance
