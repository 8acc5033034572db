#include "conformance/integrator_checks.hpp"

#include "conformance/final_state.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "app/running/reference.hpp"
#include "app/running/runner.hpp"
#include "conformance/fault_injection.hpp"
#include "core/format.hpp"
#include "numerics/convergence.hpp"
#include "app/judging/order_fit.hpp"

namespace tb::conformance {

namespace {

std::string entry_of(const IntegratorInfo& info) { return "integrator " + info.name; }


// The first model of `models` that offers the form the integrator consumes and that the
// integrator does not decline; the check fails when none does (the bench needs one more model).
std::shared_ptr<const Model> test_model_for(Check& c, const IntegratorInfo& info,
                                            const std::vector<std::shared_ptr<const Model>>& models) {
  std::string why_not;
  for (const auto& model : models)
    if (auto form = model->make_formulation(info.consumes, why_not); form && (!info.why_not || info.why_not(*form).empty()))
      return model;
  c.require(false, "no test model offers " + to_string(info.consumes) + " for " + info.name);
  return nullptr;
}

double state_error(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).lpNorm<Eigen::Infinity>(); }

// "a step succeeds" while it does (the text of a passing assertion is never read), else why not.
std::string step_text(bool ok, double t, const StepFailure& failure) {
  return ok ? std::string("a step succeeds") : "the step from t = " + g(t, 6) + " s failed: " + failure.reason;
}

}  // namespace

Check check_order(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "declared order", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name());
    const double T = 0.1;
    const Catalogue& catalogue = *bench.catalogue;
    const std::string discretisation = model->default_discretisation();
    const Eigen::VectorXd reference = compute_reference(catalogue.reference(), *model, discretisation, T, 1e-5).physical;
    if (!info.adaptive) {
      // Fixed step: log-log fit of the final-state error over a step sweep, judged by the one
      // rule of orders.csv, the gate and the report (app/judging/order_fit.hpp judge_order, through
      // measure_order: its asymptotic window, interval and flag), against the reference's
      // resolution (its distance from the cross-check solver's solution) and the state's scale.
      // The plain slope over the whole sweep is printed, not judged: up to issue 44 it had a
      // rule of its own (within 0.25), and the orders.csv flag failed a correct method whose
      // tight interval missed its order by 0.0019 (a first-order method), which the gate passed.
      const Eigen::VectorXd crosscheck = compute_reference(catalogue.crosscheck(), *model, discretisation, T, 1e-5).physical;
      const double agreement = state_error(reference, crosscheck);
      const double scale = std::max(reference.lpNorm<Eigen::Infinity>(), 1e-300);
      std::vector<double> hs, errs;
      std::vector<OrderSweepPoint> sweep;
      const double h0 = info.order >= 4 ? 1e-3 : 4e-4;
      for (int i = 0; i < 4; ++i) {
        const double h = h0 / std::pow(2.0, i);
        const FinalState run = run_to(*model, info, T, h);
        c.require(run.outcome.ok(), "the run at h = " + g(h) + " s to t = " + g(T) + " s: " + run.outcome.outcome.describe());
        hs.push_back(h);
        errs.push_back(state_error(run.physical, reference));
        sweep.push_back({h, true, errs.back(), errs.back() / scale, agreement});
      }
      const double order = fitted_order(hs, errs);
      const MeasuredOrder fit = measure_order(sweep, info.order);
      const std::string fitted = fit.fit.fitted ? g(fit.p, fit.p_digits) + " ± " + g(fit.ci95, 2) : "inconclusive";
      c.measured("slope " + g(order, 4) + " (h " + g(hs.front()) + ".." + g(hs.back()) + " s, errors " + g(errs.front()) +
                 ".." + g(errs.back()) + "), orders.csv fit " + fitted + ", declared " + std::to_string(info.order));
      if (!fit.note.empty()) c.measured(fit.note);
      // A pre-asymptotic sweep (judge_order's inconclusive) measures no order: no pass either.
      c.expect(fit.fit.fitted && fit.flag.empty() && fit.inconclusive.empty(),
               fit.fit.fitted ? "measured order " + g(fit.p, fit.p_digits) + " against the declared " + std::to_string(info.order) +
                                    " (95% interval [" + g(fit.p - fit.ci95, 4) + ", " + g(fit.p + fit.ci95, 4) +
                                    "], errors " + g(errs.front()) + " at h = " + g(hs.front()) + " s to " + g(errs.back()) +
                                    " at h = " + g(hs.back()) + " s): " + fit.flag + fit.inconclusive
                              : "orders.csv rule: inconclusive (" + fit.fit.why_not + ")");
    } else {
      // Adaptive: the error follows the tolerance. Over two decades of tolerance, the error
      // must fall by at least one decade and stay within a modest factor of the tolerance.
      std::vector<double> tols = {1e-5, 1e-7, 1e-9}, errs;
      for (double tol : tols) {
        const FinalState run = run_to(*model, info, T, 1e-4, tol, tol * 1e-2);
        c.require(run.outcome.ok(), "the run at rtol = " + g(tol) + ": " + run.outcome.outcome.describe());
        errs.push_back(state_error(run.physical, reference));
      }
      const double slope = fitted_order(tols, errs);
      c.measured("error-vs-tolerance slope " + g(slope, 4) + " (errors " + g(errs[0]) + ", " + g(errs[1]) + ", " +
                 g(errs[2]) + " at rtol 1e-5, 1e-7, 1e-9)");
      c.expect(slope > 0.5, "the error falls with the tolerance as its power " + g(slope) + " <= 0.5 (errors " +
                                g(errs[0]) + ", " + g(errs[1]) + ", " + g(errs[2]) + " at rtol 1e-5, 1e-7, 1e-9)");
      c.expect(errs.back() < 1e-6, "error " + g(errs.back()) + " at rtol 1e-9 is not below 1e-6");
    }
  });
}

