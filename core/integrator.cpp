#include "core/integrator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/format.hpp"

namespace tb {

namespace {
std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "\"" : ", \"") + w + "\"";
  return out;
}
}  // namespace

std::string SettingSpec::expectation() const {
  if (type == Type::Word) return "one of the words " + quoted_list(words);
  if (type == Type::Text) return "a non-empty text on one line";
  const std::string what = integer ? "an integer" : "a finite number";
  const std::string lo = format_g(lower, 6), hi = format_g(upper, 6);
  if (std::isinf(upper)) return what + (lower_inclusive ? " >= " : " > ") + lo;
  return what + " in " + (lower_inclusive ? "[" : "(") + lo + ", " + hi + "]";
}

bool SettingSpec::accepts(double value) const {
  if (type != Type::Number) return false;
  if (!std::isfinite(value)) return false;
  if (integer && value != std::floor(value)) return false;
  if (lower_inclusive ? value < lower : value <= lower) return false;
  return value <= upper;
}

bool SettingSpec::accepts(const std::string& value) const {
  if (type == Type::Word) return std::find(words.begin(), words.end(), value) != words.end();
  if (type == Type::Text)
    return !value.empty() && std::none_of(value.begin(), value.end(), [](unsigned char ch) { return ch < 0x20; });
  return false;
}

SettingSpec positive_setting(std::string name, std::string meaning, double default_value) {
  return {std::move(name), std::move(meaning), default_value, 0.0, false};
}
SettingSpec non_negative_setting(std::string name, std::string meaning, double default_value) {
  return {std::move(name), std::move(meaning), default_value, 0.0, true};
}
SettingSpec positive_integer_setting(std::string name, std::string meaning, int default_value) {
  SettingSpec s{std::move(name), std::move(meaning), double(default_value), 1.0, true};
  s.upper = 1e9;
  s.integer = true;
  return s;
}

SettingSpec switch_setting(std::string name, std::string meaning, int default_value) {
  SettingSpec s{std::move(name), std::move(meaning), double(default_value), 0.0, true};
  s.upper = 1.0;
  s.integer = true;
  return s;
}

SettingSpec word_setting(std::string name, std::string meaning, std::vector<std::string> words, std::string default_word) {
  SettingSpec s{std::move(name), std::move(meaning)};
  s.type = SettingSpec::Type::Word;
  s.words = std::move(words);
  s.default_text = std::move(default_word);
  return s;
}

SettingSpec text_setting(std::string name, std::string meaning, std::string default_text) {
  SettingSpec s{std::move(name), std::move(meaning)};
  s.type = SettingSpec::Type::Text;
  s.default_text = std::move(default_text);
  return s;
}

std::vector<SettingSpec> newton_settings(std::string tol_meaning, double tol_default, int max_iters_default) {
  return {positive_setting("newton_tol", std::move(tol_meaning), tol_default),
          positive_integer_setting("max_newton_iters", "Newton iterations before the step is declared failed",
                                   max_iters_default)};
}

namespace {
// The keys of the error tolerances, as users write them ([integrators.NAME] rtol = ..., --set NAME.rtol=...).
constexpr const char* kRtolKey = "rtol";
constexpr const char* kAtolKey = "atol";
}  // namespace

std::vector<SettingSpec> error_tolerance_settings(std::string rtol_meaning, double rtol_default, std::string atol_meaning,
                                                  double atol_default) {
  return {positive_setting(kRtolKey, std::move(rtol_meaning), rtol_default),
          positive_setting(kAtolKey, std::move(atol_meaning), atol_default)};
}

SettingSpec max_step_setting() {
  return non_negative_setting(kMaxStepKey,
                              "largest step the error control may take (s), as MATLAB's MaxStep: the controller never "
                              "proposes a step above it; 0: no cap",
                              0.0);
}

SettingSpec locate_events_setting() {
  return switch_setting(kLocateEventsKey,
                        "1: stop a step at the first zero of the model's switching functions (a tension-only element "
                        "going slack or taut) and restart there; 0: step through the kink. Idle where the model has none",
                        0);
}

std::string idle_locate_events(const std::string& key, const Formulation& form) {
  if (key != kLocateEventsKey) return "";
  if (form.has_impacts())
    return "the model's motion jumps at its switches (" + form.switching()->impacts +
           "): its events are always located, whatever the setting says";
  if (form.switching_count() > 0) return "";
  return "the model declares no switching functions (its equations have no kink to locate: a cable that can push)";
}

bool locates_events(const IntegratorSettings& s, const Formulation& form) {
  return form.switching_count() > 0 && (form.has_impacts() || s.locate_events());
}

bool IntegratorSettings::declares_tolerances() const { return declares(kRtolKey) && declares(kAtolKey); }

ErrorTolerances IntegratorSettings::tolerances() const { return {get(kRtolKey), get(kAtolKey)}; }

void IntegratorSettings::set_tolerances(const ErrorTolerances& tolerances) {
  set(kRtolKey, tolerances.rtol);
  set(kAtolKey, tolerances.atol);
}

double IntegratorSettings::get(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end())
    throw std::logic_error("integrator setting '" + key + "' is read as a number but " +
                           (words_.count(key) ? "declared as a word or text (read it with word())" : "not declared"));
  return it->second;
}

void IntegratorSettings::set(const std::string& key, double value) {
  const auto it = values_.find(key);
  if (it == values_.end())
    throw std::logic_error("integrator setting '" + key + "' is set as a number but " +
                           (words_.count(key) ? "declared as a word or text (set it with set_word())" : "not declared"));
  it->second = value;
}

const std::string& IntegratorSettings::word(const std::string& key) const {
  const auto it = words_.find(key);
  if (it == words_.end())
    throw std::logic_error("integrator setting '" + key + "' is read as a word but " +
                           (values_.count(key) ? "declared as a number (read it with get())" : "not declared"));
  return it->second;
}

void IntegratorSettings::set_word(const std::string& key, const std::string& value) {
  const auto it = words_.find(key);
  if (it == words_.end())
    throw std::logic_error("integrator setting '" + key + "' is set as a word but " +
                           (values_.count(key) ? "declared as a number (set it with set())" : "not declared"));
  it->second = value;
}

std::string IntegratorSettings::shown(const std::string& key) const {
  if (const auto it = words_.find(key); it != words_.end()) return "\"" + it->second + "\"";
  return format_g(get(key));
}

IntegratorSettings IntegratorSettings::defaults(const std::vector<SettingSpec>& specs, double h) {
  IntegratorSettings s;
  s.h = h;
  for (const auto& spec : specs) {
    if (spec.is_number()) s.values_[spec.name] = spec.default_value;
    else s.words_[spec.name] = spec.default_text;
  }
  return s;
}

// x * 0 is 0 for every finite x and NaN for NaN and +-Inf, so the sum is 0 exactly when every
// entry is finite: one vectorised pass, where Eigen's allFinite() compares entry by entry (it
// was 3% of a variational integrator step on the cable model, called on every Newton residual).
bool all_finite(const Eigen::VectorXd& y) { return (y.array() * 0.0).sum() == 0.0; }

}  // namespace tb
