#include "app/common/csv_table.hpp"
#include "studies/setting_sweep/setting_sweep.hpp"

#include <filesystem>
#include <fstream>

#include "app/input/catalogue.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "studies/section_readers.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::shared_ptr<const StudySection> SettingSweep::restricted(const std::function<bool(const std::string&)>& runs) const {
  return runs(integrator) ? shared_from_this() : nullptr;
}

namespace {

// [report.setting_sweep], read when the case is loaded (StudyInfo::read_section).
std::shared_ptr<const StudySection> read_setting_sweep(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  SettingSweep sweep;
  const IntegratorInfo& info = read_integrator(table, "integrator", in);
  sweep.integrator = info.name;
  // Number settings only: the sweep's values, its CSV and its fit are numbers (a word setting's
  // few values are compared by running the case once per value with --set).
  std::vector<std::string> keys;
  for (const auto& spec : info.settings)
    if (spec.is_number()) keys.push_back(spec.name);
  if (keys.empty())
    table.fail("integrator", "an integrator with number settings to sweep", "'" + sweep.integrator + "', which declares none");
  sweep.setting = table.one_of("setting", keys);
  const SettingSpec& spec = *std::find_if(info.settings.begin(), info.settings.end(),
                                          [&](const SettingSpec& s) { return s.name == sweep.setting; });
  sweep.values = table.non_negative_list_or("values", {});
  if (sweep.values.empty()) table.fail("values", "a non-empty array of values of " + sweep.setting, "none");
  for (double v : sweep.values)
    if (!spec.accepts(v)) table.fail("values", "values of " + sweep.setting + ", each " + spec.expectation(), format_g(v));
  sweep.t_end = table.positive_or("t_end", c.t_end);
  refuse_unless_it_runs_the_case(table, "integrator", in, info);
  return std::make_shared<SettingSweep>(std::move(sweep));
}

// One point per value of the setting.
struct SettingPoint {
  RunKey key;
  double value = 0.0;
  Measurement measured;
};

class SettingSweepStudy final : public SweepStudy<SettingPoint> {
 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<SettingPoint>& points) override {
    const SettingSweep& sweep = *c.section<SettingSweep>();
    const IntegratorInfo* info = context.catalogue->find_integrator(sweep.integrator);
    for (double v : sweep.values) {
      // A value that cannot run with the case's other settings is refused before anything runs.
      if (info->conflict) {
        IntegratorSettings swept = c.settings_for(info->name);
        swept.set(sweep.setting, v);
        if (const auto clash = info->conflict(swept); !clash.key.empty())
          throw InputError(c.file + ": key 'report.setting_sweep.values': expected values that run with the case's " +
                           info->name + " settings (" + clash.key + ": " + clash.expected + "), got " + sweep.setting +
                           " = " + format_g(v));
      }
      points.push_back({RunKey{&c, info, c.model->default_discretisation()}, v, {}});
    }
  }

  RunRequest request_of(const SettingPoint& p) const override {
    const Case& c = *p.key.c;
    const SettingSweep& sweep = *c.section<SettingSweep>();
    RunRequest request{p.key, c.settings_for(sweep.integrator), {}};
    request.settings.set(sweep.setting, p.value);
    request.measure.t_end = sweep.t_end;
    request.measure.sample_interval = c.sample_interval;
    request.measure.repeats = 2;  // runtime: the minimum of the observed pass and one without observation
    return request;
  }

  Job job_of(const SettingPoint& p, const RunRequest& request) const override {
    const SettingSweep& sweep = *p.key.c->section<SettingSweep>();
    return {p.key.c->name + " | " + sweep.integrator + " | " + sweep.setting + " = " + format_g(p.value, 3),
            request.t_end() / request.h()};
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<SettingPoint>& points) const override {
    std::ofstream csv(dir / "setting_sweep.csv");
    // The metrics a setting sweep shows (the constraint's drift first: what Baumgarte's p and
    // CVODE's projection act on), read through their registry rows (core/metric_registry.hpp).
    static const char* const kMetrics[] = {"constraint_err_max", "constraint_rate_err_max", "energy_err_max",
                                           "orthogonality_err_max"};
    csv << "case,integrator,setting,value,t_end";
    for (const char* name : kMetrics) csv << ',' << name;
    csv << ",steps,rhs_evals,newton_iters,error_test_failures,runtime_s,status,host\n";
    for (const auto& p : points) {
      const SettingSweep& sweep = *p.key.c->section<SettingSweep>();
      const auto& n = p.measured.counters;
      // Drift and runtime are results of a complete run only; a failed point keeps its counts and status.
      const bool ok = p.measured.outcome.ok();
      auto result = [&](double x) { return ok ? format_g(x, 6) : std::string(); };
      csv << p.key.c->name << ',' << sweep.integrator << ',' << sweep.setting << ',' << format_g(p.value, 6) << ','
          << format_g(sweep.t_end, 6);
      for (const char* name : kMetrics) {
        // A metric the form cannot violate is no result either (empty; ViolableInvariants).
        const MetricSpec& metric = metric_spec(name);
        csv << ',' << (p.measured.violable.covers(metric) ? result(metric.value(p.measured.metrics)) : std::string());
      }
      csv << ',' << n.steps << ',' << n.rhs_evals << ',' << n.newton_iters << ',' << n.error_test_failures << ','
          << result(p.measured.runtime_s) << ',' << csv_quoted(p.measured.outcome.describe()) << ',' << (ok ? p.measured.host : "")
          << '\n';
    }
    return {(dir / "setting_sweep.csv").string()};
  }
};

}  // namespace

StudyInfo setting_sweep_study() {
  StudyInfo info{"setting_sweep",
          "one integrator over the case once per value of one of its settings ([report.setting_sweep]): drift and cost",
          "setting_sweep.csv",
          false,
          {},
          why_not_without_table<SettingSweep>,
          [] { return std::make_unique<SettingSweepStudy>(); },
          read_setting_sweep};
  info.figures = setting_sweep_figures;
  return info;
}

}  // namespace tb
