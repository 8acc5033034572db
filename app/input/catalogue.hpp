#pragma once
// What the suite is made of, handed to core by whoever assembles it (the executable, the
// tests, a user's own driver): the models, the integrators, the studies, and which integrator
// computes the reference solutions. Core never names a model, an integrator or a study; it
// looks them up here. validate() checks the whole catalogue once, at start-up.

#include <map>
#include <string>
#include <vector>

#include "core/integrator.hpp"
#include "core/model.hpp"
#include "app/input/study.hpp"

namespace tb {

// The comparisons the step-cost page (benchmarks.md, app/writing/step_cost_page.hpp) makes beyond
// its tables of every method, declared by the suite with their reasons (suite/catalogue.cpp), so
// that the page's writer names no integrator.
struct StepCostComparisons {
  // A method's cost per step against a baseline's at the same step, and per evaluation.
  struct Ratio {
    std::string method, baseline;
  };
  // A method and its twin: the same discrete equations solved on a benchmark model, `substeps`
  // of them per step (a composition's stages).
  struct Twins {
    std::string method, twin;
    int substeps = 1;
  };
  // Methods that solve the same discrete equations on one benchmark model: their Newton
  // iterations and costs per step should be alike at every N, so a difference measures how the
  // equations are evaluated and solved. A method is flagged above max_iterations per substep,
  // or above max_cost_ratio times its twin's cost per step.
  struct SameEquations {
    std::string model;  // a benchmark model's name (benchmarks/benchmark_models.hpp)
    std::vector<Twins> pairs;
    double max_iterations = 0.0, max_cost_ratio = 0.0;
    std::string why;  // the reason for both bounds, printed above the table
  };
  // One benchmark model's cost per step against another's, integrator by integrator at the same N
  // (and, for a fixed-step method, the same h): two variants of one model (a tension-only cable beside its bilateral twin), shown per
  // element and step (cost per step / N) with their ratio.
  struct ModelRatio {
    std::string model, baseline;  // benchmark models' names (benchmarks/benchmark_models.hpp)
    std::string why;              // what differs between the two, printed above the table
  };
  std::vector<Ratio> ratios;
  std::vector<SameEquations> same_equations;
  std::vector<ModelRatio> model_ratios;
  // Adaptive methods whose steps per simulated second over the report's full runs are shown.
  std::vector<std::string> step_rates;
  std::vector<std::string> named() const;  // every integrator named above
  std::vector<std::string> models() const;  // every benchmark model named above
};

struct Catalogue {
  std::vector<ModelInfo> models;            // sorted by name
  std::vector<IntegratorInfo> integrators;  // sorted by name
  std::vector<StudyInfo> studies;           // sorted by name; `report` runs them in this order
  // Methods that only compute reference solutions and are never compared (sorted by name).
  std::vector<IntegratorInfo> reference_solvers;
  // The reference solver (one of reference_solvers: a method not under test) and the
  // cross-check solver (one of the compared integrators, or another reference solver): both
  // adaptive ODE integrators, run at kReferenceRtol/kReferenceAtol on the model's ODE form of
  // each discretisation (app/running/reference.hpp). Their agreement is the resolution of the errors
  // measured against the reference.
  std::string reference_integrator;
  std::string crosscheck_integrator;
  // The check of a reference whose switches are read from its samples (the snap study's event-driven
  // reference, the cross-check solver on a hybrid form): an adaptive integrator of another family with
  // dense output, so that its switches are read on the same fine grid (the reference solver has none:
  // its switches would be read at its step ends). Empty: none (such references go unchecked).
  std::string event_check_integrator;
  StepCostComparisons step_cost;
  // Integrators a command was told to leave out (`--integrator` named the others:
  // app/input/integrator_selection.hpp): known by name -- a case's sweep or a paper claim naming one is
  // no error -- but never run. Empty: the catalogue compares every integrator it has.
  std::vector<std::string> left_out;
  // An integrator of the catalogue, compared or left out.
  bool knows_integrator(const std::string& name) const;

  // Plugins loaded into this catalogue (app/running/plugins.hpp), in the order given, and where each of
  // their entries comes from: "plugin NAME VERSION, file hash H", keyed by kind and name
  // ("integrator rk3"). Built-in entries have no origin. A run's fingerprint includes the
  // origins of its integrator and model, a study job's the origin of its study.
  struct Plugin {
    std::string file, name, version, hash;
    std::vector<std::string> entries;  // "integrator rk3", "model spring_chain", ...
    // How it was compiled, as its TETHERBENCH_PLUGIN recorded it (core/plugin.hpp): a plugin
    // built without optimisation has runtimes not comparable with the suite's.
    bool optimised = true, asserts = false;
    std::string build_type, cxx_flags, compiler;  // "" unknown (not built with the CMake package)
  };
  std::vector<Plugin> plugins;
  std::map<std::string, std::string> origins;
  // "" for a built-in entry.
  std::string origin(const std::string& kind, const std::string& name) const;

  const ModelInfo* find_model(const std::string& name) const;
  const IntegratorInfo* find_integrator(const std::string& name) const;
  const StudyInfo* find_study(const std::string& name) const;
  const IntegratorInfo& reference() const;   // validate() guarantees both exist
  const IntegratorInfo& crosscheck() const;
  const IntegratorInfo* event_check() const;  // nullptr where the catalogue names none
  std::vector<std::string> model_names() const;
  std::vector<std::string> integrator_names() const;
  std::vector<std::string> study_names() const;

  // Throws std::logic_error naming the problem: lists unsorted or with duplicate names, an
  // integrator without a factory, an adaptive one without rtol and atol, a setting whose
  // default lies outside its own range, a reference or cross-check solver that is missing, not
  // adaptive or not an ODE integrator, a reference solver that is also compared, or the two
  // solvers being the same method.
  void validate() const;
};

// "a, b, c" for messages.
std::string join_names(const std::vector<std::string>& names);

}  // namespace tb
