// Work-precision diagrams after DiffEqDevTools: the unit of comparison is a setup (method +
// step or tolerance); the error is the final physical state's distance (max norm) from a
// tight reference solution of the same semi-discrete system, the runtime the minimum of two
// passes without observation. Orders are the least-squares slope of log(error) against log(h).
//
// Beside the final-state error, DiffEqDevTools' trajectory errors: every run's physical state on
// the case's grid t_k = k * [report] trajectory_interval (fixed-step runs have a step end on
// every grid time, adaptive ones use their dense output) against the stored reference
// trajectory on that grid, in L2 and L-infinity over time, of the configuration and,
// separately, of the rates (core/trajectory_error.hpp defines them). Work is the runtime and
// the counts: rhs_evals (f, or the residual of an implicit step) and Newton iterations.
//
// The reference comes from a method not under test and is cross-checked by a second solver
// (app/running/reference.hpp); their distance (max norm) is the resolution of every error measured
// against it. A point whose error is not above that agreement is marked unresolved: written
// with its error (what was measured) but `resolved = no`, left out of the order fits, and
// drawn hollow, never counted as a win (references.csv lists the agreement per case).

#include "app/common/csv_table.hpp"
#include "studies/work_precision/work_precision.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "app/input/catalogue.hpp"
#include "app/judging/order_fit.hpp"
#include "app/common/fingerprint.hpp"
#include "core/format.hpp"
#include "app/running/job_result.hpp"
#include "app/running/reference.hpp"
#include "core/switching.hpp"
#include "core/trajectory_error.hpp"
#include "numerics/convergence.hpp"
#include "numerics/statistics.hpp"
#include "core/trajectory_separation.hpp"
#include "studies/work_precision/work_precision_ranking.hpp"

namespace tb {

namespace {

// The order a fixed-step run's sweep is judged against. Through a tension-only cable's kinks
// (switching functions without impacts: a C^1 potential) a method of order p converges at
// h^min(p, 2) (slack_taut.md measures it over many steps): that order, not p (the fourth-round
// read, R9: orders.csv flagged lgvi4 on T_tether_slack at 2.47 +- 0.88 as an order reduction
// where theory predicts exactly 2). Across impacts the method's own (the gate says why no order
// is declared there).
bool has_kinks(const Case& c) { return c.model->switching_count() > 0 && c.model->switching()->impacts.empty(); }
int expected_order(const Case& c, const RunKey& key) {
  return has_kinks(c) ? std::min(key.integrator->order, 2) : key.integrator->order;
}

// The rankings' horizon rule (issue 32 item 6): a ranking needs a horizon of at least this many of
// the model's slowest periods (Model::slowest_period_s). Over a fraction of a swing the errors
// are the local truncation errors of the start-up and depend on where in the swing the horizon
// ends; over several periods the phase error that accumulates (growing like t for every method
// here) dominates, and that is what a method's user pays for. Three periods also leave two whole
// swings after the first, where the string's fast start-up modes are excited. Shorter: "short-time
// accuracy only".
constexpr double kRankingPeriods = 3.0;
constexpr const char* kShortTimeOnly = "short-time accuracy only";
// A ranking rests on errors at least this many times the references' agreement over its horizon
// (as the orders' points: the reference uncertain by at most 10% of the error), and below this
// fraction of the state's scale (as the orders' ceiling: above it the errors saturate); else
// "inconclusive" with why.
constexpr double kRankingResolution = 10.0;
constexpr double kRankingCeiling = 0.1;
constexpr const char* kInconclusive = "inconclusive";
// A point that feeds a ranking is timed over at least this many passes (runtime: the fastest;
// spread: median / fastest - 1, the ties' margin), and over at least kMinTimedSeconds in all, so a
// sub-millisecond point gets 50 passes or more. Two, not more, for the main job's 300 s budget:
// the ranking sweeps' long points (0.1-2 s each) are what a third pass would add (cases/README.md,
// "Cost of the rankings"); the short ones get their many passes from kMinTimedSeconds anyway.
constexpr int kRankingRepeats = 2;
// A point that feeds no ranking is timed once, repeated only while its passes total under 1 ms
// (one sub-millisecond pass measures the clock, not the method).
constexpr double kMinTimedOnce = 1e-3;

// The error norm of the rankings, one number free of the state's mixed units (m, m/s, rad/s,
// entries of R): RMS over the grid t_1..t_K and over every component i of
// e_{k,i} / s_i, s_i = max_k |x*_{k,i}| the component's range in the reference, floored at 1e-6
// of the largest s_i (a component the reference keeps at 0 is measured against the state's scale).
double scaled_l2(const std::vector<Eigen::VectorXd>& run, const std::vector<Eigen::VectorXd>& reference) {
  if (run.size() != reference.size() || reference.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  Eigen::VectorXd scale = Eigen::VectorXd::Zero(reference.front().size());
  for (const auto& x : reference) scale = scale.cwiseMax(x.cwiseAbs());
  scale = scale.cwiseMax(1e-6 * scale.maxCoeff()).cwiseMax(std::numeric_limits<double>::min());
  double sum = 0.0;
  for (size_t k = 1; k < run.size(); ++k) sum += (run[k] - reference[k]).cwiseQuotient(scale).squaredNorm();
  return std::sqrt(sum / (double(run.size() - 1) * double(scale.size())));
}

// WorkPrecisionResult::relative_error: per kind of entry (configuration, rate, other), max |e_i|
// over the largest |x*| the reference trajectory reaches in that kind (floored, as scaled_l2's
// scales, at 1e-6 of the largest kind's, so that a kind the reference keeps at 0, e.g. work not
// yet done, is measured against the state's scale), the largest ratio.
double relative_error(const Eigen::VectorXd& error, const std::vector<Eigen::VectorXd>& reference,
                      const std::vector<PhysicalPart>& parts) {
  if (reference.empty() || Eigen::Index(parts.size()) != error.size()) return std::numeric_limits<double>::quiet_NaN();
  std::array<double, 3> scale{0.0, 0.0, 0.0}, worst{0.0, 0.0, 0.0};
  for (const auto& x : reference)
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      auto& s = scale[size_t(parts[size_t(i)])];
      s = std::max(s, std::abs(x(i)));
    }
  for (Eigen::Index i = 0; i < error.size(); ++i) {
    auto& w = worst[size_t(parts[size_t(i)])];
    w = std::max(w, std::abs(error(i)));
  }
  const double largest = *std::max_element(scale.begin(), scale.end());
  double out = 0.0;
  for (size_t k = 0; k < 3; ++k)
    if (worst[k] > 0.0) out = std::max(out, worst[k] / std::max({scale[k], 1e-6 * largest, std::numeric_limits<double>::min()}));
  return out;
}

// The four trajectory measures, in the column order of work_precision.csv.
constexpr const char* kTrajectoryMeasures[] = {"l2_configuration", "linf_configuration", "l2_rate", "linf_rate"};
std::array<double, 4> as_array(const TrajectoryErrors& e) {
  return {e.configuration.l2, e.configuration.linf, e.rate.l2, e.rate.linf};
}

// What a sweep varies: the step of a fixed-step method, the tolerance of an adaptive one (its
// text is the CSV's parameter column and the jobs' labels and fingerprints).
enum class Swept { H, Rtol };
constexpr std::array<std::string_view, 2> enum_texts(Swept) { return {"h", "rtol"}; }

struct Point {
  RunKey key;
  // A point of the rankings' own sweep ([report.ranking]: its horizon, grid and reference
  // trajectory), not of the orders' sweep over reference_t_end.
  bool ranking = false;
  int repeats = 1;             // timing passes (MeasureOptions::repeats)
  double min_timed_s = 0.0;    // and the least total time they are timed over
  Swept parameter = Swept::H;
  double value = 0.0;
  WorkPrecisionResult result;  // the job's result, applied on the gathering process; unpacked in write()
  double error = 0.0;
  Measurement measured;
  // Error above the two references' agreement (only meaningful for a point that ran).
  bool resolved() const { return error > agreement; }
  double agreement = 0.0;
  // Trajectory errors (NaN when the run did not sample every grid time) and the references'
  // agreement in the same measures.
  std::array<double, 4> trajectory{}, trajectory_agreement{};
  bool trajectory_resolved(size_t m) const { return trajectory[m] > trajectory_agreement[m]; }
  double scaled_agreement = 0.0;
  bool scaled_resolved() const { return result.scaled_l2 > scaled_agreement; }
  std::string trajectory_note;  // why there are no trajectory errors, when there are none
};

class WorkPrecision final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    const Catalogue& catalogue = *context.catalogue;
    for (const auto& c : *context.cases) {
      read_orders_references(c, context);
      if (!c.report.ranking) continue;
      read_ranking_references(c, context);
    }
    for (const auto& c : *context.cases)
      for (const auto& key : runs_of(c, catalogue.integrators)) {
        if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
        if (!references_[c.name].count(key.discretisation)) continue;  // no ODE form of it: no reference
        add_orders_points(c, key);
        add_ranking_points(c, key);
      }
    // The references the errors are measured against are inputs too (their files may be
    // recomputed): the final state's and the trajectory's fingerprints, once per discretisation.
    const ReferencePrints reference_prints = fingerprint_references();
    const ReferencePrints ranking_prints = fingerprint_ranking_references();
    return jobs_of(reference_prints, ranking_prints);
  }

