#pragma once
// What the studies' own tables ([report.<study>], StudyInfo::read_section) read alike: an
// integrator that must run the case, and the case's model at other values of one of its [model]
// keys. Both are checked when the case is loaded, so that a bad value is an input error
// naming its key before anything runs.

#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
#include "core/integrator.hpp"
#include "core/model.hpp"

namespace tb {

// The table's `key`, one of the catalogue's integrators (else the key fails, naming them).
const IntegratorInfo& read_integrator(TableReader& table, const std::string& key, const SectionInputs& in);

// Fails the table's `key` (naming the integrator and the model's reason) unless the case's model
// offers, in its default discretisation, the form the integrator consumes.
void refuse_unless_it_runs_the_case(TableReader& table, const std::string& key, const SectionInputs& in,
                                    const IntegratorInfo& info);

// One model per value of `key`; a value the model refuses fails the table's key `values_key` with
// the model's reason.
std::vector<std::shared_ptr<const Model>> model_variants(TableReader& table, const SectionInputs& in,
                                                         const std::string& key, const std::vector<double>& values,
                                                         const std::string& values_key = "values");

// What the event studies' tables (slack_taut, snap) read alike, each key checked: t_end (default and
// bound: the case's), steps (at least the order rule's points; default the case's [report] steps; each
// times `longest_step_factor`, the study's most moved step, no longer than t_end), tolerances (at least
// 3; default the case's) and sample_interval (default 1e-5, at most t_end).
struct EventSweep {
  double t_end = 0.0;
  std::vector<double> steps, tolerances;
  double sample_interval = 1e-5;
};
EventSweep read_event_sweep(TableReader& table, const Case& c, double longest_step_factor);

}  // namespace tb
