#include "app/writing/case_run.hpp"

#include <filesystem>

#include "app/input/integrator_selection.hpp"
#include "app/writing/summary.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"  // InputError

namespace tb {

CaseRun::CaseRun(Case c, const Catalogue& catalogue, const CaseRunRequest& request) : case_(std::move(c)) {
  const double t_end = request.t_end.value_or(case_.t_end), h = request.h.value_or(case_.h);
  if (h > t_end) throw InputError("--h " + format_g(h) + ": expected a step no longer than the end time " + format_g(t_end) + " s");
  // The limits hold for the run as the options change it.
  const RunLimits& limits = request.limits;
  if (!(t_end / h <= limits.max_steps))
    throw InputError("--h " + format_g(h) + " --t-end " + format_g(t_end) + ": " + format_g(t_end / h, 3) +
                     " steps exceed the limit " + format_g(limits.max_steps, 3) + " (raise it on purpose with --max-steps)");
  if (!(t_end / case_.sample_interval <= limits.max_samples))
    throw InputError("--t-end " + format_g(t_end) + ": " + format_g(t_end / case_.sample_interval, 3) +
                     " samples exceed the limit " + format_g(limits.max_samples, 3) + " (raise it on purpose with --max-samples)");
  case_.t_end = t_end;
  case_.h = h;
  integrators_ = chosen_integrators(catalogue, request.integrators);
  if (!request.integrators.empty()) refuse_settings_of_others(request.sets, request.integrators);
  keys_ = runs_of(case_, integrators_);
  std::string reasons;
  bool any = false;
  for (const auto& key : keys_)
    if (const auto why = why_not_applicable(case_, *key.integrator, key.discretisation)) reasons += "; " + key.label() + ": " + *why;
    else any = true;
  if (!any) throw InputError("--integrator: none of the chosen integrators runs case " + case_.name + " (" + reasons.substr(2) + ")");
  options_.h = request.h;
  options_.t_end = request.t_end;
  options_.repeats = request.repeats;
  options_.progress = request.progress;
  options_.out_dir = request.out_dir;
  if (!request.out_dir.empty()) {
    summary_ = (std::filesystem::path(request.out_dir) / "summary.csv").string();
    check_summary_appendable(summary_);
  }
}

std::string CaseRun::timeseries_file(const RunKey& key) const {
  return options_.out_dir.empty() ? std::string() : timeseries_path(options_.out_dir, case_.name, key.label());
}

std::vector<SummaryRow> CaseRun::run(const std::function<void(const SummaryRow&)>& after_each) const {
  std::vector<SummaryRow> rows;
  for (const auto& key : keys_) {
    rows.push_back(run_case(key, options_));
    if (!summary_.empty()) append_summary_csv(summary_, rows.back());
    if (after_each) after_each(rows.back());
  }
  return rows;
}

}  // namespace tb