  std::vector<std::string> write(const StudyContext& context) override {
    unpack_results();
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    write_sweeps(dir);
    write_references(dir, context);
    const std::map<std::string, std::string> order_flags = write_orders(dir, context);
    write_rankings(dir / "work_precision_rankings.csv", *context.cases, order_flags);
    return {(dir / "work_precision.csv").string(), (dir / "orders.csv").string(), (dir / "references.csv").string(),
            (dir / "work_precision_rankings.csv").string(), (dir / "ranking_sweep.csv").string()};
  }

  // The rankings at matched error (studies/work_precision/work_precision_ranking.hpp): per case, per
  // discretisation (each against its own reference), per work measure, in scaled_l2 over the
  // case's ranking horizon (its [report.ranking] sweep, else the orders' sweep over
  // reference_t_end), over the resolved points only. A horizon shorter than kRankingPeriods of
  // the model's slowest period prints "short-time accuracy only" instead of a ranking.
  void write_rankings(const std::filesystem::path& path, const std::vector<Case>& cases,
                      const std::map<std::string, std::string>& order_flags) const {
    std::ofstream out(path);
    out << "case,discretisation,work,measure,horizon_s,slowest_period_s,horizon_periods,reference_agreement,matched_error,ranking,"
           "work_of_each,spread_of_each,passes_of_each,order_flags,note,bound_of_each\n";
    for (const auto& c : cases)
      for (const std::string& d : c.model->discretisations())
        for (const bool runtime : {true, false}) write_ranking_row(out, c, d, runtime, order_flags);
  }

  // Whether the case's ranking horizon spans kRankingPeriods of its model's slowest period.
  static bool ranks_at(const Case& c) {
    const double period = c.model->slowest_period_s();
    return std::isfinite(period) && c.report.ranking_t_end() >= kRankingPeriods * period;
  }
  // A point's horizon: its sweep's.
  static double horizon(const Point& p) {
    return p.ranking ? p.key.c->report.ranking->t_end : p.key.c->report.reference_t_end;
  }

 private:
  // case -> discretisation -> fingerprint of a reference (a job input).
  using ReferencePrints = std::map<std::string, std::map<std::string, std::string>>;

  // Reads the case's final-state and trajectory references and their cross-checks' agreement
  // with them, per discretisation: the resolution of the orders' sweep.
  void read_orders_references(const Case& c, const StudyContext& context) {
    const Catalogue& catalogue = *context.catalogue;
    references_[c.name] = read_references(c, context.case_references(), catalogue.reference());
    const auto crosschecks =
        read_references(c, context.case_references(), catalogue.crosscheck(), ReferenceRole::CrossCheck);
    for (const auto& [d, x] : references_[c.name])
      agreement_[c.name][d] = (x - crosschecks.at(d)).lpNorm<Eigen::Infinity>();
    trajectories_[c.name] = read_reference_trajectories(c, context.case_references(), catalogue.reference());
    const auto crosscheck_trajectories =
        read_reference_trajectories(c, context.case_references(), catalogue.crosscheck(), ReferenceRole::CrossCheck);
    parts_[c.name] = c.model->physical_parts();
    for (const auto& [d, t] : trajectories_[c.name]) {
      if (t.states.front().size() != Eigen::Index(parts_[c.name].size()))
        throw std::logic_error("model " + c.model_name + " declares " + std::to_string(parts_[c.name].size()) +
                               " physical-state parts, its reference trajectory has " +
                               std::to_string(t.states.front().size()) + " numbers");
      trajectory_agreement_[c.name][d] =
          as_array(trajectory_errors(crosscheck_trajectories.at(d).states, t.states, parts_[c.name]));
      scaled_agreement_[c.name][d] = scaled_l2(crosscheck_trajectories.at(d).states, t.states);
    }
  }