Check check_end_time(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "lands on t_end", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name());
    // 0.0105 is not a multiple of the step: the last step must be shortened, not overshoot.
    const double t_end = 0.0105;
    const FinalState run = run_to(*model, info, t_end, 1e-3);
    c.require(run.outcome.ok(), "the run to t = 0.0105 s at h = 1 ms: " + run.outcome.outcome.describe());
    c.expect(run.outcome.t_final == t_end, "integrate() ended at t = " + format_g(run.outcome.t_final, 17) +
                                               " s, not exactly at t_end = 0.0105 s");
    c.expect(run.outcome.counters.steps >= 1, "no step counted");
    // Step by step, as the runner calls it: no step may end past t_stop (a runner stopping there
    // would sample and measure a state the case never asked for).
    auto form = formulation_for(*model, info);
    IntegratorSettings s = settings_of(info, 1e-3);
    auto stepper = info.make(*form, s, 0.0);
    StepFailure failure;
    double latest = 0.0;
    int steps = 0;
    bool ok = true;
    while (stepper->time() < t_end && steps < 10000 && (ok = stepper->step(t_end, failure))) {
      latest = std::max(latest, stepper->time());
      ++steps;
    }
    c.require(ok, step_text(ok, stepper->time(), failure));
    c.measured(std::to_string(steps) + " steps of h = 1 ms to t_end = 0.0105 s, " +
               (stepper->time() == t_end ? std::string("ended exactly on it")
                                         : "ended at " + format_g(stepper->time(), 17) + " s"));
    c.expect(latest <= t_end, "step(t_stop = 0.0105 s) ended at t = " + format_g(latest, 17) + " s, past t_stop");
  });
}

Check check_failed_step(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "failed step", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name() + ", the form's evaluations NaN from step 6");
    bool armed = false;
    auto form = make_faulty(formulation_for(*model, info), armed);
    c.require(form != nullptr, "conformance/fault_injection.hpp has no wrapper for the " + to_string(info.consumes) + " form");
    IntegratorSettings s = settings_of(info, 1e-4);
    auto stepper = info.make(*form, s, 0.0);
    StepFailure failure;
    for (int i = 0; i < 5; ++i) {
      const bool ok = stepper->step(1.0, failure);
      c.require(ok, step_text(ok, stepper->time(), failure));
    }
    const double t_before = stepper->time();
    const Eigen::VectorXd y_before = stepper->state();
    const StepCounters c_before = stepper->counters();
    armed = true;
    const bool stepped = stepper->step(1.0, failure);
    c.expect(!stepped, "step() returned true on a NaN evaluation (a failed step must return false)");
    c.expect(!failure.reason.empty(), "the failed step gave no reason");
    c.expect(stepper->time() == t_before, "the failed step moved time from " + format_g(t_before, 17) + " to " +
                                              format_g(stepper->time(), 17) + " s");
    const bool same_state = stepper->state() == y_before;
    std::string change;
    if (!same_state)
      change = stepper->state().size() != y_before.size() ? " (to another size)"
               : !all_finite(stepper->state())            ? " (to a non-finite state)"
                                                          : " (by " + g(state_error(stepper->state(), y_before)) + ", max norm)";
    c.expect(same_state, "the failed step changed the state" + change + " (a failed step must leave it as it was)");
    c.expect(stepper->counters().steps == c_before.steps, "the failed step was counted as an accepted step");
    c.measured("failed with \"" + failure.reason + "\"");
  });
}

