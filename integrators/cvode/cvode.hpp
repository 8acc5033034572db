#pragma once
#include "core/integrator.hpp"
namespace tb {
// SUNDIALS CVODE on a model's embedded ODE: variable-order, variable-step BDF (1-5, Newton
// with a dense difference-quotient Jacobian or matrix-free GMRES) or Adams-Moulton (1-12,
// fixed-point iteration), with optional projection onto the form's invariant manifold
// (CVodeSetProjFn, BDF only). Derivation and choices in cvode.cpp.
IntegratorInfo cvode_info();
}  // namespace tb
