#include "app/input/case.hpp"

#include <cmath>
#include <cstdint>

#include <algorithm>
#include <sstream>
#include <string_view>

#include "app/common/fingerprint.hpp"
#include "core/format.hpp"
#include "core/table_reader_toml.hpp"

namespace tb {

void read_integrator_settings(TableReader& table, const IntegratorInfo& info, IntegratorSettings& s) {
  // Exactly the declared settings are read, so exactly they are accepted (finish()).
  for (const SettingSpec& spec : info.settings) {
    if (spec.is_number()) {
      if (const auto value = table.checked_or_none(spec.name, spec.integer, spec.expectation(),
                                                   [&](double x) { return spec.accepts(x); }))
        s.set(spec.name, *value);
      continue;
    }
    // A word written as a number: a retired integer code says which word it stood for, any
    // other value how to write a word.
    auto note = [&](std::optional<std::int64_t> integer) -> std::string {
      if (integer && *integer >= 0 && std::size_t(*integer) < spec.former_codes.size())
        return " (the retired code of \"" + spec.former_codes[std::size_t(*integer)] +
               "\": write the word, as a TOML string)";
      return " (write it as a TOML string, e.g. \"" + (spec.words.empty() ? spec.default_text : spec.words.front()) + "\")";
    };
    if (const auto word = table.checked_string_or_none(spec.name, spec.expectation(),
                                                       [&](const std::string& w) { return spec.accepts(w); }, note))
      s.set_word(spec.name, *word);
  }
  table.finish();
}

// Every integrator's settings checked against the integrator's declared conflicts; `where`
// starts the message (the case file, or the --set assignment that made the combination). The
// setting sweep's values are checked by the study that runs them (studies/setting_sweep/setting_sweep.cpp),
// so that `run` is not refused for a sweep it does not run.
void check_setting_conflicts(const Case& c, const Catalogue& catalogue, const std::string& where) {
  for (const auto& info : catalogue.integrators) {
    if (!info.conflict) continue;
    const IntegratorSettings& s = c.settings.at(info.name);
    if (const auto clash = info.conflict(s); !clash.key.empty())
      throw InputError(where + ": key 'integrators." + info.name + "." + clash.key + "': expected " + clash.expected +
                       ", got " + s.shown(clash.key));
  }
}

namespace {
// Whether x is a whole multiple of y (to 1e-9 relative: steps written as decimals).
bool whole_multiple(double x, double y) {
  const double k = std::round(x / y);
  return k >= 1.0 && std::abs(x - k * y) <= 1e-9 * x;
}
bool fits_grid(double interval, const ReportSettings& r) {
  if (!whole_multiple(r.reference_t_end, interval)) return false;
  for (double h : r.steps)
    if (!whole_multiple(interval, h)) return false;
  return true;
}

// [report] trajectory_interval, or the default of ReportSettings::trajectory_interval.
double read_trajectory_interval(TableReader& report, const ReportSettings& r) {
  const std::string expected = "a whole multiple of every step of [report] steps that divides reference_t_end = " +
                               format_g(r.reference_t_end);
  if (const auto v = report.checked_or_none("trajectory_interval", false, expected,
                                            [&](double x) { return x > 0.0 && fits_grid(x, r); }))
    return *v;
  for (int n = kTrajectorySamples; n >= 1; --n)
    if (fits_grid(r.reference_t_end / n, r)) return r.reference_t_end / n;
  report.fail("trajectory_interval",
              "to be given: no reference_t_end / n (n <= " + std::to_string(kTrajectorySamples) +
                  ") is a whole multiple of every step of [report] steps; " + expected,
              "no key");
}
}  // namespace

// [report.ranking] (RankingSweep): its grid like read_trajectory_interval's, over its own
// horizon and steps.
static std::optional<RankingSweep> read_ranking(TableReader& report, const ReportSettings& r, const Catalogue& catalogue) {
  auto table = report.optional_table("ranking");
  if (!table) return std::nullopt;
  RankingSweep sweep;
  sweep.t_end = table->positive("t_end");
  sweep.steps = table->has("steps") ? table->positive_list("steps") : r.steps;
  sweep.tolerances = table->has("tolerances") ? table->positive_list("tolerances") : r.tolerances;
  sweep.integrators = table->string_list_or_empty("integrators", catalogue.integrator_names());
  ReportSettings grid;
  grid.reference_t_end = sweep.t_end;
  grid.steps = sweep.steps;
  const std::string expected = "a whole multiple of every step of [report.ranking] steps that divides t_end = " +
                               format_g(sweep.t_end);
  if (const auto v = table->checked_or_none("interval", false, expected,
                                            [&](double x) { return x > 0.0 && fits_grid(x, grid); }))
    sweep.interval = *v;
  for (int n = kTrajectorySamples; n >= 1 && sweep.interval == 0.0; --n)
    if (fits_grid(sweep.t_end / n, grid)) sweep.interval = sweep.t_end / n;
  if (sweep.interval == 0.0) table->fail("interval", "to be given: " + expected, "no key");
  table->finish();
  return sweep;
}

bool Case::lists(const std::string& integrator) const {
  return only_integrators.empty() ||
         std::find(only_integrators.begin(), only_integrators.end(), integrator) != only_integrators.end();
}

namespace {

// The name becomes a folder under --out: an identifier, never a path, nor a name the commands
// write beside the case folders.
void check_case_name(TableReader& head, const std::string& name) {
  if (name.empty() || name.size() > 100 || name == "." || name == ".." ||
      name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != std::string::npos)
    head.fail("name", "an identifier of 1 to 100 letters, digits, '_', '-' and '.' (it names the output folder)",
              "\"" + name + "\"");
  for (const std::string_view reserved : {".csv", ".md", ".json", ".log", ".png"})
    if (std::string_view(name).ends_with(reserved))
      head.fail("name", "a name that is not a file name the commands write (no .csv, .md, .json, .log or .png ending)",
                "\"" + name + "\"");
  if (name == "figures") head.fail("name", "a name other than 'figures' (the report's figure folder)", "\"figures\"");
}

// [case]: name, model, horizon, step, sampling, the integrators it runs and their own horizons
// (returned: a later check names its keys).
std::optional<TableReader> read_case_table(TableReader& head, Case& c, const Catalogue& catalogue) {
  c.name = head.string("name");
  check_case_name(head, c.name);
  c.description = head.string("description");
  if (!catalogue.reference_solvers.empty()) {
    try {
      c.scale_solver = std::make_shared<const IntegratorInfo>(catalogue.reference());
    } catch (const std::logic_error&) {  // a catalogue without its reference solver: E_s per run, said so
    }
  }
  c.model_name = head.one_of("model", catalogue.model_names());
  c.t_end = head.positive("t_end");
  c.h = head.positive("h");
  c.sample_interval = head.positive("sample_interval");
  c.only_integrators = head.string_list_or_empty("integrators", catalogue.integrator_names());
  if (c.h > c.t_end) head.fail("h", "a step no longer than t_end = " + format_g(c.t_end), format_g(c.h));
  std::optional<TableReader> horizons = head.optional_table("integrator_t_end");
  if (horizons) {
    for (const std::string& key : horizons->keys()) {
      if (!catalogue.find_integrator(key))
        horizons->fail(key, "a registered integrator (" + join_names(catalogue.integrator_names()) + ")", "'" + key + "'");
      const double t = horizons->positive(key);
      if (t > c.t_end) horizons->fail(key, "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(t));
      c.integrator_t_end[key] = t;
    }
    horizons->finish();
  }
  head.finish();
  return horizons;
}

// A study's own table as the study reads it. Its input errors pass as they are (they name the
// file and key); anything else it throws, or no section, is the study's fault, said with the
// file, the table and where the study comes from (a plugin's file, or the suite).
std::shared_ptr<const StudySection> read_study_section(const StudyInfo& study, TableReader& table,
                                                       const SectionInputs& in) {
  const auto origin = in.catalogue.origins.find("study " + study.name);
  const std::string whose = "the study '" + study.name + "' (" +
                            (origin == in.catalogue.origins.end() ? std::string("built in") : origin->second) + ")";
  const std::string where = in.c.file + ": [report." + study.name + "]: ";
  std::shared_ptr<const StudySection> section;
  try {
    section = study.read_section(table, in);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + whose + " failed to read its table: " + e.what());
  } catch (...) {
    throw std::runtime_error(where + whose + " failed to read its table: a non-standard exception");
  }
  if (!section) throw std::logic_error(where + whose + " read its table but returned no section");
  return section;
}

// [report]: the sweeps' horizon, steps and tolerances, the gates' horizon, the long runs'
// steps, the reference grid, the rankings' sweep and each study's own table, read and checked
// by its study (the catalogue's order).
void read_report_table(TableReader& report, Case& c, const Catalogue& catalogue, const TableReader& model,
                       const TableReader& initial) {
  c.report.reference_t_end = report.positive("reference_t_end");
  c.report.steps = report.positive_list("steps");
  c.report.tolerances = report.positive_list("tolerances");
  c.report.gate_t_end = report.positive("gate_t_end");
  c.report.long_time_steps = report.positive_or("long_time_steps", 0.0);
  if (c.report.long_time_steps != 0.0 &&
      (c.report.long_time_steps != std::floor(c.report.long_time_steps) || c.report.long_time_steps < 1e3))
    report.fail("long_time_steps", "a whole number of steps >= 1000 (the growth-law fit needs two decades)",
                format_g(c.report.long_time_steps));
  c.report.trajectory_interval = read_trajectory_interval(report, c.report);
  c.report.ranking = read_ranking(report, c.report, catalogue);
  for (const StudyInfo& study : catalogue.studies) {
    if (!study.read_section) continue;
    auto table = report.optional_table(study.name);
    if (!table) continue;
    auto section = read_study_section(study, *table, SectionInputs{c, catalogue, model, initial});
    table->finish();
    for (const auto& varied : section->settings_varied())
      c.given_settings[varied.integrator][varied.setting] = c.file + ": key 'report." + study.name + "." + varied.key + "'";
    c.sections[study.name] = std::move(section);
  }
  report.finish();
}

// Whether the integrator runs some formulation of the case's model (why_not: the last refusal).
bool runs_model(const Case& c, const IntegratorInfo& info, std::string& why_not) {
  for (const auto& d : c.model->discretisations())
    if (c.model->offers(info.consumes, d, why_not)) return true;
  return false;
}

// Settings that could never act are refused: a horizon for an integrator that runs no
// formulation of this model, or a [case] integrators list of which nothing runs.
void refuse_idle_integrators(const Case& c, const Catalogue& catalogue, TableReader& head,
                             std::optional<TableReader>& horizons) {
  for (const auto& [name, t] : c.integrator_t_end)
    if (std::string why_not; !runs_model(c, *catalogue.find_integrator(name), why_not))
      horizons->fail(name, "an integrator that runs model " + c.model_name, "'" + name + "' (" + why_not + ")");
  if (c.only_integrators.empty()) return;
  std::string reasons;
  bool any = false;
  for (const auto& name : c.only_integrators) {
    std::string why_not;
    if (runs_model(c, *catalogue.find_integrator(name), why_not)) any = true;
    else reasons += (reasons.empty() ? "" : "; ") + name + ": " + why_not;
  }
  if (!any) head.fail("integrators", "at least one integrator that runs model " + c.model_name, "none (" + reasons + ")");
}

// [integrators.NAME]: each integrator's declared settings, for integrators that run the model.
void read_integrators_table(TableReader& root, Case& c, const Catalogue& catalogue) {
  auto integrators = root.optional_table("integrators");
  if (!integrators) return;
  for (const std::string& key : integrators->keys()) {
    const IntegratorInfo* integ = catalogue.find_integrator(key);
    if (!integ)
      integrators->fail(key, "a registered integrator (" + join_names(catalogue.integrator_names()) + ")", "'" + key + "'");
    if (std::string why_not; !runs_model(c, *integ, why_not))
      integrators->fail(key, "settings of an integrator that runs model " + c.model_name,
                        "settings for " + key + ", which cannot run it (" + why_not + ")");
    TableReader t = integrators->table(key);
    for (const std::string& setting : t.keys())
      c.given_settings[key][setting] = c.file + ": key 'integrators." + key + "." + setting + "'";
    read_integrator_settings(t, *integ, c.settings[key]);
  }
  integrators->finish();
}

}  // namespace

Case load_case(const std::string& path, const Catalogue& catalogue) {
  return load_case(TableReader::parse_file(path), path, catalogue);
}

Case load_case(TableReader root, const std::string& path, const Catalogue& catalogue) {
  Case c;
  c.file = path;
  TableReader head = root.table("case");
  std::optional<TableReader> horizons = read_case_table(head, c, catalogue);

  TableReader model = root.table("model");
  TableReader initial = root.table("initial");
  c.model = catalogue.find_model(c.model_name)->build(model, initial);
  c.model_inputs = "model=" + c.model_name + ";[model]" + canonical_toml(toml_table(model)) + ";[initial]" +
                   canonical_toml(toml_table(initial));
  for (const auto& integ : catalogue.integrators) c.settings[integ.name] = IntegratorSettings::defaults(integ.settings, c.h);
  for (const auto& [entry, origin] : catalogue.origins)
    if (entry == "model " + c.model_name || entry.rfind("integrator ", 0) == 0) c.origins[entry] = origin;

  TableReader report = root.table("report");
  read_report_table(report, c, catalogue, model, initial);
  refuse_idle_integrators(c, catalogue, head, horizons);
  read_integrators_table(root, c, catalogue);
  root.finish();
  check_setting_conflicts(c, catalogue, path);
  return c;
}

std::optional<std::string> idle_setting(const Case& c, const IntegratorInfo& info, const std::string& key) {
  std::optional<std::string> idle;
  std::string why_not;
  for (const auto& d : c.model->discretisations()) {
    if (!c.lists(info.name) || !c.model->offers(info.consumes, d, why_not)) continue;
    if (!info.idle_setting) return "";
    const auto form = c.model->make_formulation(info.consumes, d, why_not);
    if (!form) continue;
    const std::string why = info.idle_setting(key, *form);
    if (why.empty()) return "";
    idle = why;
  }
  return idle;
}

void check_settings_act(const Case& c, const Catalogue& catalogue) {
  for (const auto& [name, keys] : c.given_settings) {
    const IntegratorInfo* info = catalogue.find_integrator(name);
    if (!info) continue;
    for (const auto& [key, where] : keys)
      if (const auto why = idle_setting(c, *info, key); why && !why->empty())
        throw InputError(where + ": expected a setting that acts on model " + c.model_name + "'s " +
                         to_string(info->consumes) + " form, got " + key + " = " + c.settings.at(name).shown(key) +
                         ", which has nothing to act on there (" + *why + ")");
  }
}

void apply_setting_override(Case& c, const std::string& assignment, const Catalogue& catalogue) {
  const std::string where = "--set " + assignment;
  if (assignment.find_first_of("\n\r") != std::string::npos)
    throw InputError(where + ": expected one NAME.KEY=VALUE on one line (a line break would smuggle in another key)");
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 || dot + 1 == eq || eq + 1 == assignment.size())
    throw InputError(where + ": expected NAME.KEY=VALUE (e.g. NAME.rtol=1e-6)");
  const std::string name = assignment.substr(0, dot), key = assignment.substr(dot + 1, eq - dot - 1);
  const IntegratorInfo* integ = catalogue.find_integrator(name);
  if (!integ)
    throw InputError(where + ": unknown integrator '" + name + "' (expected one of: " +
                     join_names(catalogue.integrator_names()) + ")");
  // VALUE as the right-hand side of a TOML line; parsed under toml11's "unknown file" name so
  // that the reader's messages carry no meaningless "(line 1)".
  toml::value parsed;
  const std::string text = assignment.substr(eq + 1);
  try {
    std::istringstream line("value = " + text);
    const toml::value whole = toml::parse(line, "unknown file");
    if (whole.as_table().size() != 1) throw std::runtime_error("more than one value");
    parsed = whole.as_table().at("value");
  } catch (const std::exception&) {
    // A word or a text may be given without its quotes (--set NAME.scheme=suzuki), the shell
    // having taken them; a number setting's value must be a TOML value.
    const auto spec = std::find_if(integ->settings.begin(), integ->settings.end(),
                                   [&](const SettingSpec& s) { return s.name == key; });
    if (spec == integ->settings.end() || spec->is_number())
      throw InputError(where + ": the value '" + text + "' is not a TOML value (a number such as 1e-6)");
    parsed = toml::value(text);
  }
  TableReader table = table_reader_of(where, "integrators." + name, toml::value(toml::table{{key, parsed}}));
  read_integrator_settings(table, *integ, c.settings.at(name));
  check_setting_conflicts(c, catalogue, where + " (with " + c.file + ")");
}

}  // namespace tb
