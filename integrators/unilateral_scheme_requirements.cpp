#include "integrators/unilateral_scheme_requirements.hpp"

namespace tb {

std::string why_not_unilateral_scheme(const ConstrainedMechanicalFormulation& form, const std::string& one_sided_words) {
  if (!form.unilateral())
    return "its constraints are bilateral (links that can push): " + one_sided_words + " and would let them open";
  if (form.mass_depends_on_configuration()) return "its mass matrix depends on the configuration; the scheme takes M constant";
  if (form.work_terms() < 1) return "its unilateral form has no work term to book the impacts' loss in";
  return "";
}

}  // namespace tb
