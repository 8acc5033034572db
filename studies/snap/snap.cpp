#include "studies/snap/snap.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

#include "app/common/markdown_table.hpp"
#include "app/input/applicability.hpp"
#include "app/judging/order_fit.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "studies/snap/observation.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

namespace {

using snap::kNoNumber;

// Position errors at which the cheapest run is named (m): from a visible miss of a 1 m string to a
// tight reference.
constexpr double kPositionTargets[] = {1e-2, 1e-3, 1e-4, 1e-6};
// Runtimes within this factor of each other are not ranked: the passes of a millisecond run differ by
// tens of percent on these machines.
constexpr double kUnresolvedRatio = 1.5;

std::shared_ptr<const StudySection> read_snap(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  const SwitchingFunctions* sw = c.model->switching();
  if (!sw || sw->impacts.empty() || !c.model->switching_closed_form())
    table.fail("t_end", "a case whose model's links snap taut by an impact law and whose answers are known in closed form "
                        "(the planar pendulum with [model] link = \"unilateral\", dropped from rest or whirled from the bottom)",
               "a model without them");
  SnapSection s;
  s.t_end = table.positive_or("t_end", c.t_end);
  if (s.t_end > c.t_end) table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(s.t_end));
  s.steps = table.has("steps") ? table.positive_list("steps") : c.report.steps;
  s.tolerances = table.has("tolerances") ? table.positive_list("tolerances") : c.report.tolerances;
  if (s.steps.size() < OrderRules{}.min_points)
    table.fail("steps", "at least " + std::to_string(OrderRules{}.min_points) + " steps (an order's asymptotic range)",
               std::to_string(s.steps.size()));
  if (s.tolerances.size() < 3) table.fail("tolerances", "at least 3 tolerances", std::to_string(s.tolerances.size()));
  for (double h : s.steps)
    if (h > s.t_end) table.fail("steps", "steps no longer than t_end = " + format_g(s.t_end), format_g(h));
  s.sample_interval = table.positive_or("sample_interval", 1e-5);
  if (s.sample_interval > s.t_end) table.fail("sample_interval", "at most t_end = " + format_g(s.t_end), format_g(s.sample_interval));
  return std::make_shared<SnapSection>(std::move(s));
}

struct SnapPoint {
  RunKey key;
  double h = 0.0, rtol = 0.0;
  snap::SnapRun measured;
  bool adaptive() const { return key.integrator->adaptive; }
  std::string setting() const { return adaptive() ? "rtol = " + format_g(rtol) : "h = " + format_g(h, 6); }
};

class SnapStudy final : public SweepStudy<SnapPoint, snap::SnapRun> {
 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<SnapPoint>& points) override {
    const SnapSection& section = *c.section<SnapSection>();
    for (const RunKey& key : runs_of(c, context.catalogue->integrators)) {
      if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
      if (key.integrator->adaptive)
        for (double rtol : section.tolerances) points.push_back({key, c.h, rtol, {}});
      else
        for (double h : section.steps) points.push_back({key, h, 0.0, {}});
    }
  }

  RunRequest request_of(const SnapPoint& p) const override {
    const SnapSection& section = *p.key.c->section<SnapSection>();
    RunRequest request{p.key, p.key.c->settings_for(p.key.integrator->name), {}};
    request.settings.h = p.h;
    if (p.adaptive()) request.settings.set_tolerances({p.rtol, p.rtol * 1e-2});
    request.measure.t_end = section.t_end;
    // Every step end of a fixed-step method; the fine grid of an adaptive method's dense output.
    request.measure.sample_interval = p.adaptive() ? section.sample_interval : p.h;
    return request;
  }

  Job job_of(const SnapPoint& p, const RunRequest& request) const override {
    return {p.key.c->name + " | " + p.key.label() + " | snap " + p.setting(), request.t_end() / request.measure.sample_interval};
  }

  snap::SnapRun run(const SnapPoint&, const RunRequest& request) const override {
    snap::SnapRun out = snap::observe_snaps(request);
    if (out.outcome.ok()) out.runtime_s = snap::time_run(request);
    return out;
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<SnapPoint>& points) const override;
};

// ---- what is written ----

