#pragma once
// What a Markdown table prints for a run's metrics, read from the metric registry
// (core/metric_registry.hpp): the words every table shares, so that summary.md
// (app/writing/summary_markdown.cpp), the report's index and the studies' tables say a structural zero,
// a missing result, a growth law and a run's status the same way. For the index writer:
//
//   for (const MetricSpec* m : headline_metrics()) header += metric_header(*m);   // "max ΔE (J)"
//   for (const MetricSpec* m : headline_metrics()) cells += metric_cell(row, *m);  // "3.1e-06", "n/a (no constraint)"
//
// A column whose cells are n/a for every row (all_not_applicable) is better dropped with one
// sentence (dropped_columns_sentence), as summary.md does.

#include <string>
#include <vector>

#include "app/input/reference_data.hpp"  // FailureKind
#include "app/input/run_records.hpp"
#include "core/growth.hpp"
#include "core/metric_registry.hpp"
#include "core/violable_invariants.hpp"

namespace tb {

// The registry's headline metrics (TableRole::Headline), in registry order: max ΔE, max Δπ,
// max constraint err, max ΔP, max ‖I − RᵀR‖.
std::vector<const MetricSpec*> headline_metrics();

// "label (unit)": "max ΔE (J)"; the label alone for a dimensionless metric (unit "1").
std::string metric_header(const MetricSpec& metric);

// "n/a (<why>)": the cell of a metric the run's formulation cannot violate, with the reason its
// declaration gives (ViolableInvariants::why_not: "no momentum map", "no constraint", "no rotation
// integrated", "no linear momentum conserved", "no Casimir", ...). "" where it can.
std::string not_applicable_cell(const ViolableInvariants& violable, const MetricSpec& metric);

// The Markdown cell of a metric for a row:
//   "n/a (<why>)" where the run's formulation cannot violate it (not_applicable_cell),
//   "—" where the run has no result (failed, unstable, interrupted, not applicable: its status
//       says why) or the value is not finite,
//   the value to 3 significant digits otherwise.
std::string metric_cell(const SummaryRow& row, const MetricSpec& metric);
// The same over the case's shared window (SummaryRow::shared_metrics; MetricSpec::shared_window).
std::string shared_metric_cell(const SummaryRow& row, const MetricSpec& metric);
// Whether metric_cell is "n/a (...)" for every row (and there is at least one row).
bool all_not_applicable(const std::vector<const SummaryRow*>& rows, const MetricSpec& metric);

// The growth law fitted to a metric's error of that kind (GrowthOf::None: std::logic_error).
const GrowthFit& growth_fit(const ConservationMetrics& m, GrowthOf of);
// The metric that owns the law's columns (MetricSpec::growth_owner): energy_err_max, momentum_err_max.
const MetricSpec& growth_owner(GrowthOf of);
// The law as a short code ("bounded", "sqrt_t", "too_short", ...; a trailing "!" where the law
// contradicts the prediction: investigate), "n/a (<why>)" or "—" as metric_cell says; the words
// for each code are growth_code_meaning's, said once under a table, and each run's own words are
// in summary.csv (<quantity>_growth_verdict).
std::string growth_cell(const SummaryRow& row, GrowthOf of);
// A law's code in a few words for a sentence: "bounded", "grows linearly", "too short for a law".
std::string growth_law_words(const std::string& code);
// One sentence for a code growth_cell prints ("!" for the investigate mark).
std::string growth_code_meaning(const std::string& code);

// The run's status in a few words with its onset: "ok", "ok, drift from t = 70.8 s",
// "drifts in P (max ΔE 137 J, the centre of mass's 137 J), the motion's own energy ok" (no "|": a table cell),
// "unstable from t = 12 s", "diverged at t = 3.1 s", "failed at t = 3.1 s", "interrupted at
// t = 3 s", "n/a". The full status (what the criterion found, the reason) is summary.csv's.
std::string status_cell(const SummaryRow& row);
// A failed run's kind in the tables' words: "diverged", "crashed" (a plugin's process died),
// "broke the integrator contract", "hung", "threw", or "failed" (its solver gave up).
std::string failure_words(FailureKind kind);

}  // namespace tb
