// A study from a plugin whose own code (not a run) crashes: its job for the second case
// dereferences a null pointer. No run can carry that fault, so the job has no result: the
// command ends with status 1 naming the job and the plugin, after the other jobs ran and were
// stored (app/running/isolation.hpp JobCrashed; tests/install_examples.sh).
#include <fstream>
#include <memory>

#include "app/input/case.hpp"
#include "app/running/job_result.hpp"
#include "app/input/study.hpp"
#include "core/plugin.hpp"

namespace {

int* volatile g_null = nullptr;

class CrashingStudy final : public tb::Study {
 public:
  std::vector<tb::StudyJob> plan(const tb::StudyContext& context) override {
    values_.assign(context.cases->size(), 0.0);
    std::vector<tb::StudyJob> jobs;
    for (size_t i = 0; i < context.cases->size(); ++i) {
      const tb::Case& c = (*context.cases)[i];
      jobs.push_back(tb::result_job<double>(c.name + " | crashing study", 1.0, tb::case_inputs(c),
                                            [i, &c] {
                                              if (i == 1) *g_null = 1;
                                              return c.t_end;
                                            },
                                            values_[i]));
    }
    return jobs;
  }
  std::vector<std::string> write(const tb::StudyContext& context) override {
    const std::string path = context.out_dir + "/crashing_study.csv";
    std::ofstream out(path);
    for (double v : values_) out << v << "\n";
    return {path};
  }

 private:
  std::vector<double> values_;
};

void register_entries(tb::PluginRegistrar& add) {
  tb::StudyInfo info;
  info.name = "crashing_study";
  info.summary = "crashes in its own code on the second case (a test of crash isolation)";
  info.writes = "crashing_study.csv";
  info.make = [] { return std::make_unique<CrashingStudy>(); };
  add.study(info);
}

}  // namespace

TETHERBENCH_PLUGIN("crashing_study_example", "1.0", register_entries)