Check check_failure_report(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "failure report", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name() + ", the form's evaluations NaN after 5 ms");
    bool armed = false;
    auto form = make_faulty(formulation_for(*model, info), armed);
    c.require(form != nullptr, "conformance/fault_injection.hpp has no wrapper for the " + to_string(info.consumes) + " form");
    IntegratorSettings s = settings_of(info, 1e-4);
    int samples = 0;
    auto observer = [&](double t, const Eigen::VectorXd&) {
      ++samples;
      if (t >= 0.0049) armed = true;  // the solver breaks after 5 ms
    };
    const IntegrationOutcome out = integrate(*form, info, s, 0.02, 1e-3, observer);
    const std::string described = out.outcome.describe();
    c.measured("\"" + described + "\", " + std::to_string(samples) + " samples kept");
    c.expect(!out.ok(), "the run on NaN evaluations succeeded");
    c.expect(described.find("at t = ") != std::string::npos, "the failure \"" + described + "\" says no time");
    c.expect(described.find("step ") != std::string::npos, "the failure \"" + described + "\" says no step");
    c.expect(out.t_final >= 0.0049, "failed at t = " + g(out.t_final) + " s, before the fault (4.9 ms)");
    c.expect(out.t_final < 0.02, "reached t_end 0.02 s on NaN evaluations");
    c.expect(samples >= 5, "only " + std::to_string(samples) + " samples kept before the failure (5 expected)");
  });
}

Check check_implicit_trait(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "trait: implicit", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name());
    const FinalState run = run_to(*model, info, 0.01, 1e-3);
    c.require(run.outcome.ok(), "the run to t = 0.01 s at h = 1 ms: " + run.outcome.outcome.describe());
    const long iterations = run.outcome.counters.newton_iters;
    c.measured(std::to_string(iterations) + " iterations over " + std::to_string(run.outcome.counters.steps) +
               " steps, declared implicit = " + (info.traits.implicit ? "yes" : "no"));
    if (info.traits.implicit)
      c.expect(iterations > 0, "declared implicit, but counted no Newton or fixed-point iteration");
    else
      c.expect(iterations == 0, "declared explicit, but counted " + std::to_string(iterations) + " iterations");
  });
}

Check check_adaptive_trait(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "trait: adaptive", [&](Check& c) {
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name());
    const IntegratorSettings s = settings_of(info, 1e-3);
    if (info.adaptive) {
      // It declares the tolerances the error control reads (case files and sweeps set them) ...
      c.require(s.declares("rtol"), "declared adaptive, but declares no setting rtol");
      c.require(s.declares("atol"), "declared adaptive, but declares no setting atol");
      // ... and chooses more steps for a tighter one.
      const FinalState loose = run_to(*model, info, 0.05, 1e-4, 1e-4, 1e-6);
      const FinalState tight = run_to(*model, info, 0.05, 1e-4, 1e-10, 1e-12);
      c.require(loose.outcome.ok(), "the run at rtol 1e-4: " + loose.outcome.outcome.describe());
      c.require(tight.outcome.ok(), "the run at rtol 1e-10: " + tight.outcome.outcome.describe());
      const long l = loose.outcome.counters.steps, t = tight.outcome.counters.steps;
      c.measured(std::to_string(l) + " steps at rtol 1e-4, " + std::to_string(t) + " at 1e-10 over 0.05 s");
      c.expect(t > l, "steps at rtol 1e-4: " + std::to_string(l) + ", at 1e-10: " + std::to_string(t) +
                          " (a tighter tolerance must take more steps)");
    } else {
      // 0.0105 s at h = 1 ms: ten steps of h and a last one of 0.5 ms, none rejected.
      c.expect(!s.declares("rtol"), "a fixed-step method declares rtol (only an adaptive one may)");
      const FinalState run = run_to(*model, info, 0.0105, 1e-3);
      c.require(run.outcome.ok(), "the run to t = 0.0105 s at h = 1 ms: " + run.outcome.outcome.describe());
      c.measured(std::to_string(run.outcome.counters.steps) + " steps over 0.0105 s at h = 1 ms, " +
                 std::to_string(run.outcome.counters.error_test_failures) + " rejected");
      c.expect(run.outcome.counters.steps == 11, "took " + std::to_string(run.outcome.counters.steps) +
                                                    " steps over 0.0105 s at h = 1 ms, not 11 (ten of h, one of h/2)");
      c.expect(run.outcome.counters.error_test_failures == 0,
               "a fixed-step method rejected " + std::to_string(run.outcome.counters.error_test_failures) + " steps");
    }
  });
}

