#include "studies/energy_balance/energy_balance.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/input/applicability.hpp"
#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
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

// One run of the sweep: a fixed-step integrator (in one of the case's discretisations) at one h.
struct BalancePoint {
  RunKey key;
  double h = 0.0;
  Measurement measured;
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
    for (const RunKey& key : runs_of(c, context.catalogue->integrators)) {
      if (key.integrator->adaptive || why_not_applicable(c, *key.integrator, key.discretisation)) continue;
      for (double h : balance.steps) points.push_back({key, h, {}});
    }
  }

  Job job_of(const Point& p) const override {
    const EnergyBalance& balance = *p.key.c->section<EnergyBalance>();
    return {p.key.c->name + " | " + p.key.label() + " | energy balance, h = " + format_g(p.h, 6), balance.t_end / p.h,
            job_inputs(run_inputs(*p.key.c, p.key.integrator->name),
                       {{"discretisation", p.key.discretisation}, {"h", exact(p.h)}, {"t_end", exact(balance.t_end)}})};
  }

  Measurement run(const Point& p) const override {
    const Case& c = *p.key.c;
    const EnergyBalance& balance = *c.section<EnergyBalance>();
    IntegratorSettings s = c.settings_for(p.key.integrator->name);
    s.h = p.h;
    MeasureOptions m;
    m.t_end = balance.t_end;
    m.sample_interval = std::min(c.sample_interval, balance.t_end);  // the balance is measured on the case's grid
    return measure(p.key, s, m);
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override {
    const OrderRules rules;
    std::ofstream csv(dir / "energy_balance.csv");
    csv << "case,integrator,declared_order,h,t_end,status,balance_err_max,round_off_floor,resolved,external_work_max,"
           "energy_magnitude,steps\n";
    for (const auto& p : points) {
      const bool ok = p.measured.outcome.ok();
      const BalanceScales s = scales_of(p.measured);
      auto result = [&](double x) { return ok ? format_g(x, 6) : std::string(); };
      csv << p.key.c->name << ',' << p.key.label() << ',' << p.key.integrator->order << ',' << format_g(p.h, 6) << ','
          << format_g(p.key.c->section<EnergyBalance>()->t_end, 6) << ",\"" << p.measured.outcome.describe() << "\","
          << result(p.measured.metrics.energy_err_max) << ',' << result(s.floor) << ','
          << (ok ? (p.measured.metrics.energy_err_max >= rules.resolution * s.floor ? "yes" : "no") : "") << ','
          << result(p.measured.metrics.external_work_max) << ',' << result(p.measured.metrics.energy_magnitude) << ','
          << p.measured.counters.steps << '\n';
    }
    std::ofstream md(dir / "energy_balance.md");
    md << markdown(points, rules);
    return {(dir / "energy_balance.csv").string(), (dir / "energy_balance.md").string()};
  }

 private:
  // The page: per case, each run's order of the balance residual against its declared order.
  static std::string markdown(const std::vector<Point>& points, const OrderRules& rules) {
    std::ostringstream md;
    md << "# Energy balance: does it close at the method's order?\n\n"
          "Where a model does external work W (damping, control), every energy column of the report is the balance "
          "residual max |E(t) − E(0) − W(t)|, W the work the run accumulated itself. The exact motion has residual 0, "
          "and the residual of a run is [E(y_n) − E(y(t_n))] − [W_n − W(t_n)]: the energy's error, of order at least "
          "the state's q over a fixed horizon, minus the work's, of the order r of the stepper's work quadrature. So it "
          "converges at least as h^min(q, r). Below, each fixed-step run's order of the residual, measured over the "
          "case's step sweep by the rule of orders.csv ("
       << asymptotic_range_words(rules, "the run's round-off floor of E and W")
       << "; flagged when off the declared order by more than " << format_g(rules.flag_band)
       << " or when its 95% interval misses it by more than " << format_g(rules.exclusion_margin)
       << "). A measured order below the declared one says the work is accounted for at a lower order than the "
          "motion. One above it says the energy's error is of higher order than the state's, or that the leading errors "
          "of E and W cancel: an explicit Runge–Kutta method of even order q changes an undamped oscillation's energy "
          "by O(h^(q+2)) a step (|R(iy)|² = 1 + y^4/4 for rk2, 1 − y^6/72 + y^8/576 for rk4), so its energy error "
          "converges as h^(q+1) where the state's error, a phase error along the level set, converges as h^q (the "
          "state's own orders: orders.csv). Every run: energy_balance.csv.\n";
    std::vector<std::string> cases;
    for (const auto& p : points)
      if (cases.empty() || cases.back() != p.key.c->name) cases.push_back(p.key.c->name);
    for (const std::string& name : cases) {
      std::vector<const Point*> of_case;
      for (const auto& p : points)
        if (p.key.c->name == name) of_case.push_back(&p);
      const EnergyBalance& balance = *of_case.front()->key.c->section<EnergyBalance>();
      md << "\n## " << name << " (over " << format_g(balance.t_end, 6) << " s)\n\n"
         << "| run | declared order | order of the balance residual | max residual over the sweep (J) | max \\|W\\| (J) |\n"
            "|---|---:|---|---:|---:|\n";
      std::vector<std::string> labels;
      for (const Point* p : of_case)
        if (std::find(labels.begin(), labels.end(), p->key.label()) == labels.end()) labels.push_back(p->key.label());
      for (const std::string& label : labels) {
        std::vector<OrderSweepPoint> sweep;
        const Point* first = nullptr;
        double residual_max = 0.0, work_max = 0.0;
        std::string failure;
        for (const Point* p : of_case) {
          if (p->key.label() != label) continue;
          if (!first) first = p;
          const bool ok = p->measured.outcome.ok();
          const BalanceScales s = scales_of(p->measured);
          const double e = p->measured.metrics.energy_err_max;
          sweep.push_back({p->h, ok, ok ? e : 0.0, ok && s.scale > 0.0 ? e / s.scale : 0.0, s.floor});
          if (ok) residual_max = std::max(residual_max, e), work_max = std::max(work_max, p->measured.metrics.external_work_max);
          else if (failure.empty()) failure = "h = " + format_g(p->h, 3) + ": " + p->measured.outcome.describe();
        }
        const MeasuredOrder m = measure_order(sweep, first->key.integrator->order, rules);
        md << "| " << label << " | " << first->key.integrator->order << " | " << order_words(m, rules)
           << (failure.empty() ? "" : "; first failed point " + escaped(failure)) << " | " << format_e(residual_max)
           << " | " << format_e(work_max) << " |\n";
      }
    }
    return md.str();
  }

  // The measured order in the words of orders.csv's rule: "p ± ci", its flag or note, or why none.
  static std::string order_words(const MeasuredOrder& m, const OrderRules& rules) {
    std::string local;
    for (double q : m.fit.local_orders) local += (local.empty() ? "" : " → ") + (std::isfinite(q) ? format_g(q, 3) : "-");
    if (!m.fit.fitted)
      return "inconclusive: " + escaped(m.fit.why_not + excluded_points_words(m, rules)) +
             (local.empty() ? "" : " (local orders " + local + ")");
    std::string words = format_g(m.p, 3) + " ± " + format_g(m.ci95, 2) + " (h " + format_g(m.fit.steps.back(), 3) +
                        " to " + format_g(m.fit.steps.front(), 3) + ")";
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
