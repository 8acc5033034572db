#include "app/judging/gates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "app/running/round_off.hpp"
#include "app/running/runner.hpp"

namespace tb {

namespace {

// The gate runs of every applicable run of the case: label -> summary row (n/a excluded).
std::map<std::string, SummaryRow> gate_runs(const Case& c, const Catalogue& catalogue) {
  RunOptions options = RunOptions::untimed();  // no envelope bounds a runtime
  options.t_end = c.report.gate_t_end;
  std::map<std::string, SummaryRow> rows;
  for (const auto& key : runs_of(c, catalogue.integrators)) {
    SummaryRow row = run_case(key, options);
    if (!row.outcome.not_applicable()) rows.emplace(row.integrator, std::move(row));
  }
  return rows;
}

bool expects_failure(const Envelope& e) { return e.bound_type == BoundType::Fails; }

// The bound a value is checked against: an upper bound never below the run's round-off floor.
double effective_bound(const Envelope& e, const SummaryRow& row) {
  return e.bound_type == BoundType::Max ? std::max(e.bound, round_off_floor(e.metric, row)) : e.bound;
}

std::string gate_message(const Envelope& e, double value, double bound) {
  return "case " + e.case_name + ", integrator " + e.integrator + ", metric " + e.metric + " = " + format_g(value, 4) +
         ", bound " + (e.bound_type == BoundType::Max ? "<= " : ">= ") + format_g(bound, 4) + " (" +
         std::string(enum_text(e.policy)) + (e.policy == EnvelopePolicy::Recorded ? ", recorded value " + format_g(e.recorded_value, 4) : std::string()) +
         (bound != e.bound ? ", round-off floor of this run; stored bound " + format_g(e.bound, 4) : std::string()) +
         (e.note.empty() ? "" : "; " + e.note) + ")";
}

double recorded_bound(BoundType bound_type, double value, double floor) {
  return bound_type == BoundType::Max ? std::max(2.0 * value, floor) : 0.5 * value;
}

Envelope failure_envelope(const Case& c, const SummaryRow& row) {
  Envelope e{c.name, row.integrator, "outcome", BoundType::Fails, failure_time_bound(row.outcome.t, row.outcome.h),
             EnvelopePolicy::Recorded, row.outcome.t, failure_kind(row.outcome), row.outcome.step, row.status()};
  return e;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// The kind of a Failed run from its reason (the text the runner or the integrator gave).
FailureKind failure_kind_of_reason(const std::string& reason) {
  if (starts_with(reason, "crashed")) return FailureKind::Crashed;
  if (starts_with(reason, "integrator contract")) return FailureKind::Contract;
  // A run that stopped making progress past the per-run time limit (app/running/isolation.hpp: "hung: ...").
  if (starts_with(reason, "hung")) return FailureKind::Timeout;
  // What the runner catches: the model's or the integrator's exception, in a step, while building
  // the stepper or the formulation, or while reading the physical state (app/running/runner.cpp).
  for (const char* thrown : {"exception", "building the stepper failed", "building the formulation failed", "physical state:"})
    if (starts_with(reason, thrown)) return FailureKind::Exception;
  return FailureKind::Solver;  // the step's own solver said why (StepFailure::Kind::SolverFailed)
}

}  // namespace

FailureKind failure_kind(const RunOutcome& outcome) {
  if (outcome.unstable()) return FailureKind::Unstable;
  if (!outcome.failed()) return FailureKind::None;
  if (outcome.diverged) return FailureKind::Diverged;
  return failure_kind_of_reason(outcome.reason);
}

FailureKind failure_kind_of_status(const std::string& status) {
  // "diverged at h" (this suite), "unstable at h" (a report or envelope file of an older version).
  if (starts_with(status, "diverged at h") || starts_with(status, "unstable at h")) return FailureKind::Diverged;
  // "energy jump at": completed past the energy bound by one step's gain (RunOutcome::energy_jump).
  if (starts_with(status, "unstable from") || starts_with(status, "energy jump at")) return FailureKind::Unstable;
  if (starts_with(status, "failed: ")) return failure_kind_of_reason(status.substr(8));
  return FailureKind::None;
}

double failure_time_bound(double t_recorded, double h) {
  return std::max(0.0, t_recorded - std::max(kFailureTimeFraction * t_recorded, kFailureTimeSteps * std::abs(h)));
}

std::string failure_tolerance_text() {
  return format_g(100 * kFailureTimeFraction) + "% of the recorded time or " + format_g(kFailureTimeSteps) +
         " steps, whichever is more";
}

GateCheck judge_failure(const Envelope& e, const SummaryRow& row, const EnvelopeFileHint& hint) {
  GateCheck g{e.case_name, row.integrator, e.metric, GateResult::Failed, ""};
  const std::string who = "case " + e.case_name + ", integrator " + row.integrator + ": ";
  const std::string recorded = std::string(enum_text(e.failure_kind)) + " at t = " + format_g(e.recorded_value, 4) +
                               " s, step " + std::to_string(e.failure_step);
  const std::string rerecord = "; if the change is meant, re-record with `" + hint.record_command + "` (" + hint.file + ")";
  if (!row.outcome.fails()) {
    g.message = who + "changed outcome: expected to fail (" + recorded + ": " + e.note + "), but the run " + row.status() +
                rerecord;
    return g;
  }
  const FailureKind now = failure_kind(row.outcome);
  const std::string measured = std::string(enum_text(now)) + " at t = " + format_g(row.outcome.t, 4) + " s, step " +
                               std::to_string(row.outcome.step);
  if (now != e.failure_kind) {
    g.message = who + "fails another way: now " + measured + " (" + row.status() + "), recorded " + recorded + rerecord;
  } else if (row.outcome.t < e.bound) {
    g.message = who + "fails earlier than recorded: now " + measured + ", recorded " + recorded + "; the gate allows no earlier than t = " +
                format_g(e.bound, 4) + " s (" + failure_tolerance_text() + ": " + row.status() + ")";
  } else {
    g.result = GateResult::Ok;
    g.message = who + "expected to fail (" + recorded + "); it does: " + measured + ", no earlier than t = " +
                format_g(e.bound, 4) + " s (" + row.status() + ")";
  }
  return g;
}

void check_envelope_metrics(const std::string& file, const std::vector<Envelope>& envelopes) {
  const ConservationMetrics probe;
  for (size_t i = 0; i < envelopes.size(); ++i) {
    const Envelope& e = envelopes[i];
    if (expects_failure(e)) continue;
    try {
      metric_value(probe, e.metric);
    } catch (const std::out_of_range& err) {
      throw InputError(file + ": data row " + std::to_string(i + 1) + " (case " + e.case_name + ", integrator " +
                       e.integrator + "): column 'metric': " + err.what());
    }
  }
}

std::vector<GateCheck> check_gates(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes,
                                   const EnvelopeFileHint& hint) {
  std::vector<GateCheck> checks;
  const auto runs = gate_runs(c, catalogue);
  for (const auto& [name, row] : runs) {
    bool has_envelope = false;
    for (const auto& e : envelopes) {
      if (e.case_name != c.name || e.integrator != name) continue;
      has_envelope = true;
      GateCheck g{c.name, name, e.metric, GateResult::Failed, ""};
      if (expects_failure(e)) {
        g = judge_failure(e, row, hint);
      } else if (!row.violable.covers(e.metric)) {
        // Its value is 0 by construction, so a bound on it would pass whatever the method does.
        g.message = "case " + c.name + ", integrator " + name + ": metric " + e.metric +
                    " is not integrated by this run's formulation (nothing in it can violate it): the envelope "
                    "gates nothing; `" + hint.record_command + "` drops it from " + hint.file;
      } else if (!row.outcome.ok()) {
        g.message = "case " + c.name + ", integrator " + name + ": gate run " + row.status();
      } else {
        const double value = metric_value(row.metrics, e.metric), bound = effective_bound(e, row);
        g.result = (e.bound_type == BoundType::Max ? value <= bound : value >= bound) ? GateResult::Ok : GateResult::Failed;
        g.message = gate_message(e, value, bound);
      }
      checks.push_back(g);
    }
    // Nothing recorded to check against: a failure (a gate that passed an unguarded run would let CI
    // pass a change it never checked), named by what is missing, the envelope, rather than left blank.
    if (!has_envelope)
      checks.push_back({c.name, name, "envelope", GateResult::Failed,
                        "case " + c.name + ", integrator " + name + " (" + row.status() + "): no envelope in " + hint.file +
                            " (record one with `" + hint.record_command + "`)"});
  }
  return checks;
}

RecordedEnvelopes record_envelopes(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes,
                                   bool accept_failures) {
  const auto runs = gate_runs(c, catalogue);
  RecordedEnvelopes result;
  std::vector<Envelope>& out = result.rows;
  // A failing run is recorded only when a fails row already expects it to fail this way and no
  // earlier (the gate would pass it), or when the caller accepts failures: --record never turns a
  // gate that fails into one that passes on its own.
  for (const auto& [name, row] : runs) {
    if (!row.outcome.fails() || accept_failures) continue;
    bool expected = false;
    for (Envelope e : envelopes)
      if (e.case_name == c.name && e.integrator == name && expects_failure(e)) {
        // A row of the format before kinds: its kind from the status it recorded.
        if (e.failure_kind == FailureKind::None) e.failure_kind = failure_kind_of_status(e.note);
        expected = expected || judge_failure(e, row, {}).pass();
      }
    if (!expected) result.refused.push_back("case " + c.name + ", run " + name + ": " + row.status());
  }
  // Which (run, metric) pairs already have an envelope: a default metric missing from a run that
  // has others (a metric added to the registry after the run was first recorded) is added below,
  // so a new default metric reaches every run at its next --record.
  std::set<std::pair<std::string, std::string>> has_envelope;
  std::set<std::string> fixed_failure;  // runs whose fails row is fixed: no recorded one beside it
  for (Envelope e : envelopes) {
    if (e.case_name == c.name) {
      auto run = runs.find(e.integrator);
      if (run == runs.end()) continue;  // the run no longer applies: drop its envelope
      const SummaryRow& row = run->second;
      if (row.outcome.fails()) {
        // A failing run is recorded as expected to fail; fixed claims (a fixed fails row too)
        // stay for review.
        if (e.policy == EnvelopePolicy::Fixed) {
          out.push_back(e);
          if (expects_failure(e)) fixed_failure.insert(e.integrator);
        }
        continue;
      }
      if (expects_failure(e)) continue;  // it completes now: standard rows are added below
      if (!row.violable.covers(e.metric)) continue;  // not integrated: nothing to gate
      has_envelope.insert({e.integrator, e.metric});
      e.recorded_value = metric_value(row.metrics, e.metric);
      if (e.policy == EnvelopePolicy::Recorded) e.bound = recorded_bound(e.bound_type, e.recorded_value, round_off_floor(e.metric, row));
    }
    out.push_back(e);
  }
  for (const auto& [name, row] : runs) {
    if (row.outcome.fails()) {
      if (!fixed_failure.count(name)) out.push_back(failure_envelope(c, row));
      continue;
    }
    // The registry's default gate metrics (MetricSpec::default_gate) that this run can violate
    // (ViolableInvariants) and that have no envelope yet; a NaN value gets none either.
    for (const MetricSpec& metric : metric_registry()) {
      if (!metric.default_gate || has_envelope.count({name, std::string(metric.name)})) continue;
      if (!row.violable.covers(metric)) continue;  // not integrated: its 0 would gate nothing
      const double value = metric.value(row.metrics);
      if (std::isnan(value)) continue;
      Envelope e;
      e.case_name = c.name, e.integrator = name, e.metric = std::string(metric.name), e.bound_type = BoundType::Max;
      e.bound = recorded_bound(BoundType::Max, value, round_off_floor(metric, row));
      e.policy = EnvelopePolicy::Recorded, e.recorded_value = value;
      out.push_back(e);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Envelope& a, const Envelope& b) {
    return std::tie(a.case_name, a.integrator) < std::tie(b.case_name, b.integrator);
  });
  return result;
}

}  // namespace tb