// The step-back defect d(h) = |Φ_{-h}(Φ_h(y0)) - y0| / scale falls like h^q, q >= this, for a
// method that is not symmetric; a symmetric one's defect does not fall with h (check_step_back).
inline constexpr double kStepBackFallOrder = 1.5;
// ... and steadily: its local orders within this of each other (a leading error term's); a
// solver's defect falls erratically where it falls at all, as the iteration counts change.
inline constexpr double kStepBackSteadiness = 1.0;
// A defect at most this far above zero (relative to the state's scale) is round-off.
inline constexpr double kStepBackRoundOff = 1e-12;
// Below this the defect carries no slope (a few ulps of the state: round-off).
inline constexpr double kStepBackNoSlope = 1e-13;
// A defect that does not fall like a local error is a solver's tolerance only while it is small:
// above this fraction of the step's own motion, no solver stopped there (the method is not its
// own adjoint: a scheme with a one-sided velocity law for unilateral links came back to 37 % of
// its step's motion, the miss falling like h, which the fall alone read as a tolerance).
inline constexpr double kStepBackToleranceShare = 1e-3;
// The steps: h0 and three halvings.
inline constexpr double kStepBackH0 = 1e-3;
inline constexpr int kStepBackSteps = 4;

namespace {

// One step of h from the initial state and one of -h back from its end, against the start as
// fractions of the state's scale (the steppers end with the trip: the judgement reads only this).
struct StepBackTrip {
  bool stepped;         // the step back succeeded
  double moved;         // |Φ_h(y0) - y0| / scale
  double returned;      // |Φ_{-h}(Φ_h(y0)) - y0| / scale; HUGE_VAL where the step back failed
  double back_time;     // where the step back ended
  StepFailure failure;  // why the step back failed, where it did
};

// The trip at step h, on a fresh formulation of the model: every h starts from the initial state.
StepBackTrip step_there_and_back(Check& c, const IntegratorInfo& info, const Model& model, double h) {
  auto form = formulation_for(model, info);
  const Eigen::VectorXd y0 = form->initial_state();
  auto forward = info.make(*form, settings_of(info, h), 0.0);
  StepFailure failure;
  const bool ok = forward->step(h, failure);
  c.require(ok, step_text(ok, 0.0, failure));
  bool armed = false;  // never: the wrapper only starts where the step ended
  auto from_end = make_faulty(formulation_for(model, info), armed, forward->state());
  c.require(from_end != nullptr, "conformance/fault_injection.hpp has no wrapper for the " + to_string(info.consumes) + " form");
  auto back = info.make(*from_end, settings_of(info, -h), h);
  const bool stepped = back->step(0.0, failure);
  const double scale = std::max(1.0, form->physical_state(y0).lpNorm<Eigen::Infinity>());
  const double moved = state_error(form->physical_state(forward->state()), form->physical_state(y0)) / scale;
  const double returned =
      stepped ? state_error(form->physical_state(back->state()), form->physical_state(y0)) / scale : HUGE_VAL;
  return {stepped, moved, returned, back->time(), failure};
}

// The texts printed of the defects and their fall, and what the judgement reads of the fall.
struct DefectFall {
  std::string defects_text, orders_text;
  bool falls;              // every judged halving at local order >= kStepBackFallOrder
  int judged;              // the halvings judged
  double lowest, highest;  // the local orders between defects above kStepBackNoSlope
};

// The defect's fall over each halving, as a local order (NaN: both at round-off, no slope).
DefectFall defect_fall(const std::vector<double>& defects) {
  std::string defects_text, orders_text;
  bool falls = true;
  int judged = 0;
  double lowest = HUGE_VAL, highest = -HUGE_VAL;
  for (size_t k = 0; k < defects.size(); ++k) {
    defects_text += (k ? ", " : "") + g(defects[k]);
    if (k == 0) continue;
    const double a = defects[k - 1], b = defects[k];
    if (a < kStepBackNoSlope) continue;  // nothing left to fall from
    const double q = b < kStepBackNoSlope ? std::log2(a / kStepBackNoSlope) : std::log2(a / b);
    orders_text += std::string(orders_text.empty() ? "" : ", ") + (b < kStepBackNoSlope ? ">= " : "") + g(q, 3);
    falls = falls && q >= kStepBackFallOrder;
    if (b >= kStepBackNoSlope) lowest = std::min(lowest, q), highest = std::max(highest, q);
    ++judged;
  }
  return {defects_text, orders_text, falls, judged, lowest, highest};
}

}  // namespace

