#pragma once
// An integrator whose step is a Python function (tetherbench.register_integrator): an
// IntegratorInfo like any other, so that its runs go through the same runner, metrics,
// instability criterion, tables and gates as the compiled methods'. It is a fixed-step method
// (core/fixed_step.hpp: the driver lands on t0 + n h and on t_end); the function computes one step,
//   step(form, t, y, h) -> y_next        (step(form, t, y, h, settings) when it declares settings)
// on NumPy arrays, with `form` the view of the model's formulation of the kind it consumes
// (python/form_views.hpp). A step that raises fails its run with the exception (its type and
// message: the run's status), one that returns non-finite numbers fails it as diverged, one that
// returns the wrong number of entries fails it saying so. IntegratorInfo::interpreter = "python".
//
// Where a run starts (FormView::starting_state), as the compiled integrators of each kind start:
// from the form's initial_state() (Runge-Kutta, the constrained and Lie group schemes, the variational integrator), except on the index-1 DAE form,
// whose state holds the multipliers and whose consistent values depend on the Baumgarte
// parameters: there, as the compiled DAE integrator does, from consistent_initial_state(p, gamma) with p and gamma the
// integrator's settings baumgarte_p and baumgarte_gamma when it declares them, 0 (the plain
// index-1 system) when it does not; and since a DAE scheme may need y' at the step's start, the
// view carries it (form.derivative: the consistent y'(t0) at the first step, then the yp_next a
// step returns with its state as (y_next, yp_next); None after a step that returned y_next alone).

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "core/integrator.hpp"

namespace tb::python {

namespace py = pybind11;

struct PythonIntegratorSpec {
  std::string name;
  std::string summary;
  FormulationKind consumes = FormulationKind::EmbeddedOde;
  int order = 1;
  MethodTraits traits;
  std::vector<SettingSpec> settings;
  py::object step;  // the callable
};

IntegratorInfo python_integrator(const PythonIntegratorSpec& spec);

}  // namespace tb::python
