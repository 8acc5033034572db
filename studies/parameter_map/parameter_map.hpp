#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
#include "core/model.hpp"
namespace tb {

// [report.parameter_map]: one integrator run over the case for every (value of one numeric
// [model] key, step), each until t_end or its first failure: where a method completes and, where
// it does not, why (e.g. a Lie group method against cable link mass and h). The models are built when the
// case is loaded, so a value the model refuses is an input error before anything runs.
struct ParameterMap final : StudySection {
  static constexpr const char* kStudy = "parameter_map";
  std::string integrator;
  // Optional: a second fixed-step integrator run on the same points, one that solves the same
  // discrete equations by other means (cases/README.md): where the first fails, the second
  // failing too makes it the method's limit, completing makes it the first solver's.
  std::string compare_with;
  std::string parameter;                               // a numeric key of [model]
  std::vector<double> values;
  std::vector<std::shared_ptr<const Model>> models;    // one per value
  std::vector<double> steps;                           // s
  double t_end = 0.0;                                  // s; the case's t_end unless set
  // Dropped when its integrator is not run; compare_with cleared when that one is not.
  std::shared_ptr<const StudySection> restricted(const std::function<bool(const std::string&)>& runs) const override;
};

// Cases with a [report.parameter_map]: one fixed-step integrator over the case for every
// (value of one [model] parameter, step h), each run to the map's t_end or its first failure.
// Writes parameter_map.csv (one row per point: completes or fails, when, and why) and
// parameter_map.md (a table per case: parameter values down, steps across), so the limits of
// a method (e.g. the LGVI on light cable links) are results with their reasons.
StudyInfo parameter_map_study();
}  // namespace tb
