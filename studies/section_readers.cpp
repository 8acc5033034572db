#include "studies/section_readers.hpp"

#include "app/input/case.hpp"
#include "core/format.hpp"
#include "core/model_variant.hpp"
#include "app/judging/order_fit.hpp"
#include "core/table_reader_toml.hpp"

namespace tb {

const IntegratorInfo& read_integrator(TableReader& table, const std::string& key, const SectionInputs& in) {
  return *in.catalogue.find_integrator(table.one_of(key, in.catalogue.integrator_names()));
}

void refuse_unless_it_runs_the_case(TableReader& table, const std::string& key, const SectionInputs& in,
                                    const IntegratorInfo& info) {
  std::string why_not;
  if (!in.c.model->offers(info.consumes, in.c.model->default_discretisation(), why_not))
    table.fail(key, "an integrator that runs model " + in.c.model_name, "'" + info.name + "' (" + why_not + ")");
}

std::vector<std::shared_ptr<const Model>> model_variants(TableReader& table, const SectionInputs& in,
                                                         const std::string& key, const std::vector<double>& values,
                                                         const std::string& values_key) {
  std::vector<std::shared_ptr<const Model>> out;
  for (double v : values) {
    try {
      out.push_back(build_model_variant(*in.catalogue.find_model(in.c.model_name), in.c.file, toml_table(in.model),
                                        toml_table(in.initial), key, v));
    } catch (const InputError& e) {
      table.fail(values_key, "values the model accepts for " + key, format_g(v) + " (" + e.what() + ")");
    }
  }
  return out;
}

EventSweep read_event_sweep(TableReader& table, const Case& c, double longest_step_factor) {
  EventSweep s;
  s.t_end = table.positive_or("t_end", c.t_end);
  if (s.t_end > c.t_end) table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(s.t_end));
  s.steps = table.has("steps") ? table.positive_list("steps") : c.report.steps;
  s.tolerances = table.has("tolerances") ? table.positive_list("tolerances") : c.report.tolerances;
  if (s.steps.size() < OrderRules{}.min_points)
    table.fail("steps", "at least " + std::to_string(OrderRules{}.min_points) + " steps (an order's asymptotic range)",
               std::to_string(s.steps.size()));
  if (s.tolerances.size() < 3) table.fail("tolerances", "at least 3 tolerances", std::to_string(s.tolerances.size()));
  for (double h : s.steps)
    if (h * longest_step_factor > s.t_end) table.fail("steps", "steps no longer than t_end = " + format_g(s.t_end), format_g(h));
  s.sample_interval = table.positive_or("sample_interval", 1e-5);
  if (s.sample_interval > s.t_end) table.fail("sample_interval", "at most t_end = " + format_g(s.t_end), format_g(s.sample_interval));
  return s;
}

}  // namespace tb