Check check_step_back(const IntegratorInfo& info, const IntegratorBench& bench) {
  // Symmetric: Φ_{-h} ∘ Φ_h = id (Hairer, Lubich & Wanner II.3, Def. 3.1). The step back starts
  // a second stepper from the first one's end with step -h. Adaptive methods are not compared:
  // their step back is not the step they took.
  //
  // Which defect d(h) tells a symmetric method from one that is not (issue 44 class 6): by its
  // behaviour in h, not by a round-off threshold. A method that is not symmetric differs from its
  // adjoint Φ*_h = Φ_{-h}^{-1} in its local error (HLW II.3, Thm. 3.2: the adjoint's leading
  // error term is (-1)^p times the method's), so d(h) = O(h^(p+1)) (or O(h^(p+2)) for even p),
  // which falls at least like h^2 for any consistent method (p >= 1): by 4x or more a halving of h.
  // A symmetric method solved by an iteration to a tolerance (an implicit midpoint rule by fixed-
  // point or Newton iteration stopped at tol) is symmetric to that tolerance: its defect is the
  // two solves' residual errors, at the tolerance whatever h (a contraction h L per sweep leaves
  // at most h L tol: not faster than h^1), and round-off does not fall with h at all. Up to issue
  // 44 any defect above 1e-12 failed a method declared symmetric: an implicit midpoint rule
  // solved by fixed-point iteration came back to 2.3e-12 and failed. Now, d(h) is measured at
  // h0 = 1e-3 s and three halvings (the test models' fastest modes have h w ~ 0.1-1 at h0, so a
  // non-symmetric method's defect stands far above round-off), and a method declared symmetric
  // fails when its defect falls with h like a local error: at local order >= kStepBackFallOrder
  // (between a converged solver's <= 1 and a local error's >= 2) over every halving where it
  // stands above round-off (a fall from above kStepBackRoundOff to below kStepBackNoSlope counts
  // as one), and steadily (local orders within kStepBackSteadiness of each other, as a leading
  // error term's are). A fixed-point iteration stopped at a tolerance can also fall fast over a
  // halving, as its contraction h L improves and its iteration count changes, but not steadily:
  // the implicit midpoint rule of tests/plugins/implicit_midpoint.cpp stopped at 1e-10 returns
  // to 6.3e-9, 2.3e-10, 6.4e-13, 6.9e-12 (local orders 4.75, 8.5, -3.4); Kutta's third-order
  // method declared symmetric (tests/plugins/conformance_broken_integrators.cpp) falls at a
  // steady ~4 = p + 1 and fails.
  // A defect below kStepBackRoundOff at h0 is round-off: symmetric to the last bits.
  return Check::run(entry_of(info), "trait: symmetric (step back)", [&](Check& c) {
    if (info.adaptive) c.not_applicable("adaptive: its step back is not the step it took");
    auto model = test_model_for(c, info, bench.general);
    auto scope = c.context(model->name());
    std::vector<double> hs, defects;
    double moved0 = 0.0;
    for (int k = 0; k < kStepBackSteps; ++k) {
      const double h = kStepBackH0 / std::pow(2.0, k);
      const auto [stepped, moved, returned, back_time, failure] = step_there_and_back(c, info, *model, h);
      if (k == 0) {
        moved0 = moved;
        const std::string numbers = "moved " + g(moved) + ", returned to " + g(returned) + " of the start" +
                                    (stepped ? "" : " (step back failed: " + failure.reason + ")");
        c.require(moved > 1e-6, "the step did nothing: " + numbers);
        if (info.traits.symmetric) {
          c.require(stepped, "declared symmetric, but the step back failed: " + failure.reason);
          c.expect(back_time == 0.0, "the step back ended at t = " + format_g(back_time, 17) + " s, not 0");
        } else {
          c.measured(numbers + " (declared symmetric: no)");
          c.expect(returned > 1e-10, "declared not symmetric, but the step back undoes the step: " + numbers);
          return;
        }
      }
      c.require(stepped, "declared symmetric, but the step back at h = " + g(h) + " s failed: " + failure.reason);
      hs.push_back(h);
      defects.push_back(returned);
    }
    auto [defects_text, orders_text, falls, judged, lowest, highest] = defect_fall(defects);
    const std::string numbers = "moved " + g(moved0) + "; returned to " + defects_text + " of the start at h = " +
                                g(hs.front()) + " s and " + std::to_string(hs.size() - 1) + " halvings" +
                                (orders_text.empty() ? std::string() : " (local orders of the defect " + orders_text + ")");
    c.measured(numbers + " (declared symmetric: yes)");
    if (defects.front() < kStepBackRoundOff) return;  // round-off: symmetric to the last bits
    falls = falls && judged > 0 && !(highest - lowest > kStepBackSteadiness);
    const bool too_large = defects.front() > kStepBackToleranceShare * moved0;
    if (!falls && !too_large)
      c.measured("symmetric to " + g(*std::max_element(defects.begin(), defects.end())) +
                 ": a defect that does not fall with h like a local error (a solver's tolerance)");
    c.expect(falls || !too_large,
             "declared symmetric, but the step back misses the start by " + g(defects.front()) + ", " +
                 g(defects.front() / moved0, 3) + " of the step's own motion: no solver's tolerance is that large (the "
                 "method is not its own adjoint): " + numbers);
    c.expect(!falls,
             "declared symmetric, but the step back's defect falls with h like a local error, steadily at local order >= " +
                 g(kStepBackFallOrder) + " over every halving (a symmetric method's defect is round-off or its "
                 "solver's tolerance, which do not): " + numbers);
  });
}

