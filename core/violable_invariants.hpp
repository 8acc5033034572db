#pragma once
// Which conservation metrics a run can violate (SPEC "Metrics"), read from what its formulation
// and its model declare, never from a measured value being 0: a metric that nothing integrated
// could violate (the constraint error of a form in minimal coordinates, the orthogonality error
// of a model without a rotation, the momentum error of a model without a momentum map) is not a
// result, and the tables print "n/a (not integrated)" for it, the CSVs an empty cell.

#include <string>

#include "core/formulation.hpp"
#include "core/model.hpp"

namespace tb {

// Every member true: every metric a result (the value before anything is declared).
struct ViolableInvariants {
  bool momentum = true;          // momentum_err_*: Model::has_momentum_map
  bool linear_momentum = true;   // linear_momentum_err_*: Model::conserves_linear_momentum
  bool constraints = true;       // constraint_err_*: Formulation::integrated_constraints().positions
  bool constraint_rates = true;  // constraint_rate_err_*: Formulation::integrated_constraints().rates
  bool rotations = true;         // orthogonality_err_*: Model::integrates_rotations

  // Whether the metric of that name (metric_names(), or a summary column that is one of them with
  // the suffix "_shared") is one this run can violate; energy metrics always are. Throws
  // std::out_of_range for a name that is no metric.
  bool covers(const std::string& metric) const;
  // The metrics of metric_names() this run cannot violate, space-separated ("" when none): the
  // summary's `not_integrated` column, so that a reader of the CSV tells an empty cell of a
  // metric that was not integrated from one of a run without results.
  std::string not_integrated() const;
};

ViolableInvariants violable_invariants(const Model& model, const Formulation& form);

}  // namespace tb
