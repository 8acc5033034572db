#include "app/writing/step_cost_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "app/common/markdown_table.hpp"
#include "app/common/output_folder.hpp"  // write_file_whole
#include "core/format.hpp"
#include "core/table_reader.hpp"  // InputError

namespace fs = std::filesystem;

namespace tb {

// Why the rules are what they are (StepCostRules):
// - table_n: three decades of the size parameter, so that the table shows the O(N) growth by eye.
// - fit_min_n: below about 50 elements a step's fixed costs (the stepper's bookkeeping, a dense
//   solve of the rigid bodies' few unknowns, calls into SUNDIALS) are a visible part of the cost,
//   and cost = a + b N bends the log-log line below slope 1 there; the fit is of the linear part.
// - linear_band: every evaluation uses O(N) linear algebra (block-tridiagonal mass or Newton
//   matrix), so its cost grows like N. Over N = 50..5000 (two decades) what moves a fitted
//   exponent off 1 without changing the algebra is the working set leaving a cache level: a
//   per-element cost 1.3-1.4 times higher at the top of the range tilts the slope by
//   log(1.4)/log(100) = 0.07 or so. A dense solve anywhere in the step gives N^2 or N^3 at the
//   top of the range, an exponent above 1.5. A band of 0.15 holds the first and refuses the second.
// - The verdict is on the fit's 95% interval, alike on both sides: inside the band, yes; wholly
//   outside it, no; across an edge, the data cannot tell (timing noise on a busy machine, or the
//   curvature a cache level puts into the log-log line, which a straight fit reads as scatter), so
//   inconclusive, as is a fit of two points, which has no interval.

namespace {

double to_ns(const std::string& unit, const std::string& where) {
  if (unit == "ns" || unit.empty()) return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw InputError(where + ": time_unit '" + unit + "': expected ns, us, ms or s");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// (model, integrator, N) of step/<model>/<integrator>/N:<N> or mass_solve/N:<N>; false for other names.
bool parse_benchmark_name(const std::string& name, std::string& model, std::string& integrator, long& n) {
  std::vector<std::string> parts;
  std::stringstream in(name);
  for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
  if (parts.empty() || parts.back().rfind("N:", 0) != 0) return false;
  const std::string digits = parts.back().substr(2);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return false;
  n = std::stol(digits);
  if (parts[0] == "step" && parts.size() == 4) return model = parts[1], integrator = parts[2], true;
  if (parts[0] == "mass_solve" && parts.size() == 2) return model = "", integrator = "mass_solve", true;
  return false;
}

std::optional<double> median_counter(const std::vector<const JsonValue*>& entries, const std::string& key) {
  std::vector<double> values;
  for (const JsonValue* e : entries)
    if (const JsonValue* v = e->find(key); v && v->is(JsonValue::Kind::number)) values.push_back(v->number());
  if (values.empty()) return std::nullopt;
  return median(values);
}

std::string context_text(const JsonValue& context, const std::string& key, const std::string& otherwise = "?") {
  const JsonValue* v = context.find(key);
  return v && !v->scalar_text().empty() ? v->scalar_text() : otherwise;
}

// "7.43 µs": a time in ns in the unit that keeps it between 1 and 1000.
std::string time_text(std::optional<double> ns) {
  if (!ns) return "—";
  if (*ns >= 1e6) return format_g(*ns / 1e6, 3) + " ms";
  if (*ns >= 1e3) return format_g(*ns / 1e3, 3) + " µs";
  return format_g(*ns, 3) + " ns";
}
std::string number_text(std::optional<double> x, int digits = 3) { return x ? format_g(*x, digits) : "—"; }

using Series = std::vector<std::pair<std::pair<std::string, std::string>, std::vector<const StepCostRow*>>>;
// The rows grouped by (model, integrator), in the rows' order.
Series series_of(const std::vector<StepCostRow>& rows) {
  Series series;
  for (const auto& r : rows) {
    const auto key = std::make_pair(r.model, r.integrator);
    if (series.empty() || series.back().first != key) series.push_back({key, {}});
    series.back().second.push_back(&r);
  }
  return series;
}

const StepCostRow* row_at(const StepCosts& costs, const std::string& model, const std::string& integrator, long n) {
  for (const auto& r : costs.rows)
    if (r.model == model && r.integrator == integrator && r.n == n) return &r;
  return nullptr;
}

std::string sizes_text(const std::vector<long>& sizes) {
  std::vector<std::string> words;
  for (long n : sizes) words.push_back(std::to_string(n));
  return join(words);
}

}  // namespace

JsonValue merge_benchmark_parts(const std::vector<std::string>& part_paths) {
  JsonValue merged;
  merged.kind = JsonValue::Kind::object;
  JsonValue benchmarks;
  benchmarks.kind = JsonValue::Kind::array;
  for (const auto& path : part_paths) {
    const JsonValue part = read_json_file(path);
    const JsonValue* list = part.find("benchmarks");
    if (!list || !list->is(JsonValue::Kind::array))
      throw InputError(path + ": key 'benchmarks': expected Google Benchmark's array of benchmarks");
    if (merged.members.empty()) {
      JsonValue context;
      context.kind = JsonValue::Kind::object;
      if (const JsonValue* given = part.find("context")) context = *given;
      merged.members.emplace_back("context", std::move(context));
    }
    benchmarks.items.insert(benchmarks.items.end(), list->items.begin(), list->items.end());
  }
  merged.members.emplace_back("benchmarks", std::move(benchmarks));
  return merged;
}

StepCosts read_step_costs(const JsonValue& output) {
  StepCosts costs;
  if (const JsonValue* context = output.find("context")) costs.context = *context;
  // Repetitions of one benchmark, in the order first met.
  std::vector<std::pair<std::string, std::vector<const JsonValue*>>> runs;
  const JsonValue* list = output.find("benchmarks");
  if (!list) return costs;
  for (const JsonValue& b : list->items) {
    const JsonValue* run_name = b.find("run_name");
    const std::string name = run_name ? run_name->scalar_text() : context_text(b, "name", "");
    if (const JsonValue* type = b.find("run_type"); type && type->text != "iteration") continue;  // aggregates
    if (const JsonValue* error = b.find("error_occurred"); error && error->boolean) {
      costs.errors[name] = context_text(b, "error_message", "error");
      continue;
    }
    auto at = std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.first == name; });
    if (at == runs.end()) at = runs.insert(runs.end(), {name, {}});
    at->second.push_back(&b);
  }
  for (const auto& [name, entries] : runs) {
    StepCostRow row;
    if (!parse_benchmark_name(name, row.model, row.integrator, row.n)) continue;
    row.benchmark = name;
    row.size = context_text(costs.context, "size_of_" + (row.model.empty() ? std::string("mass_solve") : row.model), "");
    std::vector<double> ns;
    for (const JsonValue* e : entries) {
      const JsonValue* cpu = e->find("cpu_time");
      if (!cpu || !cpu->is(JsonValue::Kind::number)) throw InputError("benchmark " + name + ": key 'cpu_time': expected a number");
      ns.push_back(cpu->number() * to_ns(context_text(*e, "time_unit", ""), "benchmark " + name));
    }
    row.ns_per_step = median(ns);
    if (!row.is_mass_solve()) {
      row.rhs_evals_per_step = median_counter(entries, "rhs_evals");
      row.newton_iters_per_step = median_counter(entries, "newton_iters");
      row.short_fraction_start = median_counter(entries, "short_fraction_start");
      row.short_fraction_end = median_counter(entries, "short_fraction_end");
    }
    costs.rows.push_back(row);
  }
  std::sort(costs.rows.begin(), costs.rows.end(), [](const StepCostRow& a, const StepCostRow& b) {
    return std::make_tuple(a.is_mass_solve(), a.model, a.integrator, a.n) <
           std::make_tuple(b.is_mass_solve(), b.model, b.integrator, b.n);
  });
  return costs;
}

