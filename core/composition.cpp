#include "core/composition.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/format.hpp"

namespace tb {

std::vector<double> fourth_order_composition(const std::string& scheme) {
  if (scheme == kYoshida) {
    const double c = std::cbrt(2.0), g1 = 1.0 / (2.0 - c);
    return {g1, -c * g1, g1};
  }
  if (scheme == kSuzuki) {
    const double p = 1.0 / (4.0 - std::cbrt(4.0));
    return {p, p, 1.0 - 4.0 * p, p, p};
  }
  throw std::invalid_argument("composition scheme '" + scheme + "' is not " + kSuzuki + " or " + kYoshida);
}

SettingSpec composition_scheme_setting(const std::string& base) {
  SettingSpec s = word_setting("scheme",
                               "composition of " + base + " steps: suzuki, Suzuki's 5-stage fractal (5 substeps, γ = "
                               "0.415 ×4 around −0.658); yoshida, Yoshida's triple jump (3 substeps, γ = 1.351, −1.702, "
                               "1.351)",
                               {kSuzuki, kYoshida}, kSuzuki);
  // The setting was the integer 1 (Suzuki) or 0 (Yoshida) before it was a word.
  s.former_codes = {kYoshida, kSuzuki};
  return s;
}

SymmetricComposition::SymmetricComposition(double t0, double h, Eigen::VectorXd y0, std::vector<double> gamma)
    : FixedStepStepper(t0, h, std::move(y0)), gamma_(std::move(gamma)) {}

bool SymmetricComposition::advance(double h, Eigen::VectorXd& next, StepFailure& failure) {
  const Eigen::VectorXd* from = &y_;
  double t = t_;
  for (std::size_t i = 0; i < gamma_.size(); ++i) {
    Eigen::VectorXd& to = i % 2 == 0 ? a_ : b_;
    if (!substep(i, t, gamma_[i] * h, *from, to, failure)) {
      failure.reason = "substep " + std::to_string(i + 1) + " of " + std::to_string(gamma_.size()) + " (h' = " +
                       format_g(gamma_[i], 4) + " h): " + failure.reason;
      return false;  // nothing accepted: time, state and the base step's history as they were
    }
    t += gamma_[i] * h;
    from = &to;
  }
  accept();
  next = *from;
  return true;
}

}  // namespace tb
