#pragma once
#include <vector>

#include "core/integrator.hpp"

namespace tb {

IntegratorInfo lgvi4_info();

// The substep fractions γ_1..γ_s of lgvi4's composition `scheme` (0: Yoshida's triple jump,
// 1: Suzuki's 5-stage fractal): a step of size h is the LGVI's steps of sizes γ_1 h, ..., γ_s h.
std::vector<double> lgvi4_coefficients(int scheme);

}  // namespace tb