Check check_momentum_map(const IntegratorInfo& info, const IntegratorBench& bench) {
  // A model conserving a momentum map (the `momentum` observation); a method conserving it by a
  // discrete Noether theorem keeps it to round-off over any number of steps.
  return Check::run(entry_of(info), "trait: conserves the momentum map", [&](Check& c) {
    if (!info.traits.conserves_momentum_map) c.not_applicable("does not declare conserves_momentum_map");
    const Model& model = *bench.momentum_map;
    auto scope = c.context(model.name());
    std::string why_not;
    auto form = model.make_formulation(info.consumes, why_not);
    c.require(form != nullptr, "the momentum-map test model offers no " + to_string(info.consumes) + " form: " + why_not);
    auto stepper = info.make(*form, settings_of(info, 2e-3), 0.0);
    const double pi0 = form->observe(0.0, stepper->state()).momentum;
    StepFailure failure;
    double worst = 0.0;
    for (int i = 0; i < 50; ++i) {
      const bool ok = stepper->step(1.0, failure);
      c.require(ok, step_text(ok, stepper->time(), failure));
      worst = std::max(worst, std::abs(form->observe(stepper->time(), stepper->state()).momentum - pi0));
    }
    c.measured("momentum " + g(pi0) + ", worst change over 50 steps of 2 ms " + g(worst));
    c.expect(worst <= 1e-12 * std::max(1.0, std::abs(pi0)),
             "momentum " + g(pi0) + " changed by up to " + g(worst) + " over 50 steps (round-off: 1e-12 relative)");
  });
}