// A run against the closed form.
struct Judged {
  int expected = 0, made = 0, matched = 0;
  double time_error = kNoNumber, time_floor = kNoNumber;  // over the matched switches: the largest error and floor
  double loss_run_error = kNoNumber, loss_booked_error = kNoNumber;  // summed over the matched snaps: run - law, booked - law (J)
  double position_error = kNoNumber;  // at t_end, max over the configuration's entries (m)
  bool clean() const { return matched == expected && made == expected; }
};

// The configuration entries of a physical state (Model::physical_parts), all of it where the model does not say.
std::vector<double> configuration_of(const Model& model, const std::vector<double>& physical) {
  const std::vector<PhysicalPart> parts = model.physical_parts();
  std::vector<double> out;
  for (size_t i = 0; i < physical.size(); ++i)
    if (parts.empty() || (i < parts.size() && parts[i] == PhysicalPart::Configuration)) out.push_back(physical[i]);
  return out;
}

Judged judge(const SnapPoint& p, const SnapSection& section) {
  Judged j;
  const SwitchingClosedForm& closed = *p.key.c->model->switching_closed_form();
  const auto expected = closed.switches(section.t_end);
  j.expected = int(expected.size());
  const snap::SnapRun& r = p.measured;
  if (!r.outcome.ok()) return j;
  j.made = int(r.switches.size());
  // Each expected switch takes the run's nearest unmatched switch of its direction within half the
  // gap to its neighbours (and to the run's ends).
  std::vector<bool> used(r.switches.size(), false);
  int snap_index = 0;
  j.time_error = j.time_floor = 0.0;
  double loss_run = 0.0, loss_booked = 0.0, loss_law = 0.0;
  for (size_t e = 0; e < expected.size(); ++e) {
    const double t = expected[e].first;
    const double before = e == 0 ? t : t - expected[e - 1].first, after = e + 1 == expected.size() ? section.t_end - t : expected[e + 1].first - t;
    const double window = 0.5 * std::min(before, after);
    size_t best = r.switches.size();
    for (size_t k = 0; k < r.switches.size(); ++k) {
      if (used[k] || r.switches[k].to_taut != expected[e].second || std::abs(r.switches[k].t - t) > window) continue;
      if (best == r.switches.size() || std::abs(r.switches[k].t - t) < std::abs(r.switches[best].t - t)) best = k;
    }
    const bool is_snap = expected[e].second;
    const double law = is_snap && size_t(snap_index) < closed.impact_losses.size() ? closed.impact_losses[size_t(snap_index)] : kNoNumber;
    if (is_snap) ++snap_index;
    if (best == r.switches.size()) continue;
    used[best] = true;
    ++j.matched;
    j.time_error = std::max(j.time_error, std::abs(r.switches[best].t - t));
    j.time_floor = std::max(j.time_floor, r.switches[best].floor);
    if (is_snap && std::isfinite(law)) {
      loss_run += r.switches[best].energy_drop;
      loss_booked += r.switches[best].booked;
      loss_law += law;
    }
  }
  if (j.matched == 0) j.time_error = j.time_floor = kNoNumber;
  if (loss_law > 0.0) {
    j.loss_run_error = loss_run - loss_law;
    j.loss_booked_error = loss_booked - loss_law;
  }
  Eigen::VectorXd exact;
  if (closed.state && closed.state(section.t_end, exact) && !r.final_physical.empty()) {
    const std::vector<double> a = configuration_of(*p.key.c->model, r.final_physical),
                              b = configuration_of(*p.key.c->model, std::vector<double>(exact.data(), exact.data() + exact.size()));
    j.position_error = 0.0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) j.position_error = std::max(j.position_error, std::abs(a[i] - b[i]));
  }
  return j;
}

std::string num(double x, int digits = 3) { return std::isfinite(x) ? format_g(x, digits) : "—"; }

std::string status_of(const SnapPoint& p) { return p.measured.outcome.ok() ? "ok" : p.measured.outcome.describe(); }

