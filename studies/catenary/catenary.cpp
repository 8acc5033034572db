#include "studies/catenary/catenary.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "app/input/case.hpp"
#include "app/running/job_result.hpp"
#include "app/input/study_parameter.hpp"
#include "models/hanging_tether/catenary_study.hpp"
#include "models/hanging_tether/model.hpp"

namespace tb {

namespace {

namespace ht = hanging_tether;

std::vector<int> parse_elements(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || n < 2 || n > (1 << 20) || (!out.empty() && n <= out.back()))
      throw InputError("--param elements=" + text + ": expected increasing element counts N, each an integer in [2, " +
                       std::to_string(1 << 20) + "], comma-separated");
    out.push_back(n);
  }
  if (out.size() < 2) throw InputError("--param elements=" + text + ": expected at least two element counts");
  return out;
}

// The study's one parameter (app/input/study_parameter.hpp); its default is the model's
// default_catenary_elements().
const StudyParameterOf<std::vector<int>>& elements_parameter() {
  static const StudyParameterOf<std::vector<int>> p{
      "elements", "element counts N, increasing, each >= 2, comma-separated", "4,8,16,32,64,128,256", parse_elements};
  return p;
}

class Catenary final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    const std::vector<int> elements = elements_parameter().read(context);
    results_.resize(context.cases->size());
    std::vector<StudyJob> jobs;
    for (size_t i = 0; i < context.cases->size(); ++i) {
      const Case& c = (*context.cases)[i];
      const auto& model = dynamic_cast<const ht::HangingTetherModel&>(*c.model);
      std::string counts;
      for (int n : elements) counts += std::to_string(n) + ",";
      const std::string inputs = job_inputs(case_inputs(c), {{"elements", counts}});
      jobs.push_back(result_job<ht::CatenaryStudy>(
          c.name + " | catenary", 1.0, inputs,
          [&c, &model, elements] { return ht::catenary_convergence(model.params(), elements, c.name); }, results_[i]));
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) override {
    if (results_.empty()) return {};
    for (const auto& s : results_) {
      std::printf("%s (%s): elastic catenary H = %.10g N; fitted rate %.3f\n", s.case_name.c_str(),
                  ht::to_string(s.discretisation).c_str(), s.analytic_horizontal_tension, s.fitted_rate);
      for (const auto& p : s.points)
        std::printf("  N = %-5d max error %-12.4e rate %-7.3f Newton %d\n", p.N, p.max_error, p.rate, p.newton_iterations);
    }
    const std::string path = (std::filesystem::path(context.out_dir) / "catenary.csv").string();
    ht::write_catenary_csv(path, results_);
    return {path};
  }

 private:
  std::vector<ht::CatenaryStudy> results_;
};

}  // namespace

StudyInfo catenary_study() {
  return {"catenary",
          "hanging-tether cases: the static shape for each N against the elastic catenary (seed 003 Remark 1)",
          "catenary.csv",
          false,
          {elements_parameter().info()},
          [](const Case& c) {
            return dynamic_cast<const ht::HangingTetherModel*>(c.model.get())
                       ? std::string()
                       : "its model is " + c.model_name + ", not hanging_tether";
          },
          [] { return std::make_unique<Catenary>(); }};
}

}  // namespace tb
