#include "app/common/csv_table.hpp"
#include "studies/energy_balance/energy_balance.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/input/applicability.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
#include "app/running/reference.hpp"
#include "app/running/round_off.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::vector<StudySection::Span> EnergyBalance::fixed_step_spans() const {
  return {{"steps", t_end, *std::min_element(steps.begin(), steps.end())}};
}

namespace {

// [report.energy_balance], read when the case is loaded (StudyInfo::read_section).
std::shared_ptr<const StudySection> read_energy_balance(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  EnergyBalance balance;
  balance.steps = table.has("steps") ? table.positive_list("steps") : c.report.steps;
  // Three points are the fewest an order's asymptotic range takes (OrderRules::min_points).
  if (balance.steps.size() < OrderRules{}.min_points)
    table.fail("steps", "at least " + std::to_string(OrderRules{}.min_points) + " steps (an order's asymptotic range)",
               std::to_string(balance.steps.size()) + (table.has("steps") ? "" : " (the case's [report] steps)"));
  balance.t_end = table.positive_or("t_end", c.report.reference_t_end);
  if (balance.t_end > c.t_end)
    table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(balance.t_end));
  for (double h : balance.steps)
    if (h > balance.t_end) table.fail("steps", "steps no longer than t_end = " + format_g(balance.t_end), format_g(h));
  return std::make_shared<EnergyBalance>(std::move(balance));
}

// One run of the sweep: a fixed-step integrator (in one of the case's discretisations) at one h,
// or the reference solver on that discretisation (h = 0), whose E and W at t_end the runs' are
// compared with: the residual split into the energy's error and the work's.
struct BalancePoint {
  RunKey key;
  double h = 0.0;
  Measurement measured;
  bool reference() const { return h == 0.0; }
};

// What the order of a run's balance is judged against: its round-off floor (app/running/round_off.hpp,
// of the magnitudes E and W are computed from, after the run's steps) and its scale.
struct BalanceScales {
  double floor = 0.0, scale = 0.0;
};
BalanceScales scales_of(const Measurement& m) {
  const double scale = m.metrics.energy_magnitude + m.metrics.external_work_max;
  return {round_off_floor(scale, m.counters.steps), scale};
}