Check check_form_type(const IntegratorInfo& info, const IntegratorBench& bench) {
  // The consumed kind is the type of the factory's argument (consuming(), core/integrator.hpp),
  // and the one downcast is checked there: a formulation of another kind is a logic error,
  // never a cast gone wrong.
  return Check::run(entry_of(info), "factory refuses other forms", [&](Check& c) {
    int refused = 0;
    std::string kinds;
    for (const FormulationKind kind : kAllFormulationKinds) {
      if (kind == info.consumes) continue;
      for (const auto& model : bench.every_kind) {
        std::string why_not;
        auto form = model->make_formulation(kind, why_not);
        if (!form) continue;
        std::string outcome = "built a stepper";
        bool logic_error = false;
        try {
          info.make(*form, settings_of(info, 1e-3), 0.0);
        } catch (const std::logic_error&) {
          logic_error = true;
        } catch (const std::exception& e) {
          outcome = std::string("threw ") + e.what() + " (not a std::logic_error)";
        }
        c.expect(logic_error, "handed the " + to_string(kind) + " form of " + model->name() + ", the factory " + outcome);
        kinds += (kinds.empty() ? "" : ", ") + to_string(kind);
        ++refused;
        break;
      }
    }
    c.measured("offered " + kinds);
    // The test models offer every kind; each integrator consumes one.
    c.expect(refused >= 2, "only " + std::to_string(refused) + " other kinds offered by the test models");
  });
}

Check check_energy_behaviour(const IntegratorInfo& info, const IntegratorBench& bench) {
  // Backward error analysis (Hairer, Lubich & Wanner IX.8, Thm. 8.1): a symplectic method
  // conserves a modified energy, so its energy error over 64 T is no larger than over T once T
  // holds a period (or stays at round-off: a step conserving the energy exactly). A method that
  // is none of symplectic, symmetric (symmetric methods show no drift on reversible problems
  // either, HLW XI.3) and dissipative drifts: its error grows with the horizon. A dissipative
  // method conserves no energy; how it dissipates is not asserted here (variable-order BDF
  // reaches orders 3-5, which are not A-stable, and may gain energy on some problems).
  // Measured on models whose energy has one clean mode, at a coarse step h = 0.02 s (so that
  // the errors stand far above round-off) and, for adaptive methods, at rtol 1e-4.
  return Check::run(entry_of(info), "trait: energy (symplectic / dissipative / drift)", [&](Check& c) {
    const double h = 0.02, T = 4.0;
    std::unique_ptr<Formulation> form;
    std::string why_not, used;
    for (const auto& model : bench.one_mode)
      if (!form) {
        form = model->make_formulation(info.consumes, why_not);
        if (form) used = model->name();
      }
    c.require(form != nullptr, "no one-mode test model offers the " + to_string(info.consumes) + " form");
    auto scope = c.context(used);
    IntegratorSettings settings = settings_of(info, h);
    set_if_declared(settings, "rtol", 1e-4);
    set_if_declared(settings, "atol", 1e-6);
    auto stepper = info.make(*form, settings, 0.0);
    const double e0 = form->observe(0.0, stepper->state()).energy;
    double over_T = 0.0, over_64T = 0.0, last = 0.0;
    StepFailure failure;
    while (stepper->time() < 64 * T) {
      const bool ok = stepper->step(64 * T, failure);
      c.require(ok, step_text(ok, stepper->time(), failure));
      last = form->observe(stepper->time(), stepper->state()).energy - e0;
      over_64T = std::max(over_64T, std::abs(last));
      if (stepper->time() <= T) over_T = over_64T;
    }
    const double growth = over_64T / over_T;
    const std::string numbers = "max|dE| over T = 4 s " + g(over_T) + ", over 64 T " + g(over_64T) + " (x" +
                                g(growth, 3) + "), dE(64 T) = " + g(last);
    c.measured(numbers + " (symplectic " + std::to_string(int(info.traits.symplectic)) + ", dissipative " +
               std::to_string(int(info.traits.dissipative)) + ")");
    const bool at_round_off = over_64T < 1e-12 * std::max(1.0, std::abs(e0));
    if (info.traits.symplectic) {
      c.expect(at_round_off || growth < 2.0, "declared symplectic, but its energy error grew: " + numbers);
    } else if (info.traits.dissipative) {
      c.expect(!at_round_off, "declared dissipative, but conserves the energy to round-off: " + numbers);
    } else if (!info.traits.symmetric) {
      c.require(!at_round_off, "the energy error is at round-off: the check cannot tell a drift: " + numbers);
      c.expect(growth > 2.0, "declared none of symplectic, symmetric and dissipative, but its energy error does not "
                             "grow with the horizon: " + numbers);
    }
  });
}