std::string linear_verdict(const PowerLawFit& fit, const StepCostRules& rules) {
  if (fit.points < 2 || !std::isfinite(fit.p)) return "—";
  if (!std::isfinite(fit.ci95))
    return "inconclusive: " + std::to_string(fit.points) + " points, no interval to tell noise from growth";
  const double low = 1.0 - rules.linear_band, high = 1.0 + rules.linear_band;
  const double from = fit.p - fit.ci95, to = fit.p + fit.ci95;
  if (from >= low && to <= high) return "yes";
  if (to < low || from > high) return "**no — check**";
  return "inconclusive: the 95% interval [" + format_g(from, 3) + ", " + format_g(to, 3) + "] crosses the band's edge";
}

std::vector<StepCostGrowth> step_cost_growth(const StepCosts& costs, const StepCostRules& rules) {
  std::vector<StepCostGrowth> out;
  for (const auto& [key, rows] : series_of(costs.rows)) {
    StepCostGrowth g;
    g.model = key.first, g.integrator = key.second;
    std::vector<double> n, per_step, per_eval;
    for (const StepCostRow* r : rows) {
      if (r->n < rules.fit_min_n || !(r->ns_per_step > 0)) continue;
      n.push_back(double(r->n)), per_step.push_back(r->ns_per_step);
      if (r->rhs_evals_per_step && *r->rhs_evals_per_step > 0) per_eval.push_back(r->ns_per_step / *r->rhs_evals_per_step);
    }
    if (!n.empty()) g.n_min = long(n.front()), g.n_max = long(n.back());
    g.per_step.points = int(n.size());
    if (n.size() >= 2) g.per_step = fit_power_law(n, per_step);
    if (n.size() >= 2 && per_eval.size() == n.size()) g.per_evaluation = fit_power_law(n, per_eval);
    // The algebra is judged per evaluation where it is counted: the evaluations per step are the
    // method's convergence (Newton iterations, an adaptive method's stages and rejections).
    g.verdict = linear_verdict(g.per_evaluation ? *g.per_evaluation : g.per_step, rules);
    out.push_back(g);
  }
  return out;
}