void write_case_header(std::ostringstream& md, const Case& c, const SnapSection& section) {
  const SwitchingClosedForm& closed = *c.model->switching_closed_form();
  md << "\n## " << c.name << ": " << closed.name << "\n\n" << c.description << ". " << closed.basis << ".\n\n"
     << "The model: " << c.model->switching()->impacts << ". Horizon " << format_g(section.t_end) << " s; fixed steps "
     << [&] {
          std::string s;
          for (double h : section.steps) s += (s.empty() ? "" : ", ") + format_g(h);
          return s;
        }()
     << " s; tolerances (rtol, atol = rtol/100) "
     << [&] {
          std::string s;
          for (double t : section.tolerances) s += (s.empty() ? "" : ", ") + format_g(t);
          return s;
        }()
     << "; adaptive runs observed every " << format_g(section.sample_interval) << " s.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, value] : closed.quantities) rows.push_back({name, format_g(value, 7)});
  const auto switches = closed.switches(section.t_end);
  std::string sw;
  for (const auto& [t, to_taut] : switches) sw += (sw.empty() ? "" : ", ") + format_g(t, 7) + " s " + (to_taut ? "(snaps taut)" : "(goes slack)");
  rows.push_back({"switches within the horizon", sw.empty() ? "none" : sw});
  markdown::table(md, {"closed form", "value"}, rows);
}

void write_runs_table(std::ostringstream& md, std::ofstream& csv, const Case& c, const SnapSection& section,
                      const std::vector<const SnapPoint*>& of_case) {
  md << "\n### Every run against the closed form\n\n"
        "Switch-time error: the largest over the expected switches, each matched to the run's nearest switch of its "
        "direction within half the gap to its neighbours; beside it the observer's floor (the extrapolation's "
        "½|s''|dt²/|s'| at the matched switches): an error at or below the floor is the observation's, not the "
        "method's. Switches \"made\" beyond the expected are chatter (spurious slack-taut pairs). Energy at the snaps: "
        "the drop of E = T + V across the two samples that bracket each snap, and the loss the run booked as work there, "
        "each less the impact law's loss in closed form. Drift between switches: the largest range of E − E0 − W within a "
        "phase between switches (from the second sample after a snap). Overstretch: max(0, |r| − l); outward rate: the radial velocity beyond the length. "
        "Position error: max-norm over the configuration at t_end against the exact state. Runtime: the fastest of "
        "repeated passes with the observation off (sampling only the end), a cost not a benchmark.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const SnapPoint* p : of_case) {
    const Judged j = judge(*p, section);
    const snap::SnapRun& r = p->measured;
    const bool ok = r.outcome.ok();
    rows.push_back({p->key.label(), p->setting(), status_of(*p), std::to_string(j.expected) + " / " + (ok ? std::to_string(j.made) : "—"),
                    num(j.time_error), num(j.time_floor), num(j.loss_run_error), num(j.loss_booked_error),
                    ok ? num(r.phase_drift_max) : "—", ok ? num(r.overstretch_max) : "—", ok ? num(r.opening_rate_max) : "—",
                    num(j.position_error), ok ? std::to_string(r.counters.steps) : "—", ok ? num(r.runtime_s) : "—"});
    csv << c.name << ',' << p->key.label() << ',' << (p->adaptive() ? "" : format_g(p->h, 8)) << ','
        << (p->adaptive() ? format_g(p->rtol) : "") << ',' << r.outcome.word() << ',' << j.expected << ',' << (ok ? std::to_string(j.made) : "")
        << ',' << j.matched << ',';
    for (double x : {j.time_error, j.time_floor, j.loss_run_error, j.loss_booked_error, ok ? r.phase_drift_max : kNoNumber,
                     ok ? r.balance_max : kNoNumber, ok ? r.overstretch_max : kNoNumber, ok ? r.opening_rate_max : kNoNumber, j.position_error})
      csv << (std::isfinite(x) ? format_g(x, 8) : "") << ',';
    csv << (ok ? std::to_string(r.counters.steps) : "") << ',' << (ok ? format_g(r.runtime_s, 6) : "") << '\n';
  }
  markdown::table(md,
                  {"method", "step / tolerance", "status", "switches: expected / made", "switch-time error (s)", "observer floor (s)",
                   "energy lost at the snaps, run − law (J)", "booked − law (J)", "drift between switches (J)", "overstretch (m)",
                   "outward rate (m/s)", "position error at t_end (m)", "steps", "runtime (s)"},
                  rows);
}

