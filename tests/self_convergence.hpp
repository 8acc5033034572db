#pragma once
// Measured order of a fixed-step integrator by self-convergence on one formulation, for
// methods whose errors fall below what a reference solution resolves (the 4th-order
// compositions lgvi4 and rattle4): e(h) = |y_h(T) - y_{h/2}(T)|∞ / max(1, |y_0|∞) of the
// physical state, fitted over h0, h0/2, h0/4 with T = 16 h0. h0 is the first of h_start · 2^k
// (k = 0..6) at which the difference reaches 1e-6 (or the largest at which the method runs),
// so that the sweep stays above round-off (and above the LGVI step's accuracy floor at small
// steps on Model C, cases/README.md "lgvi4"); fixtures' own steps are far smaller than the
// slow models need.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace tb::testing {

struct SelfConvergence {
  double order = 0.0, h0 = 0.0, T = 0.0, first_difference = 0.0, last_difference = 0.0;
};

// `configure` adjusts the settings of each run (e.g. the composition scheme).
template <class Configure>
SelfConvergence self_convergence(const Formulation& form, const IntegratorInfo& info, double h_start,
                                 Configure&& configure) {
  auto final_state = [&](double h, double T, bool& ok) {
    IntegratorSettings s = settings_of(info, h);
    configure(s);
    const IntegrationOutcome out = integrate(form, info, s, T, T, {});
    ok = out.ok();
    return ok ? Eigen::VectorXd(form.physical_state(out.final_state)) : Eigen::VectorXd();
  };
  auto max_abs = [](const Eigen::VectorXd& v) { return v.lpNorm<Eigen::Infinity>(); };
  const double scale = std::max(1.0, max_abs(form.physical_state(form.initial_state())));
  double h0 = h_start;
  for (int k = 0; k <= 6; ++k) {
    const double h = h_start * std::pow(2.0, k);
    bool ok1 = false, ok2 = false;
    const Eigen::VectorXd a = final_state(h, 16 * h, ok1), b = final_state(h / 2, 16 * h, ok2);
    if (!ok1 || !ok2) break;
    h0 = h;
    if (max_abs(a - b) >= 1e-6 * scale) break;
  }
  SelfConvergence out;
  out.h0 = h0;
  out.T = 16 * h0;
  std::vector<double> hs, errs;
  bool ok = false;
  Eigen::VectorXd coarse = final_state(h0, out.T, ok);
  REQUIRE(ok);
  for (int i = 1; i <= 3; ++i) {
    const double h = h0 / std::pow(2.0, i);
    const Eigen::VectorXd fine = final_state(h, out.T, ok);
    REQUIRE(ok);
    hs.push_back(2.0 * h);
    errs.push_back(max_abs(coarse - fine) / scale);
    coarse = fine;
  }
  out.order = fitted_order(hs, errs);
  out.first_difference = errs.front();
  out.last_difference = errs.back();
  return out;
}

}  // namespace tb::testing