void write_step_cost_csv(const std::vector<StepCostRow>& rows, std::ostream& out) {
  out << "benchmark,model,integrator,N,size,ns_per_step,rhs_evals_per_step,newton_iters_per_step\n";
  auto optional = [](std::optional<double> x) { return x ? format_g(*x, 6) : std::string(); };
  for (const auto& r : rows)
    out << csv_field(r.benchmark) << ',' << csv_field(r.model) << ',' << csv_field(r.integrator) << ',' << r.n << ','
        << csv_field(r.size) << ',' << format_g(r.ns_per_step, 6) << ',' << optional(r.rhs_evals_per_step) << ','
        << optional(r.newton_iters_per_step) << '\n';
}

namespace {

void machine_table(std::ostringstream& md, const JsonValue& context) {
  std::vector<std::string> caches;
  if (const JsonValue* list = context.find("caches"))
    for (const auto& c : list->items) {
      std::string type = context_text(c, "type", "");
      std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
      const double bytes = c.find("size") ? c.find("size")->number() : std::nan("");
      caches.push_back("L" + context_text(c, "level") + " " + type + " " +
                       (std::isfinite(bytes) ? std::to_string(long(bytes) / 1024) : std::string("?")) + " KiB");
    }
  std::vector<std::string> load;
  if (const JsonValue* list = context.find("load_avg"))
    for (const auto& x : list->items) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", x.number());
      load.push_back(buf);
    }
  const JsonValue* scaling = context.find("cpu_scaling_enabled");
  std::vector<std::vector<std::string>> rows = {
      {"date", context_text(context, "date")},
      {"host", context_text(context, "host_name")},
      {"CPUs", context_text(context, "num_cpus") + " × " + context_text(context, "mhz_per_cpu") + " MHz (scaling " +
                   (scaling && scaling->boolean ? "on" : "off") + ")"},
      {"caches", caches.empty() ? "?" : join(caches)},
      {"load average", load.empty() ? "?" : join(load)},
      {"executable", "`" + context_text(context, "executable") + "`"},
      {"Google Benchmark library build",
       context_text(context, "library_build_type") + " (the library's own build, not the suite's)"}};
  for (const char* key : {"fixed_step_rule", "adaptive_tolerances"})
    if (context.find(key)) {
      std::string label = key;
      std::replace(label.begin(), label.end(), '_', ' ');
      rows.push_back({label, context_text(context, key)});
    }
  // The plugins whose integrators were measured, with how each was compiled, by name.
  std::vector<std::vector<std::string>> plugins;
  for (const auto& [key, value] : context.members)
    if (key.rfind("plugin ", 0) == 0) plugins.push_back({key, value.scalar_text()});
  std::sort(plugins.begin(), plugins.end());
  rows.insert(rows.end(), plugins.begin(), plugins.end());
  markdown::table(md, {"", ""}, rows);
  md << "\n";
}

