#include "app/input/settings_doc.hpp"

#include "core/format.hpp"

namespace tb {

std::string format_setting_value(const SettingSpec& spec, double value) {
  return spec.integer ? std::to_string(static_cast<long long>(value)) : format_g(value, 6);
}

std::string format_setting_default(const SettingSpec& spec) {
  return spec.is_number() ? format_setting_value(spec, spec.default_value) : "\"" + spec.default_text + "\"";
}

namespace {
std::string md_cell(const std::string& s) {  // '|' would end the cell
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}
}  // namespace

std::string settings_markdown(const Catalogue& catalogue) {
  std::string out = "| integrator | key | default | valid values | meaning |\n|---|---|---|---|---|\n";
  for (const auto& info : catalogue.integrators) {
    for (const auto& s : info.settings)
      out += "| `" + info.name + "` | `" + s.name + "` | " + format_setting_default(s) + " | " +
             s.expectation() + " | " + md_cell(s.meaning) + " |\n";
  }
  return out;
}

}  // namespace tb
