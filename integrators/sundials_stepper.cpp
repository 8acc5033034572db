#include "integrators/sundials_stepper.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <utility>

#include "core/format.hpp"
#include "core/switching.hpp"

namespace tb::sundials {

bool profiling() {
  static const bool on = std::getenv("TETHERBENCH_SUNDIALS_PROFILE") != nullptr;
  return on;
}

void print_profile(const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); }

std::string OrderHistogram::describe() const {
  std::string out;
  for (std::size_t q = 0; q < steps.size(); ++q)
    if (steps[q] > 0) out += (out.empty() ? "q" : " q") + std::to_string(q) + " " + std::to_string(steps[q]);
  return out;
}

Stepper::Stepper(const SolverApi& api, double t0, Eigen::VectorXd y0, double h0)
    : TimeStepper(t0, std::move(y0)), api_(api), h0_(h0), t_previous_(t0) {}

void Stepper::start(const std::function<std::string()>& set_up) {
  try {
    setup_failure_ = set_up();
  } catch (const std::exception& e) {
    setup_failure_ = std::string(api_.name) + " set-up failed: " + e.what();
  }
}

std::string Stepper::create_context() {
  SUNContext raw_ctx = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  // SUNDIALS 7: the context takes a communicator, and errors go to the context's handler stack
  // (the solvers' SetErrHandlerFn is gone); replace the default, which prints to stderr.
  if (SUNContext_Create(SUN_COMM_NULL, &raw_ctx) != 0) return "SUNContext_Create failed";
  ctx_.reset(raw_ctx);
  if (SUNContext_ClearErrHandlers(raw_ctx) != 0 ||
      SUNContext_PushErrHandler(raw_ctx, context_error_handler, handler_data()) != 0)
    return "SUNContext_PushErrHandler failed";
#else
  if (SUNContext_Create(nullptr, &raw_ctx) != 0) return "SUNContext_Create failed";
  ctx_.reset(raw_ctx);
#endif
  return "";
}

std::string Stepper::flag_name(long flag) const { return sundials::flag_name(api_.return_flag_name(flag), api_.name, flag); }

std::string Stepper::check(int flag, const char* call) const {
  if (flag >= 0) return "";
  return std::string(call) + " failed with " + flag_name(flag) + (last_error_.empty() ? "" : ": " + last_error_);
}

void Stepper::dense_state(double t, Eigen::VectorXd& y) const {
  if (!setup_failure_.empty() || at_step_end(t, t_, std::max(h0_, t_ - t_previous_))) {
    y = y_;
    return;
  }
  const int flag = interpolate(t, dky_.get());
  if (flag != api_.success)
    throw std::out_of_range(std::string(api_.dky_call) + "(t = " + format_e(t) + ") failed with " + flag_name(flag) +
                            ": dense output is only valid within the last step");
  y = view(dky_.get());
  interpolated(y);
}

bool Stepper::fail(StepFailure& failure, StepFailure::Kind kind, std::string reason) {
  broken_ = true;
  broken_reason_ = std::move(reason);
  failure = {kind, broken_reason_};
  return false;  // y_, t_ untouched: they only ever take accepted values
}

