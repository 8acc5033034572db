// The integrators of the suite. Keep the list sorted by name.
// Adding an integrator: its folder under integrators/ and one line here.

#include "integrators/registry.hpp"

#include "integrators/cf4/cf4.hpp"
#include "integrators/cvode/cvode.hpp"
#include "integrators/generalized_alpha/generalized_alpha.hpp"
#include "integrators/ida/ida.hpp"
#include "integrators/lgvi/lgvi.hpp"
#include "integrators/lgvi4/lgvi4.hpp"
#include "integrators/lie_generalized_alpha/lie_generalized_alpha.hpp"
#include "integrators/moreau_jean/moreau_jean.hpp"
#include "integrators/nonsmooth_generalized_alpha/nonsmooth_generalized_alpha.hpp"
#include "integrators/nonsmooth_rattle/nonsmooth_rattle.hpp"
#include "integrators/rattle/rattle.hpp"
#include "integrators/rattle4/rattle4.hpp"
#include "integrators/rk2/rk2.hpp"
#include "integrators/rk4/rk4.hpp"
#include "integrators/rk45/rk45.hpp"
#include "integrators/rkf78/rkf78.hpp"
#include "integrators/rkmk4/rkmk4.hpp"
#include "integrators/rkmk45/rkmk45.hpp"
#include "integrators/variational_collision/variational_collision.hpp"

namespace tb {

std::vector<IntegratorInfo> integrator_registry() {
  return {
      cf4_info(),
      cvode_info(),
      generalized_alpha_info(),
      ida_info(),
      lgvi_info(),
      lgvi4_info(),
      lie_generalized_alpha_info(),
      moreau_jean_info(),
      nonsmooth_generalized_alpha_info(),
      nonsmooth_rattle_info(),
      rattle_info(),
      rattle4_info(),
      rk2_info(),
      rk4_info(),
      rk45_info(),
      rkmk4_info(),
      rkmk45_info(),
      variational_collision_info(),
  };
}

std::vector<IntegratorInfo> reference_solver_registry() {
  return {
      rkf78_info(),
  };
}

}  // namespace tb
