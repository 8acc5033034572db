// Tolerance sweep of an adaptive method, free and with its step capped, against a fixed-step
// method at the case's step (issue 32 item 3; cases/README.md, "[report.tolerance_sweep]").
// Seed 003 §5.2 prints "the step-size of 0.001 s is chosen for both continuous-time and
// discrete-time solvers": its ODE45 (MATLAB ode45, default rtol 1e-3, atol 1e-6) ran with MaxStep
// = 1e-3 beside RK4 at h = 1e-3. Which tolerance, with and without that cap, does as well as RK4
// is a measurement, not a setting to guess: every point is one run through measure() (the
// tables' own path, the one instability criterion with its onset), at atol = atol_per_rtol x rtol
// (MATLAB's default ratio 1e-3 unless the case says otherwise).
//
// Every completed run shows its numbers, an unstable one too (its status beside them says from
// when the criterion calls it unstable, so a reader sees how far past the bound it went); a run
// that stopped (failed) shows its status and counts only. The comparison run uses the case's h
// and the case's settings; it is run whether or not the case's [case] integrators lists it (the
// `_ode45` cases list only the adaptive pair, so that the main table does not repeat RK4).

#include "app/common/csv_table.hpp"
#include "studies/tolerance_sweep/tolerance_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <list>
#include <sstream>

#include "app/input/catalogue.hpp"
#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "studies/section_readers.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::shared_ptr<const StudySection> ToleranceSweep::restricted(const std::function<bool(const std::string&)>& runs) const {
  if (!runs(integrator)) return nullptr;
  auto kept = std::make_shared<ToleranceSweep>(*this);
  if (!kept->compare_with.empty() && !runs(kept->compare_with)) kept->compare_with.clear();
  return kept;
}

namespace {

// [report.tolerance_sweep], read when the case is loaded (StudyInfo::read_section).
std::shared_ptr<const StudySection> read_tolerance_sweep(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  ToleranceSweep sweep;
  const IntegratorInfo& info = read_integrator(table, "integrator", in);
  sweep.integrator = info.name;
  if (!info.adaptive || !IntegratorSettings::defaults(info.settings, c.h).declares(kMaxStepKey))
    table.fail("integrator", "an adaptive integrator with the setting max_step", "'" + sweep.integrator + "'");
  refuse_unless_it_runs_the_case(table, "integrator", in, info);
  sweep.rtol = table.positive_list("rtol");
  sweep.atol_per_rtol = table.positive_or("atol_per_rtol", sweep.atol_per_rtol);
  sweep.max_step = table.non_negative_list_or("max_step", {0.0});
  if (sweep.max_step.empty()) table.fail("max_step", "a non-empty array of steps >= 0 (0: free)", "[]");
  sweep.t_end = table.positive_or("t_end", c.t_end);
  if (sweep.t_end > c.t_end) table.fail("t_end", "a horizon no longer than the case's t_end = " + format_g(c.t_end), format_g(sweep.t_end));
  if (table.has("compare_with")) {
    const IntegratorInfo& other = read_integrator(table, "compare_with", in);
    sweep.compare_with = other.name;
    if (other.adaptive)
      table.fail("compare_with", "a fixed-step integrator (run at the case's h)", "'" + sweep.compare_with + "'");
    refuse_unless_it_runs_the_case(table, "compare_with", in, other);
  }
  return std::make_shared<ToleranceSweep>(std::move(sweep));
}

// One run of the sweep: the adaptive integrator at one (rtol, max_step), or the fixed-step one.
struct TolerancePoint {
  RunKey key;
  double rtol = 0.0, max_step = 0.0;  // the adaptive runs'
  Measurement measured;
  bool adaptive() const { return key.integrator->adaptive; }
};

class ToleranceSweepStudy final : public SweepStudy<TolerancePoint> {
  using Point = TolerancePoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const ToleranceSweep& sweep = *c.section<ToleranceSweep>();
    // The case as the sweep runs it: every integrator allowed (the comparison may be absent
    // from [case] integrators), everything else the case's.
    Case& open = cases_.emplace_back(c);
    open.only_integrators.clear();
    const IntegratorInfo* info = context.catalogue->find_integrator(sweep.integrator);
    for (double max_step : sweep.max_step)
      for (double rtol : sweep.rtol) points.push_back({RunKey{&open, info, c.model->default_discretisation()}, rtol, max_step, {}});
    if (!sweep.compare_with.empty())
      points.push_back({RunKey{&open, context.catalogue->find_integrator(sweep.compare_with), c.model->default_discretisation()},
                        0.0, 0.0, {}});
  }