  // The same for the case's ranking sweep ([report.ranking]), with where the two solutions part.
  void read_ranking_references(const Case& c, const StudyContext& context) {
    const Catalogue& catalogue = *context.catalogue;
    ranking_trajectories_[c.name] = read_ranking_trajectories(c, context.case_references(), catalogue.reference());
    const auto crosscheck_ranking =
        read_ranking_trajectories(c, context.case_references(), catalogue.crosscheck(), ReferenceRole::CrossCheck);
    for (const auto& [d, t] : ranking_trajectories_[c.name]) {
      const auto& x = crosscheck_ranking.at(d).states;
      ranking_agreement_[c.name][d] = (x.back() - t.states.back()).lpNorm<Eigen::Infinity>();
      ranking_trajectory_agreement_[c.name][d] = as_array(trajectory_errors(x, t.states, parts_[c.name]));
      ranking_scaled_agreement_[c.name][d] = scaled_l2(x, t.states);
      ranking_separation_[c.name][d] = separation(x, t.states, t.interval);
      ranking_solvers_ = catalogue.reference().name + " and " + catalogue.crosscheck().name;
    }
  }

  // One run's points of the orders' sweep (over reference_t_end).
  void add_orders_points(const Case& c, const RunKey& key) {
    const bool adaptive = key.integrator->adaptive;
    // Timing: a point that feeds a ranking is timed over kRankingRepeats passes and at least
    // kMinTimedSeconds in all (the ranking's ties rest on the spread of those passes); the
    // orders' sweep of a case that ranks on its own sweep only draws its runtimes, and is
    // timed once (more passes only below 1 ms, where one pass measures the clock).
    const bool orders_rank = !c.report.ranking && ranks_at(c);
    for (double v : adaptive ? c.report.tolerances : c.report.steps) {
      Point& p = points_.emplace_back();
      p.key = key;
      p.parameter = adaptive ? Swept::Rtol : Swept::H;
      p.value = v;
      p.repeats = orders_rank ? kRankingRepeats : 1;
      p.min_timed_s = orders_rank ? kMinTimedSeconds : kMinTimedOnce;
      p.agreement = agreement_[c.name][key.discretisation];
      p.trajectory_agreement = trajectory_agreement_[c.name][key.discretisation];
      p.scaled_agreement = scaled_agreement_[c.name][key.discretisation];
    }
  }

  // One run's points of the case's own ranking sweep, if it has one and ranks that run.
  void add_ranking_points(const Case& c, const RunKey& key) {
    if (!c.report.ranking || !ranking_trajectories_[c.name].count(key.discretisation)) return;
    const auto& only = c.report.ranking->integrators;
    if (!only.empty() && std::find(only.begin(), only.end(), key.integrator->name) == only.end()) return;
    const bool adaptive = key.integrator->adaptive;
    for (double v : adaptive ? c.report.ranking->tolerances : c.report.ranking->steps) {
      Point& p = points_.emplace_back();
      p.key = key;
      p.ranking = true;
      p.parameter = adaptive ? Swept::Rtol : Swept::H;
      p.value = v;
      p.repeats = kRankingRepeats;
      p.min_timed_s = kMinTimedSeconds;
      p.agreement = ranking_agreement_[c.name][key.discretisation];
      p.trajectory_agreement = ranking_trajectory_agreement_[c.name][key.discretisation];
      p.scaled_agreement = ranking_scaled_agreement_[c.name][key.discretisation];
    }
  }

  // The orders' references: the final state, and the trajectory where there is one.
  ReferencePrints fingerprint_references() {
    ReferencePrints reference_prints;
    for (const auto& [case_name, by_discretisation] : references_)
      for (const auto& [d, x] : by_discretisation) {
        ResultWriter bytes;
        bytes << x;
        if (const auto t = trajectories_[case_name].find(d); t != trajectories_[case_name].end()) {
          bytes << t->second.interval;
          for (const auto& state : t->second.states) bytes << state;
        }
        reference_prints[case_name][d] = fingerprint_of(bytes.bytes());
      }
    return reference_prints;
  }

  // The rankings' own reference trajectories.
  ReferencePrints fingerprint_ranking_references() const {
    ReferencePrints ranking_prints;
    for (const auto& [case_name, by_discretisation] : ranking_trajectories_)
      for (const auto& [d, t] : by_discretisation) {
        ResultWriter bytes;
        bytes << t.interval;
        for (const auto& state : t.states) bytes << state;
        ranking_prints[case_name][d] = fingerprint_of(bytes.bytes());
      }
    return ranking_prints;
  }

  // One job per point, its inputs naming the reference its errors are measured against.
  std::vector<StudyJob> jobs_of(const ReferencePrints& reference_prints, const ReferencePrints& ranking_prints) {
    std::vector<StudyJob> jobs;
    for (auto& p : points_) {
      const double cost = p.parameter == Swept::H ? horizon(p) / p.value : 1.0;
      const auto& prints = p.ranking ? ranking_prints : reference_prints;
      // The point's run said once (app/running/run_request.hpp): the job runs it and is
      // fingerprinted by it, with the reference its errors are measured against beside it.
      RunRequest request = request_of(p);
      const std::string inputs = request_inputs(
          request, {{"sweep", p.ranking ? "ranking" : "orders"}, {"reference", prints.at(p.key.c->name).at(p.key.discretisation)}});
      jobs.push_back(result_job<WorkPrecisionResult>(
          p.key.c->name + " | " + p.key.label() + " | " + (p.ranking ? "ranking " : "") +
              std::string(enum_text(p.parameter)) + " = " + format_g(p.value, 3),
          cost, inputs, [this, &p, request = std::move(request)] { return run(p, request); }, p.result));
    }
    return jobs;
  }

  // Copies each job's result into its point, where the writers read it.
  void unpack_results() {
    for (auto& p : points_) {  // the jobs' results are in (applied on this process)
      p.measured = p.result.measured;
      p.error = p.result.error;
      p.trajectory = p.result.trajectory;
      p.trajectory_note = p.result.trajectory_note;
    }
    not_instabilities();
  }

  // Each sweep's points of one method over one horizon, handed to refute_instabilities_by_larger_steps.
  void not_instabilities() {
    std::map<std::tuple<const Case*, std::string, bool>, std::vector<SweptStep>> sweeps;
    for (auto& p : points_)
      if (p.parameter == Swept::H) sweeps[{p.key.c, p.key.label(), p.ranking}].push_back({p.value, horizon(p), &p.measured.outcome});
    for (auto& [key, steps] : sweeps) refute_instabilities_by_larger_steps(steps);
  }

