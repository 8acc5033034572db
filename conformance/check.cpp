#include "conformance/check.hpp"

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

Check Check::run(std::string entry, std::string name, const std::function<void(Check&)>& body) {
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
