#include "app/writing/case_run.hpp"

#include <filesystem>

#include "app/input/integrator_selection.hpp"
#include "app/writing/summary.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"  // InputError

namespace tb {

CaseRun::CaseRun(Case c, const Catalogue& catalogue, const CaseRunRequest& request) : case_(std::move(c)) {
  const double t_end = request.run.t_end.value_or(case_.t_end), h = request.run.h.value_or(case_.h);
  if (h > t_end) throw InputError("--h " + format_g(h) + ": expected a step no longer than the end time " + format_g(t_end) + " s");
  // The limits hold for the run as the options change it.
  const RunLimits& limits = request.limits;
  if (!(t_end / h <= limits.max_steps))
    throw InputError("--h " + format_g(h) + " --t-end " + format_g(t_end) + ": " + format_g(t_end / h, 3) +
                     " steps exceed the limit " + format_g(limits.max_steps, 3) + " (raise it on purpose with --max-steps)");
  if (!(t_end / case_.sample_interval <= limits.max_samples))
    throw InputError("--t-end " + format_g(t_end) + ": " + format_g(t_end / case_.sample_interval, 3) +
                     " samples exceed the limit " + format_g(limits.max_samples, 3) + " (raise it on purpose with --max-samples)");
  integrators_ = chosen_integrators(catalogue, request.integrators);
  if (!request.integrators.empty()) refuse_settings_of_others(request.sets, request.integrators);
  keys_ = runs_of(case_, integrators_);
  std::string reasons;
  bool any = false;
  for (const auto& key : keys_)
    if (const auto why = why_not_applicable(case_, *key.integrator, key.discretisation)) reasons += "; " + key.label() + ": " + *why;
    else any = true;
  if (!any) throw InputError("--integrator: none of the chosen integrators runs case " + case_.name + " (" + reasons.substr(2) + ")");
  // The overrides applied once, here, into each run's request; the case stays as its file says.
  for (const auto& key : keys_) requests_.push_back(full_run_request(key, request.run));
  if (!request.run.out_dir.empty()) {
    summary_ = (std::filesystem::path(request.run.out_dir) / "summary.csv").string();
    check_summary_appendable(summary_);
  }
}

std::vector<SummaryRow> CaseRun::run(const std::function<void(const SummaryRow&)>& after_each,
                                     const std::function<void(const RunRequest&)>& before_each) const {
  std::vector<SummaryRow> rows;
  for (const auto& request : requests_) {
    if (before_each) before_each(request);
    rows.push_back(run_case(request));
    if (!summary_.empty()) append_summary_csv(summary_, rows.back());
    if (after_each) after_each(rows.back());
  }
  return rows;
}

}  // namespace tb
