#pragma once
// SIGINT / SIGTERM end runs cleanly: the handler only raises a flag; the step loop sees it at
// the next step, ends the run as "interrupted at t = ..., step ..." with its time series kept,
// and the command writes its tables and exits with status 1. Jobs not yet started are not run.

#include <exception>

namespace tb {

// Installs the handlers (the command line does, once); a second signal is left to the default
// action, so a stuck process can still be stopped.
void install_interrupt_handlers();
bool interrupted();
// For a library call that runs cases inside another program (the Python package, whose own SIGINT
// handler would only raise KeyboardInterrupt once the call returned): the handlers above for the
// scope's lifetime, the program's own put back and the flag cleared when it ends. was_interrupted()
// says whether a signal came meanwhile (the runs it cut short say so in their rows).
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  bool was_interrupted() const { return interrupted(); }

 private:
  struct Saved;
  Saved* saved_;
};
// A program that hears of an interrupt only when it looks (the Python interpreter: interrupt_main,
// or a signal handler of its own that raises, run only when the interpreter checks its signals)
// installs a poll for the scope of a call that runs cases on the installing thread. A run's step
// loop calls poll_interrupt() after each sample, outside its timed stretch: on the installing
// thread, at most every kPollSeconds of wall time, it calls the poll, and a true raises the flag
// above, so the run ends as "interrupted at t = ..." at its next step and no later run starts.
class InterruptPoll {
 public:
  static constexpr double kPollSeconds = 0.05;  // a notebook's interrupt answered within a blink
  explicit InterruptPoll(bool (*poll)());
  ~InterruptPoll();
  InterruptPoll(const InterruptPoll&) = delete;
  InterruptPoll& operator=(const InterruptPoll&) = delete;
};
void poll_interrupt();
// Thrown by a step (a Python method's, when its own code raised KeyboardInterrupt) that was
// interrupted within itself: the run ends as interrupted where the last step left it.
struct RunInterrupted : std::exception {
  const char* what() const noexcept override { return "interrupted within a step"; }
};

// For tests: raise or clear the flag as the handler would.
void set_interrupted(bool value);
// For the resume test: with TETHERBENCH_TEST_STOP_AFTER_JOBS=N in the environment, the N-th call
// sends this process SIGTERM, as a kill midway would (the jobs running then end interrupted).
// The job pool calls it once per finished job; without the variable it does nothing.
void count_finished_job_for_resume_test();

}  // namespace tb