  // Every point's row, in the CSV of its sweep.
  void write_sweeps(const std::filesystem::path& dir) const {
    // work_precision.csv: the orders' sweep (over reference_t_end); ranking_sweep.csv: the
    // rankings' own sweeps ([report.ranking]), in the same columns with their horizon.
    std::ofstream wp_orders(dir / "work_precision.csv"), wp_ranking(dir / "ranking_sweep.csv");
    for (std::ofstream* out : {&wp_orders, &wp_ranking}) {
      std::ofstream& wp = *out;
      wp << "case,integrator,parameter,value,error,resolved,runtime_s,steps,rhs_evals,newton_iters";
      for (const char* m : kTrajectoryMeasures) wp << ',' << m << ",resolved_" << m;
      // New columns go last: readers of the older layout index the first ones by position.
      wp << ",scaled_l2,resolved_scaled_l2,runtime_spread,runtime_passes,horizon_s,status,host\n";
    }
    for (const auto& p : points_) write_sweep_row(p.ranking ? wp_ranking : wp_orders, p);
  }

  // One point's row of work_precision.csv or ranking_sweep.csv.
  static void write_sweep_row(std::ofstream& wp, const Point& p) {
    // A point that did not reach the horizon has no error and no runtime: its cells stay empty
    // and its status says why.
    const bool ok = p.measured.outcome.ok();
    wp << p.key.c->name << ',' << p.key.label() << ',' << enum_text(p.parameter) << ',' << format_g(p.value, 6) << ','
       << (ok ? format_g(p.error, 6) : "") << ',' << (ok ? (p.resolved() ? "yes" : "no") : "") << ','
       << (ok ? format_g(p.measured.runtime_s, 6) : "") << ',' << p.measured.counters.steps << ','
       << p.measured.counters.rhs_evals << ',' << p.measured.counters.newton_iters;
    for (size_t m = 0; m < 4; ++m) {
      const bool has = ok && std::isfinite(p.trajectory[m]);
      wp << ',' << (has ? format_g(p.trajectory[m], 6) : "") << ','
         << (has ? (p.trajectory_resolved(m) ? "yes" : "no") : "");
    }
    const bool has_scaled = ok && std::isfinite(p.result.scaled_l2);
    wp << ',' << (has_scaled ? format_g(p.result.scaled_l2, 6) : "") << ','
       << (has_scaled ? (p.scaled_resolved() ? "yes" : "no") : "") << ','
       << (ok ? format_g(p.measured.runtime_spread, 3) : "") << ',' << (ok ? std::to_string(p.measured.timing_passes) : "")
       << ',' << format_g(horizon(p), 6);
    wp << ',' << csv_quoted(p.measured.outcome.describe() + (p.trajectory_note.empty() ? "" : "; " + p.trajectory_note))
       << ',' << (ok ? p.measured.host : "") << '\n';
  }

  // references.csv: per case and discretisation, the references' agreement in every measure and
  // the points it leaves unresolved.
  void write_references(const std::filesystem::path& dir, const StudyContext& context) {
    std::ofstream refs(dir / "references.csv");
    refs << "case,discretisation,default,reference_solver,crosscheck_solver,agreement,unresolved_points,points,"
            "trajectory_interval";
    for (const char* m : kTrajectoryMeasures) refs << ",agreement_" << m;
    refs << ",ranking_t_end,ranking_interval,ranking_agreement,ranking_agreement_scaled_l2\n";
    for (const auto& [case_name, by_discretisation] : agreement_)
      for (const auto& [d, agreement] : by_discretisation) {
        size_t points = 0, unresolved = 0;
        for (const auto& p : points_)
          if (!p.ranking && p.key.c->name == case_name && p.key.discretisation == d && p.measured.outcome.ok())
            ++points, unresolved += p.resolved() ? 0 : 1;
        const Case* c = nullptr;
        for (const auto& candidate : *context.cases)
          if (candidate.name == case_name) c = &candidate;
        const bool is_default = c && d == c->model->default_discretisation();
        refs << case_name << ',' << d << ',' << (is_default ? "yes" : "no") << ',' << context.catalogue->reference().name << ','
             << context.catalogue->crosscheck().name << ',' << format_g(agreement, 3) << ',' << unresolved << ','
             << points << ',' << (c ? format_g(c->report.trajectory_interval, 6) : "");
        for (double a : trajectory_agreement_[case_name][d]) refs << ',' << format_g(a, 3);
        const bool ranked = c && c->report.ranking && ranking_agreement_[case_name].count(d);
        refs << ',' << (ranked ? format_g(c->report.ranking->t_end, 6) : "") << ','
             << (ranked ? format_g(c->report.ranking->interval, 6) : "") << ','
             << (ranked ? format_g(ranking_agreement_[case_name][d], 3) : "") << ','
             << (ranked ? format_g(ranking_scaled_agreement_[case_name][d], 3) : "") << '\n';
      }
  }

  // orders.csv, one row per fixed-step run; returns each run's order flag for the rankings.
  std::map<std::string, std::string> write_orders(const std::filesystem::path& dir, const StudyContext& context) const {
    std::ofstream orders(dir / "orders.csv");
    // The order of each fixed-step run, measured over its asymptotic range only (measure_order
    // above; numerics/statistics.hpp asymptotic_order): points whose errors stand at least
    // rules.resolution x the references' agreement above it (bounded from below) and at most
    // rules.ceiling of the quantity's own scale (from above), leaving out a floor where the errors
    // stop falling; of those, the finest run of >= rules.min_points successive points whose local
    // orders agree, with the fit's 95% interval and a flag when it is off the declared order or its
    // interval excludes it. Where the sweep has no such range the order is "inconclusive" with the
    // reason, never a number. The trajectory measures' orders follow (least squares over their own
    // resolved points; empty below two).
    const OrderRules rules;
    orders << "case,integrator,declared_order,measured_order,order_ci95,order_ci95_reference,h_min,h_max,error_min,"
              "error_max,relative_error_max,points,local_orders,flag,note";
    for (const char* m : kTrajectoryMeasures) orders << ",order_" << m;
    orders << ",trajectory_orders_note\n";
    std::map<std::string, std::string> order_flags;  // "case|run" -> its order's flag, shown in the rankings
    for (const auto& c : *context.cases)
      for (const auto& key : runs_of(c, context.catalogue->integrators)) {
        if (key.integrator->adaptive) continue;
        write_order_row(orders, order_flags, c, key, rules);
      }
    return order_flags;
  }