std::vector<bool> numeric_after(size_t text_columns, size_t columns) {
  std::vector<bool> numeric(columns, true);
  for (size_t i = 0; i < text_columns && i < columns; ++i) numeric[i] = false;
  return numeric;
}

void cost_tables(std::ostringstream& md, const StepCosts& costs, const StepCostRules& rules) {
  const std::string sizes = sizes_text(rules.table_n);
  md << "## Cost per step at N = " << sizes << "\n\n";
  std::vector<std::string> header = {"model", "integrator"};
  for (long n : rules.table_n) header.push_back("N = " + std::to_string(n));
  std::vector<std::string> per_element_header = header;
  header.insert(header.end(), {"RHS evals / step", "Newton iters / step"});
  std::vector<std::vector<std::string>> rows, per_element;
  for (const auto& [key, series] : series_of(costs.rows)) {
    const auto& [model, integrator] = key;
    std::vector<std::string> row = {model.empty() ? "—" : model, integrator}, element = row;
    std::vector<std::string> rhs, newton;
    for (long n : rules.table_n) {
      const StepCostRow* r = row_at(costs, model, integrator, n);
      row.push_back(time_text(r ? std::optional<double>(r->ns_per_step) : std::nullopt));
      if (r) rhs.push_back(number_text(r->rhs_evals_per_step)), newton.push_back(number_text(r->newton_iters_per_step));
      const bool counted = r && r->rhs_evals_per_step && *r->rhs_evals_per_step > 0;
      element.push_back(counted ? format_g(r->ns_per_step / (*r->rhs_evals_per_step * double(n)), 3) : "—");
    }
    const bool mass = integrator == "mass_solve";
    row.push_back(mass ? "—" : join(rhs, "/"));
    row.push_back(mass ? "—" : join(newton, "/"));
    rows.push_back(row);
    if (!mass) per_element.push_back(element);
  }
  markdown::table(md, header, rows, numeric_after(2, header.size()));
  md << "\n(counters given at the same N values, separated by /)\n\n";
  md << "## Cost per element per right-hand-side evaluation, ns (N = " << sizes << ")\n\n"
     << "Cost per step / (counted evaluations per step × N): flat in N for O(N) linear algebra. Each method counts "
        "its own calls (the RHS evals column): an explicit method's stages, a variational or constrained method's "
        "residual or force evaluations, an adaptive implicit solver's right-hand-side calls; a cost per counted "
        "call, not per unit of work.\n\n";
  markdown::table(md, per_element_header, per_element, numeric_after(2, per_element_header.size()));
  md << "\n";
}

void growth_table(std::ostringstream& md, const StepCosts& costs, const StepCostRules& rules) {
  md << "## Growth with N: cost ∝ N^p (least squares of log cost on log N, N ≥ " << rules.fit_min_n << ")\n\n"
     << "Every evaluation uses O(N) linear algebra (block-tridiagonal or recursive solves with the mass or Newton "
        "matrix, never a dense one), so the cost per right-hand-side or residual evaluation must grow like N: p_eval "
        "≈ 1. The verdict is on p_eval's 95% interval (on p's for the mass-matrix solve, which counts no "
        "evaluations): yes when it lies within "
     << format_g(rules.linear_band, 3) << " of 1, **no — check** when it lies wholly outside, inconclusive when it "
     << "crosses an edge of that band or when two points leave no interval. The band's width: working sets leaving a "
        "cache level raise the cost per element over these sizes (the per-element table above), and a per-element "
        "cost 1.4× higher at N = 5000 than at 50 tilts the exponent by log 1.4 / log 100 ≈ 0.07, while a dense solve "
        "would give 2 or more. Fixed costs per step (bookkeeping, the rigid bodies' small solves) tilt it the other "
        "way, as much again when the per-element cost at N = 50 is 1.4× that at 5000; hence the fit from N ≥ "
     << rules.fit_min_n << ", and a band of about twice either tilt. The "
        "cost per step (p) also carries how the evaluations per step change with N (Newton iterations, an adaptive "
        "method's stages and rejections, per accepted step), which is the method's convergence, not its linear "
        "algebra. Per step, not per simulated second: at h = 0.3 / ω_max(N) the steps per second grow with N as "
        "well.\n\n";
  std::vector<std::vector<std::string>> rows;
  auto exponent = [](const std::optional<PowerLawFit>& f) {
    if (!f || f->points < 2) return std::string("—");
    return format_g(f->p, 3) + (std::isfinite(f->ci95) ? " ± " + format_g(f->ci95, 2) : std::string());
  };
  for (const auto& g : step_cost_growth(costs, rules))
    rows.push_back({g.model.empty() ? "—" : g.model, g.integrator, exponent(g.per_step), exponent(g.per_evaluation),
                    g.per_step.points ? std::to_string(g.n_min) + "–" + std::to_string(g.n_max) : "—",
                    std::to_string(g.per_step.points), g.verdict});
  const std::vector<std::string> header = {"model", "integrator", "p (per step) ± 95%", "p_eval (per evaluation) ± 95%",
                                           "N range", "points", "O(N)?"};
  std::vector<bool> numeric = numeric_after(2, header.size());
  numeric[4] = numeric[6] = false;
  markdown::table(md, header, rows, numeric);
  md << "\n";
}

