#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
namespace tb {

// [report.setting_sweep]: one integrator run over the case once per value of one of its
// settings, every other setting the case's (e.g. a DAE integrator's Baumgarte rate p: drift against cost).
struct SettingSweep final : StudySection {
  static constexpr const char* kStudy = "setting_sweep";
  std::string integrator;
  std::string setting;
  std::vector<double> values;
  double t_end = 0.0;  // s; the case's t_end unless set
  // Dropped when its integrator is not run.
  std::shared_ptr<const StudySection> restricted(const std::function<bool(const std::string&)>& runs) const override;
  std::vector<VariedSetting> settings_varied() const override { return {{integrator, setting, "setting"}}; }
  std::vector<Span> fixed_step_spans() const override { return {{"t_end", t_end, 0.0}}; }
};

// Cases with a [report.setting_sweep]: one integrator over the case once per value of one of
// its settings, every other setting the case's (e.g. ida's Baumgarte rate p: drift against
// cost). Measured like a summary row. Writes setting_sweep.csv.
StudyInfo setting_sweep_study();
// Its figures in a report (StudyInfo::figures; studies/setting_sweep/figures.cpp).
void setting_sweep_figures(const FigureRequest& request, std::vector<Figure>& figures);
}  // namespace tb
