#pragma once
// The energy scale E_s of a case, the one every run and every stability-map probe of it is judged
// against (core/stability_criterion.hpp): the largest kinetic energy of the case's motion over its
// start-up window, the model's slowest period (the case's t_end when shorter or undeclared),
// measured on the case's reference solution, a property of the case and not of the run judged.
// Why not the run's own: a run that blows up within the start-up (a stability-map probe above
// h_max) would set E_s from its own blow-up (6.87e3 J for a 2.6 J motion) and pass.
//
// The reference solution here is the catalogue's reference solver (Case::scale_solver) on the
// model's ODE form of the run's discretisation at rtol 1e-10, atol 1e-12: the maximum kinetic
// energy needs three digits, not the 1e-13 of the stored references, and costs one slowest
// period per case and discretisation, once per process (memoised by model).
#include <string>

#include "core/stability_criterion.hpp"
#include "app/input/case.hpp"

namespace tb {

inline constexpr double kEnergyScaleRtol = 1e-10;
inline constexpr double kEnergyScaleAtol = 1e-12;

// E_s with its source ("max KE over the first 1.78 s of the reference solution (dop853, rtol
// 1e-10)"), or an unset EnergyScale (the monitor then takes the run's own, and says so) where the
// case has no reference solver, the model no ODE form of that discretisation, or the reference
// run fails.
EnergyScale case_energy_scale(const Case& c, const std::string& discretisation);

}  // namespace tb