  // One fixed-step run's row of orders.csv (none if it did not run), its flag into order_flags.
  void write_order_row(std::ofstream& orders, std::map<std::string, std::string>& order_flags, const Case& c,
                       const RunKey& key, const OrderRules& rules) const {
    std::string first_failure;
    const std::vector<OrderSweepPoint> sweep = final_state_sweep(key, first_failure);
    if (sweep.empty()) return;  // not run (n/a, or no reference for its discretisation)
    const std::string trajectory_orders = trajectory_order_cells(c, key, rules);
    const int expected = expected_order(c, key);
    const std::string kink_note =
        expected != key.integrator->order
            ? "the method's order is " + std::to_string(key.integrator->order) +
                  "; through the tension-only cable's kinks a method of order p converges at h^min(p, 2), so " +
                  std::to_string(expected) + " is expected and declared here (slack_taut.md); "
            : std::string();
    const MeasuredOrder m = measure_order(sweep, expected, rules);
    const AsymptoticOrder& a = m.fit;
    std::string local;
    for (double q : a.local_orders) local += (local.empty() ? "" : " ") + (std::isfinite(q) ? format_g(q, 3) : "-");
    const std::string counted = std::to_string(a.steps.size()) + " of " + std::to_string(sweep.size());
    const std::string rule = asymptotic_range_words(rules);
    const std::string excluded = excluded_points_words(m, rules);
    const std::string failed = first_failure.empty() ? "" : "; first failed point: " + first_failure;
    orders << c.name << ',' << key.label() << ',' << expected << ',';
    if (!a.fitted) {
      order_flags[c.name + "|" + key.label()] = "order inconclusive";
      orders << ",,,,,,,," << counted << ',' << local << ",inconclusive,\"" << kink_note << "no order: " << a.why_not << " ("
             << rule << ")" << excluded << failed << "\"" << trajectory_orders << '\n';
      return;
    }
    std::vector<double> fitted_errors;
    for (double h : a.steps)
      for (const auto& q : sweep)
        if (q.h == h) fitted_errors.push_back(q.error);
    if (!m.flag.empty()) order_flags[c.name + "|" + key.label()] = m.flag;
    if (!m.inconclusive.empty()) order_flags[c.name + "|" + key.label()] = "order inconclusive (pre-asymptotic)";
    orders << format_g(m.p, m.p_digits) << ',' << format_g(m.ci95, 2) << ',' << format_g(m.reference_bound, 2) << ','
           << format_g(a.steps.back(), 4) << ','
           << format_g(a.steps.front(), 4) << ','
           << format_g(*std::min_element(fitted_errors.begin(), fitted_errors.end()), 4) << ','
           << format_g(*std::max_element(fitted_errors.begin(), fitted_errors.end()), 4) << ','
           << format_g(m.relative_error_max, 3) << ',' << counted << ',' << local << ',' << csv_quoted(m.flag + m.inconclusive) << ','
           << csv_quoted(kink_note + (m.note.empty() ? "" : m.note + "; ") + rule + excluded + failed) << trajectory_orders << '\n';
  }

  // One run's orders' sweep of final-state errors, and its first failed point in words.
  std::vector<OrderSweepPoint> final_state_sweep(const RunKey& key, std::string& first_failure) const {
    std::vector<OrderSweepPoint> sweep;
    for (const auto& p : points_) {
      if (p.ranking || p.key.c != key.c || p.key.integrator != key.integrator ||
          p.key.discretisation != key.discretisation)
        continue;
      const bool ok = p.measured.outcome.ok();
      sweep.push_back({p.value, ok, ok ? p.error : 0.0, ok ? p.result.relative_error : 0.0, p.agreement});
      if (!ok && first_failure.empty()) first_failure = "h = " + format_g(p.value, 3) + ": " + p.measured.outcome.describe();
    }
    return sweep;
  }

  // One run's trajectory-order cells of orders.csv, the last its measures' notes.
  std::string trajectory_order_cells(const Case& c, const RunKey& key, const OrderRules& rules) const {
    // The trajectory measures' orders, by the same rule as the final state's (measure_order:
    // asymptotic range, interval, flag; issue 44 class 5). Up to issue 44 they were a plain
    // least-squares slope over every point above the references' agreement, and on
    // B_reel_deployment read 1.17 (rattle4), 2.10 (lgvi4) and 1.00 (generalized_alpha) in the
    // configuration against final-state orders 3.97, 3.99 and 1.97, unflagged. Measured (the
    // parts' errors at each h, h = 2e-4 ... 2.5e-5 over 0.2 s): the configuration part holds the
    // reel coordinate s_p = 99 m, carried absolutely, whose round-off is 8 eps |s_p| sqrt(steps)
    // (Brouwer's law: 5e-12 at 1000 steps); its error (7e-13 ... 7e-12 for rattle4) is
    // that round-off from the first step, and since the nodes sit at fixed fractions of the
    // deployed length, not at material points, an error ds of s_p slides every node along the
    // string by up to ds: the node positions carry it too (rattle4's q error floors at 7.2e-12
    // beside s_p's 6.9e-12). The fourth-order methods' configuration errors reach that floor at
    // h = 5e-5 (1.3e-9, 8.2e-11, 5.6e-12, 7.2e-12), and the old fit ran through it. For
    // generalized_alpha s_p's error grows as h shrinks (1.4e-9 at h = 2e-4, 3.3e-8 at 2.5e-5):
    // its Newton iteration stops at a correction of 1e-12 relative to |q|_inf, which s_p sets
    // (a 1e-10 m residual on every step, on nodes 5 cm apart, summed over T/h steps): a floor
    // of the method's solver that rises as h falls, against which a configuration order is
    // not measured. So each measure's errors are judged against its own floor: the
    // references' agreement in that measure or the measure's round-off floor, 8 eps times
    // the part's largest entry times sqrt(steps), whichever is larger; measure_order then fits
    // the asymptotic range above 10x it, leaves out a floor, and says "inconclusive" with why
    // where fewer than 3 points remain. The final-state order is not affected: its max-norm
    // is the rates' error, 1e3-1e6 times larger.
    std::string trajectory_orders, trajectory_notes;
    const auto& reference_states = trajectories_.at(c.name).at(key.discretisation).states;
    for (size_t m = 0; m < 4; ++m)
      add_trajectory_order(c, key, m, rules, reference_states, trajectory_orders, trajectory_notes);
    trajectory_orders += ",\"" + trajectory_notes + "\"";
    return trajectory_orders;
  }

