// Stability map: the criterion, the search and the fit are described in stability_map.hpp
// and cases/README.md ("Stability map"). Practice followed where the issue is silent
// (DiffEqDevTools): the unit is a setup (method + step) run over the same horizon for every
// method, judged by one measurement path (integrate() and the metrics' accumulator of
// app/running/runner.hpp, core/metrics.hpp); every run is written out (stability_probes.csv) so that
// each h_max can be audited.

#include "studies/stability_map/stability_map.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <list>
#include <optional>
#include <sstream>

#include "app/input/catalogue.hpp"
#include "app/running/energy_scale.hpp"
#include "core/format.hpp"
#include "app/running/job_result.hpp"
#include "app/input/study_parameter.hpp"
#include "core/model_variant.hpp"

namespace tb {

// A solver failure within this fraction of the method's y* (after the motion factor kappa) is
// read as the method's stability limit (studies/stability_map/stability_map.cpp, stability_limit_words).
constexpr double kStabilityLimitBand = 0.15;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Raised by the observer to end a probe at the first sample past a bound that can only grow
// (a constraint or orthogonality error, a non-finite energy); integrate() turns it into a
// failed outcome, and the probe keeps its own reason.
struct BoundExceeded : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

double ProbeHorizon::at(double h) const { return std::min(cap, std::max(base, min_steps * h)); }

StabilityProbe probe_stability(const RunKey& key, IntegratorSettings settings, double h, double t_end,
                               double sample_interval, const StabilityCriterion& criterion) {
  StabilityProbe p;
  p.h = h;
  p.t_horizon = t_end;
  p.host = host_name();
  settings.h = h;
  std::unique_ptr<Formulation> form;
  try {
    std::string why_not;
    form = key.c->model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
    if (!form) {
      p.end = StabilityProbe::End::NotApplicable;
      p.reason = "not applicable: " + why_not;
      return p;
    }
  } catch (const std::exception& e) {
    p.end = StabilityProbe::End::SolverFailure;
    p.reason = std::string("solver failure: building the formulation failed: ") + e.what();
    return p;
  }
  MetricsAccumulator metrics;
  // The criterion of every run's status (measure(), app/running/runner.cpp), fed the same samples: a probe
  // stops at the first sample from which the run is unstable (nothing later can make it stable).
  StabilityMonitor monitor(criterion, key.c->model->slowest_period_s(), case_energy_scale(*key.c, key.discretisation),
                           !key.integrator->traits.imaginary_axis_stable);
  long step_now = 0;
  bool first = true;
  double balance0 = 0.0, loss = 0.0;
  const SampleObserver observer = [&](double t, const Eigen::VectorXd& y) {
    const Observation o = form->observe(t, y);
    metrics.add(t, o);
    const double balance = o.energy - o.external_work;
    if (first) balance0 = balance, first = false;
    loss = std::max(loss, balance0 - balance);
    if (monitor.add(t, step_now, o)) throw BoundExceeded("unstable");
  };
  const IntegrationOutcome run =
      integrate(*form, *key.integrator, settings, t_end, sample_interval, observer, {}, &step_now);
  const ConservationMetrics m = metrics.result();
  const StabilityVerdict verdict = monitor.result();
  p.t_reached = run.t_final;
  p.runtime_s = run.runtime_s;
  p.counters = run.counters;
  // NaN (an empty cell) where the form cannot violate them: their 0 would read as a result.
  const ViolableInvariants violable = violable_invariants(*key.c->model, *form);
  p.constraint_err_max = violable.constraints ? m.constraint_err_max : std::nan("");
  p.orthogonality_err_max = violable.rotations ? m.orthogonality_err_max : std::nan("");
  // Relative to the criterion's energy scale E_s (max KE over the start-up window).
  p.energy_gain_rel = verdict.scale > 0.0 ? std::max(verdict.gain_max, 0.0) / verdict.scale
                      : verdict.gain_max > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  if (std::isnan(verdict.gain_max)) p.energy_gain_rel = verdict.gain_max;
  p.energy_loss_rel = verdict.scale > 0 ? loss / verdict.scale : 0.0;
  const RunOutcome& o = run.outcome;
  const std::string when = " at t = " + format_g(o.t, 4) + " s, step " + std::to_string(o.step);
  if (verdict.unstable) {
    p.reason = (verdict.unstable->bound == Instability::Bound::NonFinite ? "non-finite state: " : "") +
               verdict.unstable->describe_with_onset();
  } else if (verdict.off_manifold) {
    // The probe stopped where its positions left the manifold: the step's bound on the method's
    // use, named for what it is (limit_name: "constraint bound"), not an amplification.
    p.reason = verdict.off_manifold->describe();
  } else if (o.interrupted()) {
    p.end = StabilityProbe::End::Interrupted;
    p.reason = "interrupted" + when;
  } else if (o.failed()) {
    p.end = o.diverged ? StabilityProbe::End::Unstable : StabilityProbe::End::SolverFailure;
    // "diverged", not "non-finite state": a step may detect that it left its stability region
    // before any number overflows (RATTLE's free flight off the constraints by 1.6 of their size,
    // referee point R6), and its reason says which.
    p.reason = (o.diverged ? "diverged: " : "solver failure: ") + o.reason + when;
  } else {
    p.end = StabilityProbe::End::Stable;
  }
  return p;
}

const StabilityProbe* StabilitySearch::at(double h) const {
  for (const auto& p : probes)
    if (p.h == h) return &p;
  return nullptr;
}

bool StabilitySearch::limited_by_solver() const {
  const StabilityProbe* f = h_fail > 0 ? at(h_fail) : nullptr;
  return f && f->solver_failure();
}

StabilitySearch find_h_max(const RunKey& key, const IntegratorSettings& settings, double h0, const ProbeHorizon& horizon,
                           double sample_interval, const StabilityCriterion& criterion, double precision) {
  StabilitySearch s;
  s.cap = std::max(horizon.cap / 10.0, h0);
  s.floor = h0 / 64.0;
  bool stopped = false;  // interrupted: no more probes
  auto stable = [&](double h) {
    const double t_end = horizon.at(h);
    s.probes.push_back(probe_stability(key, settings, h, t_end, std::min(sample_interval, t_end), criterion));
    stopped = s.probes.back().end == StabilityProbe::End::Interrupted;
    return s.probes.back().stable();
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

struct Sweep {
  std::string case_name, key;
  std::vector<double> values;
};

// N from 10 to 80 on Models A and B. N = 80 is the costliest point (27 s of Model A's 57 s in the
// main job of issue 33), but 5-40 instead was tried and is pre-asymptotic: at N = 5 the h_max ratio
// to N = 10 is 2.3, not 2, and B's rk4 read p = -0.76 in [-1.44, -0.07] instead of -1.03 (the CFL
// law the sweep tests). `--param sweeps=...` runs any other values.
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

// A number given as text that must pass `ok`, else an InputError saying `expected`.
std::function<double(const std::string&)> number_where(std::string name, std::string expected, bool (*ok)(double)) {
  return [name, expected, ok](const std::string& text) {
    const double x = parse_number(name, text, expected);
    if (!ok(x)) bad_param(name, text, expected);
    return x;
  };
}

// The study's parameters (app/input/study_parameter.hpp), each declared and parsed here only.
struct Parameters {
  StudyParameterOf<double> horizon_steps{
      "horizon_steps",
      "the base horizon in steps at the case's h (at most its t_end), or 'case' for the case's t_end; a probe runs the "
      "larger of it and min_steps steps at its own h",
      "2000", [](const std::string& text) {
        if (text == "case") return 0.0;
        return number_where("horizon_steps", "'case' or a whole number of steps >= 10",
                            [](double n) { return n >= 10 && n == std::floor(n) && n <= 1e9; })(text);
      }};
  StudyParameterOf<double> min_steps{
      "min_steps", "every probe runs at least this many steps at its own h (at most the case's t_end)", "10000",
      number_where("min_steps", "a whole number of steps in [0, 1e9]",
                   [](double n) { return n >= 0 && n == std::floor(n) && n <= 1e9; })};
  StudyParameterOf<double> precision{
      "precision", "relative precision of h_max: bisection until h_fail/h_max - 1 <= this, in [0.001, 1]", "0.05",
      number_where("precision", "a relative precision in [0.001, 1]", [](double x) { return x >= 1e-3 && x <= 1.0; })};
  StudyParameterOf<double> energy_fraction{
      "energy_fraction", "stable: max(E - E0 - W) <= this x max kinetic energy over the run", "0.1",
      number_where("energy_fraction", "a fraction of max kinetic energy > 0", [](double x) { return x > 0; })};
  StudyParameterOf<double> constraint_bound{
      "constraint_bound", "stable: constraint_err_max and orthogonality_err_max <= this", "0.01",
      number_where("constraint_bound", "a bound > 0", [](double x) { return x > 0; })};
  StudyParameterOf<std::vector<Sweep>> sweeps{
      "sweeps", "h_max against [model] keys: 'none' or CASE:KEY=V1,V2,... separated by ';'", kDefaultSweeps, parse_sweeps};
  std::vector<StudyParameter> info() const {
    return {horizon_steps.info(), min_steps.info(), precision.info(), energy_fraction.info(), constraint_bound.info(),
            sweeps.info()};
  }
};
const Parameters& parameters() {
  static const Parameters p;
  return p;
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
    const Parameters& p = parameters();
    horizon_steps_ = p.horizon_steps.read(context);  // 0: the case's t_end
    min_steps_ = p.min_steps.read(context);
    precision_ = p.precision.read(context);
    criterion_.energy_fraction = p.energy_fraction.read(context);
    criterion_.constraint_bound = p.constraint_bound.read(context);
    const bool sweeps_given = p.sweeps.given(context);
    const std::string sweeps_text = p.sweeps.text(context);
    const std::vector<Sweep> sweeps = p.sweeps.read(context);

    const Catalogue& catalogue = *context.catalogue;
    for (const auto& c : *context.cases) plan_case(c, catalogue);
    for (const auto& sweep : sweeps) plan_sweep(sweep, context, catalogue, sweeps_given, sweeps_text);
    return search_jobs();
  }

  std::vector<std::string> write(const StudyContext& context) override {
    if (context.cases->empty()) return {};
    for (auto& [point, map] : reused_) point->search = map->search;
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    write_search_csvs(dir);
    const std::vector<std::string> md_fits = write_exponents(dir);
    write_markdown(dir / "stability_map.md", md_fits);
    return {(dir / "stability_map.csv").string(), (dir / "stability_probes.csv").string(),
            (dir / "stability_exponents.csv").string(), (dir / "stability_map.md").string()};
  }

 private:
  // Map: the map's search (the case's, or a sweep point's); HorizonLong / HorizonShort: the
  // horizon check of a method without an imaginary-axis interval, at fixed horizons T and T/8.
  enum class Role { Map, HorizonLong, HorizonShort };
  static constexpr double kHorizonRatio = 8.0;

  struct Entry {
    RunKey key;
    std::string case_name;  // the case (a sweep's variant keeps its name)
    std::string swept;      // "" for the case's own model
    double value = kNaN;
    ProbeHorizon horizon;
    Role role = Role::Map;
    StabilitySearch search;
    bool map() const { return role == Role::Map; }
  };

  void add(const RunKey& key, const Case& c, const std::string& swept, double value, Role role = Role::Map,
           std::optional<ProbeHorizon> fixed = std::nullopt) {
    const double t_end = c.t_end_for(key.integrator->name);
    const ProbeHorizon horizon =
        fixed ? *fixed : ProbeHorizon{horizon_steps_ > 0 ? std::min(t_end, horizon_steps_ * c.h) : t_end, min_steps_, t_end};
    searches_.push_back({key, c.name, swept, value, horizon, role, {}});
  }

  // One case's map searches: every fixed-step integrator that runs it, and for a method without an
  // imaginary-axis interval the same search again at two fixed horizons.
  void plan_case(const Case& c, const Catalogue& catalogue) {
    const size_t before = searches_.size();
    for (const auto& key : runs_of(c, catalogue.integrators))
      if (!key.integrator->adaptive && !why_not_applicable(c, *key.integrator, key.discretisation)) {
        add(key, c, "", kNaN);
        // No stability interval on the imaginary axis: h_max depends on the horizon; measured
        // at two fixed horizons T and T/8 (T: the map's horizon at the case's h).
        if (!key.integrator->traits.imaginary_axis_stable) {
          const double T = searches_.back().horizon.at(c.h);
          add(key, c, "", kNaN, Role::HorizonLong, ProbeHorizon::fixed(T));
          add(key, c, "", kNaN, Role::HorizonShort, ProbeHorizon::fixed(T / kHorizonRatio));
        }
      }
    if (searches_.size() == before) notes_.push_back("Case " + c.name + ": no fixed-step integrator runs it.");
  }

  // One sweep's searches: each value of the key on a variant of the case's model, except the
  // case's own value, which reuses the case's map searches.
  void plan_sweep(const Sweep& sweep, const StudyContext& context, const Catalogue& catalogue, bool sweeps_given,
                  const std::string& sweeps_text) {
    const Case* c = nullptr;
    for (const auto& candidate : *context.cases)
      if (candidate.name == sweep.case_name) c = &candidate;
    if (!c) {
      if (sweeps_given) bad_param("sweeps", sweeps_text, kSweepsExpected + std::string(" (no case ") + sweep.case_name + ")");
      notes_.push_back("sweep " + sweep.case_name + ":" + sweep.key + " not run: the case is not among the study's cases");
      return;
    }
    const TableReader root = TableReader::parse_file(c->file);
    const toml::value& model = toml_table(root).at("model");
    const toml::value& initial = toml_table(root).at("initial");
    const auto keys = numeric_model_keys(model);
    if (std::find(keys.begin(), keys.end(), sweep.key) == keys.end())
      bad_param("sweeps", sweeps_text, "a numeric key of " + c->name + "'s [model] (" + join_names(keys) + "), not '" + sweep.key + "'");
    sweeps_.push_back({c->name, sweep.key});
    // The case's own value of the key: at it the sweep's search is the case's map search (same
    // model, step, horizon and settings, and a deterministic bisection), so that point reuses it
    // instead of running the same probes twice.
    const toml::value& own = model.at(sweep.key);
    const double own_value = own.is_integer() ? double(own.as_integer()) : own.as_floating();
    for (double v : sweep.values) {
      if (v == own_value) {
        std::vector<const Entry*> maps;
        for (const auto& e : searches_)
          if (e.map() && e.swept.empty() && e.case_name == c->name &&
              e.key.discretisation == e.key.c->model->default_discretisation())
            maps.push_back(&e);
        for (const Entry* e : maps)
          reused_.push_back({&searches_.emplace_back(Entry{e->key, c->name, sweep.key, v, e->horizon, Role::Map, {}}), e});
        if (!maps.empty()) continue;  // else the case has no map searches of its own: search the variant
      }
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

  // One job per search to run (a sweep point that reuses the case's map search runs none).
  std::vector<StudyJob> search_jobs() {
    std::vector<StudyJob> jobs;
    for (auto& s : searches_) {
      if (reused(s)) continue;
      std::string label = s.key.c->name + " | " + s.key.label() + " | stability";
      if (!s.swept.empty()) label += " " + s.swept + " = " + format_g(s.value, 4);
      if (s.role != Role::Map) label += " horizon " + format_g(s.horizon.cap, 4) + " s";
      // Everything the search reads: the case (a sweep's variant: its key and value), the horizon,
      // the start step, the criterion and the precision.
      const std::string inputs =
          job_inputs(run_inputs(*s.key.c, s.key.integrator->name),
                     {{"discretisation", s.key.discretisation}, {"swept", s.swept}, {"swept_value", exact(s.value)},
                      {"horizon_base", exact(s.horizon.base)}, {"horizon_min_steps", exact(s.horizon.min_steps)},
                      {"horizon_cap", exact(s.horizon.cap)}, {"h0", exact(s.key.c->h)},
                      {"sample", exact(s.key.c->sample_interval)}, {"energy_fraction", exact(criterion_.energy_fraction)},
                      {"constraint_bound", exact(criterion_.constraint_bound)}, {"precision", exact(precision_)}});
      jobs.push_back(result_job<StabilitySearch>(
          label, 4.0 * s.horizon.at(s.key.c->h) / s.key.c->h, inputs,
          [this, &s] {
            return find_h_max(s.key, s.key.c->settings_for(s.key.integrator->name), s.key.c->h, s.horizon,
                              s.key.c->sample_interval, criterion_, precision_);
          },
          s.search));
    }
    return jobs;
  }

  // stability_map.csv, one row per search, and stability_probes.csv, one row per probe it ran.
  void write_search_csvs(const std::filesystem::path& dir) const {
    std::ofstream csv(dir / "stability_map.csv");
    csv << "case,run,swept,value,search,h_case,t_horizon,horizon_steps,h_max,bound,limit,h_max_instability,"
           "h_max_solver,omega_max,h_max_omega_max,horizon_dependent,h_fail,precision,fail_reason,probes,"
           "runtime_at_h_max,steps_at_h_max,rhs_evals_at_h_max,newton_iters_at_h_max,runtime_at_h_case,"
           "energy_gain_rel_at_h_max,solver_at_stability_limit,host\n";
    std::ofstream probes(dir / "stability_probes.csv");
    probes << "case,run,swept,value,search,t_horizon,horizon_steps,h,stable,solver_failure,reason,t_reached,runtime_s,"
              "steps,rhs_evals,newton_iters,energy_gain_rel,energy_loss_rel,constraint_err_max,orthogonality_err_max,host\n";
    for (const auto& s : searches_) {
      const std::string head = s.case_name + ',' + s.key.label() + ',' + s.swept + ',' +
                               (s.swept.empty() ? "" : format_g(s.value, 6)) + ',' + role_name(s.role) + ',';
      const StabilitySearch& r = s.search;
      const StabilityProbe* best = r.bound == StabilitySearch::Bound::BelowFloor ? nullptr : r.at(r.h_max);
      const StabilityProbe* failed = r.h_fail > 0 ? r.at(r.h_fail) : nullptr;
      const StabilityProbe* at_case = r.at(s.key.c->h);
      auto opt = [](bool have, double x) { return have ? format_g(x, 4) : std::string(); };
      auto integrated = [](double x) { return std::isnan(x) ? std::string() : format_g(x, 4); };
      const auto omega = s.key.c->model->max_frequency(s.key.discretisation);
      csv << head << format_g(s.key.c->h, 6) << ',' << opt(best, best ? best->t_horizon : 0) << ','
          << (best ? format_g(std::round(best->t_horizon / best->h), 8) : "") << ',' << opt(best, r.h_max) << ','
          << bound_name(r.bound) << ',' << limit_name(s) << ',' << csv_text(limit_cell(s, false)) << ','
          << csv_text(limit_cell(s, true)) << ',' << opt(bool(omega), omega.value_or(0)) << ','
          << opt(best && omega, r.h_max * omega.value_or(0)) << ','
          << (s.key.integrator->traits.imaginary_axis_stable && !manifold_limit(r) ? "no" : "yes") << ',' << opt(failed, r.h_fail) << ','
          << format_g(precision_, 3) << ',' << csv_text(failed ? failed->reason : "") << ',' << r.probes.size() << ','
          << opt(best, best ? best->runtime_s : 0) << ',' << (best ? std::to_string(best->counters.steps) : "") << ','
          << (best ? std::to_string(best->counters.rhs_evals) : "") << ','
          << (best ? std::to_string(best->counters.newton_iters) : "") << ','
          << opt(at_case && at_case->stable(), at_case ? at_case->runtime_s : 0) << ','
          << opt(best, best ? best->energy_gain_rel : 0) << ',' << solver_at_limit_cell(s) << ','
          << (best ? best->host : at_case ? at_case->host : std::string()) << '\n';  // where the runtimes were measured
      for (const auto& p : r.probes)
        probes << head << format_g(p.t_horizon, 6) << ',' << format_g(std::round(p.t_horizon / p.h), 8) << ','
               << format_g(p.h, 6) << ',' << (p.stable() ? "yes" : "no") << ',' << (p.solver_failure() ? "yes" : "no") << ','
               << csv_text(p.reason) << ',' << format_g(p.t_reached, 6) << ',' << format_g(p.runtime_s, 4) << ','
               << p.counters.steps << ',' << p.counters.rhs_evals << ',' << p.counters.newton_iters << ','
               << format_g(p.energy_gain_rel, 4) << ',' << format_g(p.energy_loss_rel, 4) << ','
               << integrated(p.constraint_err_max) << ',' << integrated(p.orthogonality_err_max) << ',' << p.host
               << '\n';
    }
  }

  // stability_exponents.csv, one row per swept run; returns the same rows for stability_map.md.
  std::vector<std::string> write_exponents(const std::filesystem::path& dir) const {
    // One fit per limit: instability (non-finite state, criterion) and solver failure, each over
    // the sweep points whose search ended on that kind of failure.
    std::ofstream fits(dir / "stability_exponents.csv");
    fits << "case,swept,run,points,p,se,ci95_low,ci95_high,points_solver,p_solver,se_solver,ci95_low_solver,"
            "ci95_high_solver,note\n";
    std::vector<std::string> md_fits;
    for (const auto& [case_name, key] : sweeps_) {
      std::vector<std::string> runs;
      for (const auto& s : searches_)
        if (s.case_name == case_name && s.swept == key && std::find(runs.begin(), runs.end(), s.key.label()) == runs.end())
          runs.push_back(s.key.label());
      for (const auto& run : runs) md_fits.push_back(write_exponent_row(fits, case_name, key, run));
    }
    return md_fits;
  }

  // One swept run's two fits (instability, solver failure): its CSV row written to `fits`, its
  // Markdown row returned.
  std::string write_exponent_row(std::ostream& fits, const std::string& case_name, const std::string& key,
                                 const std::string& run) const {
    std::vector<double> x[2], y[2];  // [0]: instability, [1]: solver failure
    std::string left_out;
    for (const auto& s : searches_) {
      if (s.case_name != case_name || s.swept != key || s.key.label() != run) continue;
      if (s.search.bound == StabilitySearch::Bound::Bracketed) {
        const int k = s.search.limited_by_solver() ? 1 : 0;
        x[k].push_back(s.value), y[k].push_back(s.search.h_max);
      } else {
        left_out += (left_out.empty() ? "" : "; ") + key + " = " + format_g(s.value, 4) + ": h_max " +
                    bound_name(s.search.bound);
      }
    }
    const std::string note = left_out.empty() ? "" : "left out (not bracketed): " + left_out;
    fits << case_name << ',' << key << ',' << run;
    std::string md_row = "| " + case_name + " | " + key + " | " + run + " | ";
    for (int k = 0; k < 2; ++k) {
      fits << ',' << x[k].size() << ',';
      md_row += std::to_string(x[k].size()) + " | ";
      if (x[k].size() >= 2) {
        const PowerLawFit f = fit_power_law(x[k], y[k]);
        const bool ci = std::isfinite(f.ci95);
        fits << format_g(f.p, 4) << ',' << (ci ? format_g(f.se, 3) : "") << ','
             << (ci ? format_g(f.p - f.ci95, 4) : "") << ',' << (ci ? format_g(f.p + f.ci95, 4) : "");
        md_row += format_g(f.p, 3) + " | " +
                  (ci ? format_g(f.se, 2) + " | [" + format_g(f.p - f.ci95, 3) + ", " + format_g(f.p + f.ci95, 3) + "]"
                      : "— | — (two points)") + " | ";
      } else {
        fits << ",,,";
        md_row += "— | — | — | ";
      }
    }
    const std::string why_no_fit = x[0].size() < 2 && x[1].size() < 2 ? "no fit: fewer than two bracketed points of either limit" : "";
    const std::string all = why_no_fit + (why_no_fit.empty() || note.empty() ? "" : "; ") + note;
    fits << ',' << csv_text(all) << '\n';
    return md_row + md_text(all) + " |";
  }

  // The case's other unswept runs whose search ended on the same bracket [h_max, h_fail] (the
  // bisection is deterministic, so equal outcomes give equal brackets), comma-separated; "—" if none.
  template <typename Search>
  std::string same_bracket(const Search& s) const {
    if (s.search.bound != StabilitySearch::Bound::Bracketed) return "—";
    auto same = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
    std::string out;
    for (const auto& o : searches_)
      if (&o != &s && o.swept.empty() && o.map() && o.case_name == s.case_name && o.search.bound == StabilitySearch::Bound::Bracketed &&
          same(o.search.h_max, s.search.h_max) && same(o.search.h_fail, s.search.h_fail))
        out += (out.empty() ? "" : ", ") + o.key.label();
    return out.empty() ? "—" : out;
  }

  void write_markdown(const std::filesystem::path& path, const std::vector<std::string>& fits) const {
    std::ofstream md(path);
    write_markdown_method(md);
    write_map_tables(md);
    write_horizon_checks(md);
    if (!sweeps_.empty()) write_sweep_sections(md, fits);
    for (const auto& n : notes_) md << "\n" << n << '\n';
  }

  // The page's head: the criterion, the horizon rule, the two limits and how the search runs.
  void write_markdown_method(std::ostream& md) const {
    md << "# Stability map\n\n"
       << "For every case and every fixed-step integrator, the largest step h_max that is stable over the horizon, by "
          "one criterion for all — the one that decides every run's status in the tables (core/stability_criterion.hpp):"
          "\n\n"
       << "1. the run reaches the horizon: no divergence (a non-finite state, or a step that finds it has left its "
          "method's stability region, e.g. RATTLE's free flight off the constraints by more than 0.1 of their size), "
          "no solver failure (Newton, fold, exception), each "
          "recorded with its reason;\n"
       << "2. energy gain max(E - E0 - W) <= " << format_g(criterion_.energy_fraction, 3)
       << " x E_s, the case's energy scale, not the probe's: the maximum kinetic energy over the first slowest "
          "period of the case's reference solution (each row's reason names its source; a case without a reference "
          "takes the run's own start-up, said so there) (signed: growth is instability; a method's damping is accuracy, "
          "recorded as energy_loss_rel in stability_probes.csv);\n"
       << "3. constraint_err_max and orthogonality_err_max <= " << format_g(criterion_.constraint_bound, 3)
       << ". A probe past this bound whose energy passed neither 2 nor the exponential test drifted off the "
          "manifold (a method that holds its constraints at the velocity level, or its rotations not at all): "
          "its limit reads \"constraint bound\" or \"orthogonality bound\", a bound on the positions' accuracy, not "
          "an instability. Where the method has no stability interval on the imaginary axis it amplifies the linear "
          "flows that carry the manifold (a rotation R' = R hat(Omega), a link's direction q' = omega x q) by "
          "|R(ih omega)|^2 > 1 a step, which the energy need not see (a free body's energy does not depend on R): "
          "there leaving the manifold is an instability. A drift's bound grows with h and t, so it is horizon-dependent. "
          "A probe whose energy gain past bound 2 came within one sampling interval and then stayed (within x1.1 "
          "over ten such intervals and below E_s) made an energy jump, one step's (an impact's or a tension spike's "
          "position solve), not an amplification, which would have compounded: the probe goes on past the gain's "
          "onset until that is decided, and its limit reads \"energy jump\". On a model with impacts a step's "
          "outcome depends on where the snaps fall in it, so failures need not be monotone in h: the search assumes "
          "one boundary, and its h_max there is the bracket's, not a guarantee at every step below it (the snap study "
          "runs every step of its table).\n\n"
       << "**Horizon** of a probe at h: the larger of "
       << (horizon_steps_ > 0 ? format_g(horizon_steps_, 8) + " steps at the case's h" : std::string("the case's t_end"))
       << " and " << format_g(min_steps_, 8)
       << " steps at the probe's own h, at most the case's t_end (its integrator_t_end where set); the column "
          "\"horizon at h_max\" gives it in seconds and in steps, so a limit found over fewer steps (the case ended "
          "first) shows as such.\n\n"
       << "**Two limits.** An instability (non-finite state, or the criterion) and a solver failure (no solution of "
          "the step's equations found) are different findings: the search stops at the first failure above h_max, "
          "and its kind says which limit h_max is; the other is then only bounded below (\">= h_max, ... first\"). "
          "Each has its own fitted exponent in the sweeps.\n\n"
       << "**h_max x omega_max**: where the model knows its fastest linearised frequency omega_max (Model::"
          "max_frequency), the dimensionless limit; a method with a stability interval [0, y*] on the imaginary axis "
          "has h_max omega_max ~ y* (RK4: 2.83, Stormer-Verlet: 2), whatever the model. On a string (Models A and B) "
          "omega_max is the element bound 2 sqrt(EA / mu) / u (lumped; 2 sqrt(3) sqrt(EA / mu) / u consistent), which "
          "by Irons' theorem bounds the chain's fastest frequency from above without reaching it (a chain's end "
          "modes are slower than an infinite chain's): there h_max omega_max may exceed the method's y* by that "
          "margin. Where omega_max is the "
          "linearisation's about rest (Model C: the cables hanging), the motion's fastest frequency can exceed it (a "
          "swinging cable is under more tension than a hanging one); the case's methods that go unstable at a "
          "declared y* measure by how much, kappa = y* / (h_max omega_max) (the largest of them), and a method that "
          "declares y* and stops by a solver failure is printed with h_max omega_max x kappa: within "
          << format_g(100.0 * kStabilityLimitBand) << " % of its y*, its step left its stability interval there, and "
          "the solver failing (no solution of the step's equations near the state) is how that shows.\n\n"
       << "**Horizon-dependent**: a method declared without a stability interval on the imaginary axis "
          "(MethodTraits::imaginary_axis_stable = false) gains energy at every h, so its h_max is the horizon's, "
          "not the method's alone: it is searched again at two fixed horizons T and T/"
       << format_g(kHorizonRatio, 3) << " (section below), with the ratio expected of a growth 1 + O((h w)^4) per step, "
       << "(1/" << format_g(kHorizonRatio, 3) << ")^(1/3) = " << format_g(std::cbrt(1.0 / kHorizonRatio), 3)
       << ". Compare such rows at one horizon only.\n\n"
       << "Search: from the case's h up by x2 until a probe fails (cap: t_end/10, then h_max >= cap), or down by "
          "/2 to h/64 if the case's h fails (then h_max < floor); then geometric bisection until h_fail/h_max - 1 <= "
       << format_g(precision_, 3)
       << ". Every probe: stability_probes.csv. Cost at h_max: the run over its horizon at h_max (runtime of the "
          "step loops in one pass, right-hand-side or residual evaluations; the counts are the machine-independent "
          "part), beside the run at the case's h. Parameters: `--param horizon_steps=case` for the full horizon, "
          "`min_steps=`, `precision=`, `energy_fraction=`, `constraint_bound=`, `sweeps=` (tetherbench list). "
          "\"Same bracket as\": the case's other runs whose search ended on the same [h_max, h_fail]; where they "
          "solve the same discrete equations by other means (the LGVI and RATTLE on Model C: in joint coordinates "
          "the LGVI's position equations are SHAKE's), a common limit is the method's, not one solver's.\n";
  }

  // One table per case of its own map searches (no sweep point, no horizon check).
  void write_map_tables(std::ostream& md) const {
    std::string current;
    for (const auto& s : searches_) {
      if (!s.swept.empty() || !s.map()) continue;
      if (s.case_name != current) {
        current = s.case_name;
        md << "\n## " << current << " (h = " << format_g(s.key.c->h, 3)
           << " s)\n\n| run | h_max: instability (s) | h_max: solver failure (s) | h_max / h | h_max x omega_max | "
              "horizon at h_max | first failure above (h: why) | probes | runtime at h_max (s) | rhs evals | "
              "runtime at h (s) | horizon-dependent | same bracket as |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
      }
      const bool below = s.search.bound == StabilitySearch::Bound::BelowFloor;
      const StabilityProbe* best = below ? nullptr : s.search.at(s.search.h_max);
      const StabilityProbe* at_case = s.search.at(s.key.c->h);
      const auto omega = s.key.c->model->max_frequency(s.key.discretisation);
      md << "| " << s.key.label() << " | " << limit_cell(s, false) << " | " << limit_cell(s, true) << " | "
         << (below ? "—" : format_g(s.search.h_max / s.key.c->h, 3)) << " | "
         << (omega && !below ? format_g(s.search.h_max * *omega, 3) + stability_limit_words(s, *omega) : "—") << " | "
         << horizon_cell(best) << " | "
         << failure_cell(s) << " | " << s.search.probes.size() << " | ";
      if (best) md << format_g(best->runtime_s, 3) << " | " << best->counters.rhs_evals;
      else md << "— | —";
      md << " | " << (at_case && at_case->stable() ? format_g(at_case->runtime_s, 3) : "—") << " | "
         << horizon_dependence(s) << " | " << same_bracket(s) << " |\n";
    }
  }

  // The horizon-dependent methods' h_max at T and T/8 side by side, with the ratio expected.
  void write_horizon_checks(std::ostream& md) const {
    bool checks = false;
    for (const auto& s : searches_) {
      if (s.role != Role::HorizonLong) continue;
      const Entry* shorter = nullptr;
      for (const auto& o : searches_)
        if (o.role == Role::HorizonShort && o.case_name == s.case_name && o.key.label() == s.key.label()) shorter = &o;
      if (!shorter) continue;
      if (!checks) {
        checks = true;
        md << "\n## Horizon-dependent methods: h_max at two horizons\n\nThe methods the registry declares without a "
              "stability interval on the imaginary axis, searched over fixed horizons T and T/"
           << format_g(kHorizonRatio, 3) << " (T: the map's horizon at the case's h). Expected h_max(T) / h_max(T/" << format_g(kHorizonRatio, 3)
           << ") = " << format_g(std::cbrt(1.0 / kHorizonRatio), 3)
           << " (h_max ~ (T w^4)^(-1/3)) on an undamped model, where the amplification |R(ihw)| > 1 of every step "
              "accrues over the whole horizon; a ratio near 1 there would contradict the declaration. On a damped model "
              "(expected \"0.5-1, damped\") a mode grows only where its amplification per unit time outruns its damping, "
              "above a step that no horizon moves, and below it the energy balance's error is the release transient's "
              "accuracy error, which stops growing once the transient is damped: the bound 0.1 E_s may be passed by "
              "either, and the probes stop at the crossing, so on a damped model the map's h_max bounds the step of a "
              "10 % energy-balance error and is not shown to be a stability limit (the index calls it the energy "
              "bound). Where the fastest frequency falls over the run (a reel paying out string: its elements "
              "lengthen, so w^4 falls), the growth accrues mostly early and the ratio also nears 1: such a method is "
              "still unstable above h_max, its limit set early in the run.\n\n"
              "| case | run | T (s) | h_max over T (s) | h_max over T/"
           << format_g(kHorizonRatio, 3) << " (s) | ratio | expected |\n|---|---|---|---|---|---|---|\n";
      }
      md << "| " << s.case_name << " | " << s.key.label() << " | " << format_g(s.horizon.cap, 4) << " | "
         << h_max_cell(s) << " | " << h_max_cell(*shorter) << " | " << horizon_ratio_cell(s, *shorter) << " | "
         << expected_ratio(s) << " |\n";
    }
  }

  // h_max against each swept [model] key, one table per sweep, then the fitted exponents (`fits`).
  void write_sweep_sections(std::ostream& md, const std::vector<std::string>& fits) const {
    md << "\n## h_max against a [model] key\n\nThe same search on the case with one [model] key changed (the same "
          "horizon rule as the case; at the case's own value, the case's map search itself, not run twice). Each cell: h_max and the kind of failure above it (i: instability, s: solver "
          "failure). Figure: figures/stability_map_sweeps.png (written by `tetherbench report`).\n";
    for (const auto& [case_name, key] : sweeps_) write_sweep_table(md, case_name, key);
    md << "\n## Fitted exponents: log h_max = a + p log value\n\nLeast squares over the bracketed points of each "
          "limit (instability; solver failure); se: standard error of p; 95% interval p +- t(0.975, n-2) se. A "
          "CFL-limited explicit method on a string has p = -1 against N.\n\n| case | swept | run | instability: "
          "points | p | se | 95% interval | solver failure: points | p | se | 95% interval | note |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : fits) md << row << '\n';
  }

  // One sweep's table: a row per value of the key, a column per run.
  void write_sweep_table(std::ostream& md, const std::string& case_name, const std::string& key) const {
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
        md << ' '
           << (e ? h_max_cell(*e) + (e->search.h_fail > 0 ? (e->search.limited_by_solver() ? " (s)" : " (i)") : "")
                 : "n/a")
           << " |";
      }
      md << '\n';
    }
  }

  static const char* role_name(Role r) {
    switch (r) {
      case Role::Map: return "map";
      case Role::HorizonLong: return "horizon T";
      case Role::HorizonShort: return "horizon T/8";
    }
    return "";
  }

  static const char* limit_name(const StabilitySearch& r) {
    if (r.h_fail <= 0) return "";
    return r.limited_by_solver() ? "solver failure" : "instability";
  }
  // As limit_name, but "energy bound" where a method without an imaginary-axis interval on a damped
  // model failed by the energy criterion: there the bound 0.1 E_s may be the release transient's
  // accuracy error as well as an amplification (the page's horizon section; referee point N1), and
  // the probe stops at the crossing, so the map does not tell them apart.
  // "constraint bound" / "orthogonality bound" where the probe above h_max stopped because its
  // positions or rotations left the manifold while its energy gained nothing past the bound
  // (core/stability_criterion.hpp, ManifoldDrift): an accuracy bound on the positions, not an
  // amplification (issue 44 class 1). Null otherwise.
  static const char* manifold_limit(const StabilitySearch& r) {
    const StabilityProbe* failed = r.h_fail > 0 ? r.at(r.h_fail) : nullptr;
    if (!failed || r.limited_by_solver()) return nullptr;
    if (failed->reason.rfind("drifts off the constraint manifold", 0) == 0) return "constraint bound";
    if (failed->reason.rfind("drifts off SO(3)", 0) == 0) return "orthogonality bound";
    return nullptr;
  }
  static const char* limit_name(const Entry& s) {
    const StabilitySearch& r = s.search;
    if (const char* manifold = manifold_limit(r)) return manifold;
    const StabilityProbe* failed = r.h_fail > 0 ? r.at(r.h_fail) : nullptr;
    // One step's gain that stayed (core/stability_criterion.hpp): not an amplification either.
    if (failed && !r.limited_by_solver() && failed->reason.rfind("energy jump", 0) == 0) return "energy jump";
    // A gain past the bound that fell back without growing: a bounded error's amplitude (referee read 44f, B1).
    if (failed && !r.limited_by_solver() && failed->reason.find("the amplitude of a bounded energy error") != std::string::npos)
      return "energy accuracy bound";
    if (failed && !r.limited_by_solver() && !s.key.integrator->traits.imaginary_axis_stable && s.key.c->model->damped() &&
        failed->reason.rfind("energy gain", 0) == 0)
      return "energy bound";
    return limit_name(r);
  }

  std::string h_max_cell(const Entry& s) const {
    switch (s.search.bound) {
      case StabilitySearch::Bound::Bracketed: return format_g(s.search.h_max, 3);
      case StabilitySearch::Bound::AtCap: return ">= " + format_g(s.search.h_max, 3) + " (cap)";
      case StabilitySearch::Bound::BelowFloor: return "< " + format_g(s.search.floor, 3) + " (floor)";
    }
    return "";
  }

  // h_max for one kind of failure (solver: solver failure; else instability): the search's h_max
  // where the failure above it is of that kind, a lower bound where the other kind came first.
  std::string limit_cell(const Entry& s, bool solver) const {
    const StabilitySearch& r = s.search;
    if (r.bound == StabilitySearch::Bound::AtCap) return h_max_cell(s);
    // An accuracy bound (a drift off the manifold) in the instability column, said so.
    if (const char* manifold = manifold_limit(r); manifold && !solver)
      return h_max_cell(s) + " (" + manifold + ": an accuracy bound on a drift, not a stability limit)";
    if (!solver && limit_name(s) == std::string("energy accuracy bound"))
      return h_max_cell(s) + " (energy accuracy bound: a bounded error's amplitude, not a stability limit)";
    if (r.limited_by_solver() == solver) return h_max_cell(s);
    const std::string limit = limit_name(s);
    const std::string other = solver ? (limit == "instability" || limit.empty() ? std::string("unstable") : limit) : "solver fails";
    if (r.bound == StabilitySearch::Bound::BelowFloor) return std::string("— (") + other + " below the floor)";
    return ">= " + format_g(r.h_max, 3) + " (" + other + " first)";
  }

  // The factor kappa by which the motion's fastest frequency exceeds the model's omega_max (its
  // linearisation about rest: a swinging cable's tension, and with it its frequencies, rises
  // above the static one), measured on the case by the methods that go unstable at a declared
  // y* (MethodTraits::imaginary_axis_bound): kappa = y* / (h_max omega_max), the largest among
  // them. NaN where none did.
  double motion_factor(const std::string& case_name, double omega) const {
    double kappa = std::numeric_limits<double>::quiet_NaN();
    for (const auto& o : searches_) {
      const double y_star = o.key.integrator->traits.imaginary_axis_bound;
      if (o.case_name != case_name || !o.swept.empty() || !o.map() || !std::isfinite(y_star) ||
          o.search.bound != StabilitySearch::Bound::Bracketed || o.search.limited_by_solver() || manifold_limit(o.search))
        continue;
      const double k = y_star / (o.search.h_max * omega);
      if (!(k <= kappa)) kappa = k;
    }
    return kappa;
  }

  // Referee point h-10 #1: a solver failure where the method's own stability interval ends. For a
  // method that declares y* and stops by a solver failure: h_max omega_max x kappa against y*.
  // Within kStabilityLimitBand of it, the step left its stability interval there, and the
  // solver's failure (no solution of the step's equations near the state) is how that shows;
  // well below it, the solver fails on its own.
  struct LimitReach {
    double kappa = 0.0, scaled = 0.0, y_star = 0.0;
    bool at_limit = false;
  };
  std::optional<LimitReach> limit_reach(const Entry& s, double omega) const {
    const double y_star = s.key.integrator->traits.imaginary_axis_bound;
    if (!std::isfinite(y_star) || s.search.bound != StabilitySearch::Bound::Bracketed || !s.search.limited_by_solver())
      return std::nullopt;
    const double kappa = motion_factor(s.case_name, omega);
    if (!std::isfinite(kappa)) return std::nullopt;
    const double scaled = s.search.h_max * omega * kappa;
    return LimitReach{kappa, scaled, y_star, std::abs(scaled / y_star - 1.0) <= kStabilityLimitBand};
  }
  std::string stability_limit_words(const Entry& s, double omega) const {
    const auto r = limit_reach(s, omega);
    if (!r) return "";
    return " (x kappa " + format_g(r->kappa, 3) + " = " + format_g(r->scaled, 3) + " against its y* " + format_g(r->y_star, 3) +
           (r->at_limit ? ": consistent with its stability limit, an inference from kappa)" : r->scaled < r->y_star ? ": below its stability limit, the solver's own)" : ")");
  }
  // stability_map.csv's solver_at_stability_limit: "yes" where the solver's failure is how the step
  // leaving its stability interval shows (the front page words it so: referee point R12), "no"
  // where it fails below that, "" where not judged.
  std::string solver_at_limit_cell(const Entry& s) const {
    const auto omega = s.key.c->model->max_frequency(s.key.discretisation);
    const auto r = omega ? limit_reach(s, *omega) : std::nullopt;
    return !r ? "" : r->at_limit ? "yes" : "no";
  }


  static std::string horizon_cell(const StabilityProbe* p) {
    if (!p) return "—";
    return format_g(p->t_horizon, 3) + " s = " + format_g(std::round(p->t_horizon / p->h), 6) + " steps";
  }

  std::string horizon_ratio_cell(const Entry& longer, const Entry& shorter) const {
    if (longer.search.bound != StabilitySearch::Bound::Bracketed || shorter.search.bound != StabilitySearch::Bound::Bracketed)
      return "— (not both bracketed)";
    return format_g(longer.search.h_max / shorter.search.h_max, 3);
  }

  // h_max(T)/h_max(T/8) as the growth's mechanism predicts it: (1/8)^(1/3) where nothing damps the
  // amplification, between that and 1 on a damped model (second referee read of issue 44, N1:
  // rk2 on the damped tether, 0.805, checked over 40 s: at h = 2e-3 the gain went on from 0.10 E_s
  // at 0.51 s to 0.71 E_s, at 2.5e-3 to 383 E_s, while at 1e-3 it stopped at 0.018 E_s).
  std::string expected_ratio(const Entry& s) const {
    const std::string undamped = format_g(std::cbrt(1.0 / kHorizonRatio), 3);
    return s.key.c->model->damped() ? undamped + "-1, damped" : undamped;
  }

  // "no" for a method with an imaginary-axis interval; "yes" with the measured ratio otherwise.
  std::string horizon_dependence(const Entry& s) const {
    // A drift off the manifold grows with h and t: its accuracy bound falls as the horizon grows.
    if (manifold_limit(s.search) && s.key.integrator->traits.imaginary_axis_stable)
      return "yes (a drift's accuracy bound, growing with h and t: over a longer horizon it falls)";
    if (s.key.integrator->traits.imaginary_axis_stable) return "no";
    const Entry *longer = nullptr, *shorter = nullptr;
    for (const auto& o : searches_)
      if (o.case_name == s.case_name && o.key.label() == s.key.label()) {
        if (o.role == Role::HorizonLong) longer = &o;
        if (o.role == Role::HorizonShort) shorter = &o;
      }
    std::string out = "yes (no imaginary-axis interval)";
    if (longer && shorter)
      out += ": h_max(T)/h_max(T/" + format_g(kHorizonRatio, 3) + ") = " + horizon_ratio_cell(*longer, *shorter) +
             ", expected " + expected_ratio(s);
    return out;
  }

  std::string failure_cell(const Entry& s) const {
    if (s.search.h_fail <= 0) return "none up to the cap";
    const StabilityProbe* f = s.search.at(s.search.h_fail);
    return format_g(s.search.h_fail, 3) + ": " + md_text(f ? f->reason : "");
  }

  StabilityCriterion criterion_;
  double precision_ = 0.05;
  double horizon_steps_ = 2000;  // 0: the case's horizon
  double min_steps_ = 1e4;       // every probe at least this many steps at its own h (at most t_end)
  std::list<Case> variants_;     // stable addresses: the entries' keys point at them
  std::list<Entry> searches_;    // stable addresses: the jobs write into them
  std::vector<std::pair<std::string, std::string>> sweeps_;  // (case, key) in order
  std::vector<std::string> notes_;
  // Sweep points at the case's own value, each with the map search it reuses (planned, not run).
  std::vector<std::pair<Entry*, const Entry*>> reused_;
  bool reused(const Entry& e) const {
    for (const auto& [point, map] : reused_)
      if (point == &e) return true;
    return false;
  }
};

}  // namespace

StudyInfo stability_map_study() {
  StudyInfo info{"stability_map",
          "every fixed-step integrator on every case: the largest stable step h_max over a horizon of at least 10^4 "
          "steps (bracketing and bisection, the criterion of every run's status), instability and solver failure "
          "apart, h_max x omega_max, horizon-dependent methods measured at two horizons, its cost, and h_max against "
          "N / link count / link mass with the fitted exponents",
          "stability_map.csv, stability_probes.csv, stability_exponents.csv, stability_map.md",
          false,
          parameters().info(),
          {},
          [] { return std::make_unique<StabilityMap>(); }};
  info.figures = stability_map_figures;
  info.pages = {{"stability_map.md", "largest stable step per method and case"}};
  info.read_back = read_stability_map_back;
  return info;
}

}  // namespace tb