bool Stepper::step(double t_stop, StepFailure& failure) {
  failure.kind = StepFailure::Kind::SolverFailed;
  if (!setup_failure_.empty()) {
    failure.reason = setup_failure_;
    return false;
  }
  if (broken_) {
    failure.reason = std::string(api_.name) + " already failed: " + broken_reason_;
    return false;
  }
  if (!(t_stop > t_)) {
    failure.reason = "no time left to step";
    return false;
  }
  last_error_.clear();
  callback_note_.clear();
  if (restart_pending_) {
    restart_pending_ = false;
    before_restart_ = counters_;
    if (std::string why = restart_at_event(); !why.empty())
      return fail(failure, StepFailure::Kind::SolverFailed, "restarting at the event at t = " + format_e(t_) + ": " + why);
  }
  double t_reached = t_;
  const char* call = "";
  const int flag = solve_one_step(t_stop, t_reached, call);
  read_counters();
  counters_.steps += before_restart_.steps;
  counters_.rhs_evals += before_restart_.rhs_evals;
  counters_.newton_iters += before_restart_.newton_iters;
  counters_.error_test_failures += before_restart_.error_test_failures;
  const std::string note = callback_note_.empty() ? "" : " (" + callback_note_ + ")";
  if (flag < 0)
    return fail(failure, StepFailure::Kind::SolverFailed,
                std::string(call) + " failed with " + flag_name(flag) + failure_time(true, t_reached) +
                    (last_error_.empty() ? "" : ": " + last_error_) + note);
  // At the stop time the solver interpolates to t_stop itself; land on it exactly.
  const double t_new = flag == api_.tstop_return ? t_stop : t_reached;
  if (!(t_new > t_))  // h below round-off at t: e.g. the model turns NaN just after t and every shorter step is rejected
    return fail(failure, StepFailure::Kind::SolverFailed,
                std::string(api_.name) + "'s step size fell below round-off (t + h = t) at t = " + format_e(t_) + note);
  const auto y_new = view(solution());
  if (!y_new.allFinite())
    return fail(failure, StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)" + failure_time(false, t_reached));
  y_ = y_new;
  t_previous_ = t_;
  t_ = t_new;
  accepted(flag == api_.tstop_return, y_);
  restart_pending_ = flag == api_.root_return;
  if (!restart_pending_ && locating()) restart_pending_ = end_at_interior_switch();
  if (restart_pending_) jump_at_event(t_, y_);
  return true;
}

// The solvers' root finding compares the root functions' signs at a step's two ends (CVODE and
// IDA user guides, "Rootfinding": it may miss a root of even multiplicity, and so a pair of roots
// inside one step). A step that passes over a whole taut phase of a tension-only element (a catch
// and its release, 0.03 s on the whirling string, inside a 0.1 s step of its slack flight) has no
// sign change at its ends, though its interpolant passes through the taut side: the samples inside
// it then show a stretched spring with the flight's velocity (4.4 J of energy error on that case).
// So after each step the interpolant is probed at kInteriorProbes points; at the first probe where
// a function has changed side, its zero is bracketed on the interpolant (bracket_switch) and the
// step ends there, with the restart a root would have brought.
bool Stepper::end_at_interior_switch() {
  constexpr int kInteriorProbes = 32;
  Eigen::VectorXd y, s_start, s;
  dense_state(t_previous_, y);
  switching_at(t_previous_, y, s_start);
  double t_before = t_previous_;
  for (int k = 1; k < kInteriorProbes; ++k) {
    const double t = t_previous_ + (t_ - t_previous_) * k / kInteriorProbes;
    dense_state(t, y);
    switching_at(t, y, s);
    double t_event = t;
    bool found = false;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
      if (switching_side(s[i]) == switching_side(s_start[i])) continue;
      const double a = t_before, sa = [&] {
        Eigen::VectorXd ya, sv;
        dense_state(a, ya);
        switching_at(a, ya, sv);
        return sv[i];
      }();
      t_event = std::min(t_event, bracket_switch(a, t, sa, s[i], t, [&](double m) {
                           Eigen::VectorXd ym, sv;
                           dense_state(m, ym);
                           switching_at(m, ym, sv);
                           return sv[i];
                         }));
      found = true;
    }
    if (found) {
      dense_state(t_event, y_);
      t_ = t_event;
      return true;
    }
    t_before = t;
  }
  return false;
}

void Stepper::record_error(int code, const char* function, const char* msg) {
  if (code == api_.warning) return;  // e.g. "t + h = t": the solver goes on, the failure (if any) comes later
  last_error_ = std::string(function ? function : api_.name) + ": " + (msg ? msg : "");
}

#if SUNDIALS_VERSION_MAJOR >= 7
void Stepper::context_error_handler(int /*line*/, const char* function, const char* /*file*/, const char* msg,
                                    SUNErrCode code, void* user, SUNContext /*ctx*/) {
  static_cast<Stepper*>(user)->record_error(code, function, msg);
}
#else
void Stepper::error_handler(int code, const char* /*module*/, const char* function, char* msg, void* user) {
  static_cast<Stepper*>(user)->record_error(code, function, msg);
}
#endif

}  // namespace tb::sundials
