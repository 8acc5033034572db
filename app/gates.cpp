#include "app/gates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/format.hpp"
#include "core/table_reader.hpp"
#include "app/round_off.hpp"
#include "app/runner.hpp"

namespace tb {

namespace {

// The gate runs of every applicable run of the case: label -> summary row (n/a excluded).
std::map<std::string, SummaryRow> gate_runs(const Case& c, const Catalogue& catalogue) {
  RunOptions options;
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
  return {c.name, row.integrator, "outcome", BoundType::Fails, 0.0, EnvelopePolicy::Recorded, row.outcome.t, row.status()};
}

}  // namespace

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

std::vector<GateCheck> check_gates(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes) {
  std::vector<GateCheck> checks;
  const auto runs = gate_runs(c, catalogue);
  for (const auto& [name, row] : runs) {
    bool has_envelope = false;
    for (const auto& e : envelopes) {
      if (e.case_name != c.name || e.integrator != name) continue;
      has_envelope = true;
      GateCheck g{c.name, name, e.metric, false, ""};
      if (!expects_failure(e) && !row.violable.covers(e.metric)) {
        // Its value is 0 by construction, so a bound on it would pass whatever the method does.
        g.message = "case " + c.name + ", integrator " + name + ": metric " + e.metric +
                    " is not integrated by this run's formulation (nothing in it can violate it): the envelope "
                    "gates nothing; `tetherbench gate --record` drops it";
      } else if (expects_failure(e)) {
        g.pass = row.outcome.fails();
        g.message = "case " + c.name + ", integrator " + name + ": expected to fail (recorded: " + e.note + "); " +
                    (g.pass ? "it does: " + row.status()
                            : "it completed, so the method's behaviour changed: re-record with `tetherbench gate --record`");
      } else if (!row.outcome.ok()) {
        g.message = "case " + c.name + ", integrator " + name + ": gate run " + row.status();
      } else {
        const double value = metric_value(row.metrics, e.metric), bound = effective_bound(e, row);
        g.pass = e.bound_type == BoundType::Max ? value <= bound : value >= bound;
        g.message = gate_message(e, value, bound);
      }
      checks.push_back(g);
    }
    if (!has_envelope)
      checks.push_back({c.name, name, "", false,
                        "case " + c.name + ", integrator " + name + " (" + row.status() +
                            "): no envelope in reference/envelopes.csv (record one with `tetherbench gate --record`)"});
  }
  return checks;
}

std::vector<Envelope> record_envelopes(const Case& c, const Catalogue& catalogue, const std::vector<Envelope>& envelopes) {
  const auto runs = gate_runs(c, catalogue);
  std::vector<Envelope> out;
  // Which (run, metric) pairs already have an envelope: a default metric missing from a run that
  // has others (a metric added to the registry after the run was first recorded) is added below,
  // so a new default metric reaches every run at its next --record.
  std::set<std::pair<std::string, std::string>> has_envelope;
  for (Envelope e : envelopes) {
    if (e.case_name == c.name) {
      auto run = runs.find(e.integrator);
      if (run == runs.end()) continue;  // the run no longer applies: drop its envelope
      const SummaryRow& row = run->second;
      if (row.outcome.fails()) {
        // A failing run is recorded as expected to fail; fixed claims stay for review.
        if (e.policy == EnvelopePolicy::Fixed) out.push_back(e);
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
      out.push_back(failure_envelope(c, row));
      continue;
    }
    // The registry's default gate metrics (MetricSpec::default_gate) that this run can violate
    // (ViolableInvariants) and that have no envelope yet; a NaN value gets none either.
    for (const MetricSpec& metric : metric_registry()) {
      if (!metric.default_gate || has_envelope.count({name, std::string(metric.name)})) continue;
      if (!row.violable.covers(metric)) continue;  // not integrated: its 0 would gate nothing
      const double value = metric.value(row.metrics);
      if (std::isnan(value)) continue;
      out.push_back({c.name, name, std::string(metric.name), BoundType::Max,
                     recorded_bound(BoundType::Max, value, round_off_floor(metric, row)), EnvelopePolicy::Recorded, value, ""});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Envelope& a, const Envelope& b) {
    return std::tie(a.case_name, a.integrator) < std::tie(b.case_name, b.integrator);
  });
  return out;
}

}  // namespace tb