namespace {

// Over 2000 steps of h = 1 ms on the first manifold model that offers the integrator's form and
// that it does not decline: the largest ||I - R^T R||_F and max | |q_i| - 1 |.
struct Defects {
  double R = 0.0, q = 0.0;
  std::string model;
};
Defects manifold_defects(Check& c, const IntegratorInfo& info, const IntegratorBench& bench) {
  const double h = 1e-3, T = 2.0;
  std::unique_ptr<Formulation> form;
  std::string why_not;
  Defects out;
  for (const auto& model : bench.manifold) {
    if (form) break;
    form = model->make_formulation(info.consumes, why_not);
    if (form && info.why_not && !info.why_not(*form).empty()) form.reset();  // the integrator declines it
    if (form) out.model = model->name();
  }
  c.require(form != nullptr, "no manifold test model offers a " + to_string(info.consumes) + " form " + info.name + " runs");
  IntegratorSettings settings = settings_of(info, h);
  set_if_declared(settings, "rtol", 1e-6);
  set_if_declared(settings, "atol", 1e-8);
  auto stepper = info.make(*form, settings, 0.0);
  StepFailure failure;
  while (stepper->time() < T) {
    const bool ok = stepper->step(T, failure);
    c.require(ok, step_text(ok, stepper->time(), failure));
    const Observation o = form->observe(stepper->time(), stepper->state());
    out.R = std::max(out.R, o.orthogonality_err);
    out.q = std::max(out.q, o.constraint_err);  // max | |q_i| - 1 |; 0 where there is no direction
  }
  return out;
}

constexpr double kManifoldBound = 1e-13;

}  // namespace

Check check_manifold_baseline(const IntegratorBench& bench) {
  // A method that moves R and q_i only by the group ends with ||I - R^T R||_F and
  // max | |q_i| - 1 | at a few hundred eps at most, whatever its truncation error; a method on
  // the embedded ODE, whose R and q_i are free numbers, drifts off by its truncation error. The
  // bench's drift integrator must drift far above the bound, else the bound tells nothing apart.
  const IntegratorInfo* drift = bench.catalogue->find_integrator(bench.drift_integrator);
  return Check::run("integrator " + bench.drift_integrator, "drifts off the manifold", [&](Check& c) {
    c.require(drift != nullptr, "the catalogue has no integrator " + bench.drift_integrator);
    const Defects d = manifold_defects(c, *drift, bench);
    c.measured("on " + d.model + ": ||I - R^T R|| " + g(d.R) + ", |q| - 1 " + g(d.q));
    c.require(d.R > 100 * kManifoldBound, "||I - R^T R|| " + g(d.R) + " is not far above the bound");
    c.require(d.q > 100 * kManifoldBound, "| |q| - 1 | " + g(d.q) + " is not far above the bound");
  });
}

Check check_on_manifold(const IntegratorInfo& info, const IntegratorBench& bench) {
  return Check::run(entry_of(info), "trait: stays on the manifold", [&](Check& c) {
    if (!info.traits.on_manifold) c.not_applicable("does not declare on_manifold");
    const Defects d = manifold_defects(c, info, bench);
    auto scope = c.context(d.model);
    c.measured("on " + d.model + ": ||I - R^T R|| " + g(d.R) + ", |q| - 1 " + g(d.q) + " over 2000 steps");
    c.expect(d.R < kManifoldBound, "declared on the manifold, but ||I - R^T R||_F reached " + g(d.R) + " (bound 1e-13)");
    c.expect(d.q < kManifoldBound, "declared on the manifold, but | |q_i| - 1 | reached " + g(d.q) + " (bound 1e-13)");
  });
}

std::vector<Check> check_integrator(const IntegratorInfo& info, const IntegratorBench& bench) {
  return {check_order(info, bench),          check_end_time(info, bench),       check_failed_step(info, bench),
          check_failure_report(info, bench), check_implicit_trait(info, bench), check_adaptive_trait(info, bench),
          check_step_back(info, bench),      check_momentum_map(info, bench),   check_form_type(info, bench),
          check_energy_behaviour(info, bench), check_on_manifold(info, bench)};
}

}  // namespace tb::conformance
