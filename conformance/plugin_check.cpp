#include "conformance/plugin_check.hpp"

#include <algorithm>

namespace tb::conformance {

std::vector<Check> check_plugin(const Catalogue::Plugin& plugin, const Catalogue& catalogue, const IntegratorBench& bench,
                                const std::vector<ModelFixture>& fixtures) {
  std::vector<Check> out;
  Check::isolate_checks(true);  // the code under test is the plugin's: a crash fails its check only
  for (const auto& entry : plugin.entries) {
    const std::string kind = entry.substr(0, entry.find(' ')), name = entry.substr(entry.find(' ') + 1);
    if (kind == "integrator") {
      const IntegratorInfo* info = catalogue.find_integrator(name);
      for (auto& c : check_integrator(*info, bench)) out.push_back(std::move(c));
    } else if (kind == "model") {
      int given = 0;
      for (const auto& fixture : fixtures)
        if (fixture.model == name) {
          ++given;
          for (auto& c : check_model(fixture, catalogue)) out.push_back(std::move(c));
        }
      if (given == 0)
        out.push_back(Check::run(entry, "fixture case", [&](Check& c) {
          c.require(false, "no fixture case: give a small case file of model " + name +
                               " (moving, away from symmetric configurations) with --fixture FILE");
        }));
    } else {
      out.push_back(Check::run(entry, "not checked", [&](Check& c) {
        c.not_applicable("a study has no generic contract (what it plans and writes is its own)");
      }));
    }
  }
  return out;
}

std::string format_checks(const std::vector<Check>& checks) {
  std::size_t entry_width = 5, check_width = 5;
  for (const auto& c : checks) {
    entry_width = std::max(entry_width, c.entry().size());
    check_width = std::max(check_width, c.name().size());
  }
  auto pad = [](std::string s, std::size_t width) { return s.append(width > s.size() ? width - s.size() : 0, ' '); };
  std::string out = pad("entry", entry_width) + "  " + pad("check", check_width) + "  result  details\n";
  int passed = 0, failed = 0, not_applicable = 0;
  for (const auto& c : checks) {
    std::string result, details;
    switch (c.result()) {
      case Check::Result::Pass:
        ++passed;
        result = "pass";
        details = c.measurements();
        break;
      case Check::Result::Fail:
        ++failed;
        result = "FAIL";
        details = c.reason() + (c.measurements().empty() ? "" : " [" + c.measurements() + "]");
        break;
      case Check::Result::NotApplicable:
        ++not_applicable;
        result = "n/a";
        details = c.reason();
        break;
    }
    out += pad(c.entry(), entry_width) + "  " + pad(c.name(), check_width) + "  " + pad(result, 6) + "  " + details + "\n";
  }
  out += std::to_string(checks.size()) + " checks: " + std::to_string(passed) + " passed, " + std::to_string(failed) +
         " failed, " + std::to_string(not_applicable) + " not applicable\n";
  return out;
}

bool all_passed(const std::vector<Check>& checks) {
  return std::none_of(checks.begin(), checks.end(), [](const Check& c) { return c.result() == Check::Result::Fail; });
}

}  // namespace tb::conformance
