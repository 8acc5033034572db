#include "python/form_views.hpp"

namespace tb::python {

py::dict FormView::observe(double t, const Eigen::VectorXd& y) const {
  const Observation o = form().observe(t, sized(y));
  py::dict d;
  d["energy"] = o.energy;
  d["kinetic"] = o.kinetic;
  d["momentum"] = o.momentum;
  d["constraint_err"] = o.constraint_err;
  d["constraint_rate_err"] = o.constraint_rate_err;
  d["orthogonality_err"] = o.orthogonality_err;
  d["external_work"] = o.external_work;
  d["linear_momentum"] = Eigen::VectorXd(o.linear_momentum);
  const auto names = form().extra_column_names();
  for (size_t i = 0; i < names.size() && i < o.extra.size(); ++i) d[py::str(names[i])] = o.extra[i];
  return d;
}

const Eigen::VectorXd& FormView::sized(const Eigen::VectorXd& y, const char* what) const {
  return sized(y, form().state_size(), what);
}

const Eigen::VectorXd& FormView::sized(const Eigen::VectorXd& v, int size, const char* what) const {
  if (v.size() != size)
    throw py::value_error(std::string(what) + ": expected " + std::to_string(size) + " numbers, got " + std::to_string(v.size()));
  return v;
}

void declare_form_views(py::module_& m) {
  py::class_<FormView, std::shared_ptr<FormView>>(m, "Form", "the model's formulation a Python step receives (valid while its run lasts)")
      .def_property_readonly("kind", &FormView::kind, "the formulation kind (core/formulation.hpp)")
      .def_property_readonly("state_size", &FormView::state_size)
      .def("initial_state", &FormView::initial_state)
      .def("physical_state", &FormView::physical_state, py::arg("y"),
           "the state in the layout every formulation of the model shares (positions, velocities, R, Omega)")
      .def("observe", &FormView::observe, py::arg("t"), py::arg("y"),
           "what the metrics read at a sample: energy, momentum, constraint errors, the model's columns");
  declare_ode_view(m);
}

py::object make_form_view(const Formulation& form, StepCounters* counters, std::shared_ptr<FormView>& view) {
  switch (form.kind()) {
    case FormulationKind::EmbeddedOde: view = make_ode_view(form, counters); break;
    default: throw std::logic_error("no Python view of the " + to_string(form.kind()) + " form");
  }
  return py::cast(view);
}

}  // namespace tb::python
