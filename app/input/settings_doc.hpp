#pragma once
// The integrators' settings as documentation, generated from their declarations: the
// Markdown table in cases/README.md is this text (a test checks they match; regenerate it
// with `tetherbench list --settings-table`).
#include <string>

#include "app/input/catalogue.hpp"

namespace tb {
std::string format_setting_value(const SettingSpec& spec, double value);
// The default as `list` and the table print it: a number, or a word or text in quotes.
std::string format_setting_default(const SettingSpec& spec);
std::string settings_markdown(const Catalogue& catalogue);
}  // namespace tb
