#pragma once
// SIGINT / SIGTERM end runs cleanly: the handler only raises a flag; the step loop sees it at
// the next step, ends the run as "interrupted at t = ..., step ..." with its time series kept,
// and the command writes its tables and exits with status 1. Jobs not yet started are not run.

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
// For tests: raise or clear the flag as the handler would.
void set_interrupted(bool value);
// For the resume test: with TETHERBENCH_TEST_STOP_AFTER_JOBS=N in the environment, the N-th call
// sends this process SIGTERM, as a kill midway would (the jobs running then end interrupted).
// The job pool calls it once per finished job; without the variable it does nothing.
void count_finished_job_for_resume_test();

}  // namespace tb
