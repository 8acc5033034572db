#pragma once
// The four parameters of the generalized-alpha family (Chung & Hulbert 1993), shared by the
// schemes that use them (generalized_alpha in natural coordinates, lie_generalized_alpha on the
// Lie group ODE form): the same rho_inf means the same method in both.

#include <string>

#include "core/integrator.hpp"

namespace tb {

// The default spectral radius at infinity of both schemes: mild damping of the unresolved modes.
inline constexpr double kDefaultRhoInf = 0.9;

// The setting `rho_inf` in [0, 1], default kDefaultRhoInf; `about_one` is what the scheme adds
// about rho_inf = 1 (after "no numerical dissipation").
SettingSpec rho_inf_setting(const std::string& about_one);

// The scheme's four parameters, from the spectral radius at infinity rho_inf (Chung-Hulbert
// eqs. (17), (20), (25)) or, with hht, from the HHT-alpha family they contain (alpha_m = 0).
struct GeneralizedAlphaParameters {
  double alpha_m = 0.0, alpha_f = 0.0, gamma = 0.0, beta = 0.0;
  static GeneralizedAlphaParameters from_rho_inf(double rho_inf);
  // HHT-alpha (Hilber-Hughes-Taylor 1977) with its alpha in [-1/3, 0]: alpha_m = 0,
  // alpha_f = -alpha, gamma = 1/2 - alpha, beta = (1 - alpha)^2 / 4; rho_inf = (1 + alpha)/(1 - alpha).
  static GeneralizedAlphaParameters hht(double alpha);
  // The HHT alpha with spectral radius rho_inf in [1/2, 1]: alpha = (rho_inf - 1)/(rho_inf + 1).
  static double hht_alpha_of(double rho_inf) { return (rho_inf - 1.0) / (rho_inf + 1.0); }
  // Spectral radius of the scheme's amplification matrix on the undamped oscillator
  // x'' = -w^2 x at Omega = h w (the 3x3 map (x, v, a)_n -> (x, v, a)_{n+1}): the tests check
  // rho(Omega -> infinity) = rho_inf and rho(Omega -> 0) = 1.
  double spectral_radius(double Omega) const;
};

}  // namespace tb