  RunRequest request_of(const Point& p) const override {
    RunRequest request{p.key, settings_of(p), {}};
    request.measure.t_end = p.key.c->section<ToleranceSweep>()->t_end;
    request.measure.sample_interval = p.key.c->sample_interval;
    request.measure.repeats = 1;  // runs of 10^5..10^7 steps: one pass times them well
    request.measure.min_timed_s = 0.0;
    return request;
  }

  Job job_of(const Point& p, const RunRequest& request) const override {
    // Cost: the steps the run will take at most (a capped step or the case's h bounds them from below).
    const double step = p.adaptive() && p.max_step > 0.0 ? p.max_step : request.h();
    return {label_of(p), request.t_end() / step};
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override {
    std::ofstream csv(dir / "tolerance_sweep.csv");
    csv << "case,integrator,rtol,atol,max_step,h,t_end,completed,status,onset_t,onset_step,energy_err_max,"
           "energy_gain_max,linear_momentum_err_max,constraint_err_max,steps,rhs_evals,error_test_failures,runtime_s,host\n";
    for (const auto& p : points) {
      const Measurement& m = p.measured;
      const IntegratorSettings s = settings_of(p);
      const bool completed = m.outcome.ok() || m.outcome.unstable();
      auto number = [&](double x) { return completed ? format_g(x, 6) : std::string(); };
      const bool has_onset = m.outcome.unstable() || m.outcome.failed() || !m.outcome.note.empty();
      csv << p.key.c->name << ',' << p.key.integrator->name << ',' << (p.adaptive() ? format_g(p.rtol, 6) : "") << ','
          << (p.adaptive() ? format_g(s.tolerances().atol, 6) : "") << ',' << (p.adaptive() ? format_g(p.max_step, 6) : "")
          << ',' << format_g(s.h, 6) << ',' << format_g(p.key.c->section<ToleranceSweep>()->t_end, 6) << ','
          << (completed ? "yes" : "no") << ',' << csv_quoted(m.outcome.describe()) << ',' << (has_onset ? format_g(m.outcome.t, 6) : "")
          << ',' << (has_onset ? std::to_string(m.outcome.step) : "") << ',' << number(m.metrics.energy_err_max) << ','
          << number(m.metrics.energy_gain_max) << ',' << number(m.metrics.linear_momentum_err_max) << ','
          << number(m.metrics.constraint_err_max) << ',' << m.counters.steps << ',' << m.counters.rhs_evals << ','
          << m.counters.error_test_failures << ',' << number(m.runtime_s) << ',' << (completed ? m.host : "") << '\n';
    }
    std::ofstream md(dir / "tolerance_sweep.md");
    md << markdown(points);
    return {(dir / "tolerance_sweep.csv").string(), (dir / "tolerance_sweep.md").string()};
  }

 private:
  static IntegratorSettings settings_of(const Point& p) {
    const Case& c = *p.key.c;
    IntegratorSettings s = c.settings_for(p.key.integrator->name);
    if (p.adaptive()) {
      s.set_tolerances({p.rtol, p.rtol * c.section<ToleranceSweep>()->atol_per_rtol});
      s.set(kMaxStepKey, p.max_step);
    }
    return s;
  }

  static std::string label_of(const Point& p) {
    std::string label = p.key.c->name + " | " + p.key.integrator->name + " | tolerance sweep";
    if (p.adaptive())
      label += " | rtol = " + format_g(p.rtol, 3) + (p.max_step > 0.0 ? ", max_step = " + format_g(p.max_step, 3) : ", free");
    return label;
  }

  // A cell of the Markdown table: the numbers of a completed run (an unstable one's too, its
  // status in the next cell), the status alone for one that stopped.
  static std::string numbers(const Measurement& m) {
    if (!(m.outcome.ok() || m.outcome.unstable())) return "— | — | — | " + std::to_string(m.counters.steps);
    return format_e(m.metrics.energy_err_max) + " | " + format_e(m.metrics.linear_momentum_err_max) + " | " +
           format_g(m.runtime_s, 3) + " | " + std::to_string(m.counters.steps);
  }
  static std::string onset(const Measurement& m) {
    const RunOutcome& o = m.outcome;
    char when[80];
    std::snprintf(when, sizeof when, "%.4g s (step %ld)", o.t, o.step);
    if (o.unstable()) return "**" + std::string(o.word()) + (o.energy_jump ? "** at " : "** from ") + when;
    if (o.failed()) return std::string("**") + (o.diverged ? "diverged" : "failed") + "** at " + when;
    if (o.interrupted()) return "interrupted";
    if (!o.note.empty()) return std::string("ok, drift from ") + when;
    return "ok";
  }
  // Both errors of `a` at most those of `b`, a completed and ok.
  static bool as_good(const Measurement& a, const Measurement& b) {
    if (!a.outcome.ok()) return false;
    if (!(b.outcome.ok() || b.outcome.unstable())) return true;  // b stopped, a completed
    return a.metrics.energy_err_max <= b.metrics.energy_err_max &&
           !(a.metrics.linear_momentum_err_max > b.metrics.linear_momentum_err_max);
  }

  static std::string markdown(const std::vector<Point>& points) {
    std::ostringstream md;
    md << "# Tolerance sweep (issue 32 item 3)\n\n"
          "Seed 003's ODE45 at each tolerance, free and with its step capped (`max_step`, MATLAB's MaxStep; the "
          "paper prints a 1 ms step for both solvers), beside the fixed-step method at the case's h, over the same "
          "horizon. max |ΔE| = max |E − E0 − W|, max |ΔP| = the linear momentum's error (`linear_momentum_err_max`), "
          "onset: where the instability criterion (core/stability_criterion.hpp) is first passed, or where a drift "
          "within the physical scale passes 0.01 E_s (ok). A completed unstable run's numbers are shown beside its "
          "status; a run that stopped shows none. Runtime: the step loops of one pass (s).\n";
    for (const std::vector<const Point*>& pts : points_by_case(points)) {
      const std::string& name = pts.front()->key.c->name;
      const ToleranceSweep& sweep = *pts.front()->key.c->section<ToleranceSweep>();
      const Point* fixed = nullptr;
      for (const Point* p : pts)
        if (!p->adaptive()) fixed = p;
      md << "\n## " << name << " (" << sweep.integrator << ", atol = " << format_g(sweep.atol_per_rtol, 3)
         << " × rtol, over " << format_g(sweep.t_end, 6) << " s)\n\n";
      md << "| rtol | max_step (s) | max \\|ΔE\\| (J) | max \\|ΔP\\| (kg m/s) | runtime (s) | steps | status |\n"
            "|---:|---:|---:|---:|---:|---:|---|\n";
      for (double max_step : sweep.max_step)
        for (const Point* p : pts)
          if (p->adaptive() && p->max_step == max_step)
            md << "| " << format_g(p->rtol, 3) << " | " << (max_step > 0.0 ? format_g(max_step, 3) : "free") << " | "
               << numbers(p->measured) << " | " << onset(p->measured) << " |\n";
      if (fixed)
        md << "| " << fixed->key.integrator->name << " | h = " << format_g(fixed->key.c->h, 3) << " | "
           << numbers(fixed->measured) << " | " << onset(fixed->measured) << " |\n";
      // Why each run that stopped stopped, in its own words (the CSV's status column).
      bool first_failure = true;
      for (const Point* p : pts)
        if (p->measured.outcome.failed()) {
          md << (first_failure ? "\nWhy the runs that stopped stopped:\n" : "") << "- "
             << (p->adaptive() ? "rtol = " + format_g(p->rtol, 3) + (p->max_step > 0.0 ? ", max_step = " + format_g(p->max_step, 3) : ", free")
                               : p->key.integrator->name)
             << ": " << p->measured.outcome.describe() << "\n";
          first_failure = false;
        }
      if (!fixed) continue;
      // Where the adaptive method overtakes: the loosest rtol from which every tighter one is ok
      // with both errors at most the fixed-step run's.
      md << "\n";
      for (double max_step : sweep.max_step) {
        std::vector<const Point*> row;
        for (const Point* p : pts)
          if (p->adaptive() && p->max_step == max_step) row.push_back(p);
        std::sort(row.begin(), row.end(), [](const Point* a, const Point* b) { return a->rtol < b->rtol; });
        const Point* from = nullptr;
        for (const Point* p : row) {
          if (!as_good(p->measured, fixed->measured)) break;
          from = p;
        }
        md << "- " << sweep.integrator << (max_step > 0.0 ? " with max_step = " + format_g(max_step, 3) + " s" : " free")
           << ": ";
        if (!from) {
          md << "no tolerance of the sweep does as well as " << fixed->key.integrator->name << " on both errors";
        } else {
          md << "as good as " << fixed->key.integrator->name << " on both max |ΔE| and max |ΔP| from rtol = "
             << format_g(from->rtol, 3) << " on (at "
             << (fixed->measured.runtime_s > 0.0 && from->measured.runtime_s > 0.0
                     ? format_g(from->measured.runtime_s / fixed->measured.runtime_s, 3) + "× its runtime"
                     : std::string("its runtime not measured"))
             << ")";
        }
        md << "\n";
      }
      // Where the case measures how far round-off moves its runs' errors (error_spread.csv), a
      // comparison of single runs is no finer than that; the sweep's runs are single draws.
      md << "- Each point is one run: where the motion depends sensitively on its start (a symmetry that breaks), errors "
            "at neighbouring tolerances need not be monotone, and a comparison within the case's measured spread of "
            "errors (error_spread.csv, where the case has one) is not resolved by them.\n";
      md << cap_verdict(pts, sweep);
    }
    return md.str();
  }

  // A status in one word, for the cap's comparison: what the tables would print for the run.
  static std::string verdict_word(const Measurement& m) {
    const RunOutcome& o = m.outcome;
    if (o.ok()) return o.word() == "drift" ? "ok (drift noted)" : "ok";  // an energy, momentum or manifold drift
    if (o.unstable()) return std::string(o.word());
    if (o.failed()) return o.diverged ? "diverged" : "failed";
    return "interrupted";
  }

  // Whether the step cap decides the verdict of the case's own adaptive run (issue 44): at the
  // case's rtol, the free and the capped run side by side, and the verdict each gets over the
  // sweep's horizon. "decides" only where the two verdicts differ; the same verdict either way
  // says the cap does not decide it over this horizon.
  static std::string cap_verdict(const std::vector<const Point*>& pts, const ToleranceSweep& sweep) {
    const Case& c = *pts.front()->key.c;
    const IntegratorSettings& own = c.settings_for(sweep.integrator);
    if (!own.declares_tolerances()) return "";
    const double rtol = own.tolerances().rtol, cap = own.declares(kMaxStepKey) ? own.max_step() : 0.0;
    const Point *free = nullptr, *capped = nullptr;
    for (const Point* p : pts)
      if (p->adaptive() && p->rtol == rtol) (p->max_step > 0.0 ? capped : free) = p;
    std::ostringstream md;
    md << "- The case's own " << sweep.integrator << " run (rtol = " << format_g(rtol, 3) << ", "
       << (cap > 0.0 ? "max_step = " + format_g(cap, 3) + " s" : std::string("free")) << ", the summary's row): ";
    if (!free || !capped) {
      md << "inconclusive: the sweep does not run rtol = " << format_g(rtol, 3) << " both free and capped.\n";
      return md.str();
    }
    const std::string a = verdict_word(free->measured), b = verdict_word(capped->measured);
    md << "free it is " << a << ", capped at " << format_g(capped->max_step, 3) << " s it is " << b << " over "
       << format_g(sweep.t_end, 6) << " s: ";
    md << (a != b ? "**the step cap decides the verdict** at this rtol over this horizon"
                  : "the cap does not change the verdict at this rtol over this horizon")
       << " (the summary's row is the " << (cap > 0.0 ? "capped" : "free") << " one";
    if (c.t_end > sweep.t_end)
      md << ", run to the case's " << format_g(c.t_end, 6) << " s: its own status says what happens after "
         << format_g(sweep.t_end, 6) << " s";
    md << ").\n";
    return md.str();
  }

  std::list<Case> cases_;  // the sweep's copies of the cases (RunKey points into them)
};

}  // namespace

StudyInfo tolerance_sweep_study() {
  StudyInfo info{"tolerance_sweep",
          "an adaptive integrator per rtol, free and with max_step, against a fixed-step one at the case's h "
          "([report.tolerance_sweep]): max |dE|, max |dP|, onset, runtime, steps",
          "tolerance_sweep.csv, tolerance_sweep.md",
          false,
          {},
          why_not_without_table<ToleranceSweep>,
          [] { return std::make_unique<ToleranceSweepStudy>(); },
          read_tolerance_sweep};
  info.pages = {{"tolerance_sweep.md", "adaptive methods against their tolerance"}};
  return info;
}

}  // namespace tb
