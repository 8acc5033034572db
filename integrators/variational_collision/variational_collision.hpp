#pragma once
// The variational collision integrator (variational_collision.cpp; issue 48): RATTLE's discrete
// Lagrangian on the links held, the collision time of a link that closes solved inside the step
// (Fetecau, Marsden, Ortiz & West 2003).

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo variational_collision_info();

}  // namespace tb
