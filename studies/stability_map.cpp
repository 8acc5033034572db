// Stability map: the criterion, the search and the fit are described in stability_map.hpp
// and cases/README.md ("Stability map"). Practice followed where the issue is silent
// (DiffEqDevTools): the unit is a setup (method + step) run over the same horizon for every
// method, judged by one measurement path (integrate() and the metrics' accumulator of
// core/runner.hpp, core/metrics.hpp); every run is written out (stability_probes.csv) so that
// each h_max can be audited.

#include "studies/stability_map.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <list>
#include <sstream>

#include "core/catalogue.hpp"
#include "core/format.hpp"
#include "core/job_result.hpp"
#include "core/model_variant.hpp"

namespace tb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Raised by the observer to end a probe at the first sample past a bound that can only grow
// (a constraint or orthogonality error, a non-finite energy); integrate() turns it into a
// failed outcome, and the probe keeps its own reason.
struct BoundExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

StabilityProbe probe_stability(const RunKey& key, IntegratorSettings settings, double h, double t_end,
                               double sample_interval, const StabilityCriterion& criterion) {
  StabilityProbe p;
  p.h = h;
  p.host = host_name();
  settings.h = h;
  std::unique_ptr<Formulation> form;
  try {
    std::string why_not;
    form = key.c->model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
    if (!form) {
      p.reason = "not applicable: " + why_not;
      return p;
    }
  } catch (const std::exception& e) {
    p.reason = std::string("solver failure: building the formulation failed: ") + e.what();
    return p;
  }
  MetricsAccumulator metrics;
  bool first = true;
  double balance0 = 0.0, gain = 0.0, loss = 0.0;
  std::string exceeded;
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    metrics.add(t, o);
    const double balance = o.energy - o.external_work;
    if (first) balance0 = balance, first = false;
    gain = std::max(gain, balance - balance0);
    loss = std::max(loss, balance0 - balance);
    if (!std::isfinite(balance) || !std::isfinite(o.kinetic))
      exceeded = "non-finite state: energy " + format_g(balance, 3) + " at t = " + format_g(t, 4) + " s";
    else if (!(o.constraint_err <= criterion.constraint_bound))
      exceeded = "constraint error " + format_g(o.constraint_err, 3) + " > " + format_g(criterion.constraint_bound, 3) +
                 " at t = " + format_g(t, 4) + " s";
    else if (!(o.orthogonality_err <= criterion.constraint_bound))
      exceeded = "orthogonality error " + format_g(o.orthogonality_err, 3) + " > " +
                 format_g(criterion.constraint_bound, 3) + " at t = " + format_g(t, 4) + " s";
    if (!exceeded.empty()) throw BoundExceeded(exceeded);
  };
  const IntegrationOutcome run = integrate(*form, *key.integrator, settings, t_end, sample_interval, observer);
  const ConservationMetrics m = metrics.result();
  p.t_reached = run.t_final;
  p.runtime_s = run.runtime_s;
  p.counters = run.counters;
  p.constraint_err_max = m.constraint_err_max;
  p.orthogonality_err_max = m.orthogonality_err_max;
  const double ke = m.kinetic_max;
  p.energy_gain_rel = ke > 0 ? gain / ke : (gain > 0 ? std::numeric_limits<double>::infinity() : 0.0);
  p.energy_loss_rel = ke > 0 ? loss / ke : 0.0;
  const RunOutcome& o = run.outcome;
  const std::string when = " at t = " + format_g(o.t, 4) + " s, step " + std::to_string(o.step);
  if (!exceeded.empty()) {
    p.reason = exceeded;
  } else if (o.interrupted()) {
    p.reason = "interrupted" + when;
  } else if (o.failed()) {
    p.reason = (o.diverged ? "non-finite state: " : "solver failure: ") + o.reason + when;
  } else if (!(p.energy_gain_rel <= criterion.energy_fraction)) {
    p.reason = "energy gain " + format_g(p.energy_gain_rel, 3) + " x max T > " + format_g(criterion.energy_fraction, 3);
  } else {
    p.stable = true;
  }
  return p;
}

const StabilityProbe* StabilitySearch::at(double h) const {
  for (const auto& p : probes)
    if (p.h == h) return &p;
  return nullptr;
}