void ratio_tables(std::ostringstream& md, const StepCosts& costs, const StepCostComparisons& comparisons) {
  std::set<std::string> models;
  for (const auto& r : costs.rows)
    if (!r.model.empty()) models.insert(r.model);
  for (const auto& ratio : comparisons.ratios)
    for (const auto& model : models) {
      std::vector<std::vector<std::string>> rows;
      for (const auto& a : costs.rows) {
        if (a.model != model || a.integrator != ratio.method) continue;
        const StepCostRow* b = row_at(costs, model, ratio.baseline, a.n);
        if (!b) continue;
        auto per_eval = [](const StepCostRow& r) {
          return r.rhs_evals_per_step && *r.rhs_evals_per_step > 0 ? std::optional<double>(r.ns_per_step / *r.rhs_evals_per_step)
                                                                    : std::nullopt;
        };
        const auto ea = per_eval(a), eb = per_eval(*b);
        char per_step[32];
        std::snprintf(per_step, sizeof per_step, "%.2f", a.ns_per_step / b->ns_per_step);
        rows.push_back({std::to_string(a.n), time_text(a.ns_per_step), time_text(b->ns_per_step), per_step, time_text(ea),
                        time_text(eb), ea && eb ? format_g(*ea / *eb, 3) : "—"});
      }
      if (rows.empty()) continue;
      const std::string& m = ratio.method;
      const std::string& r = ratio.baseline;
      md << "## " << m << " / " << r << " cost ratio (" << model << ")\n\n"
         << "Per step at the same h, and per RHS-evaluation equivalent (cost per step divided by RHS evaluations per "
            "step: a residual of "
         << m << " with its Newton solve against a stage of " << r
         << "). A cost per step, not an efficiency: methods of different orders reach different errors at one h "
            "(their work against error: the report's work-precision pages).\n\n";
      const std::vector<std::string> header = {"N", m + " / step", r + " / step", m + "/" + r + " per step",
                                               m + " / residual", r + " / RHS", m + "/" + r + " per RHS eval"};
      markdown::table(md, header, rows, numeric_after(0, header.size()));
      md << "\n";
    }
}