  // Trajectory measure m's order cell, and its note when it has one (against the measure's floor).
  void add_trajectory_order(const Case& c, const RunKey& key, size_t m, const OrderRules& rules,
                            const std::vector<Eigen::VectorXd>& reference_states, std::string& trajectory_orders,
                            std::string& trajectory_notes) const {
    const PhysicalPart part = m < 2 ? PhysicalPart::Configuration : PhysicalPart::Rate;
    double scale = 0.0;  // the part's largest entry over the reference trajectory
    for (const auto& x : reference_states)
      for (size_t i = 0; i < parts_.at(c.name).size(); ++i)
        if (parts_.at(c.name)[i] == part) scale = std::max(scale, std::abs(x(Eigen::Index(i))));
    double floor_max = 0.0, agreement_max = 0.0;
    const std::vector<OrderSweepPoint> measure_sweep = trajectory_sweep(key, m, scale, floor_max, agreement_max);
    const MeasuredOrder t = measure_order(measure_sweep, expected_order(c, key), rules);
    trajectory_orders += "," + (t.fit.fitted ? format_g(t.p, t.p_digits) : std::string());
    std::string note;
    if (!t.fit.fitted) note = "inconclusive (" + t.fit.why_not + ")";
    else if (!t.flag.empty() && has_kinks(c))
      // Unmoved steps through a kink: where in its step the kink falls moves the error by an O(1)
      // factor from one h to the next (the fourth-round second read: lgvi on T_bungee_drop, 1.146
      // here against slack_taut.md's 2.03 +- 0.17 over moved steps).
      note = "not judged (" + format_g(t.p, 3) + "): on a model with kinks the sweep's steps put each kink at another place "
             "in its step, which moves the error by an O(1) factor; slack_taut.md fits the order over moved steps";
    else if (!t.flag.empty()) note = t.flag;
    if (!t.fit.floor_steps.empty()) append_floor_note(note, t, measure_sweep, rules);
    if (note.empty()) return;
    const std::string floor_words =
        floor_max > agreement_max
            ? "its round-off floor 8 eps x " + format_g(scale, 3) + " (the part's largest entry) x sqrt(steps), up to " +
                  format_g(floor_max, 2)
            : "the references' agreement " + format_g(agreement_max, 2);
    trajectory_notes += std::string(trajectory_notes.empty() ? "" : "; ") + kTrajectoryMeasures[m] + ": " + note +
                        ", against " + floor_words;
  }

  // One run's orders' sweep in trajectory measure m, each point's error against the larger of the
  // references' agreement and the measure's round-off floor; the largest of each over the sweep.
  std::vector<OrderSweepPoint> trajectory_sweep(const RunKey& key, size_t m, double scale, double& floor_max,
                                                double& agreement_max) const {
    std::vector<OrderSweepPoint> measure_sweep;
    for (const auto& p : points_) {
      if (p.ranking || p.key.c != key.c || p.key.integrator != key.integrator ||
          p.key.discretisation != key.discretisation)
        continue;
      const bool ok = p.measured.outcome.ok() && std::isfinite(p.trajectory[m]);
      const double floor = 8.0 * std::numeric_limits<double>::epsilon() * std::max(scale, 1.0) *
                           std::sqrt(double(std::max<long>(1, p.measured.counters.steps)));
      floor_max = std::max(floor_max, floor);
      agreement_max = std::max(agreement_max, p.trajectory_agreement[m]);
      measure_sweep.push_back({p.value, ok, ok ? p.trajectory[m] : 0.0,
                               ok && scale > 0.0 ? p.trajectory[m] / scale : 0.0,
                               std::max(p.trajectory_agreement[m], floor)});
    }
    return measure_sweep;
  }

  // Adds to a trajectory order's note the steps where its errors stop falling, and whose floor that is.
  static void append_floor_note(std::string& note, const MeasuredOrder& t,
                                const std::vector<OrderSweepPoint>& measure_sweep, const OrderRules& rules) {
    // A floor far above the measure's own (round-off or the references): the run's, e.g.
    // a solver's tolerance adding up over the steps (generalized_alpha above).
    double floor_error = 0.0, floor_there = 0.0;
    for (double h : t.fit.floor_steps)
      for (const auto& q : measure_sweep)
        if (q.h == h && q.error > floor_error) floor_error = q.error, floor_there = q.agreement;
    note += std::string(note.empty() ? "" : "; ") + "errors stop falling at h =";
    for (double h : t.fit.floor_steps) note += " " + format_g(h, 3);
    note += " (" + format_g(floor_error, 2) +
            (floor_error > rules.resolution * floor_there
                 ? ", " + format_g(floor_error / floor_there, 2) +
                       "x the measure's floor: a floor of the run's own, such as a solver's tolerance adding up "
                       "over the steps)"
                 : ", at the measure's floor)");
  }

