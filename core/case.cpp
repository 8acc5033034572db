#include "core/case.hpp"

#include <algorithm>

#include "core/format.hpp"

namespace tb {

namespace {

void read_integrator_settings(TableReader& table, const IntegratorInfo& info, IntegratorSettings& s) {
  for (const std::string& key : info.settings) {
    if (key == "rtol") s.rtol = table.positive_or(key, s.rtol);
    else if (key == "atol") s.atol = table.positive_or(key, s.atol);
    else if (key == "newton_tol") s.newton_tol = table.positive_or(key, s.newton_tol);
    else if (key == "max_newton_iters") s.max_newton_iters = table.positive_integer_or(key, s.max_newton_iters);
    else if (key == "baumgarte_p") s.baumgarte_p = table.non_negative_or(key, s.baumgarte_p);  // 0: unstabilised
    else if (key == "baumgarte_gamma") s.baumgarte_gamma = table.non_negative_or(key, s.baumgarte_gamma);
  }
  table.finish();  // a key this integrator does not read is an error, not ignored
}

std::string joined_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

Case load_case(const std::string& path) {
  TableReader root = TableReader::parse_file(path);
  Case c;
  c.file = path;
  TableReader head = root.table("case");
  c.name = head.string("name");
  c.description = head.string("description");
  std::vector<std::string> model_names;
  for (const auto& m : model_registry()) model_names.push_back(m.name);
  c.model_name = head.one_of("model", model_names);
  c.t_end = head.positive("t_end");
  c.h = head.positive("h");
  c.sample_interval = head.positive("sample_interval");
  if (c.h > c.t_end) head.fail("h", "a step no longer than t_end = " + format_g(c.t_end), format_g(c.h));
  head.finish();

  TableReader model = root.table("model");
  TableReader initial = root.table("initial");
  const auto& info = *std::find_if(model_registry().begin(), model_registry().end(),
                                   [&](const ModelInfo& m) { return m.name == c.model_name; });
  c.model = info.build(model, initial);

  for (const auto& integ : integrator_registry()) {
    IntegratorSettings s;
    s.h = c.h;
    c.settings[integ.name] = s;
  }
  TableReader report = root.table("report");
  c.report.reference_t_end = report.positive("reference_t_end");
  c.report.steps = report.positive_list("steps");
  c.report.tolerances = report.positive_list("tolerances");
  c.report.gate_t_end = report.positive("gate_t_end");
  report.finish();

  if (auto integrators = root.optional_table("integrators")) {
    std::vector<std::string> known;
    for (const auto& integ : integrator_registry()) known.push_back(integ.name);
    for (const std::string& key : integrators->keys()) {
      const IntegratorInfo* integ = find_integrator(key);
      if (!integ) integrators->fail(key, "a registered integrator (" + joined_names(known) + ")", "'" + key + "'");
      TableReader t = integrators->table(key);
      read_integrator_settings(t, *integ, c.settings[key]);
    }
    integrators->finish();
  }
  root.finish();
  return c;
}

}  // namespace tb
