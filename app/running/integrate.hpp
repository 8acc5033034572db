#pragma once
// integrate(): the step loop every run goes through, below the measurement (app/running/runner.hpp
// measure()) and beside the case's energy scale (app/running/energy_scale.cpp), which both call it.

#include "app/input/run_records.hpp"

namespace tb {

// Low level: one integrator on one formulation, no I/O. Samples: t0, every sample_interval
// (dense output for adaptive methods; the first step end at or after each grid time for
// fixed-step methods), and t_end. runtime_s is the wall time of the step loops between
// samples (whole loops timed, observation excluded). Exceptions from the stepper or the
// model become a failed outcome.
// step_at_sample, when given, holds the stepper's accepted steps at every call of the observer
// (for a dense-output sample: the steps up to and including the one that contains it), so that
// an observer can say at which step something happened.
// A run's formulation, or null with `outcome` saying why not: n/a with the model's reason where it
// offers none, failed where building it threw (the observers of the event studies build their own).
std::unique_ptr<Formulation> formulation_of_run(const RunKey& key, RunOutcome& outcome);

IntegrationOutcome integrate(const Formulation& form, const IntegratorInfo& info, const IntegratorSettings& settings,
                             double t_end, double sample_interval, const SampleObserver& observer,
                             const ProgressReporter& progress = {}, long* step_at_sample = nullptr);

}  // namespace tb