// The orders of the fixed-step methods (the suite's one order rule) and the slopes in rtol of the adaptive ones.
void write_orders(std::ostringstream& md, const Case& c, const SnapSection& section, const std::vector<const SnapPoint*>& of_case) {
  md << "\n### Orders in h and slopes in rtol\n\n"
        "Fixed steps: each quantity's order by the suite's rule (app/judging/order_fit.hpp: a least-squares slope with its "
        "95% interval over the finest window of points whose local orders agree, errors at least 10× their floor and at "
        "most 0.1 of their scale). The position error's order is judged against the method's declared order (that of "
        "its smooth motion: a snap inside a step, which no fixed-step method locates, may lower it to one); the other "
        "quantities have no declared order and their slopes are printed as measured. The switch-time error's floor is "
        "the observer's; the others' is 0 (closed forms). Adaptive methods: the least-squares slope of the same errors "
        "against rtol over the runs that completed (no order: a tolerance is not a step).\n\n";
  const SwitchingClosedForm& closed = *c.model->switching_closed_form();
  double loss_scale = 0.0;
  for (double l : closed.impact_losses) loss_scale += l;
  Eigen::VectorXd exact0;
  double length_scale = 1.0;
  if (closed.state && closed.state(0.0, exact0)) length_scale = std::max(1.0, exact0.head(std::min<Eigen::Index>(2, exact0.size())).norm());
  std::map<std::string, std::vector<const SnapPoint*>> by_method;
  std::vector<std::string> order;
  for (const SnapPoint* p : of_case) {
    if (!by_method.count(p->key.label())) order.push_back(p->key.label());
    by_method[p->key.label()].push_back(p);
  }
  std::vector<std::vector<std::string>> rows;
  for (const std::string& label : order) {
    const auto& pts = by_method[label];
    const bool adaptive = pts.front()->adaptive();
    const double declared = pts.front()->key.integrator->order;
    // Only the state's error has an order theory declares (the method's, on the smooth motion; a snap
    // inside a step can lower it to one); the others' slopes are measured, not judged.
    struct Quantity {
      std::string name;
      std::function<double(const Judged&, const snap::SnapRun&)> error;
      std::function<double(const Judged&)> floor;
      double scale;
      bool judged = false;
    };
    const std::vector<Quantity> quantities = {
        {"position error at t_end", [](const Judged& j, const snap::SnapRun&) { return j.position_error; }, [](const Judged&) { return 0.0; }, length_scale, true},
        {"switch-time error", [](const Judged& j, const snap::SnapRun&) { return j.time_error; }, [](const Judged& j) { return j.time_floor; }, section.t_end},
        {"|energy lost − law|", [](const Judged& j, const snap::SnapRun&) { return std::abs(j.loss_run_error); }, [](const Judged&) { return 0.0; },
         loss_scale > 0.0 ? loss_scale : 1.0},
        {"overstretch", [](const Judged&, const snap::SnapRun& r) { return r.overstretch_max; }, [](const Judged&) { return 0.0; }, length_scale}};
    for (const Quantity& q : quantities) {
      std::vector<double> x, y;
      std::vector<OrderSweepPoint> sweep;
      std::string values;
      for (const SnapPoint* p : pts) {
        const Judged j = judge(*p, section);
        const bool ok = p->measured.outcome.ok() && j.clean();
        const double e = ok ? q.error(j, p->measured) : kNoNumber;
        values += (values.empty() ? "" : ", ") + num(e);
        if (adaptive) {
          if (std::isfinite(e) && e > 0.0) x.push_back(p->rtol), y.push_back(e);
        } else {
          OrderSweepPoint sp;
          sp.h = p->h;
          sp.ok = std::isfinite(e) && e > 0.0;
          sp.error = sp.ok ? e : 0.0;
          sp.relative_error = sp.ok ? e / q.scale : 0.0;
          sp.agreement = sp.ok ? q.floor(j) : 0.0;
          sweep.push_back(sp);
        }
      }
      std::string verdict;
      if (adaptive) {
        if (x.size() >= 3) {
          const PowerLawFit fit = fit_power_law(x, y);
          verdict = "slope " + format_g(fit.p, 3) + " ± " + format_g(fit.ci95, 2) + " in rtol";
        } else {
          verdict = "inconclusive: fewer than 3 tolerances with a non-zero error";
        }
      } else {
        const MeasuredOrder m = measure_order(sweep, declared);
        if (!m.fit.fitted) {
          verdict = "inconclusive: " + (m.fit.why_not.empty() ? std::string("no asymptotic window") : m.fit.why_not);
        } else if (q.judged) {
          verdict = "order " + format_g(m.p, m.p_digits) + " ± " + format_g(m.ci95, 2) + " (declared " + format_g(declared) + ")";
          if (!m.inconclusive.empty()) verdict += "; " + m.inconclusive;
          else if (!m.flag.empty()) verdict += "; " + m.flag;
          else if (!m.note.empty()) verdict += "; " + m.note;
          else verdict += ": consistent";
        } else {
          verdict = "order " + format_g(m.p, m.p_digits) + " ± " + format_g(m.ci95, 2) + " (not judged: no declared order for it)";
        }
      }
      rows.push_back({label, q.name, values, verdict});
    }
  }
  markdown::table(md, {"method", "quantity", "errors (largest step or tolerance first)", "fit"}, rows);
}

