#pragma once
// A case file (format: cases/README.md): which model, its parameters and initial condition,
// the step, the end time, the observation interval and per-integrator settings. Everything is
// validated when the file is loaded, before anything runs or is written.

#include <map>
#include <memory>
#include <string>

#include "core/model.hpp"
#include "integrators/integrator.hpp"

namespace tb {

struct Case {
  std::string file;
  std::string name;
  std::string description;
  std::string model_name;
  double t_end = 0.0;            // s
  double h = 0.0;                // s: fixed step, initial step of adaptive methods
  double sample_interval = 0.0;  // s: observation grid
  std::shared_ptr<const Model> model;
  std::map<std::string, IntegratorSettings> settings;  // one entry per registered integrator

  const IntegratorSettings& settings_for(const std::string& integrator) const { return settings.at(integrator); }
};

// Throws InputError (naming the file, key and expectation) on any bad input.
Case load_case(const std::string& path);

}  // namespace tb
