#pragma once
#include "core/integrator.hpp"
namespace tb {
// Variable-order (1..5), variable-step BDF of SUNDIALS IDA on a model's index-1 DAE (SPEC
// "Formulations"): Baumgarte-stabilised constraints (seed 004 §§2-3), or the implicit ODE
// M v' = f of a system without constraints (the Baumgarte settings are then refused:
// IntegratorInfo::idle_setting), with the model's analytic Jacobian.
IntegratorInfo ida_info();

// The Jacobian storage IDA is given with sparse = 0 (with sparse = 1, the default, it is KLU's
// compressed columns): band (SUNDIALS band matrix and band LU) when the band lower + upper + 1 is
// under half the size, dense otherwise. Exposed for the tests.
bool ida_uses_band_solver(int size, int lower_bandwidth, int upper_bandwidth);

// The consistency check at t0 (instead of IDACalcIC, see ida.cpp): the model's y0, y'0 are
// accepted when ||F(t0, y0, y'0)||_inf <= kIdaConsistencyTolerance (1 + ||y0||_inf + ||y'0||_inf).
constexpr double kIdaConsistencyTolerance = 1e-8;
}  // namespace tb