  // One row of work_precision_rankings.csv: the case's discretisation d ranked in one work
  // measure (the runtime, else rhs_evals); none when no point of the group reached the horizon.
  void write_ranking_row(std::ofstream& out, const Case& c, const std::string& d, const bool runtime,
                         const std::map<std::string, std::string>& order_flags) const {
    std::map<std::string, std::vector<CurvePoint>> curves;
    std::map<std::string, int> passes;  // fewest timing passes among each curve's points
    size_t ran = 0;                     // points of the group that reached the horizon
    double agreement = std::numeric_limits<double>::quiet_NaN();  // the references', in scaled_l2
    for (const auto& p : points_)
      if (p.key.c->name == c.name && p.ranking == bool(c.report.ranking) && p.key.discretisation == d &&
          p.measured.outcome.ok()) {
        ++ran;
        agreement = p.scaled_agreement;
      }
    std::set<std::string> interpreted;
    gather_ranking_curves(c, d, runtime, curves, passes, interpreted);
    if (ran == 0) return;
    const double horizon_s = c.report.ranking_t_end(), period = c.model->slowest_period_s();
    const double periods = horizon_s / period;
    const Ranking r = rank_at_matched_error(curves);
    std::string ranking, works, spreads, counts, flags, note, bounds;
    if (!ranks_at(c)) {
      ranking = kShortTimeOnly;
      note = short_horizon_note(horizon_s, period, periods);
    } else if (!(r.matched_error > kRankingResolution * agreement)) {
      // Over a long horizon a sensitive motion (the string pendulums: two rtol-1e-13 solvers
      // part by O(1) within 3 swings) leaves no reference to rank against.
      ranking = kInconclusive;
      note = unreferenced_ranking_note(c, d, curves, r, agreement, horizon_s);
    } else if (r.matched_error > kRankingCeiling) {
      ranking = kInconclusive;
      note = "matched error " + format_g(r.matched_error, 3) + " above " + format_g(kRankingCeiling) +
             " of the state's scale: some curve never gets below O(1) errors, and saturated errors rank nothing";
    } else {
      ranking = r.text();
      std::string bounded;
      for (const auto& e : r.order) {
        works += (works.empty() ? "" : " ") + format_g(e.work, 4);
        bounds += (bounds.empty() ? "" : " ") + std::string(e.bound ? "1" : "0");
        if (e.bound)
          bounded += (bounded.empty() ? "" : ", ") + e.name + " (" + format_g(e.cheapest_error, 3) + ")";
        spreads += (spreads.empty() ? "" : " ") + format_g(e.spread, 2);
        counts += (counts.empty() ? "" : " ") + (runtime ? std::to_string(passes[e.name]) : std::string("-"));
        if (const auto f = order_flags.find(c.name + "|" + e.name); f != order_flags.end())
          flags += (flags.empty() ? "" : "; ") + e.name + ": " + f->second;
      }
      note = ranked_note(curves, r, bounded);
    }
    if (!interpreted.empty()) append_interpreted_note(note, interpreted);
    out << c.name << ',' << d << ',' << (runtime ? "runtime" : "rhs_evals") << ",scaled_l2," << format_g(horizon_s, 6)
        << ',' << format_g(period, 4) << ',' << format_g(periods, 3) << ',' << format_g(agreement, 3) << ','
        << format_g(r.matched_error, 3) << ',' << ranking << ',' << works << ',' << spreads << ',' << counts << ',' << csv_quoted(flags) << ',' << csv_quoted(note) << ',' << bounds << "\n";
  }

  // Each run's curve of the group's resolved points (error, work, spread) and its fewest timing
  // passes; the interpreted runs a runtime ranking leaves out.
  void gather_ranking_curves(const Case& c, const std::string& d, const bool runtime,
                             std::map<std::string, std::vector<CurvePoint>>& curves,
                             std::map<std::string, int>& passes, std::set<std::string>& interpreted) const {
    // An interpreted method's runtime (IntegratorInfo::interpreter) is not ranked against compiled
    // ones: the interpreter's cost, not the method's, would decide. Its evaluations are.
    for (const auto& p : points_)
      if (p.key.c->name == c.name && p.ranking == bool(c.report.ranking) && p.key.discretisation == d &&
          p.measured.outcome.ok() && std::isfinite(p.result.scaled_l2) && p.scaled_resolved()) {
        if (runtime && !p.key.integrator->interpreter.empty()) {
          interpreted.insert(p.key.label() + " (" + p.key.integrator->interpreter + ")");
          continue;
        }
        curves[p.key.label()].push_back({p.result.scaled_l2,
                                         runtime ? p.measured.runtime_s : double(p.measured.counters.rhs_evals),
                                         runtime ? p.measured.runtime_spread : 0.0});
        const auto at = passes.find(p.key.label());
        passes[p.key.label()] = at == passes.end() ? p.measured.timing_passes
                                                   : std::min(at->second, p.measured.timing_passes);
      }
  }

  // Why a horizon under kRankingPeriods of the slowest period ranks nothing.
  static std::string short_horizon_note(double horizon_s, double period, double periods) {
    return "horizon " + format_g(horizon_s, 3) + " s = " + format_g(periods, 2) + " x the slowest period " +
           format_g(period, 3) + " s, under " + format_g(kRankingPeriods) +
           ": over less than a few periods the errors of an oscillation depend on where in the swing the "
           "horizon ends, and the ranking on that, not on the methods";
  }

  // Why references that agree too little over the horizon rank nothing, and where the two part.
  std::string unreferenced_ranking_note(const Case& c, const std::string& d,
                                        const std::map<std::string, std::vector<CurvePoint>>& curves,
                                        const Ranking& r, double agreement, double horizon_s) const {
    std::string note =
        curves.empty() ? "no point above the references' agreement" : "matched error " + format_g(r.matched_error, 3);
    note += ": the reference and its cross-check agree only to " + format_g(agreement, 3) +
            " (scaled_l2) over " + format_g(horizon_s, 3) + " s, and a ranking needs errors " +
            format_g(kRankingResolution) + "x above that";
    // What the disagreement is (issue 44 point 20): where the two part and how fast. A
    // growth from the solvers' tolerance at an exponential rate is the motion amplifying
    // a difference (an ill-conditioned motion), not an error either solver makes at O(1).
    if (const auto cs = ranking_separation_.find(c.name); cs != ranking_separation_.end())
      if (const auto sd = cs->second.find(d); sd != cs->second.end() && sd->second.found) {
        const Separation& s = sd->second;
        note += "; the two (" + ranking_solvers_ + ") " + separation_words(s);
        if (s.max_rate * (s.apart_at - s.agree_until) > std::log(1e3))
          note += ": a difference at the solvers' tolerance amplified by the motion at an exponential rate (an "
                  "ill-conditioned, sensitive motion), not an error of either solver's own, so past about " +
                  format_g(s.apart_at, 3) + " s no double-precision solution is a reference for a trajectory "
                  "error and no method can be ranked on one over this horizon";
      }
    return note;
  }

  // The note of a ranking that stands: curves that never reach the matched error, and entries
  // whose work is only a bound.
  static std::string ranked_note(const std::map<std::string, std::vector<CurvePoint>>& curves, const Ranking& r,
                                 const std::string& bounded) {
    std::string note = curves.size() > r.order.size() ? "some curves never reach the matched error" : std::string();
    // Issue 44 (referee point N1): a sweep that does not bracket the matched error gives a
    // bound, not a work; "?" says its entry is not ordered against those before it.
    if (!bounded.empty())
      note += (note.empty() ? "" : "; ") + std::string("not bracketed: ") + bounded +
              ": the cheapest sweep point of each is already below the matched error, so its work there "
              "(bound_of_each 1) only bounds the work it needs from above; ? places it by that bound, "
              "unordered against every entry before it" +
              (r.orders_all() ? std::string() : ": the least work is undetermined");
    return note;
  }

