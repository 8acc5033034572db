#include "core/case.hpp"

#include <algorithm>
#include <sstream>

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

std::string integrator_names() {
  std::vector<std::string> known;
  for (const auto& integ : integrator_registry()) known.push_back(integ.name);
  return joined_names(known);
}

}  // namespace

bool Case::runs(const std::string& integrator) const {
  return only_integrators.empty() ||
         std::find(only_integrators.begin(), only_integrators.end(), integrator) != only_integrators.end();
}

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
  {
    std::vector<std::string> names;
    for (const auto& integ : integrator_registry()) names.push_back(integ.name);
    c.only_integrators = head.string_list_or_empty("integrators", names);
  }
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
  c.report.baumgarte_p_sweep = report.non_negative_list_or("baumgarte_p_sweep", {});
  c.report.baumgarte_sweep_t_end = report.positive_or("baumgarte_sweep_t_end", c.t_end);
  if (!c.report.baumgarte_p_sweep.empty()) {
    std::string why_not;
    if (!c.model->make_formulation(FormulationKind::IndexOneDae, why_not))
      report.fail("baumgarte_p_sweep",
                  "no such key for model " + c.model_name + " (the sweep runs ida, which does not apply: " + why_not + ")",
                  "a sweep of " + std::to_string(c.report.baumgarte_p_sweep.size()) + " values");
  }
  report.finish();

  if (auto integrators = root.optional_table("integrators")) {
    for (const std::string& key : integrators->keys()) {
      const IntegratorInfo* integ = find_integrator(key);
      if (!integ) integrators->fail(key, "a registered integrator (" + integrator_names() + ")", "'" + key + "'");
      TableReader t = integrators->table(key);
      read_integrator_settings(t, *integ, c.settings[key]);
    }
    integrators->finish();
  }
  root.finish();
  return c;
}

void apply_setting_override(Case& c, const std::string& assignment) {
  const std::string where = "--set " + assignment;
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 || dot + 1 == eq || eq + 1 == assignment.size())
    throw InputError(where + ": expected NAME.KEY=VALUE (e.g. ida.rtol=1e-6)");
  const std::string name = assignment.substr(0, dot), key = assignment.substr(dot + 1, eq - dot - 1);
  const IntegratorInfo* integ = find_integrator(name);
  if (!integ) throw InputError(where + ": unknown integrator '" + name + "' (expected one of: " + integrator_names() + ")");
  // VALUE as the right-hand side of a TOML line; parsed under toml11's "unknown file" name so
  // that the reader's messages carry no meaningless "(line 1)".
  toml::value parsed;
  try {
    std::istringstream line("value = " + assignment.substr(eq + 1));
    parsed = toml::parse(line, "unknown file").as_table().at("value");
  } catch (const std::exception&) {
    throw InputError(where + ": the value '" + assignment.substr(eq + 1) + "' is not a TOML value (a number such as 1e-6)");
  }
  TableReader table(where, "integrators." + name, toml::value(toml::table{{key, parsed}}));
  read_integrator_settings(table, *integ, c.settings.at(name));
}

}  // namespace tb
