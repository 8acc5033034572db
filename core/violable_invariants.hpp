#pragma once
// Which conservation metrics a run can violate (SPEC "Metrics"), read from what its formulation
// and its model declare, never from a measured value being 0: a metric that nothing integrated
// could violate (the constraint error of a form in minimal coordinates, the orthogonality error
// of a model without a rotation, the momentum error of a model without a momentum map) is not a
// result, and the tables print "n/a (not integrated)" for it, the CSVs an empty cell.

#include <array>
#include <string>

#include "core/formulation.hpp"
#include "core/metric_registry.hpp"
#include "core/model.hpp"

namespace tb {

// Every member true: every metric a result (the value before anything is declared). Which
// member a metric rests on is its row of the registry (MetricSpec::violable).
struct ViolableInvariants {
  bool momentum = true;          // Violable::Momentum: Model::has_momentum_map
  bool linear_momentum = true;   // Violable::LinearMomentum: Model::conserves_linear_momentum
  bool constraints = true;       // Violable::Constraints: Formulation::integrated_constraints().positions
  bool constraint_rates = true;  // Violable::ConstraintRates: Formulation::integrated_constraints().rates
  bool rotations = true;         // Violable::Rotations: Model::integrates_rotations
  // Violable::Invariant, slot by slot: the model reports that conserved scalar (a finite
  // Observation::invariants entry at the initial state; NaN is the model saying it has none).
  std::array<bool, kInvariantSlots> invariants = [] {
    std::array<bool, kInvariantSlots> all{};
    all.fill(true);
    return all;
  }();

  bool covers(const MetricSpec& metric) const;
  // The same by name (metric_names(), or a summary column <name>_shared); std::out_of_range for a
  // name that is no metric.
  bool covers(const std::string& metric) const;
  // Why a metric this run cannot violate has no value, in a few words for a table cell's
  // "n/a (...)": "no momentum map", "no constraint", "no rotation integrated", ... ("" where it
  // covers the metric). Derived from the declaration, never typed per case.
  std::string why_not(const MetricSpec& metric) const;
  // The metrics of metric_names() this run cannot violate, space-separated ("" when none): the
  // summary's `not_integrated` column, so that a reader of the CSV tells an empty cell of a
  // metric that was not integrated from one of a run without results.
  std::string not_integrated() const;
};

ViolableInvariants violable_invariants(const Model& model, const Formulation& form);

}  // namespace tb