StabilitySearch find_h_max(const RunKey& key, const IntegratorSettings& settings, double h0, double t_end,
                           double sample_interval, const StabilityCriterion& criterion, double precision) {
  StabilitySearch s;
  s.cap = std::max(t_end / 10.0, h0);
  s.floor = h0 / 64.0;
  bool stopped = false;  // interrupted: no more probes
  auto stable = [&](double h) {
    s.probes.push_back(probe_stability(key, settings, h, t_end, sample_interval, criterion));
    stopped = s.probes.back().reason.starts_with("interrupted");
    return s.probes.back().stable;
  };
  double ok = 0.0, fail = 0.0;
  if (stable(h0)) {
    ok = h0;
    while (!stopped) {
      const double next = std::min(2.0 * ok, s.cap);
      if (next <= ok) {
        s.bound = StabilitySearch::Bound::AtCap;
        s.h_max = ok;
        return s;
      }
      if (stable(next)) ok = next;
      else {
        fail = next;
        break;
      }
    }
  } else {
    fail = h0;
    while (!stopped) {
      const double next = fail / 2.0;
      if (next < s.floor * (1.0 - 1e-12)) {
        s.bound = StabilitySearch::Bound::BelowFloor;
        s.h_fail = fail;
        return s;
      }
      if (stable(next)) {
        ok = next;
        break;
      }
      fail = next;
    }
  }
  while (!stopped && fail / ok - 1.0 > precision) {
    const double mid = std::sqrt(ok * fail);
    if (stable(mid)) ok = mid;
    else fail = mid;
  }
  s.h_max = ok;
  s.h_fail = fail;
  return s;
}

namespace {

// --param values: every one checked, a bad one an InputError naming the key.
[[noreturn]] void bad_param(const std::string& name, const std::string& value, const std::string& expected) {
  throw InputError("--param " + name + "=" + value + ": expected " + expected);
}

double parse_number(const std::string& name, const std::string& text, const std::string& expected) {
  size_t used = 0;
  double x = kNaN;
  try {
    x = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(x)) bad_param(name, text, expected);
  return x;
}

std::string param(const StudyContext& context, const std::string& name, const std::string& fallback) {
  const auto it = context.parameters.find(name);
  return it == context.parameters.end() ? fallback : it->second;
}

struct Sweep {
  std::string case_name, key;
  std::vector<double> values;
};

const char* const kDefaultSweeps =
    "A_string_pendulum_paper:elements=10,20,40,80;B_reel_fixed_length:elements=10,20,40,80;"
    "C_single_multirotor:links_per_cable=3,5,10,20;C_single_multirotor:link_mass=0.0003125,0.00125,0.005,0.02";
const char* const kSweepsExpected =
    "'none' or sweeps CASE:KEY=V1,V2,... separated by ';' (CASE one of the study's cases, KEY a numeric key of its "
    "[model], at least two distinct values > 0)";

std::vector<Sweep> parse_sweeps(const std::string& text) {
  std::vector<Sweep> out;
  if (text == "none") return out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ';');) {
    const auto colon = item.find(':'), eq = item.find('=');
    if (colon == std::string::npos || eq == std::string::npos || colon == 0 || eq < colon + 2 || eq + 1 == item.size())
      bad_param("sweeps", text, kSweepsExpected);
    Sweep s{item.substr(0, colon), item.substr(colon + 1, eq - colon - 1), {}};
    std::stringstream values(item.substr(eq + 1));
    for (std::string v; std::getline(values, v, ',');) {
      const double x = parse_number("sweeps", v, kSweepsExpected);
      if (!(x > 0) || std::find(s.values.begin(), s.values.end(), x) != s.values.end())
        bad_param("sweeps", text, kSweepsExpected);
      s.values.push_back(x);
    }
    if (s.values.size() < 2) bad_param("sweeps", text, kSweepsExpected);
    std::sort(s.values.begin(), s.values.end());
    out.push_back(std::move(s));
  }
  if (out.empty()) bad_param("sweeps", text, kSweepsExpected);
  return out;
}

const char* bound_name(StabilitySearch::Bound b) {
  switch (b) {
    case StabilitySearch::Bound::Bracketed: return "bracketed";
    case StabilitySearch::Bound::AtCap: return ">= cap";
    case StabilitySearch::Bound::BelowFloor: return "< floor";
  }
  return "";
}

