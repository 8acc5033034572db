// Work-precision diagrams after DiffEqDevTools: the unit of comparison is a setup (method +
// step or tolerance); the error is the final physical state's distance (max norm) from a
// tight reference solution of the same semi-discrete system, the runtime the minimum of two
// passes without observation. Orders are the least-squares slope of log(error) against log(h).
//
// The reference comes from a method not under test and is cross-checked by a second solver
// (core/reference.hpp); their distance (max norm) is the resolution of every error measured
// against it. A point whose error is not above that agreement is marked unresolved: written
// with its error (what was measured) but `resolved = no`, left out of the order fits, and
// drawn hollow, never counted as a win (references.csv lists the agreement per case).

#include "studies/work_precision.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/catalogue.hpp"
#include "core/fingerprint.hpp"
#include "core/format.hpp"
#include "core/job_result.hpp"
#include "core/reference.hpp"
#include "numerics/convergence.hpp"

namespace tb {

namespace {

struct Point {
  RunKey key;
  std::string parameter;  // "h" or "rtol"
  double value = 0.0;
  double error = 0.0;
  Measurement measured;
  // Error above the two references' agreement (only meaningful for a point that ran).
  bool resolved() const { return error > agreement; }
  double agreement = 0.0;
};

class WorkPrecision final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    const Catalogue& catalogue = *context.catalogue;
    for (const auto& c : *context.cases) {
      references_[c.name] = read_references(c, context.reference_dir, catalogue.reference());
      const auto crosschecks =
          read_references(c, context.reference_dir, catalogue.crosscheck(), ReferenceRole::CrossCheck);
      for (const auto& [d, x] : references_[c.name])
        agreement_[c.name][d] = (x - crosschecks.at(d)).lpNorm<Eigen::Infinity>();
    }
    for (const auto& c : *context.cases)
      for (const auto& key : runs_of(c, catalogue.integrators)) {
        if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
        if (!references_[c.name].count(key.discretisation)) continue;  // no ODE form of it: no reference
        const bool adaptive = key.integrator->adaptive;
        for (double v : adaptive ? c.report.tolerances : c.report.steps) {
          Point& p = points_.emplace_back();
          p.key = key;
          p.parameter = adaptive ? "rtol" : "h";
          p.value = v;
          p.agreement = agreement_[c.name][key.discretisation];
        }
      }
    std::vector<StudyJob> jobs;
    for (auto& p : points_) {
      const double cost = p.parameter == "h" ? p.key.c->report.reference_t_end / p.value : 1.0;
      // The reference the error is measured against is an input too (its file may be recomputed).
      const Eigen::VectorXd& reference = references_.at(p.key.c->name).at(p.key.discretisation);
      ResultWriter reference_bytes;
      reference_bytes << reference;
      jobs.push_back(result_job<Measurement>(
          p.key.c->name + " | " + p.key.label() + " | " + p.parameter + " = " + format_g(p.value, 3), cost,
          run_inputs(*p.key.c, p.key.integrator->name) + ";" + p.key.discretisation + ";" + p.parameter + "=" +
              format_g(p.value, 17) + ";reference=" + fingerprint_of(reference_bytes.bytes()),
          [&p] { return run(p); }, p.measured));
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) override {
    for (auto& p : points_)  // the measurements are in (applied from the jobs' results): their errors
      if (p.measured.outcome.ok())
        p.error = (p.measured.final_physical - references_.at(p.key.c->name).at(p.key.discretisation))
                      .lpNorm<Eigen::Infinity>();
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    std::ofstream wp(dir / "work_precision.csv");
    wp << "case,integrator,parameter,value,error,resolved,runtime_s,steps,rhs_evals,status,host\n";
    // A point that did not reach the horizon has no error and no runtime: its cells stay empty
    // and its status says why.
    for (const auto& p : points_) {
      const bool ok = p.measured.outcome.ok();
      wp << p.key.c->name << ',' << p.key.label() << ',' << p.parameter << ',' << format_g(p.value, 6) << ','
         << (ok ? format_g(p.error, 6) : "") << ',' << (ok ? (p.resolved() ? "yes" : "no") : "") << ','
         << (ok ? format_g(p.measured.runtime_s, 6) : "") << ',' << p.measured.counters.steps << ','
         << p.measured.counters.rhs_evals << ",\"" << p.measured.outcome.describe() << "\"," << (ok ? p.measured.host : "")
         << '\n';
    }
    std::ofstream refs(dir / "references.csv");
    refs << "case,discretisation,default,reference_solver,crosscheck_solver,agreement,unresolved_points,points\n";
    for (const auto& [case_name, by_discretisation] : agreement_)
      for (const auto& [d, agreement] : by_discretisation) {
        size_t points = 0, unresolved = 0;
        for (const auto& p : points_)
          if (p.key.c->name == case_name && p.key.discretisation == d && p.measured.outcome.ok())
            ++points, unresolved += p.resolved() ? 0 : 1;
        const Case* c = nullptr;
        for (const auto& candidate : *context.cases)
          if (candidate.name == case_name) c = &candidate;
        const bool is_default = c && d == c->model->default_discretisation();
        refs << case_name << ',' << d << ',' << (is_default ? "yes" : "no") << ',' << context.catalogue->reference().name << ','
             << context.catalogue->crosscheck().name << ',' << format_g(agreement, 3) << ',' << unresolved << ','
             << points << '\n';
      }
    std::ofstream orders(dir / "orders.csv");
    orders << "case,integrator,declared_order,measured_order,h_min,h_max,error_min,error_max,points,note\n";
    for (const auto& c : *context.cases)
      for (const auto& key : runs_of(c, context.catalogue->integrators)) {
        if (key.integrator->adaptive) continue;
        std::vector<double> hs, errs;
        size_t points = 0;
        std::string first_failure;
        for (const auto& p : points_) {
          if (p.key.c != key.c || p.key.integrator != key.integrator || p.key.discretisation != key.discretisation) continue;
          ++points;
          if (p.measured.outcome.ok() && p.resolved()) hs.push_back(p.value), errs.push_back(p.error);
          else if (first_failure.empty())
            first_failure = "h = " + format_g(p.value, 3) + ": " +
                            (p.measured.outcome.ok() ? "error " + format_g(p.error, 2) +
                                                           " not above the references' agreement " +
                                                           format_g(p.agreement, 2) + " (unresolved)"
                                                     : p.measured.outcome.describe());
        }
        if (points == 0) continue;  // not run (n/a, or no reference for its discretisation)
        const std::string counted = std::to_string(hs.size()) + " of " + std::to_string(points);
        if (hs.size() < 2) {
          orders << c.name << ',' << key.label() << ',' << key.integrator->order << ",,,,,," << counted
                 << ",\"no fit: fewer than two successful points (" << first_failure << ")\"\n";
          continue;
        }
        orders << c.name << ',' << key.label() << ',' << key.integrator->order << ',' << format_g(fitted_order(hs, errs), 4)
               << ',' << format_g(*std::min_element(hs.begin(), hs.end()), 4) << ','
               << format_g(*std::max_element(hs.begin(), hs.end()), 4) << ','
               << format_g(*std::min_element(errs.begin(), errs.end()), 4) << ','
               << format_g(*std::max_element(errs.begin(), errs.end()), 4) << ',' << counted << ",\""
               << (first_failure.empty() ? "" : "fit over the successful points; first left out: " + first_failure)
               << "\"\n";
      }
    return {(dir / "work_precision.csv").string(), (dir / "orders.csv").string(), (dir / "references.csv").string()};
  }

 private:
  static Measurement run(const Point& p) {
    const Case& c = *p.key.c;
    IntegratorSettings s = c.settings_for(p.key.integrator->name);
    if (p.parameter == "h") {
      s.h = p.value;
    } else {
      s.set("rtol", p.value);
      s.set("atol", 1e-2 * p.value);
    }
    MeasureOptions m;
    m.t_end = m.sample_interval = c.report.reference_t_end;
    m.observe = false;
    m.repeats = 2;
    return measure(p.key, s, m);
  }

  std::map<std::string, std::map<std::string, Eigen::VectorXd>> references_;
  std::map<std::string, std::map<std::string, double>> agreement_;  // case -> discretisation -> max-norm distance
  std::vector<Point> points_;
};

}  // namespace

StudyInfo work_precision_study() {
  return {"work_precision",
          "error of the final state against the stored reference over a sweep of steps / tolerances; measured orders; "
          "the reference's agreement with its cross-check, below which a point is unresolved",
          "work_precision.csv, orders.csv, references.csv",
          false,
          {},
          {},
          [] { return std::make_unique<WorkPrecision>(); }};
}

}  // namespace tb
