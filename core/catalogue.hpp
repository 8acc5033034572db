#pragma once
// What the suite is made of, handed to core by whoever assembles it (the executable, the
// tests, a user's own driver): the models, the integrators, the studies, and which integrator
// computes the reference solutions. Core never names a model, an integrator or a study; it
// looks them up here. validate() checks the whole catalogue once, at start-up.

#include <string>
#include <vector>

#include "core/integrator.hpp"
#include "core/model.hpp"
#include "core/study.hpp"

namespace tb {

struct Catalogue {
  std::vector<ModelInfo> models;            // sorted by name
  std::vector<IntegratorInfo> integrators;  // sorted by name
  std::vector<StudyInfo> studies;           // sorted by name; `report` runs them in this order
  // The reference solver: an adaptive ODE integrator, run at kReferenceRtol/kReferenceAtol on
  // the model's ODE form of each discretisation (core/reference.hpp).
  std::string reference_integrator;

  const ModelInfo* find_model(const std::string& name) const;
  const IntegratorInfo* find_integrator(const std::string& name) const;
  const StudyInfo* find_study(const std::string& name) const;
  const IntegratorInfo& reference() const;  // validate() guarantees it exists
  std::vector<std::string> model_names() const;
  std::vector<std::string> integrator_names() const;
  std::vector<std::string> study_names() const;

  // Throws std::logic_error naming the problem: lists unsorted or with duplicate names, an
  // integrator without a factory, an adaptive one without rtol and atol, a setting whose
  // default lies outside its own range, a reference solver that is missing, not adaptive or
  // not an ODE integrator.
  void validate() const;
};

// "a, b, c" for messages.
std::string join_names(const std::vector<std::string>& names);

}  // namespace tb