// The cheapest run that reaches each position error, and the advice that follows.
void write_work_precision(std::ostringstream& md, const SnapSection& section, const std::vector<const SnapPoint*>& of_case) {
  md << "\n### Work–precision and advice\n\n"
        "For each position error at t_end, the cheapest run (runtime) of each method that reached it with every expected "
        "switch matched and none added; \"not reached\" where no step or tolerance measured did.\n\n";
  std::vector<std::string> methods;
  for (const SnapPoint* p : of_case)
    if (std::find(methods.begin(), methods.end(), p->key.label()) == methods.end()) methods.push_back(p->key.label());
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> advice;
  for (double target : kPositionTargets) {
    std::vector<std::string> row{format_g(target) + " m"};
    std::vector<const SnapPoint*> cheapest_of;  // each method's cheapest run that reached the target
    for (const std::string& label : methods) {
      const SnapPoint* cheapest = nullptr;
      for (const SnapPoint* p : of_case) {
        if (p->key.label() != label || !p->measured.outcome.ok()) continue;
        const Judged j = judge(*p, section);
        if (!j.clean() || !(j.position_error <= target)) continue;
        if (!cheapest || p->measured.runtime_s < cheapest->measured.runtime_s) cheapest = p;
      }
      row.push_back(cheapest ? cheapest->setting() + ", " + num(cheapest->measured.runtime_s) + " s" : "not reached");
      if (cheapest) cheapest_of.push_back(cheapest);
    }
    rows.push_back(row);
    std::sort(cheapest_of.begin(), cheapest_of.end(),
              [](const SnapPoint* a, const SnapPoint* b) { return a->measured.runtime_s < b->measured.runtime_s; });
    const auto named = [](const SnapPoint* p) { return p->key.label() + " at " + p->setting() + " (" + num(p->measured.runtime_s) + " s)"; };
    std::string words = "to " + format_g(target) + " m: ";
    if (cheapest_of.empty()) {
      words += "no run measured here reached it";
    } else {
      words += named(cheapest_of[0]);
      // Every other method within the noise band of the cheapest: the ranking between them is not resolved.
      for (size_t k = 1; k < cheapest_of.size(); ++k)
        if (cheapest_of[k]->measured.runtime_s < kUnresolvedRatio * cheapest_of[0]->measured.runtime_s)
          words += ", not resolved from " + named(cheapest_of[k]) + " (within a factor " + format_g(kUnresolvedRatio) + ")";
      if (cheapest_of.size() > 1 && cheapest_of[1]->measured.runtime_s >= kUnresolvedRatio * cheapest_of[0]->measured.runtime_s)
        words += ", " + format_g(cheapest_of[1]->measured.runtime_s / cheapest_of[0]->measured.runtime_s, 2) + "× faster than the next method's cheapest, " +
                 named(cheapest_of[1]);
    }
    advice.push_back(words);
  }
  std::vector<std::string> header{"position error at t_end"};
  header.insert(header.end(), methods.begin(), methods.end());
  markdown::table(md, header, rows);
  md << "\nAdvice on this case, from the table: the cheapest run ";
  for (size_t i = 0; i < advice.size(); ++i) md << (i ? "; " : "") << advice[i];
  md << ". Runtimes of a few milliseconds differ by tens of percent between passes: runs within a factor " << format_g(kUnresolvedRatio)
     << " of each other are not ranked.\n";
}

