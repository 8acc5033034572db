#include "app/input/limits.hpp"

#include <algorithm>

#include "core/format.hpp"

namespace tb {

namespace {

[[noreturn]] void refuse(const Case& c, const std::string& key, const std::string& what, double value, double limit,
                         const std::string& option) {
  throw InputError(c.file + ": key '" + key + "': " + what + " = " + format_g(value, 3) + " exceeds the limit " +
                   format_g(limit, 3) + " (raise it on purpose with " + option + ")");
}

void check_steps(const Case& c, const std::string& key, double t_end, double h, const RunLimits& limits) {
  const double steps = t_end / h;
  if (!(steps <= limits.max_steps)) refuse(c, key, "the number of steps", steps, limits.max_steps, "--max-steps");
}

void check_samples(const Case& c, const std::string& key, double t_end, const RunLimits& limits) {
  const double samples = t_end / c.sample_interval;
  if (!(samples <= limits.max_samples))
    refuse(c, key, "the number of samples", samples, limits.max_samples, "--max-samples");
}

}  // namespace

void check_limits(const Case& c, const RunLimits& limits) {
  const StateSize size = c.model->state_size();
  if (!(size.numbers <= limits.max_state))
    throw InputError(c.file + ": [model]: the state would hold " + format_g(size.numbers, 3) + " numbers (" +
                     size.because + "), over the limit " + format_g(limits.max_state, 3) +
                     " (raise it on purpose with --max-state)");
  check_steps(c, "case.h", c.t_end, c.h, limits);
  check_samples(c, "case.sample_interval", c.t_end, limits);
  check_steps(c, "report.gate_t_end", c.report.gate_t_end, c.h, limits);
  check_samples(c, "report.gate_t_end", c.report.gate_t_end, limits);
  if (!c.report.steps.empty())
    check_steps(c, "report.steps", c.report.reference_t_end,
                *std::min_element(c.report.steps.begin(), c.report.steps.end()), limits);
  if (c.report.long_time_steps > 0.0) {
    check_steps(c, "report.long_time_steps", c.report.long_time_steps * c.h, c.h, limits);
    check_samples(c, "report.long_time_steps", c.report.long_time_steps * c.h, limits);
  }
  for (const auto& [study, section] : c.sections)
    for (const auto& span : section->fixed_step_spans()) {
      const std::string where = "report." + study + "." + span.key;
      check_steps(c, where, span.t_end, span.h > 0.0 ? span.h : c.h, limits);
      check_samples(c, where, span.t_end, limits);
    }
}

}  // namespace tb