std::string csv_text(std::string s) {
  for (char& ch : s)
    if (ch == '"') ch = '\'';
  return "\"" + s + "\"";
}

std::string md_text(std::string s) {
  for (char& ch : s)
    if (ch == '|') ch = '/';
  return s;
}

class StabilityMap final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    const std::string horizon = param(context, "horizon_steps", "2000");
    if (horizon != "case") {
      const double n = parse_number("horizon_steps", horizon, "'case' or a whole number of steps >= 10");
      if (n < 10 || n != std::floor(n) || n > 1e9) bad_param("horizon_steps", horizon, "'case' or a whole number of steps >= 10");
      horizon_steps_ = n;
    }
    const std::string prec = param(context, "precision", "0.05");
    precision_ = parse_number("precision", prec, "a relative precision in [0.001, 1]");
    if (!(precision_ >= 1e-3 && precision_ <= 1.0)) bad_param("precision", prec, "a relative precision in [0.001, 1]");
    const std::string frac = param(context, "energy_fraction", "0.1");
    criterion_.energy_fraction = parse_number("energy_fraction", frac, "a fraction of max kinetic energy > 0");
    if (!(criterion_.energy_fraction > 0)) bad_param("energy_fraction", frac, "a fraction of max kinetic energy > 0");
    const std::string bound = param(context, "constraint_bound", "0.01");
    criterion_.constraint_bound = parse_number("constraint_bound", bound, "a bound > 0");
    if (!(criterion_.constraint_bound > 0)) bad_param("constraint_bound", bound, "a bound > 0");
    const bool sweeps_given = context.parameters.count("sweeps") > 0;
    const std::string sweeps_text = param(context, "sweeps", kDefaultSweeps);
    const std::vector<Sweep> sweeps = parse_sweeps(sweeps_text);

    const Catalogue& catalogue = *context.catalogue;
    for (const auto& c : *context.cases) {
      const size_t before = searches_.size();
      for (const auto& key : runs_of(c, catalogue.integrators))
        if (!key.integrator->adaptive && !why_not_applicable(c, *key.integrator, key.discretisation))
          add(key, c, "", kNaN);
      if (searches_.size() == before) notes_.push_back("Case " + c.name + ": no fixed-step integrator runs it.");
    }
    for (const auto& sweep : sweeps) {
      const Case* c = nullptr;
      for (const auto& candidate : *context.cases)
        if (candidate.name == sweep.case_name) c = &candidate;
      if (!c) {
        if (sweeps_given) bad_param("sweeps", sweeps_text, kSweepsExpected + std::string(" (no case ") + sweep.case_name + ")");
        notes_.push_back("sweep " + sweep.case_name + ":" + sweep.key + " not run: the case is not among the study's cases");
        continue;
      }
      const TableReader root = TableReader::parse_file(c->file);
      const toml::value& model = root.value().at("model");
      const toml::value& initial = root.value().at("initial");
      const auto keys = numeric_model_keys(model);
      if (std::find(keys.begin(), keys.end(), sweep.key) == keys.end())
        bad_param("sweeps", sweeps_text, "a numeric key of " + c->name + "'s [model] (" + join_names(keys) + "), not '" + sweep.key + "'");
      sweeps_.push_back({c->name, sweep.key});
      for (double v : sweep.values) {
        Case& variant = variants_.emplace_back(*c);
        try {
          variant.model = build_model_variant(*catalogue.find_model(c->model_name), c->file, model, initial, sweep.key, v);
        } catch (const std::exception& e) {
          bad_param("sweeps", sweeps_text,
                    "values " + c->name + "'s model accepts for " + sweep.key + ", not " + format_g(v) + " (" + e.what() + ")");
        }
        const std::string d = variant.model->default_discretisation();
        for (const auto& info : catalogue.integrators)
          if (!info.adaptive && !why_not_applicable(variant, info, d)) add(RunKey{&variant, &info, d}, *c, sweep.key, v);
      }
    }
    std::vector<StudyJob> jobs;
    for (auto& s : searches_) {
      std::string label = s.key.c->name + " | " + s.key.label() + " | stability";
      if (!s.swept.empty()) label += " " + s.swept + " = " + format_g(s.value, 4);
      // Everything the search reads: the case (a sweep's variant: its key and value), the horizon,
      // the start step, the criterion and the precision.
      const std::string inputs = run_inputs(*s.key.c, s.key.integrator->name) + ";" + s.key.discretisation +
                                 ";swept=" + s.swept + "=" + format_g(s.value, 17) + ";t_end=" + format_g(s.t_end, 17) +
                                 ";h0=" + format_g(s.key.c->h, 17) + ";sample=" + format_g(s.key.c->sample_interval, 17) +
                                 ";energy_fraction=" + format_g(criterion_.energy_fraction, 17) +
                                 ";constraint_bound=" + format_g(criterion_.constraint_bound, 17) +
                                 ";precision=" + format_g(precision_, 17);
      jobs.push_back(result_job<StabilitySearch>(
          label, 4.0 * s.t_end / s.key.c->h, inputs,
          [this, &s] {
            return find_h_max(s.key, s.key.c->settings_for(s.key.integrator->name), s.key.c->h, s.t_end,
                              std::min(s.key.c->sample_interval, s.t_end), criterion_, precision_);
          },
          s.search));
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) override {
    if (context.cases->empty()) return {};
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    std::ofstream csv(dir / "stability_map.csv");
    csv << "case,run,swept,value,h_case,t_horizon,h_max,bound,h_fail,precision,fail_reason,probes,runtime_at_h_max,"
           "steps_at_h_max,rhs_evals_at_h_max,newton_iters_at_h_max,runtime_at_h_case,energy_gain_rel_at_h_max,host\n";
    std::ofstream probes(dir / "stability_probes.csv");
    probes << "case,run,swept,value,t_horizon,h,stable,reason,t_reached,runtime_s,steps,rhs_evals,newton_iters,"
              "energy_gain_rel,energy_loss_rel,constraint_err_max,orthogonality_err_max,host\n";
    for (const auto& s : searches_) {
      const std::string head = s.case_name + ',' + s.key.label() + ',' + s.swept + ',' +
                               (s.swept.empty() ? "" : format_g(s.value, 6)) + ',';
      const StabilitySearch& r = s.search;
      const StabilityProbe* best = r.bound == StabilitySearch::Bound::BelowFloor ? nullptr : r.at(r.h_max);
      const StabilityProbe* failed = r.h_fail > 0 ? r.at(r.h_fail) : nullptr;
      const StabilityProbe* at_case = r.at(s.key.c->h);
      auto opt = [](bool have, double x) { return have ? format_g(x, 4) : std::string(); };
      csv << head << format_g(s.key.c->h, 6) << ',' << format_g(s.t_end, 6) << ',' << opt(best, r.h_max) << ','
          << bound_name(r.bound) << ',' << opt(failed, r.h_fail) << ',' << format_g(precision_, 3) << ','
          << csv_text(failed ? failed->reason : "") << ',' << r.probes.size() << ','
          << opt(best, best ? best->runtime_s : 0) << ',' << (best ? std::to_string(best->counters.steps) : "") << ','
          << (best ? std::to_string(best->counters.rhs_evals) : "") << ','
          << (best ? std::to_string(best->counters.newton_iters) : "") << ','
          << opt(at_case && at_case->stable, at_case ? at_case->runtime_s : 0) << ','
          << opt(best, best ? best->energy_gain_rel : 0) << ','
          << (best ? best->host : at_case ? at_case->host : std::string()) << '\n';  // where the runtimes were measured
      for (const auto& p : r.probes)
        probes << head << format_g(s.t_end, 6) << ',' << format_g(p.h, 6) << ',' << (p.stable ? "yes" : "no") << ','
               << csv_text(p.reason) << ',' << format_g(p.t_reached, 6) << ',' << format_g(p.runtime_s, 4) << ','
               << p.counters.steps << ',' << p.counters.rhs_evals << ',' << p.counters.newton_iters << ','
               << format_g(p.energy_gain_rel, 4) << ',' << format_g(p.energy_loss_rel, 4) << ','
               << format_g(p.constraint_err_max, 4) << ',' << format_g(p.orthogonality_err_max, 4) << ',' << p.host
               << '\n';
    }
    std::ofstream fits(dir / "stability_exponents.csv");
    fits << "case,swept,run,points,p,se,ci95_low,ci95_high,note\n";
    std::vector<std::string> md_fits;
    for (const auto& [case_name, key] : sweeps_) {
      std::vector<std::string> runs;
      for (const auto& s : searches_)
        if (s.case_name == case_name && s.swept == key && std::find(runs.begin(), runs.end(), s.key.label()) == runs.end())
          runs.push_back(s.key.label());
      for (const auto& run : runs) {
        std::vector<double> x, y;
        std::string left_out;
        for (const auto& s : searches_) {
          if (s.case_name != case_name || s.swept != key || s.key.label() != run) continue;
          if (s.search.bound == StabilitySearch::Bound::Bracketed) x.push_back(s.value), y.push_back(s.search.h_max);
          else left_out += (left_out.empty() ? "" : "; ") + key + " = " + format_g(s.value, 4) + ": h_max " +
                           bound_name(s.search.bound);
        }
        const std::string note = left_out.empty() ? "" : "left out (not bracketed): " + left_out;
        fits << case_name << ',' << key << ',' << run << ',' << x.size() << ',';
        std::string md_row = "| " + case_name + " | " + key + " | " + run + " | " + std::to_string(x.size()) + " | ";
        if (x.size() >= 2) {
          const PowerLawFit f = fit_power_law(x, y);
          const bool ci = std::isfinite(f.ci95);
          fits << format_g(f.p, 4) << ',' << (ci ? format_g(f.se, 3) : "") << ',' << (ci ? format_g(f.p - f.ci95, 4) : "")
               << ',' << (ci ? format_g(f.p + f.ci95, 4) : "") << ',' << csv_text(note) << '\n';
          md_row += format_g(f.p, 3) + " | " + (ci ? format_g(f.se, 2) + " | [" + format_g(f.p - f.ci95, 3) + ", " +
                                                          format_g(f.p + f.ci95, 3) + "]"
                                                    : "— | — (two points)");
        } else {
          fits << ",,,," << csv_text("no fit: fewer than two bracketed points" + (note.empty() ? "" : "; " + note)) << '\n';
          md_row += "— | — | — (fewer than two bracketed points)";
        }
        md_fits.push_back(md_row + " | " + md_text(note) + " |");
      }
    }
    write_markdown(dir / "stability_map.md", md_fits);
    return {(dir / "stability_map.csv").string(), (dir / "stability_probes.csv").string(),
            (dir / "stability_exponents.csv").string(), (dir / "stability_map.md").string()};
  }

 private:
  struct Entry {
    RunKey key;
    std::string case_name;  // the case (a sweep's variant keeps its name)
    std::string swept;      // "" for the case's own model
    double value = kNaN;
    double t_end = 0.0;
    StabilitySearch search;
  };

  void add(const RunKey& key, const Case& c, const std::string& swept, double value) {
    const double t_end = horizon_steps_ > 0 ? std::min(c.t_end_for(key.integrator->name), horizon_steps_ * c.h)
                                            : c.t_end_for(key.integrator->name);
    searches_.push_back({key, c.name, swept, value, t_end, {}});
  }

  // The case's other unswept runs whose search ended on the same bracket [h_max, h_fail] (the
  // bisection is deterministic, so equal outcomes give equal brackets), comma-separated; "—" if none.
  template <typename Search>
  std::string same_bracket(const Search& s) const {
    if (s.search.bound != StabilitySearch::Bound::Bracketed) return "—";
    auto same = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
    std::string out;
    for (const auto& o : searches_)
      if (&o != &s && o.swept.empty() && o.case_name == s.case_name && o.search.bound == StabilitySearch::Bound::Bracketed &&
          same(o.search.h_max, s.search.h_max) && same(o.search.h_fail, s.search.h_fail))
        out += (out.empty() ? "" : ", ") + o.key.label();
    return out.empty() ? "—" : out;
  }

  void write_markdown(const std::filesystem::path& path, const std::vector<std::string>& fits) const {
    std::ofstream md(path);
    md << "# Stability map\n\n"
       << "For every case and every fixed-step integrator, the largest step h_max that is stable over the horizon "
       << (horizon_steps_ > 0 ? format_g(horizon_steps_, 8) + " steps at the case's h (t_horizon below; at most the case's "
                                                              "t_end)"
                              : std::string("of the case's t_end (its integrator_t_end where set)"))
       << ", by one criterion for all:\n\n"
       << "1. the run reaches the horizon: no non-finite state, no solver failure (Newton, fold, exception), each "
          "recorded with its reason;\n"
       << "2. energy gain max(E - E0 - W) <= " << format_g(criterion_.energy_fraction, 3)
       << " x the maximum kinetic energy over the run (signed: growth is instability; a method's damping is accuracy, "
          "recorded as energy_loss_rel in stability_probes.csv);\n"
       << "3. constraint_err_max and orthogonality_err_max <= " << format_g(criterion_.constraint_bound, 3) << ".\n\n"
       << "Search: from the case's h up by x2 until a probe fails (cap: t_horizon/10, then h_max >= cap), or down by "
          "/2 to h/64 if the case's h fails (then h_max < floor); then geometric bisection until h_fail/h_max - 1 <= "
       << format_g(precision_, 3)
       << ". Every probe: stability_probes.csv. Cost at h_max: the run over the horizon at h_max (runtime of the "
          "step loops in one pass, steps, right-hand-side or residual evaluations; the counts are the "
          "machine-independent part), beside the run at the case's h. Parameters: "
          "`--param horizon_steps=case` for the full horizon, `precision=`, `energy_fraction=`, `constraint_bound=`, "
          "`sweeps=` (tetherbench list). \"Same bracket as\": the case's other runs whose search ended on the same "
          "[h_max, h_fail]; where they solve the same discrete equations by other means (the LGVI and RATTLE on Model "
          "C: in joint coordinates the LGVI's position equations are SHAKE's), a common limit is the method's, not one "
          "solver's.\n";
    std::string current;
    for (const auto& s : searches_) {
      if (!s.swept.empty()) continue;
      if (s.case_name != current) {
        current = s.case_name;
        md << "\n## " << current << " (h = " << format_g(s.key.c->h, 3) << " s, t_horizon = " << format_g(s.t_end, 4)
           << " s)\n\n| run | h_max (s) | h_max / h | first failure above (h: why) | probes | runtime at h_max (s) | "
              "steps | rhs evals | runtime at h (s) | same bracket as |\n|---|---|---|---|---|---|---|---|---|---|\n";
      }
      md << "| " << s.key.label() << " | " << h_max_cell(s) << " | "
         << (s.search.bound == StabilitySearch::Bound::BelowFloor ? "—" : format_g(s.search.h_max / s.key.c->h, 3))
         << " | " << failure_cell(s) << " | " << s.search.probes.size() << " | ";
      const StabilityProbe* best = s.search.bound == StabilitySearch::Bound::BelowFloor ? nullptr : s.search.at(s.search.h_max);
      const StabilityProbe* at_case = s.search.at(s.key.c->h);
      if (best) md << format_g(best->runtime_s, 3) << " | " << best->counters.steps << " | " << best->counters.rhs_evals;
      else md << "— | — | —";
      md << " | " << (at_case && at_case->stable ? format_g(at_case->runtime_s, 3) : "—") << " | " << same_bracket(s)
         << " |\n";
    }
    if (!sweeps_.empty()) {
      md << "\n## h_max against a [model] key\n\nThe same search on the case with one [model] key changed (same "
            "horizon in seconds as the case). Figure: figures/stability_map_sweeps.png (written by `tetherbench "
            "report`).\n";
      for (const auto& [case_name, key] : sweeps_) {
        std::vector<std::string> runs;
        std::vector<double> values;
        for (const auto& s : searches_)
          if (s.case_name == case_name && s.swept == key) {
            if (std::find(runs.begin(), runs.end(), s.key.label()) == runs.end()) runs.push_back(s.key.label());
            if (std::find(values.begin(), values.end(), s.value) == values.end()) values.push_back(s.value);
          }
        md << "\n### " << case_name << ": h_max (s) against " << key << "\n\n| " << key << " |";
        for (const auto& r : runs) md << ' ' << r << " |";
        md << "\n|---|";
        for (size_t i = 0; i < runs.size(); ++i) md << "---|";
        md << '\n';
        for (double v : values) {
          md << "| " << format_g(v, 4) << " |";
          for (const auto& r : runs) {
            const Entry* e = nullptr;
            for (const auto& s : searches_)
              if (s.case_name == case_name && s.swept == key && s.value == v && s.key.label() == r) e = &s;
            md << ' ' << (e ? h_max_cell(*e) : "n/a") << " |";
          }
          md << '\n';
        }
      }
      md << "\n## Fitted exponents: log h_max = a + p log value\n\nLeast squares over the bracketed points; se: "
            "standard error of p; 95% interval p +- t(0.975, n-2) se. A CFL-limited explicit method on a string has "
            "p = -1 against N.\n\n| case | swept | run | points | p | se | 95% interval | note |\n"
            "|---|---|---|---|---|---|---|---|\n";
      for (const auto& row : fits) md << row << '\n';
    }
    for (const auto& n : notes_) md << "\n" << n << '\n';
  }

  std::string h_max_cell(const Entry& s) const {
    switch (s.search.bound) {
      case StabilitySearch::Bound::Bracketed: return format_g(s.search.h_max, 3);
      case StabilitySearch::Bound::AtCap: return ">= " + format_g(s.search.h_max, 3) + " (cap)";
      case StabilitySearch::Bound::BelowFloor: return "< " + format_g(s.search.floor, 3) + " (floor)";
    }
    return "";
  }

  std::string failure_cell(const Entry& s) const {
    if (s.search.h_fail <= 0) return "none up to the cap";
    const StabilityProbe* f = s.search.at(s.search.h_fail);
    return format_g(s.search.h_fail, 3) + ": " + md_text(f ? f->reason : "");
  }

  StabilityCriterion criterion_;
  double precision_ = 0.05;
  double horizon_steps_ = 2000;  // 0: the case's horizon
  std::list<Case> variants_;     // stable addresses: the entries' keys point at them
  std::list<Entry> searches_;    // stable addresses: the jobs write into them
  std::vector<std::pair<std::string, std::string>> sweeps_;  // (case, key) in order
  std::vector<std::string> notes_;
};

}  // namespace

