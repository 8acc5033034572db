#include "app/running/energy_scale.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "core/format.hpp"
#include "app/running/integrate.hpp"

namespace tb {

namespace {

EnergyScale compute(const Case& c, const std::string& discretisation) {
  const IntegratorInfo& solver = *c.scale_solver;
  double window = c.model->slowest_period_s();
  if (!(window > 0.0) || window > c.t_end) window = c.t_end;
  std::string why_not;
  std::unique_ptr<Formulation> form;
  try {
    form = c.model->make_formulation(FormulationKind::EmbeddedOde, discretisation, why_not);
  } catch (const std::exception&) {
    return {};
  }
  if (!form) return {};
  IntegratorSettings s = IntegratorSettings::defaults(solver.settings, c.h);
  s.set_tolerances({kEnergyScaleRtol, kEnergyScaleAtol});
  double ke_max = 0.0;
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    (void)t;
    ke_max = std::max(ke_max, form->observe(t, y).kinetic);
  };
  const IntegrationOutcome run = integrate(*form, solver, s, window, std::min(c.sample_interval, window), observer);
  if (!run.ok() || !(ke_max > 0.0) || !std::isfinite(ke_max)) return {};
  return {ke_max, "max KE over the first " + format_g(window, 3) + " s of the case's reference solution (" + solver.name +
                      ", rtol " + format_g(kEnergyScaleRtol, 2) + ")"};
}

}  // namespace

EnergyScale case_energy_scale(const Case& c, const std::string& discretisation) {
  if (!c.scale_solver || !c.model) return {};
  // One per model object and discretisation, for the life of the process: a model variant (a
  // sweep's parameter) is another object with its own scale. weak_ptr keys never alias a freed
  // model (its control block lives while the key does).
  using Key = std::pair<std::weak_ptr<const Model>, std::string>;
  struct Less {
    bool operator()(const Key& a, const Key& b) const {
      if (a.first.owner_before(b.first)) return true;
      if (b.first.owner_before(a.first)) return false;
      return a.second < b.second;
    }
  };
  // The first job to ask computes it (outside the lock: other cases go on meanwhile); a job that
  // asks meanwhile waits for that result instead of computing it again (a sweep's variant is
  // asked for by every integrator's job at once: the reference run over one slowest period of a
  // string of 80 elements took 1.5 s on each of the two workers that started together).
  static std::mutex mutex;
  static std::map<Key, std::shared_future<EnergyScale>, Less> memo;
  const Key key{c.model, discretisation};
  std::promise<EnergyScale> promise;
  std::shared_future<EnergyScale> result;
  bool computes = false;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = memo.find(key); it != memo.end()) {
      result = it->second;
    } else {
      result = promise.get_future().share();
      memo.emplace(key, result);
      computes = true;
    }
  }
  if (computes) {
    try {
      promise.set_value(compute(c, discretisation));
    } catch (...) {
      promise.set_exception(std::current_exception());  // the waiters see what this job sees
    }
  }
  return result.get();
}

}  // namespace tb
