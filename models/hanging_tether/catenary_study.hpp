#pragma once
// The catenary check (seed 003 Remark 1: the N-link cable's static curve converges to the
// analytic catenary as N grows): for each N, the static equilibrium of the case's
// discretisation against Irvine's elastic catenary for the same L, mu, EA and anchors, with
// the error max_j |r_j - catenary(j L/N)| and the observed rate between successive N.
// The computation behind the catenary study (studies/catenary/catenary.cpp).

#include <string>
#include <vector>

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

struct CatenaryPoint {
  int N = 0;
  double max_error = 0.0;         // m
  double rate = 0.0;              // log(e_prev/e)/log(N/N_prev); NaN for the first N
  int newton_iterations = 0;      // of the static solve
  double horizontal_tension = 0;  // H of the discrete equilibrium (N), the x-force of element 0
};

struct CatenaryStudy {
  std::string case_name;
  Discretisation discretisation = Discretisation::Full;
  double analytic_horizontal_tension = 0.0;  // H of the elastic catenary (N)
  std::vector<CatenaryPoint> points;
  double fitted_rate = 0.0;  // least-squares slope of -log(error) against log(N), all points
};

// 4, 8, ..., 256: the slides' lumped model reaches its asymptotic rate only beyond N = 64.
const std::vector<int>& default_catenary_elements();

// `base` with N replaced by each entry of `elements` (each >= 2, increasing).
CatenaryStudy catenary_convergence(const Parameters& base, const std::vector<int>& elements,
                                   const std::string& case_name = "");

// CSV: case,discretisation,elements,max_error_m,rate,fitted_rate,newton_iterations,
// horizontal_tension_N,analytic_horizontal_tension_N. Creates the parent folder.
void write_catenary_csv(const std::string& path, const std::vector<CatenaryStudy>& studies);

}  // namespace tb::hanging_tether