std::vector<std::string> SnapStudy::write_files(const std::filesystem::path& dir, const std::vector<SnapPoint>& points) const {
  std::ofstream csv(dir / "snap.csv");
  csv << "case,integrator,h,rtol,status,expected_switches,switches,matched,switch_time_err_max,observer_floor,"
         "loss_run_minus_law,loss_booked_minus_law,phase_drift_max,energy_balance_err_max,overstretch_max,opening_rate_max,"
         "position_err_end,steps,runtime_s\n";
  std::ostringstream md;
  md << "# Strings that go slack and snap: every method against the known answers\n\n"
        "A unilateral link (an inextensible string that cannot push) holds g = |r| − l ≤ 0, its tension λ ≥ 0 and gλ = 0; "
        "where it snaps taut, Newton's impact law takes (1 + e) of the radial velocity and ½ m (1 − e²) v_r² of the "
        "energy. Three families run it. Event-driven methods (an adaptive Runge–Kutta or BDF method on the hybrid ODE: free "
        "flight while slack, the constrained pendulum while taut) locate each switch (the gap reaching 0, the tension "
        "falling through 0) on their interpolant, apply the impact law there and restart: their error is their "
        "tolerance's. Moreau–Jean time-stepping takes one velocity-level impulse problem per step at the midpoint "
        "configuration, so a snap falls somewhere inside a step and is resolved to O(h); it holds the length at the "
        "velocity level only, and its positions drift outward by about h²|v|²/(2l) a step (the overstretch column). "
        "Nonsmooth RATTLE makes both of RATTLE's projections one-sided (the positions' by an active set with Newton on "
        "the multipliers, the velocities' by Moreau's impact problem), so no link ends a step beyond its length; where the "
        "active set holds it is RATTLE (second order, symplectic), and a snap inside a step is not located either. Each "
        "fixed-step method books the impact law's loss on its own estimate of the pre-impact velocity as work W (Moreau–"
        "Jean: v_k, its own U⁻; nonsmooth RATTLE: v_k + h/2 M⁻¹f_k, the step's middle), an event-driven one on the located "
        "velocity, so E − E0 − W is the method's energy error plus, for a fixed-step method, that estimate's O(h) error at "
        "each snap. "
        "Every run is observed by one code: a link is taut from a closing (its gap |r| − l reaching 0) to an opening (the "
        "tension its state implies, m(g z + |v|²)/|r|, falling through 0) and slack between, so only the function that "
        "can end its present state is watched (a taut link's drift of its length is not read as a flight); each switch "
        "is timed by linear extrapolation of that function from the sample before it. Methods that do not run these cases decline them with their reason (the comparison tables). Every run: "
        "snap.csv.\n";
  for (const std::vector<const SnapPoint*>& of_case : points_by_case(points)) {
    const Case& c = *of_case.front()->key.c;
    const SnapSection& section = *c.section<SnapSection>();
    write_case_header(md, c, section);
    write_runs_table(md, csv, c, section, of_case);
    write_orders(md, c, section, of_case);
    write_work_precision(md, section, of_case);
  }
  std::ofstream(dir / "snap.md") << md.str();
  return {(dir / "snap.csv").string(), (dir / "snap.md").string()};
}

}  // namespace

StudyInfo snap_study() {
  StudyInfo info{SnapSection::kStudy,
                 "strings that go slack and snap ([report.snap]): switch times, the energy at each snap against the "
                 "impact law, drift between switches, overstretch, orders and work-precision for every method that "
                 "runs a unilateral link, against its closed form",
                 "snap.csv, snap.md",
                 false,
                 {},
                 why_not_without_table<SnapSection>,
                 [] { return std::make_unique<SnapStudy>(); },
                 read_snap};
  info.pages = {{"snap.md", "strings that go slack and snap: every method against the known answers"}};
  return info;
}

}  // namespace tb
