#include "python/form_views.hpp"

namespace tb::python {

void FormView::invalidate() {
  for (const auto& p : parts_)
    if (const auto part = p.lock()) part->release();
  parts_.clear();
  form_ = nullptr;
  counters_ = nullptr;
  if (store_) store_.attr("clear")();  // what the step kept (a solver, ...) goes with its run
  store_ = py::object();
}

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

py::dict FormView::integrated_constraints() const {
  const IntegratedConstraints c = form().integrated_constraints();
  py::dict d;
  d["positions"] = c.positions;
  d["rates"] = c.rates;
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

py::tuple entry_arrays(const std::vector<Eigen::Triplet<double>>& entries) {
  const auto n = py::ssize_t(entries.size());
  py::array_t<std::int64_t> rows(n), cols(n);
  py::array_t<double> values(n);
  auto r = rows.mutable_unchecked<1>();
  auto c = cols.mutable_unchecked<1>();
  auto v = values.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    r(i) = entries[size_t(i)].row();
    c(i) = entries[size_t(i)].col();
    v(i) = entries[size_t(i)].value();
  }
  return py::make_tuple(rows, cols, values);
}

void declare_form_views(py::module_& m) {
  py::class_<FormView, std::shared_ptr<FormView>>(m, "Form", "the model's formulation a Python step receives (valid while its run lasts)")
      .def_property_readonly("kind", &FormView::kind, "the formulation kind (core/formulation.hpp)")
      .def_property_readonly("state_size", &FormView::state_size)
      .def("initial_state", &FormView::initial_state)
      .def("physical_state", &FormView::physical_state, py::arg("y"),
           "the state in the layout every formulation of the model shares (positions, velocities, R, Omega)")
      .def("observe", &FormView::observe, py::arg("t"), py::arg("y"),
           "what the metrics read at a sample: energy, momentum, constraint errors, the model's columns")
      .def_property_readonly("integrated_constraints", &FormView::integrated_constraints,
                             "{'positions': g(q) = 0 can drift in this form, 'rates': G(q) v = 0 can}")
      .def("count_newton_iterations", &FormView::count_newton_iterations, py::arg("n") = 1,
           "adds n to the run's newton_iters column (an implicit step's iterations)")
      .def_property_readonly("store", &FormView::store,
                             "a dict for the step's own use that lasts the run (the same at every step of it: one solver "
                             "per run, a history); emptied when the run ends");
  declare_ode_view(m);
  declare_dae_view(m);
  declare_constrained_view(m);
  declare_lie_group_ode_view(m);
  declare_discrete_lie_group_view(m);
}

py::object make_form_view(const Formulation& form, const IntegratorSettings& s, StepCounters* counters,
                          std::shared_ptr<FormView>& view) {
  switch (form.kind()) {
    case FormulationKind::EmbeddedOde: view = make_ode_view(form, counters); break;
    case FormulationKind::IndexOneDae: view = make_dae_view(form, s, counters); break;
    case FormulationKind::ConstrainedMechanical: view = make_constrained_view(form, counters); break;
    case FormulationKind::LieGroupOde: view = make_lie_group_ode_view(form, counters); break;
    case FormulationKind::DiscreteLieGroup: view = make_discrete_lie_group_view(form, counters); break;
  }
  if (!view) throw std::logic_error("no Python view of the " + to_string(form.kind()) + " form");
  return py::cast(view);
}

}  // namespace tb::python
