// The list of integrators the runner pairs with every case. Keep it sorted by name.
// Adding an integrator: its folder under integrators/ and one line here.

#include "integrators/integrator.hpp"
#include "integrators/ida/ida.hpp"
#include "integrators/lgvi/lgvi.hpp"
#include "integrators/lumped_rk2/lumped_rk2.hpp"
#include "integrators/rk4/rk4.hpp"
#include "integrators/rk45/rk45.hpp"

namespace tb {

const std::vector<IntegratorInfo>& integrator_registry() {
  static const std::vector<IntegratorInfo> registry = {
      ida_info(),
      lgvi_info(),
      lumped_rk2_info(),
      rk4_info(),
      rk45_info(),
  };
  return registry;
}

const IntegratorInfo* find_integrator(const std::string& name) {
  for (const auto& info : integrator_registry())
    if (info.name == name) return &info;
  return nullptr;
}

bool all_finite(const Eigen::VectorXd& y) { return y.allFinite(); }

}  // namespace tb
