#pragma once
// Shared set-up for the tests: Model A at the paper's parameters, runs to a final physical
// state, and a tight reference solution.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "mechanics/body_shapes.hpp"
#include "app/input/case.hpp"
#include "numerics/convergence.hpp"
#include "app/running/reference.hpp"
#include "app/running/runner.hpp"
#include "conformance/final_state.hpp"
#include "suite/catalogue.hpp"
#include "models/string_pendulum/model.hpp"

namespace tb::testing {

// SPEC "Model A" parameters and initial condition, with N elements.
inline string_pendulum::Parameters paper_parameters(int N = 20) {
  string_pendulum::Parameters p;
  p.N = N;
  p.mu = 0.025;
  p.length = 1.0;
  p.EA = 40.0;
  p.M = 0.1;
  p.rho_c = Vec3(0.04, 0.01, 0.05);
  p.J = tb::elliptic_cylinder_inertia_about_attachment(p.M, 0.06, 0.04, 0.1, p.rho_c);
  p.g = 9.81;
  return p;
}

inline string_pendulum::InitialCondition paper_initial_condition() {
  string_pendulum::InitialCondition ic;
  ic.string_direction = Vec3::UnitX();
  ic.body_velocity = Vec3(0.0, 0.2, -0.5);
  return ic;
}

// The paper case with a spinning body, so that SO(3) and the coupling are exercised from t = 0.
inline string_pendulum::InitialCondition spinning_initial_condition() {
  auto ic = paper_initial_condition();
  ic.Omega0 = Vec3(1.5, -2.0, 3.0);
  ic.R0 = so3::exp(Vec3(0.3, -0.2, 0.5));
  return ic;
}

inline std::shared_ptr<const Model> paper_model(int N = 20) {
  return string_pendulum::make_model(paper_parameters(N), paper_initial_condition());
}

// The suite's catalogue: every model, integrator and study (suite/catalogue.hpp).
inline const Catalogue& catalogue() { return suite_catalogue(); }

inline const IntegratorInfo& integrator(const std::string& name) {
  const IntegratorInfo* info = catalogue().find_integrator(name);
  if (!info) throw std::runtime_error("no integrator " + name);
  return *info;
}

// Every setting the integrator declares, at its default, with step h.
using conformance::settings_of;
inline IntegratorSettings settings_of(const std::string& name, double h) { return settings_of(integrator(name), h); }
// For helpers that run any integrator by name: tolerances only where the integrator reads them.
using conformance::set_if_declared;

inline Case load_case(const std::string& path) { return tb::load_case(path, catalogue()); }

// Every bundled case file (cases/*.toml), loaded, in the order of their names.
inline std::vector<Case> bundled_cases() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(TETHERBENCH_CASES_DIR))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Case> out;
  for (const auto& f : files) out.push_back(load_case(f));
  return out;
}

using conformance::FinalState;
using conformance::formulation_for;

inline FinalState run_to(const Model& model, const std::string& name, double t_end, double h, double rtol = 1e-8,
                         double atol = 1e-10) {
  return conformance::run_to(model, integrator(name), t_end, h, rtol, atol);
}

// The reference solver's tight solution of the same semi-discrete model (default
// discretisation, or the one named): the reference for orders (the same function
// `tetherbench reference` uses).
inline Eigen::VectorXd reference_solution(const Model& model, double t_end, const std::string& discretisation) {
  return compute_reference(catalogue().reference(), model, discretisation, t_end, 1e-5).physical;
}
inline Eigen::VectorXd reference_solution(const Model& model, double t_end) {
  return reference_solution(model, t_end, model.default_discretisation());
}

// A case built in code (the bundled case files are exercised by the command-line tests).
inline Case make_case(std::shared_ptr<const Model> model, const std::string& name, double t_end, double h,
                      double sample_interval, double rtol = 1e-10, double atol = 1e-12) {
  Case c;
  c.file = "(in code)";
  c.name = name;
  c.model_name = model->name();
  c.model = std::move(model);
  c.t_end = t_end;
  c.h = h;
  c.sample_interval = sample_interval;
  for (const auto& info : catalogue().integrators) {
    IntegratorSettings s = settings_of(info, h);
    set_if_declared(s, "rtol", rtol);
    set_if_declared(s, "atol", atol);
    c.settings[info.name] = s;
  }
  return c;
}

using tb::fitted_order;

}  // namespace tb::testing