class EnergyBalanceStudy final : public SweepStudy<BalancePoint> {
  using Point = BalancePoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const EnergyBalance& balance = *c.section<EnergyBalance>();
    // Every fixed-step integrator the suite runs on the case, in each discretisation it runs it
    // (the registries' one applicability rule): the sweep is over h.
    std::vector<std::string> discretisations;
    for (const RunKey& key : runs_of(c, context.catalogue->integrators)) {
      if (key.integrator->adaptive || why_not_applicable(c, *key.integrator, key.discretisation)) continue;
      if (std::find(discretisations.begin(), discretisations.end(), key.discretisation) == discretisations.end()) {
        discretisations.push_back(key.discretisation);
        points.push_back({RunKey{&c, &context.catalogue->reference(), key.discretisation}, 0.0, {}});
      }
      for (double h : balance.steps) points.push_back({key, h, {}});
    }
  }

  RunRequest request_of(const Point& p) const override {
    const Case& c = *p.key.c;
    const EnergyBalance& balance = *c.section<EnergyBalance>();
    RunRequest request{p.key, {}, {}};
    if (p.reference()) {
      // The reference solutions' solver and tolerances (app/running/reference.hpp), its first step the sweep's finest.
      request.settings =
          IntegratorSettings::defaults(p.key.integrator->settings, *std::min_element(balance.steps.begin(), balance.steps.end()));
      request.settings.set_tolerances({kReferenceRtol, kReferenceAtol});
      if (request.settings.declares(kLocateEventsKey) && c.model->switching_count() > 0) request.settings.set(kLocateEventsKey, 1.0);
    } else {
      request.settings = c.settings_for(p.key.integrator->name);
      request.settings.h = p.h;
    }
    request.measure.t_end = balance.t_end;
    // The balance is measured on the case's grid; the reference is observed at t_end only, where its
    // last step lands, not through its dense output (whose interpolation error, 5e-8 J on the
    // tether, is far above the solver's: its E(T) and W(T) are the comparison's).
    request.measure.sample_interval = p.reference() ? balance.t_end : std::min(c.sample_interval, balance.t_end);
    return request;
  }

  Job job_of(const Point& p, const RunRequest&) const override {
    const EnergyBalance& balance = *p.key.c->section<EnergyBalance>();
    if (p.reference())
      // Cost, for ordering the jobs only: that of the sweep's finest run (the same span as its limits check).
      return {p.key.c->name + " | " + p.key.label() + " | energy balance reference",
              balance.fixed_step_spans().front().t_end / balance.fixed_step_spans().front().h};
    return {p.key.c->name + " | " + p.key.label() + " | energy balance, h = " + format_g(p.h, 6), balance.t_end / p.h};
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override {
    const OrderRules rules;
    std::ofstream csv(dir / "energy_balance.csv");
    csv << "case,integrator,role,declared_order,h,t_end,status,balance_err_max,balance_err_end,energy_err_end,work_err_end,"
           "round_off_floor,resolved,external_work_max,energy_magnitude,steps\n";
    for (const auto& p : points) {
      const bool ok = p.measured.outcome.ok();
      const BalanceScales s = scales_of(p.measured);
      const Point* ref = reference_of(p, points);
      const bool compared = ok && !p.reference() && ref && ref->measured.outcome.ok();
      auto result = [&](double x) { return ok ? format_g(x, 6) : std::string(); };
      csv << p.key.c->name << ',' << p.key.label() << ',' << (p.reference() ? "reference" : "run") << ','
          << (p.reference() ? "" : std::to_string(p.key.integrator->order)) << ',' << (p.reference() ? "" : format_g(p.h, 6))
          << ',' << format_g(p.key.c->section<EnergyBalance>()->t_end, 6) << ',' << csv_quoted(p.measured.outcome.describe()) << ','
          << result(p.measured.metrics.energy_err_max) << ','
          << (compared ? format_g(energy_error_end(p, *ref) - work_error_end(p, *ref), 12) : "") << ','
          << (compared ? format_g(energy_error_end(p, *ref), 12) : "") << ','
          << (compared ? format_g(work_error_end(p, *ref), 12) : "") << ',' << result(s.floor) << ','
          << (ok && !p.reference() ? (p.measured.metrics.energy_err_max >= rules.resolution * s.floor ? "yes" : "no") : "")
          << ',' << result(p.measured.metrics.external_work_max) << ',' << result(p.measured.metrics.energy_magnitude) << ','
          << p.measured.counters.steps << '\n';
    }
    std::ofstream md(dir / "energy_balance.md");
    md << markdown(points, rules);
    return {(dir / "energy_balance.csv").string(), (dir / "energy_balance.md").string()};
  }

 private:
  // The reference solver's point of p's case and discretisation (nullptr if none).
  static const Point* reference_of(const Point& p, const std::vector<Point>& points) {
    for (const Point& q : points)
      if (q.reference() && q.key.c == p.key.c && q.key.discretisation == p.key.discretisation) return &q;
    return nullptr;
  }
  // The run's energy and work at t_end against the reference's: E_n - E_ref(T) and W_n - W_ref(T).
  // Both are differences of O(|E|) numbers each exact to a few eps |E|: the round-off floor
  // (scales_of) bounds what such a difference can resolve.
  static double energy_error_end(const Point& p, const Point& ref) {
    return p.measured.metrics.energy_last - ref.measured.metrics.energy_last;
  }
  static double work_error_end(const Point& p, const Point& ref) {
    return p.measured.metrics.external_work_last - ref.measured.metrics.external_work_last;
  }

  // The page: the rule and what it can show, then per case each run's orders of the balance
  // residual and of its two parts.
  static std::string markdown(const std::vector<Point>& points, const OrderRules& rules) {
    std::ostringstream md;
    write_introduction(md, rules);
    for (const std::vector<const Point*>& of_case : points_by_case(points)) write_case(md, of_case, points, rules);
    return md.str();
  }

  static void write_introduction(std::ostringstream& md, const OrderRules& rules) {
    md << "# Energy balance: does it close at the method's order?\n\n"
          "Where a model does external work W (damping, control), every energy column of the report is the balance "
          "residual max |E(t) − E(0) − W(t)|, W the work the run accumulated itself. The exact motion has residual 0, "
          "and a run's residual at t_n is [E(y_n) − E(y(t_n))] − [W_n − W(t_n)]: the energy's error minus the work's. "
          "Over a fixed horizon the energy's error is of the state's order q or higher, and the work's of order "
          "min(q, r), r the order of the stepper's work quadrature (the power is integrated along the numerical "
          "trajectory), so the residual converges at least as h^min(q, r). Below, for each fixed-step run, the order "
          "of the residual over the horizon, and of its two parts at the horizon's end against the case's reference "
          "solver (E(T) and W(T) errors), each measured over the step sweep by the rule of orders.csv ("
       << asymptotic_range_words(rules, "the floor (the run's round-off floor of E and W, or for the two parts the "
                                        "reference's own balance residual where larger)")
       << "; the quantity's scale is max over t of |T| + |E − T|, plus max over t of |W|; flagged when off the declared order by more than "
       << format_g(rules.flag_band) << " or when its 95% interval, the least-squares one plus the floor's bound, misses "
          "it by more than "
       << format_g(rules.exclusion_margin)
       << "). The residual is a maximum over t; its two parts are taken at t_end, where their difference is the "
          "residual at t_end (balance_err_end in energy_balance.csv). Where the residual's order is below the declared "
          "one, a part whose order is also below it is the part that lags; where both parts are inconclusive, the data "
          "do not say which. A part's signed error can change sign between two steps of the sweep, where its size "
          "passes through 0 and its local order means nothing (said in its cell). (On an undamped linear oscillation an "
          "explicit Runge–Kutta method of even order q changes the energy by O(h^(q+2)) a step, |R(iy)|² = 1 + y⁴/4 for "
          "2 stages of order 2 and 1 − y⁶/72 + y⁸/576 for the classical 4th-order method, so its energy error "
          "converges as h^(q+1); damping adds a term of global order h^q, and a nonlinear force another, so on a damped, "
          "nonlinear case q is what theory expects, and terms of opposite sign can cancel over part of a sweep.) The "
          "horizon is a finite one: its orders say nothing of the energy's long-time behaviour (long_time.md). Every run: "
          "energy_balance.csv; the residuals against h: the case's figure (index.md).\n";
  }

  // One case's section: its reference, then a row per run.
  static void write_case(std::ostringstream& md, const std::vector<const Point*>& of_case, const std::vector<Point>& points,
                         const OrderRules& rules) {
    const EnergyBalance& balance = *of_case.front()->key.c->section<EnergyBalance>();
    md << "\n## " << of_case.front()->key.c->name << " (over " << format_g(balance.t_end, 6) << " s)\n\n";
    for (const Point* p : of_case)
      if (p->reference())
        md << "Reference" << (p->key.discretisation.empty() ? "" : " (" + p->key.discretisation + ")") << ": "
           << p->key.integrator->name << " at rtol " << format_g(kReferenceRtol) << ", "
           << (p->measured.outcome.ok() ? "its own residual max |E − E0 − W| = " + format_e(p->measured.metrics.energy_err_max) +
                                              " J, max |W| = " + format_e(p->measured.metrics.external_work_max) + " J"
                                        : "failed: " + escaped(p->measured.outcome.describe()) +
                                              " (the E(T) and W(T) columns are empty)")
           << ".\n\n";
    md << "| run | declared order | residual max over t: order | E(T) error: order | W(T) error: order | finest h: "
          "residual (J), over max \\|W\\|; E(T) and W(T) errors (J) |\n|---|---:|---|---|---|---|\n";
    std::vector<std::string> labels;
    for (const Point* p : of_case)
      if (!p->reference() && std::find(labels.begin(), labels.end(), p->key.label()) == labels.end())
        labels.push_back(p->key.label());
    for (const std::string& label : labels) {
      std::vector<const Point*> run;
      for (const Point* p : of_case)
        if (p->key.label() == label) run.push_back(p);
      write_run_row(md, run, reference_of(*run.front(), points), rules);
    }
  }

  // One run's row: the orders of its residual and of its two parts against the reference (when
  // the reference completed), its first failed step, and the finest step's numbers.
  static void write_run_row(std::ostringstream& md, const std::vector<const Point*>& run, const Point* ref,
                            const OrderRules& rules) {
    const bool compared = ref && ref->measured.outcome.ok();
    std::string failure;
    const Point* finest = nullptr;
    for (const Point* p : run) {
      if (!p->measured.outcome.ok()) {
        if (failure.empty()) failure = "h = " + format_g(p->h, 3) + ": " + p->measured.outcome.describe();
      } else if (!finest || p->h < finest->h) {
        finest = p;
      }
    }
    const std::string residual =
        order_cell(run, [](const Point& p) { return p.measured.metrics.energy_err_max; }, nullptr, rules);
    const std::string energy =
        compared ? order_cell(run, [&](const Point& p) { return energy_error_end(p, *ref); }, ref, rules) : "—";
    const std::string work =
        compared ? order_cell(run, [&](const Point& p) { return work_error_end(p, *ref); }, ref, rules) : "—";
    md << "| " << run.front()->key.label() << " | " << run.front()->key.integrator->order << " | " << residual
       << (failure.empty() ? "" : "; first failed point " + escaped(failure)) << " | " << energy << " | " << work << " | ";
    if (finest) {
      const double w = finest->measured.metrics.external_work_max;
      md << "h = " << format_g(finest->h, 3) << ": " << format_e(finest->measured.metrics.energy_err_max)
         << (w > 0.0 ? ", " + format_e(finest->measured.metrics.energy_err_max / w) : std::string());
      if (compared) md << "; " << format_e(energy_error_end(*finest, *ref)) << ", " << format_e(work_error_end(*finest, *ref));
    } else {
      md << "—";
    }
    md << " |\n";
  }

  // The order of one measure over a run's sweep, in words: the residual (ref null: its errors
  // judged against the run's round-off floor) or a signed part against the reference (judged
  // against that floor or the reference's own residual, whichever is larger), with the steps
  // between which the signed part changes sign.
  template <class Error>
  static std::string order_cell(const std::vector<const Point*>& run, Error error, const Point* ref, const OrderRules& rules) {
    const double ref_floor = ref ? ref->measured.metrics.energy_err_max : 0.0;
    std::vector<OrderSweepPoint> sweep;
    std::string sign_changes;
    const Point* previous = nullptr;  // the last completed point, coarse to fine
    for (const Point* p : run) {
      const bool ok = p->measured.outcome.ok();
      const BalanceScales s = scales_of(p->measured);
      const double e = ok ? std::abs(error(*p)) : 0.0;
      sweep.push_back({p->h, ok, e, ok && s.scale > 0.0 ? e / s.scale : 0.0, ref ? std::max(s.floor, ref_floor) : s.floor});
      if (!ok) continue;
      if (ref && previous && (error(*previous) < 0.0) != (error(*p) < 0.0))
        sign_changes += (sign_changes.empty() ? "" : ", ") + format_g(previous->h, 3) + " → " + format_g(p->h, 3);
      previous = p;
    }
    std::string words = order_words(measure_order(sweep, run.front()->key.integrator->order, rules), rules);
    if (!sign_changes.empty()) {
      // Where the signed error crosses 0 its size does not fall: no floor, a crossing.
      const std::string floor_words = "on a floor (errors no longer falling)";
      if (const auto at = words.find(floor_words); at != std::string::npos) words.replace(at, floor_words.size(), "not falling");
      words += "; the signed error changes sign between h = " + sign_changes;
    }
    return words;
  }

  // A measured order in the words of orders.csv's rule: "p ± ci", its local orders, and its flag,
  // note or why it is inconclusive.
  static std::string order_words(const MeasuredOrder& m, const OrderRules& rules) {
    std::string local;
    for (double q : m.fit.local_orders) local += (local.empty() ? "" : " → ") + (std::isfinite(q) ? format_g(q, 3) : "-");
    const std::string locals = local.empty() ? "" : " (local orders " + local + ")";
    if (!m.fit.fitted) return "inconclusive: " + escaped(m.fit.why_not + excluded_points_words(m, rules)) + locals;
    std::string words = format_g(m.p, m.p_digits) + " ± " + format_g(m.ci95, 2) + locals;
    if (!m.inconclusive.empty()) return words + ": " + escaped(m.inconclusive);
    if (!m.flag.empty()) return words + ": **" + escaped(m.flag) + "**";
    words += m.note.empty() ? ": at the declared order" : ": at the declared order (" + escaped(m.note) + ")";
    return words + escaped(excluded_points_words(m, rules));
  }

  // A cell's text with the table's separator escaped.
  static std::string escaped(std::string text) {
    std::string out;
    for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return out;
  }
};

}  // namespace

StudyInfo energy_balance_study() {
  StudyInfo info{"energy_balance",
                 "every fixed-step integrator over a step sweep ([report.energy_balance]): the order at which the "
                 "energy balance E - E0 - W closes, against the declared order",
                 "energy_balance.csv, energy_balance.md",
                 false,
                 {},
                 why_not_without_table<EnergyBalance>,
                 [] { return std::make_unique<EnergyBalanceStudy>(); },
                 read_energy_balance};
  info.figures = energy_balance_figures;
  info.pages = {{"energy_balance.md", "the order at which each run's energy balance closes"}};
  return info;
}

}  // namespace tb