// Two benchmark models side by side (the catalogue's model_ratios), integrator by integrator at the
// page's sizes: cost per element and step (cost per step / N: the models share N, the integrator
// and h), the ratio, the evaluations and iterations of each, and the share of short elements.
void model_ratio_tables(std::ostringstream& md, const StepCosts& costs, const StepCostComparisons& comparisons,
                        const StepCostRules& rules) {
  auto share = [](const StepCostRow& r) {
    if (!r.short_fraction_start || !r.short_fraction_end) return std::string("—");
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f → %.2f", *r.short_fraction_start, *r.short_fraction_end);
    return std::string(buf);
  };
  for (const auto& pair : comparisons.model_ratios) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> integrators;  // those measured on the model, in the rows' order
    for (const auto& r : costs.rows)
      if (r.model == pair.model && std::find(integrators.begin(), integrators.end(), r.integrator) == integrators.end())
        integrators.push_back(r.integrator);
    for (const auto& integrator : integrators)
      for (long n : rules.table_n) {
        const StepCostRow *a = row_at(costs, pair.model, integrator, n), *b = row_at(costs, pair.baseline, integrator, n);
        if (!a || !b || n <= 0) continue;
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2f", a->ns_per_step / b->ns_per_step);
        rows.push_back({integrator, std::to_string(n), format_g(a->ns_per_step / double(n), 3),
                        format_g(b->ns_per_step / double(n), 3), ratio,
                        number_text(a->rhs_evals_per_step) + " / " + number_text(b->rhs_evals_per_step),
                        number_text(a->newton_iters_per_step) + " / " + number_text(b->newton_iters_per_step), share(*a),
                        share(*b)});
      }
    if (rows.empty()) continue;
    const std::string& m = pair.model;
    const std::string& b = pair.baseline;
    md << "## " << m << " beside " << b << ": cost per element and step\n\n"
       << pair.why << ". Cost per step / N, in ns, for every integrator measured on both at N = "
       << sizes_text(rules.table_n)
       << " (a fixed-step method at the same h on both; an adaptive one chooses its own steps on each, so its ratio "
          "carries what the model does to its step size too), and their ratio; the evaluations and Newton iterations per step of each (" << m
       << " / " << b << "), which an implicit method's count can change; the share of elements shorter than their rest "
       << "length after the warm-up → after the timed steps (the state measured: a small N's timed steps cover a long "
          "simulated time, in which the motion moves it).\n\n";
    const std::vector<std::string> header = {"integrator", "N", m + " ns / (N · step)", b + " ns / (N · step)",
                                             m + " / " + b, "RHS evals / step", "Newton iters / step",
                                             m + " short share", b + " short share"};
    std::vector<bool> numeric = numeric_after(1, header.size());
    numeric[5] = numeric[6] = numeric[7] = numeric[8] = false;
    markdown::table(md, header, rows, numeric);
    md << "\n";
  }
}

// The flags of one method against its twin at one N.
// Whether two rows did the same Newton work per step: iteration counts within 5% of each other.
// Twins stop Newton by different rules, so at different counts a cost ratio measures the rules,
// not how each evaluates and solves the equations.
bool same_iterations(const StepCostRow& a, const StepCostRow& b) {
  if (!a.newton_iters_per_step || !b.newton_iters_per_step) return false;
  return std::abs(*a.newton_iters_per_step - *b.newton_iters_per_step) <= 0.05 * *b.newton_iters_per_step;
}

// The verdict on one method against its twin at one N: flags (more iterations than the method's
// solve needs; either twin's step dearer than the other's at the same iterations), or why the
// cost is not judged.
std::pair<std::vector<std::string>, std::string> twin_verdict(const StepCostRow* a, const StepCostRow* b,
                                                              const StepCostComparisons::Twins& pair,
                                                              const StepCostComparisons::SameEquations& same) {
  std::vector<std::string> flags;
  if (!a) return {b ? std::vector<std::string>{pair.method + " skipped"} : flags, ""};  // missing beside its twin
  if (!b) return {{pair.twin + " skipped"}, ""};
  if (a->newton_iters_per_step && *a->newton_iters_per_step > same.max_iterations * pair.substeps)
    flags.push_back(pair.method + ": " + format_g(*a->newton_iters_per_step, 3) + " iterations");
  if (!same_iterations(*a, *b))
    return {flags, "cost not judged: " + number_text(a->newton_iters_per_step) + " against " +
                       number_text(b->newton_iters_per_step) + " iterations (the stopping rules differ)"};
  auto dearer = [&](const StepCostRow& x, const std::string& x_name, const StepCostRow& y, const std::string& y_name) {
    if (x.ns_per_step / y.ns_per_step <= same.max_cost_ratio) return;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x.ns_per_step / y.ns_per_step);
    flags.push_back(x_name + ": " + buf + "× " + y_name + " at the same iterations");
  };
  dearer(*a, pair.method, *b, pair.twin);
  dearer(*b, pair.twin, *a, pair.method);
  return {flags, ""};
}