  // Names the runs left out of a runtime ranking because an interpreter runs their steps.
  static void append_interpreted_note(std::string& note, const std::set<std::string>& interpreted) {
    std::string names;
    for (const auto& n : interpreted) names += (names.empty() ? "" : ", ") + n;
    note += (note.empty() ? "" : "; ") + std::string("left out of the runtime ranking, their steps run by an "
                                                     "interpreter (not comparable with compiled ones): ") + names;
  }

  // The point's run: the case's settings at the swept step or tolerance, over the sweep's horizon,
  // observed on its reference trajectory's grid.
  RunRequest request_of(const Point& p) const {
    const Case& c = *p.key.c;
    RunRequest request{p.key, c.settings_for(p.key.integrator->name), {}};
    if (p.parameter == Swept::H) {
      request.settings.h = p.value;
    } else {
      request.settings.set_tolerances({p.value, 1e-2 * p.value});
    }
    MeasureOptions& m = request.measure;
    m.t_end = horizon(p);
    m.sample_interval = (p.ranking ? ranking_trajectories_ : trajectories_).at(c.name).at(p.key.discretisation).interval;
    // Observed, for the instability criterion alone (core/stability_criterion.hpp): a point that
    // completes with its energy growing is unstable at its step, not a point of the diagram.
    m.observe = true;
    m.repeats = p.repeats;          // the runtime is the fastest pass, the spread median / fastest - 1
    m.min_timed_s = p.min_timed_s;  // sub-millisecond points: the minimum of enough passes
    return request;
  }

  // Reads the references only (read-only once planned): a job's computation, on any thread or rank.
  WorkPrecisionResult run(const Point& p, RunRequest request) const {
    const Case& c = *p.key.c;
    const StateTrajectory& reference =
        (p.ranking ? ranking_trajectories_ : trajectories_).at(c.name).at(p.key.discretisation);
    const double interval = reference.interval;
    std::vector<Eigen::VectorXd> samples(reference.states.size());
    std::string off_grid;
    MeasureOptions& m = request.measure;
    // Each sample on its grid time (a fixed step's end lands there to round-off; adaptive runs
    // interpolate onto it): anything else is recorded, not compared.
    m.physical_samples = [&](double t, const Eigen::VectorXd& x) {
      const long k = std::lround(t / interval);
      if (k >= 0 && size_t(k) < samples.size() && std::abs(t - double(k) * interval) <= 1e-9 * interval)
        samples[size_t(k)] = x;
      else if (off_grid.empty())
        off_grid = "sample at t = " + format_g(t, 17) + " s off the trajectory grid (every " + format_g(interval) + " s)";
    };
    WorkPrecisionResult out;
    out.measured = measure(request);
    // Past the criterion the run still reached its horizon: its errors are measured, for a point
    // that unpack_results() finds to be no instability (the same method stable at a larger step).
    if (!out.measured.outcome.completed()) return out;
    // The ranking's reference trajectory ends at its horizon: its last state is the final reference.
    const Eigen::VectorXd final_error =
        out.measured.final_physical -
        (p.ranking ? reference.states.back() : references_.at(c.name).at(p.key.discretisation));
    out.error = final_error.lpNorm<Eigen::Infinity>();
    out.relative_error = relative_error(final_error, reference.states, parts_.at(c.name));
    for (const auto& x : samples)
      if (x.size() == 0 && off_grid.empty()) off_grid = "a grid time was not sampled";
    if (!off_grid.empty()) {
      out.trajectory_note = "no trajectory errors: " + off_grid;
      return out;
    }
    out.trajectory = as_array(trajectory_errors(samples, reference.states, parts_.at(c.name)));
    out.scaled_l2 = scaled_l2(samples, reference.states);
    return out;
  }

  std::map<std::string, std::map<std::string, Eigen::VectorXd>> references_;
  std::map<std::string, std::map<std::string, double>> agreement_;  // case -> discretisation -> max-norm distance
  std::map<std::string, std::map<std::string, StateTrajectory>> trajectories_;  // case -> discretisation -> reference
  std::map<std::string, std::map<std::string, std::array<double, 4>>> trajectory_agreement_;
  std::map<std::string, std::map<std::string, double>> scaled_agreement_;  // the same in scaled_l2
  // The same for the rankings' own sweeps ([report.ranking]).
  std::map<std::string, std::map<std::string, StateTrajectory>> ranking_trajectories_;
  std::map<std::string, std::map<std::string, double>> ranking_agreement_, ranking_scaled_agreement_;
  std::map<std::string, std::map<std::string, Separation>> ranking_separation_;  // reference against cross-check
  std::string ranking_solvers_;                                                   // "rkf78 and rk45"
  std::map<std::string, std::map<std::string, std::array<double, 4>>> ranking_trajectory_agreement_;
  std::map<std::string, std::vector<PhysicalPart>> parts_;
  std::vector<Point> points_;
};

}  // namespace

void refute_instabilities_by_larger_steps(std::vector<SweptStep>& steps) {
  for (SweptStep& p : steps) {
    if (!p.outcome->unstable() || p.outcome->energy_jump) continue;  // a jump is one step's, not the step size's
    const SweptStep* stable = nullptr;
    for (const SweptStep& q : steps)
      if (q.h > p.h && q.horizon >= p.horizon && q.outcome->ok() && (!stable || q.h > stable->h)) stable = &q;
    if (!stable) continue;
    RunOutcome& o = *p.outcome;
    o.kind = RunOutcome::Kind::Ok;
    o.episode = "the instability criterion's finding (" + o.reason + ", from t = " + format_g(o.t, 4) +
                " s) is no instability of this step: the same method completed ok at h = " + format_g(stable->h, 3) +
                " over the same horizon, and an instability at h is one at every larger step; the error rose with the "
                "motion, as a fixed step's local error follows it";
    o.episode_t = o.t;
    o.reason.clear();
  }
}

StudyInfo work_precision_study() {
  StudyInfo info{"work_precision",
          "error of the final state, and L2 / L-infinity over time of the configuration and of the rates on the "
          "reference trajectory's grid, against the stored references over a sweep of steps / tolerances; measured "
          "orders; the references' agreement with their cross-checks, below which a point is unresolved",
          "work_precision.csv, orders.csv, references.csv",
          false,
          {},
          {},
          [] { return std::make_unique<WorkPrecision>(); }};
  info.figures = work_precision_figures;
  info.pages = {{"orders.csv", "measured convergence orders"}, {"work_precision_rankings.csv", "work–precision rankings"}};
  info.read_back = read_work_precision_back;
  info.check_claims = check_work_precision_claims;
  return info;
}

}  // namespace tb
