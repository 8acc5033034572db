#pragma once
// What one step of an implicit mechanical scheme returns (the RATTLE step, the
// generalized-alpha step), and how a stepper books it: the step's Newton iterations and force
// evaluations count whether or not it succeeded, its failure is handed on.

#include <string>
#include <utility>

#include "core/integrator.hpp"

namespace tb {

struct ImplicitStepResult {
  bool ok = true;
  StepFailure failure;
  int newton_iters = 0;
  int force_evals = 0;
};

// Marks the step failed, with its kind and reason; returns false, so that a stage of a step can
// `return fail(out, kind, why)`.
inline bool fail(ImplicitStepResult& r, StepFailure::Kind kind, std::string why) {
  r.ok = false;
  r.failure = {kind, std::move(why)};
  return false;
}

// Adds the step's work to `counters`, copies its failure into `failure` when it failed; returns ok.
inline bool book(const ImplicitStepResult& r, StepCounters& counters, StepFailure& failure) {
  counters.newton_iters += r.newton_iters;
  counters.rhs_evals += r.force_evals;
  if (!r.ok) failure = r.failure;
  return r.ok;
}

}  // namespace tb