void same_equation_tables(std::ostringstream& md, const StepCosts& costs, const StepCostComparisons& comparisons) {
  for (const auto& same : comparisons.same_equations) {
    // The pairs measured here (a command's --integrator may have left some out), and their sizes.
    std::set<long> sizes;
    std::vector<StepCostComparisons::Twins> pairs;
    for (const auto& p : same.pairs) {
      bool measured = false;
      for (const auto& r : costs.rows)
        if (r.model == same.model && (r.integrator == p.method || r.integrator == p.twin)) sizes.insert(r.n), measured = true;
      if (measured) pairs.push_back(p);
    }
    if (pairs.empty()) continue;
    std::vector<std::string> header = {"N"}, methods, twins;
    for (const auto& p : pairs) {
      header.insert(header.end(), {p.method + " iters", p.twin + " iters", p.method + " / " + p.twin + " per step"});
      methods.push_back(p.method), twins.push_back(p.twin);
    }
    header.push_back("verdict");
    std::vector<std::vector<std::string>> rows;
    for (long n : sizes) {
      std::vector<std::string> row = {std::to_string(n)}, flags, unjudged;
      for (const auto& p : pairs) {
        const StepCostRow *a = row_at(costs, same.model, p.method, n), *b = row_at(costs, same.model, p.twin, n);
        row.push_back(number_text(a ? a->newton_iters_per_step : std::nullopt));
        row.push_back(number_text(b ? b->newton_iters_per_step : std::nullopt));
        row.push_back(a && b ? format_g(a->ns_per_step / b->ns_per_step, 3) : "—");
        auto [f, why] = twin_verdict(a, b, p, same);
        flags.insert(flags.end(), f.begin(), f.end());
        if (!why.empty()) unjudged.push_back(why);
      }
      std::string verdict = flags.empty() ? "" : "**" + join(flags, "; ") + "**";
      if (!unjudged.empty()) verdict += (verdict.empty() ? "" : "; ") + join(unjudged, "; ");
      row.push_back(verdict.empty() ? "—" : verdict);
      rows.push_back(row);
    }
    md << "## " << join(methods) << " against " << join(twins) << ": the same discrete equations (" << same.model
       << ")\n\n"
       << "Newton iterations (evaluations of the step's equations) per step, and the cost per step, at the same h. "
       << same.why << ". Flagged: more than " << format_g(same.max_iterations, 3)
       << " iterations per substep; at the same iterations (within 5%), either twin's step costing more than "
       << format_g(same.max_cost_ratio, 3)
       << "× the other's. Where the iterations differ the two stopped Newton by their own rules and did different "
          "work: the cost ratio printed then measures their stopping rules (above), and is not judged. A method or "
          "twin missing where the other was measured is a skipped benchmark, listed below.\n\n";
    std::vector<bool> numeric = numeric_after(0, header.size());
    numeric.back() = false;
    markdown::table(md, header, rows, numeric);
    md << "\n";
  }
}

std::optional<double> cell_number(const std::map<std::string, std::string>* row, const std::string& column) {
  if (!row) return std::nullopt;
  const auto it = row->find(column);
  if (it == row->end() || it->second.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0' || !std::isfinite(x)) return std::nullopt;
  return x;
}

// From the report's own full runs (summary.csv): the figures whose regression would show first.
void whole_runs_table(std::ostringstream& md, const CsvTable& summary, const StepCostComparisons& comparisons) {
  if (summary.rows.empty()) return;
  std::map<std::pair<std::string, std::string>, const std::map<std::string, std::string>*> ok;
  std::set<std::string> cases;
  for (const auto& r : summary.rows)
    if (r.count("status") && r.at("status") == "ok" && r.count("runtime_s") && !r.at("runtime_s").empty())
      ok[{r.at("case"), r.at("integrator")}] = &r, cases.insert(r.at("case"));
  std::vector<std::string> header = {"case"};
  for (const auto& ratio : comparisons.ratios)
    header.insert(header.end(), {ratio.method + " Newton iters / step", ratio.method + " runtime (s)",
                                 ratio.baseline + " runtime (s)", ratio.method + "/" + ratio.baseline});
  for (const auto& i : comparisons.step_rates)
    header.insert(header.end(), {i + " steps", i + " over (s)", i + " steps / simulated s, over that horizon", i + " runtime (s)"});
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : cases) {
    std::vector<std::string> row = {c};
    bool any = false;
    for (const auto& ratio : comparisons.ratios) {
      const auto* a = ok.count({c, ratio.method}) ? ok.at({c, ratio.method}) : nullptr;
      const auto* b = ok.count({c, ratio.baseline}) ? ok.at({c, ratio.baseline}) : nullptr;
      const auto iters = cell_number(a, "newton_iters"), steps = cell_number(a, "steps");
      const auto ta = cell_number(a, "runtime_s"), tb = cell_number(b, "runtime_s");
      const bool same_h = a && b && a->count("h") && b->count("h") && a->at("h") == b->at("h");
      row.insert(row.end(), {number_text(iters && steps && *steps > 0 ? std::optional<double>(*iters / *steps) : std::nullopt),
                             number_text(ta), number_text(tb),
                             number_text(same_h && ta && tb && *tb > 0 ? std::optional<double>(*ta / *tb) : std::nullopt)});
      any = any || a;
    }
    for (const auto& i : comparisons.step_rates) {
      const auto* r = ok.count({c, i}) ? ok.at({c, i}) : nullptr;
      const auto steps = cell_number(r, "steps"), t_end = cell_number(r, "t_end");
      row.insert(row.end(), {number_text(steps, 4), number_text(t_end),
                             number_text(steps && t_end && *t_end > 0 ? std::optional<double>(*steps / *t_end) : std::nullopt, 4),
                             number_text(cell_number(r, "runtime_s"))});
      any = any || r;
    }
    if (any) rows.push_back(row);
  }
  md << "## Whole runs of the bundled cases (summary.csv)\n\n"
        "From the report's own full runs (runtime: whole step loops, the minimum of the timed passes). A dash: the method does not run the case, or did not complete it. A "
        "ratio of runtimes only where both ran at the same h. Newton iterations per step are at each case's own h and "
        "over its whole run, not the benchmarks' step rule and states, so the benchmarks' bound on iterations is not "
        "applied to them.\n\n";
  markdown::table(md, header, rows, numeric_after(1, header.size()));
  md << "\n";
}

}  // namespace

