#pragma once
// Shared set-up for the tests: Model A at the paper's parameters, runs to a final physical
// state, and a tight reference solution.

#include <cmath>
#include <string>

#include "core/case.hpp"
#include "core/convergence.hpp"
#include "core/report.hpp"
#include "core/runner.hpp"
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
  p.J = string_pendulum::elliptic_cylinder_inertia_about_attachment(p.M, 0.06, 0.04, 0.1, p.rho_c);
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

inline const IntegratorInfo& integrator(const std::string& name) {
  const IntegratorInfo* info = find_integrator(name);
  if (!info) throw std::runtime_error("no integrator " + name);
  return *info;
}

inline std::unique_ptr<Formulation> formulation_for(const Model& model, const IntegratorInfo& info) {
  std::string why_not;
  auto f = model.make_formulation(info.consumes, why_not);
  if (!f) throw std::runtime_error(info.name + " does not apply: " + why_not);
  return f;
}

struct FinalState {
  IntegrationOutcome outcome;
  Eigen::VectorXd physical;  // the model's common physical-state layout
};

inline FinalState run_to(const Model& model, const std::string& name, double t_end, double h, double rtol = 1e-8,
                         double atol = 1e-10) {
  const IntegratorInfo& info = integrator(name);
  auto form = formulation_for(model, info);
  IntegratorSettings s;
  s.h = h;
  s.rtol = rtol;
  s.atol = atol;
  FinalState out;
  out.outcome = integrate(*form, info, s, t_end, t_end, {});
  out.physical = form->physical_state(out.outcome.final_state);
  return out;
}

// Tight-tolerance RK45 solution of the same semi-discrete model: the reference for orders
// (the same function `tetherbench reference` uses).
inline Eigen::VectorXd reference_solution(const Model& model, double t_end) {
  return compute_reference(model, t_end, 1e-5).physical;
}

// The reference an integrator is measured against (core/report.hpp, reference_kind): the
// tight RK45 solution of the formulation it consumes when that is an ODE, else of the model's
// ODE form.
inline Eigen::VectorXd reference_solution(const Model& model, const IntegratorInfo& info, double t_end) {
  return compute_reference(model, reference_kind(model, info.consumes), t_end, 1e-5).physical;
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
  for (const auto& info : integrator_registry()) {
    IntegratorSettings s;
    s.h = h;
    s.rtol = rtol;
    s.atol = atol;
    c.settings[info.name] = s;
  }
  return c;
}

using tb::fitted_order;

}  // namespace tb::testing
