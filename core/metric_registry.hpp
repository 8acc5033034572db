#pragma once
// The one declaration of every conservation metric (issue 33 item 5). Each metric is a row of
// metric_registry() (core/metric_registry.cpp): its summary-column name, unit, table label,
// meaning, round-off floor scale, which declaration of ViolableInvariants says whether a run can
// violate it, its growth law, whether the gates bound it by default, its role in the tables and
// how its value is read from ConservationMetrics. Everything that lists metrics reads this table:
// metric_names() and metric_value() (below), ViolableInvariants::covers and
// not_integrated(), a job result's bytes (app/running/job_result.hpp: every stored field of a row), the
// summary's columns and Markdown tables (app/writing/summary.cpp, app/writing/summary_markdown.cpp), the cells the
// report's index prints (app/judging/metric_cells.hpp), the round-off floors (app/running/round_off.hpp), the gates'
// default envelopes (app/judging/gates.cpp) and the papers' verdicts (studies/paper_comparison/paper_verdict.cpp).
//
// Adding a metric: one row here; for a model's own conserved scalar (a Casimir), also one row of
// invariant_specs() and the model's Observation::invariants[invariant_slot(name)] (NaN where the
// model has none); tests/test_metric_registry.cpp checks the row against the columns, the bytes
// and the CSV. The kernel names no model: the rows say what a quantity is, never whose it is.

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/invariant_values.hpp"

namespace tb {

struct ConservationMetrics;

// A conserved scalar some model reports (a Casimir of its Lie–Poisson bracket, ...). A model
// without it leaves its slot NaN, and its metrics are "n/a (<absent>)" for that model's runs.
struct InvariantSpec {
  std::string_view name;    // "casimir": the slot's name, what a model asks invariant_slot() for
  std::string_view absent;  // the n/a reason where a model has none: "no Casimir"
};
const std::vector<InvariantSpec>& invariant_specs();
// The slot of the invariant of that name; std::out_of_range naming the known ones otherwise.
std::size_t invariant_slot(std::string_view name);

// The magnitude a metric's round-off floor scales with (app/running/round_off.hpp: Brouwer's law):
// Unit: dimensionless, or lengths of order one; EnergyPerSecond: the energy over the run's
// duration (a drift rate); Invariant: the invariant's own |value at t = 0|.
enum class RoundOffScale { Unit, Energy, EnergyPerSecond, Momentum, LinearMomentum, Invariant };

// The growth law fitted to a metric's error (ConservationMetrics::energy_growth, momentum_growth).
enum class GrowthOf { None, Energy, Momentum };

// Which declaration says whether a run's formulation can violate the metric (ViolableInvariants):
// Always (the energy balance), or the member of that name; Invariant: the slot's model reports it.
enum class Violable { Always, Momentum, LinearMomentum, Constraints, ConstraintRates, Rotations, Invariant };

// Where a metric shows: the headline table of summary.md (and of the report's index), its detail
// table, only summary.csv, or no column at all (a gate's derived quantity such as |drift rate|).
enum class TableRole { Headline, Detail, CsvOnly, None };

struct MetricSpec {
  std::string_view name;     // the summary column and the name data files use (envelopes, claims)
  std::string_view unit;     // "J", "N m s", "1" (dimensionless)
  std::string_view label;    // the table header: "max ΔE"
  // The quantity at one time, as a figure's axis names it ("|ΔE|" of "max ΔE"); empty where no
  // figure draws the metric's quantity against time.
  std::string_view symbol = {};
  std::string_view meaning;  // one line: what it measures
  RoundOffScale scale = RoundOffScale::Unit;
  Violable violable = Violable::Always;
  GrowthOf growth = GrowthOf::None;  // the law fitted to this error (tables show it beside the owner)
  bool growth_owner = false;         // the metric whose row the law's columns belong to
  bool default_gate = false;         // `gate --record` bounds it (max, 2x the recorded value)
  TableRole role = TableRole::Detail;
  bool shared_window = false;        // also a column <name>_shared over the case's shared window
  // A field of ConservationMetrics that a job result stores (nullptr: derived by `value`).
  double ConservationMetrics::*field = nullptr;
  double (*value)(const ConservationMetrics&) = nullptr;
  std::size_t slot = 0;  // Violable::Invariant, RoundOffScale::Invariant: its slot
};

// Every metric, in the order of the summary's columns.
const std::vector<MetricSpec>& metric_registry();
// The row of that name; "<name>_shared" finds <name>'s row. std::out_of_range naming the known
// metrics otherwise: never a default.
const MetricSpec& metric_spec(std::string_view name);
// The rows of that role, in registry order.
std::vector<const MetricSpec*> metrics_with_role(TableRole role);

// A metric by its name in the registry (the summary's metric columns,
// plus "energy_drift_rate_abs" = |energy_drift_rate|), for data files that name metrics: paper
// figures and CI envelopes. Throws std::out_of_range with the known names for an unknown one.
double metric_value(const ConservationMetrics& m, const std::string& name);
const std::vector<std::string>& metric_names();

}  // namespace tb
