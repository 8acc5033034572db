// The embedded ODE form y' = f(t, y) (core/formulation.hpp OdeFormulation) as a Python step sees it.
#include "python/form_views.hpp"

namespace tb::python {

namespace {

class OdeView : public FormView {
 public:
  using FormView::FormView;
  Eigen::VectorXd rhs(double t, const Eigen::VectorXd& y) const {
    Eigen::VectorXd dydt(y.size());
    as<OdeFormulation>().rhs(t, sized(y), dydt);
    count_evaluation();
    return dydt;
  }
  // (projected?, state): the nearest state on the manifold the embedded coordinates carry.
  py::tuple project(const Eigen::VectorXd& y) const {
    Eigen::VectorXd p = sized(y);
    const bool projected = as<OdeFormulation>().project(p);
    return py::make_tuple(projected, p);
  }
};

}  // namespace

void declare_ode_view(py::module_& m) {
  py::class_<OdeView, FormView, std::shared_ptr<OdeView>>(m, "OdeForm", "the embedded ODE y' = f(t, y)")
      .def("rhs", &OdeView::rhs, py::arg("t"), py::arg("y"), "f(t, y); counts one evaluation (rhs_evals)")
      .def("project", &OdeView::project, py::arg("y"),
           "(True, the nearest state with R^T R = I, |q| = 1, q . omega = 0) or (False, y) when the form has no such invariant");
}

std::shared_ptr<FormView> make_ode_view(const Formulation& form, StepCounters* counters) {
  return std::make_shared<OdeView>(form, counters);
}

}  // namespace tb::python
