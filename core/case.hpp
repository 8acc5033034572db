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

// What `tetherbench report`, `reference` and `gate` do with a case ([report] table).
struct ReportSettings {
  double reference_t_end = 0.0;     // horizon of the reference solution, work-precision sweep and orders (s)
  std::vector<double> steps;        // fixed-step sweep (s)
  std::vector<double> tolerances;   // adaptive sweep: rtol, with atol = 1e-2 rtol
  double gate_t_end = 0.0;          // the short run the CI gates measure (s)
  // Baumgarte rates p (1/s) at which `report` runs ida over the whole case, for the drift
  // and cost against p (reports/baumgarte_sweep.csv); empty: no sweep.
  std::vector<double> baumgarte_p_sweep;
  double baumgarte_sweep_t_end = 0.0;  // horizon of that sweep (s); the case's t_end unless set
};

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
  // [case] integrators: the integrators this case runs; empty means every applicable one.
  // (E.g. a long case repeated only to run RK45 at MATLAB ODE45's default tolerances.)
  std::vector<std::string> only_integrators;
  ReportSettings report;

  const IntegratorSettings& settings_for(const std::string& integrator) const { return settings.at(integrator); }
  bool runs(const std::string& integrator) const;
};

// Throws InputError (naming the file, key and expectation) on any bad input.
Case load_case(const std::string& path);

// The command line's `--set NAME.KEY=VALUE`: sets one setting of integrator NAME in the case,
// over the case file's value, validated exactly like a key of the case's [integrators.NAME]
// table (VALUE is read as a TOML value). Throws InputError naming the assignment on an unknown
// integrator, a key that integrator does not read, or a bad value.
void apply_setting_override(Case& c, const std::string& assignment);

}  // namespace tb
