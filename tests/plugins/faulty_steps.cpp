// Loads fine; each of its integrators is Heun's method (explicit, order 2) until its step
// `fault_step` (default 100: t = 0.1 s at h = 1 ms), where it commits one fault. Every fault is
// that run's failure, never the end of the other runs (app/running/isolation.hpp, app/running/runner.cpp):
//   faulty_segv          dereferences a null pointer (SIGSEGV)
//   faulty_fpe           divides an integer by zero (SIGFPE)
//   faulty_abort         calls abort() (SIGABRT, as a failed assert does)
//   faulty_throw_int     throws an int (not a std::exception)
//   faulty_exit          calls exit(3) (the process ends without a signal)
//   faulty_hang          loops for ever (a hang: stopped past --time-limit)
//   faulty_nan_success   returns success with a NaN state (the integrator contract)
//   faulty_wrong_size    returns success with a state one entry short (the integrator contract)
//   faulty_stuck_time    returns success without advancing time (the integrator contract)
#include <csignal>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/plugin.hpp"

namespace {

using namespace tb;

enum class Fault { Segv, Fpe, Abort, ThrowInt, Exit, Hang, NanSuccess, WrongSize, StuckTime };

volatile int g_zero = 0;        // read at run time, so the compiler cannot fold the division
int* volatile g_null = nullptr;  // likewise the null pointer

class FaultyStepper final : public TimeStepper {
 public:
  FaultyStepper(const OdeFormulation& ode, double h, long fault_step, Fault fault, double t0)
      : TimeStepper(t0, ode.initial_state()), ode_(ode), h_(h), fault_step_(fault_step), fault_(fault) {}

  bool step(double t_stop, StepFailure&) override {
    const long n = counters_.steps + 1;
    if (n == fault_step_) {
      switch (fault_) {
        case Fault::Segv: *g_null = 1; break;
        case Fault::Fpe: g_sink = 1 / g_zero; std::raise(SIGFPE); break;  // x86 traps; raise where it does not
        case Fault::Abort: std::abort();
        case Fault::ThrowInt: throw 42;
        case Fault::Exit: std::exit(3);
        case Fault::Hang:
          for (;;) g_sink = g_sink + 1;
        case Fault::NanSuccess:
          y_.setConstant(std::numeric_limits<double>::quiet_NaN());
          t_ += h_;
          ++counters_.steps;
          return true;
        case Fault::WrongSize:
          y_.conservativeResize(y_.size() - 1);
          t_ += h_;
          ++counters_.steps;
          return true;
        case Fault::StuckTime: ++counters_.steps; return true;
      }
    }
    const double dt = std::min(h_, t_stop - t_);
    ode_.rhs(t_, y_, k1_);
    ode_.rhs(t_ + dt, y_ + dt * k1_, k2_);
    counters_.rhs_evals += 2;
    y_ += dt / 2 * (k1_ + k2_);
    t_ = t_ + dt >= t_stop - 1e-12 * h_ ? t_stop : t_ + dt;
    ++counters_.steps;
    return true;
  }

 private:
  static inline volatile long g_sink = 0;
  const OdeFormulation& ode_;
  double h_;
  long fault_step_;
  Fault fault_;
  Eigen::VectorXd k1_, k2_;
};

IntegratorInfo faulty(const std::string& name, Fault fault, const std::string& what) {
  return {name, 2, false, MethodTraits{}, "Heun's method until step fault_step, where it " + what,
          {positive_integer_setting("fault_step", "the step at which the fault happens", 100)},
          consuming([fault](const OdeFormulation& ode, const IntegratorSettings& s, double t0) {
            return std::make_unique<FaultyStepper>(ode, s.h, long(s.get("fault_step")), fault, t0);
          })};
}

void register_entries(PluginRegistrar& add) {
  add.integrator(faulty("faulty_segv", Fault::Segv, "dereferences a null pointer"));
  add.integrator(faulty("faulty_fpe", Fault::Fpe, "divides an integer by zero"));
  add.integrator(faulty("faulty_abort", Fault::Abort, "calls abort()"));
  add.integrator(faulty("faulty_throw_int", Fault::ThrowInt, "throws an int"));
  add.integrator(faulty("faulty_exit", Fault::Exit, "calls exit(3)"));
  add.integrator(faulty("faulty_hang", Fault::Hang, "loops for ever"));
  add.integrator(faulty("faulty_nan_success", Fault::NanSuccess, "returns success with a NaN state"));
  add.integrator(faulty("faulty_wrong_size", Fault::WrongSize, "returns success with a state one entry short"));
  add.integrator(faulty("faulty_stuck_time", Fault::StuckTime, "returns success without advancing time"));
}

}  // namespace

TETHERBENCH_PLUGIN("faulty_steps", "1.0", register_entries)