void write(ResultWriter& w, const StabilityProbe& p) {
  w << p.h << p.stable << p.reason << p.t_reached << p.runtime_s << p.host;
  write(w, p.counters);
  w << p.energy_gain_rel << p.energy_loss_rel << p.constraint_err_max << p.orthogonality_err_max;
}
void read(ResultReader& r, StabilityProbe& p) {
  r >> p.h >> p.stable >> p.reason >> p.t_reached >> p.runtime_s >> p.host;
  read(r, p.counters);
  r >> p.energy_gain_rel >> p.energy_loss_rel >> p.constraint_err_max >> p.orthogonality_err_max;
}
void write(ResultWriter& w, const StabilitySearch& s) {
  w << long(s.bound) << s.h_max << s.h_fail << s.cap << s.floor;
  write(w, s.probes);
}
void read(ResultReader& r, StabilitySearch& s) {
  long bound = 0;
  r >> bound >> s.h_max >> s.h_fail >> s.cap >> s.floor;
  if (bound < 0 || bound > long(StabilitySearch::Bound::BelowFloor)) throw std::runtime_error("job result: unknown stability bound");
  s.bound = StabilitySearch::Bound(bound);
  read(r, s.probes);
}

StudyInfo stability_map_study() {
  return {"stability_map",
          "every fixed-step integrator on every case: the largest stable step h_max over a horizon (bracketing and "
          "bisection, one criterion for all), its cost, and h_max against N / link count / link mass with the fitted "
          "exponent",
          "stability_map.csv, stability_probes.csv, stability_exponents.csv, stability_map.md",
          false,
          {{"horizon_steps", "the horizon in steps at the case's h (at most its t_end), or 'case' for the case's t_end",
            "2000"},
           {"precision", "relative precision of h_max: bisection until h_fail/h_max - 1 <= this, in [0.001, 1]", "0.05"},
           {"energy_fraction", "stable: max(E - E0 - W) <= this x max kinetic energy over the run", "0.1"},
           {"constraint_bound", "stable: constraint_err_max and orthogonality_err_max <= this", "0.01"},
           {"sweeps", "h_max against [model] keys: 'none' or CASE:KEY=V1,V2,... separated by ';'", kDefaultSweeps}},
          {},
          [] { return std::make_unique<StabilityMap>(); }};
}

}  // namespace tb
