#include "app/input/run_records.hpp"

#include <cstdio>

#include "core/format.hpp"

namespace tb {

std::string RunOutcome::describe() const {
  switch (kind) {
    case Kind::Ok: {
      std::string out = "ok";
      for (const std::string* part : {&momentum_drift, &manifold_drift, &note, &accrued, &episode})
        if (!part->empty()) out += "; " + *part;
      return out;
    }
    case Kind::NotApplicable: return "n/a: " + reason;
    case Kind::Unstable: {
      char from[96];
      std::snprintf(from, sizeof from, energy_jump ? "energy jump at t = %.6g s (step %ld): " : "unstable from t = %.6g s (step %ld): ",
                    t, step);
      // The jump's reason repeats the status's first words ("energy jump: ..."): said once.
      const std::string_view lead = "energy jump: ";
      const std::string why = energy_jump && reason.rfind(lead, 0) == 0 ? reason.substr(lead.size()) : reason;
      return from + why + ", at " + (adaptive ? "rtol = " + format_g(rtol, 3) : "h = " + format_g(h, 6));
    }
    case Kind::Failed:
    case Kind::Interrupted: break;
  }
  char where[96];
  std::snprintf(where, sizeof where, " at t = %.6g s, step %ld", t, step);
  // A run the signal came before: not started (the job pool starts no more), not "at t = 0".
  if (kind == Kind::Interrupted) return step == 0 ? "interrupted before its first step (not started)" : "interrupted" + std::string(where);
  // A fixed-step run whose state became non-finite: "diverged", the word of its state and of the
  // index's legend (issue 44: one vocabulary), at the step that did it.
  if (diverged && !adaptive) return "diverged at h = " + format_g(h, 6) + ": " + reason + where;
  return "failed: " + reason + where;
}

std::string_view RunOutcome::word() const {
  switch (kind) {
    case Kind::Ok: return note.empty() && momentum_drift.empty() && manifold_drift.empty() ? "ok" : "drift";
    case Kind::NotApplicable: return "n/a";
    case Kind::Unstable: return energy_jump ? "energy jump" : "unstable";
    case Kind::Interrupted: return "interrupted";
    case Kind::Failed: return diverged ? "diverged" : "failed";
  }
  return "failed";
}

std::string RunOutcome::drifts() const {
  if (kind != Kind::Ok) return "";
  std::string out = note.empty() ? "" : "energy";
  if (!momentum_drift.empty()) out += out.empty() ? "linear_momentum" : " linear_momentum";
  if (!manifold_drift.empty()) {
    const char* what = manifold_rotations ? "orthogonality" : "constraint";
    out += out.empty() ? what : std::string(" ") + what;
  }
  return out;
}

RunOutcome RunOutcome::interrupted_at(double t, long step) {
  RunOutcome o;
  o.kind = Kind::Interrupted;
  o.t = t;
  o.step = step;
  return o;
}

RunOutcome RunOutcome::not_applicable_because(std::string why) {
  RunOutcome o;
  o.kind = Kind::NotApplicable;
  o.reason = std::move(why);
  return o;
}

RunOutcome RunOutcome::failed_at(std::string reason, double t, long step, bool diverged) {
  RunOutcome o;
  o.kind = Kind::Failed;
  o.reason = std::move(reason);
  o.t = t;
  o.step = step;
  o.diverged = diverged;
  return o;
}

std::string run_label(const std::string& integrator, const Model& model, const std::string& discretisation) {
  return discretisation == model.default_discretisation() ? integrator : integrator + "@" + discretisation;
}

std::string RunKey::label() const { return run_label(integrator->name, *c->model, discretisation); }

}  // namespace tb