std::string step_cost_markdown(const StepCosts& costs, const StepCostComparisons& comparisons, const CsvTable& summary,
                               const StepCostRules& rules) {
  std::ostringstream md;
  md << "# Per-step cost of the integrators\n\n"
        "Source: Google Benchmark `benchmarks` (benchmarks/bench_step_cost.cpp), CPU time per iteration, the median "
        "over repetitions; one iteration is one `TimeStepper::step()` (for adaptive methods one accepted step, "
        "rejected trials included) or one mass-matrix factor + solve.\n\n";
  machine_table(md, costs.context);
  cost_tables(md, costs, rules);
  growth_table(md, costs, rules);
  ratio_tables(md, costs, comparisons);
  same_equation_tables(md, costs, comparisons);
  model_ratio_tables(md, costs, comparisons, rules);
  whole_runs_table(md, summary, comparisons);
  if (!costs.errors.empty()) {
    md << "## Skipped benchmarks\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, message] : costs.errors) rows.push_back({name, message});
    markdown::table(md, {"benchmark", "reason"}, rows);
    md << "\n";
  }
  md << "Figure: `figures/benchmarks_scaling.png`; all rows: `benchmarks.csv`.\n";
  return md.str();
}

bool write_step_cost_page(const std::vector<std::string>& part_paths, const std::string& dir,
                          const StepCostComparisons& comparisons, const std::vector<std::string>& without_models) {
  try {
    const JsonValue merged = merge_benchmark_parts(part_paths);
    const StepCosts costs = read_step_costs(merged);
    const fs::path out(dir);
    // Each file whole or not at all (a report read while it is written sees the old page or the new).
    auto write_whole = [&](const std::string& name, const std::string& text) { write_file_whole((out / name).string(), text); };
    write_whole("benchmarks.json", to_json(merged));
    if (costs.rows.empty()) {
      std::fprintf(stderr, "tetherbench: no step/ or mass_solve/ benchmarks in %s\n", (out / "benchmarks.json").c_str());
      return false;
    }
    std::ostringstream csv;
    write_step_cost_csv(costs.rows, csv);
    write_whole("benchmarks.csv", csv.str());
    std::string md = step_cost_markdown(costs, comparisons, read_csv_table((out / "summary.csv").string()));
    if (!without_models.empty()) {
      md += "\nNot measured: ";
      for (size_t i = 0; i < without_models.size(); ++i) md += (i ? ", " : "") + std::string("`") + without_models[i] + "`";
      md += ": no benchmark model offers a form they run (each model's reason: the benchmark binary's n/a lines in "
            "benchmarks.log).\n";
    }
    write_whole("benchmarks.md", md);
    return true;
  } catch (const std::exception& e) {  // InputError, or the filesystem's
    std::fprintf(stderr, "tetherbench: the benchmarks' page: %s\n", e.what());
    return false;
  }
}

}  // namespace tb
