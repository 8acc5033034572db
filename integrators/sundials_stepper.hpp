#pragma once
// The shell every SUNDIALS one-step stepper (CVODE on the ODE form, IDA on the DAE form) shares:
// the context and its error handler, the set-up that reports instead of throwing, one step as
// one solver call in ONE_STEP mode with the stop time t_stop (so the step sequence does not
// depend on the observation grid and the solver never passes t_stop), the solver's own dense
// output within the last step, and the mapping of its flags and messages to a StepFailure.
// The solver's own calls (create, init, tolerances, linear solver, one step, counters) stay
// with each integrator.
//
// Failures (the TimeStepper contract): a failed solver call leaves time() and state() as they
// were, reports the solver's flag name, its last error message and the callback's note, and the
// stepper refuses further steps; so does a step that does not advance t (h below round-off:
// SUNDIALS only warns, "t + h = t", and would go on forever); a non-finite accepted state is a
// divergence (unstable at this tolerance).

#include <nvector/nvector_serial.h>

#include <Eigen/Core>
#include <array>
#include <functional>
#include <string>

#include "core/integrator.hpp"
#include "integrators/sundials_handles.hpp"

namespace tb::sundials {

// The solver's own statistics (CVodeGetNum*, IDAGetNum*, and the steps taken at each order),
// printed to stderr when the stepper ends if the environment variable
// TETHERBENCH_SUNDIALS_PROFILE is set (to anything): a profile of where a run's work went,
// kept out of summary.csv, whose columns other code reads.
bool profiling();
void print_profile(const std::string& line);

// Accepted steps per order (index 1..12), counted after each step while profiling.
struct OrderHistogram {
  std::array<long, 13> steps{};
  long last_steps = 0;
  void count(long steps_now, int order) {
    if (steps_now < last_steps) last_steps = 0;  // a restart at an event zeroed the solver's own count
    if (steps_now > last_steps && order >= 0 && order < int(steps.size())) steps[order] += steps_now - last_steps;
    last_steps = steps_now;
  }
  std::string describe() const;  // "q1 12 q2 300 ..." over the orders used
};

// What differs between the solvers' C interfaces where the shell calls them.
struct SolverApi {
  const char* name;                     // "CVODE", "IDA": the start of its messages
  const char* dky_call;                 // its dense-output call, named in messages
  char* (*return_flag_name)(long flag);  // CVodeGetReturnFlagName, IDAGetReturnFlagName
  int success, tstop_return, warning;   // its CV_/IDA_ SUCCESS, TSTOP_RETURN, WARNING
  int root_return;                      // its CV_/IDA_ ROOT_RETURN (a located zero of the root functions)
};

class Stepper : public TimeStepper {
 public:
  Stepper(const Stepper&) = delete;  // the solver holds `this` as its user data
  Stepper& operator=(const Stepper&) = delete;

  bool has_dense_output() const final { return true; }
  // The solver's interpolant at t within the last step; the step's state at its end (within
  // the runner's slack, at_step_end).
  void dense_state(double t, Eigen::VectorXd& y) const final;
  bool step(double t_stop, StepFailure& failure) final;

 protected:
  Stepper(const SolverApi& api, double t0, Eigen::VectorXd y0, double h0);

  // Runs the derived stepper's set-up ("" on success, else why it cannot run); an exception is
  // caught and kept as the reason. Every step() then fails with it.
  void start(const std::function<std::string()>& set_up);
  // The context, with errors routed to record_error (SUNDIALS 7: the context's handler stack;
  // SUNDIALS 6: the solver memory's handler, set by the solver with error_handler below).
  std::string create_context();
  // "" when flag >= 0, else the call, its flag's name and the solver's last message.
  std::string check(int flag, const char* call) const;
  std::string flag_name(long flag) const;

  // One solver call: set the stop time t_stop and take one step, writing the time reached; the
  // name of the call that failed in `call`. Returns the solver's flag.
  virtual int solve_one_step(double t_stop, double& t_reached, const char*& call) = 0;
  virtual N_Vector solution() const = 0;  // where solve_one_step leaves the state
  virtual int interpolate(double t, N_Vector into) const = 0;  // CVodeGetDky / IDAGetDky, order 0
  virtual void read_counters() = 0;
  // Where a failure happened, appended to its message ("" by default).
  virtual std::string failure_time(bool /*solver_call_failed*/, double /*t_reached*/) const { return ""; }
  // An accepted state (at_stop: the solver interpolated to t_stop) and a dense one: the place
  // to project them.
  virtual void accepted(bool /*at_stop*/, Eigen::VectorXd& /*y*/) {}
  // After a step that ended at a located root (issue 47, `locate_events`): restart the solver at
  // (t_, y_), its next step of order 1 from the kink (CVodeReInit / IDAReInit), so that no BDF
  // history from the other side of the kink enters a step after it. Called before the next step,
  // not at the root: until then the dense output still serves the samples inside the step.
  virtual std::string restart_at_event() { return ""; }
  // Whether this stepper locates events (`locate_events` on a form with switching functions), and
  // those functions at (t, y): for the interior check after a step (end_at_interior_switch).
  virtual bool locating() const { return false; }
  // At a located event (a root, or an interior switch), before the restart: the form's jump
  // (Formulation::apply_jump, a hybrid form's impact law; issue 48). None where the stepper's form
  // has no jumps wired (IDA: its consistent initial values after a jump are not re-solved).
  virtual void jump_at_event(double /*t*/, Eigen::VectorXd& /*y*/) const {}
  virtual void switching_at(double /*t*/, const Eigen::VectorXd& /*y*/, Eigen::VectorXd& s) const { s.resize(0); }
  virtual void interpolated(Eigen::VectorXd& /*y*/) const {}

  // The user data the error handlers expect (a Stepper*, whatever the derived type).
  void* handler_data() { return static_cast<Stepper*>(this); }
#if SUNDIALS_VERSION_MAJOR >= 7
  static void context_error_handler(int line, const char* function, const char* file, const char* msg,
                                    SUNErrCode code, void* user, SUNContext ctx);
#else
  static void error_handler(int code, const char* module, const char* function, char* msg, void* user);
#endif

  std::string callback_note_;  // why a callback refused, added to the failure message
  // Destroyed after the derived stepper's vectors, solvers and memory: the context outlives them.
  Context ctx_;
  Vector dky_;  // dense output

 private:
  void record_error(int code, const char* function, const char* msg);
  bool end_at_interior_switch();
  bool fail(StepFailure& failure, StepFailure::Kind kind, std::string reason);

  const SolverApi api_;
  const double h0_;    // the initial step (settings.h)
  double t_previous_;  // start of the last accepted step
  bool restart_pending_ = false;  // the last step ended at a located root
  // The counters before the last restart: CVodeReInit and IDAReInit zero the solver's own.
  StepCounters before_restart_;
  std::string setup_failure_;  // non-empty: the stepper never ran
  bool broken_ = false;
  std::string broken_reason_;
  std::string last_error_;  // the solver's last error message (error handler)
};

}  // namespace tb::sundials
