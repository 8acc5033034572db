#pragma once
// What every time-stepping scheme for unilateral links here needs of a constrained mechanical
// form (moreau_jean, nonsmooth_rattle, nonsmooth_generalized_alpha, variational_collision; issue
// 48): one-sided constraints, a constant mass matrix (their impulse and position problems factor
// M once per configuration through the form's solver and never differentiate it) and a work term
// to book the impacts' loss in, so that E - E0 - W stays the balance the metrics judge.

#include <string>

#include "core/formulation.hpp"

namespace tb {

// Empty where the form has all three; otherwise the first missing one, in words for an n/a cell.
// one_sided_words: what in the scheme is one-sided and would let a bilateral link open.
std::string why_not_unilateral_scheme(const ConstrainedMechanicalFormulation& form, const std::string& one_sided_words);

}  // namespace tb
