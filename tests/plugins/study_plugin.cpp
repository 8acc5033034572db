// A study from a plugin (links tetherbench::app): the energy of every case's initial state in
// its model's ODE form, one job per case, written to initial_energy.csv. It takes part in
// `study`, `report`, MPI runs and --resume like a built-in study (tests/install_examples.sh).
#include <cmath>
#include <fstream>
#include <memory>

#include "app/input/case.hpp"
#include "app/running/job_result.hpp"
#include "app/input/study.hpp"
#include "core/plugin.hpp"

namespace {

class InitialEnergy final : public tb::Study {
 public:
  std::vector<tb::StudyJob> plan(const tb::StudyContext& context) override {
    energies_.assign(context.cases->size(), 0.0);
    std::vector<tb::StudyJob> jobs;
    for (size_t i = 0; i < context.cases->size(); ++i) {
      const tb::Case& c = (*context.cases)[i];
      jobs.push_back(tb::result_job<double>(c.name + " | initial energy", 1.0, tb::case_inputs(c),
                                            [&c] {
                                              std::string why_not;
                                              auto ode = c.model->make_formulation(tb::FormulationKind::EmbeddedOde, why_not);
                                              return ode ? ode->observe(0.0, ode->initial_state()).energy : std::nan("");
                                            },
                                            energies_[i]));
    }
    return jobs;
  }
  std::vector<std::string> write(const tb::StudyContext& context) override {
    const std::string path = context.out_dir + "/initial_energy.csv";
    std::ofstream out(path);
    out << "case,energy_J\n";
    for (size_t i = 0; i < context.cases->size(); ++i) out << (*context.cases)[i].name << "," << energies_[i] << "\n";
    return {path};
  }

 private:
  std::vector<double> energies_;
};

void register_entries(tb::PluginRegistrar& add) {
  tb::StudyInfo info;
  info.name = "initial_energy";
  info.summary = "the energy of every case's initial state (a study from a plugin)";
  info.writes = "initial_energy.csv";
  info.make = [] { return std::make_unique<InitialEnergy>(); };
  add.study(info);
}

}  // namespace

TETHERBENCH_PLUGIN("study_example", "1.0", register_entries)
