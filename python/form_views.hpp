#pragma once
// What a step written in Python receives as `form`: a view of the model's formulation of the kind
// the integrator consumes, with its methods taking and returning NumPy arrays (python/README.md
// lists them per kind). A view is valid while its run lasts: the formulation belongs to the run,
// and a view kept after it raises RuntimeError rather than reach a formulation that is gone.
//
// One view per formulation kind (core/formulation.hpp), each in a file of its own
// (form_view_<kind>.cpp), all on the common part here: the Formulation methods every kind has
// (state_size, initial_state, observe, physical_state), the evaluation counter the run's
// rhs_evals column reads, and the invalidation.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "core/formulation.hpp"
#include "core/integrator.hpp"

namespace tb::python {

namespace py = pybind11;

class FormView {
 public:
  FormView(const Formulation& form, StepCounters* counters) : form_(&form), counters_(counters) {}
  virtual ~FormView() = default;
  // The run ended: every later call raises.
  void invalidate() { form_ = nullptr; counters_ = nullptr; }

  std::string kind() const { return to_string(form().kind()); }
  int state_size() const { return form().state_size(); }
  Eigen::VectorXd initial_state() const { return form().initial_state(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const { return form().physical_state(sized(y)); }
  py::dict observe(double t, const Eigen::VectorXd& y) const;

 protected:
  const Formulation& form() const {
    if (!form_) throw std::runtime_error("this form belongs to a run that has ended; a step may use it only while its run lasts");
    return *form_;
  }
  template <class Form>
  const Form& as() const { return static_cast<const Form&>(form()); }
  // One evaluation of the form's equations (f, F or the residual): the run's rhs_evals column.
  void count_evaluation() const {
    if (counters_) ++counters_->rhs_evals;
  }
  // A state argument of the form's size (ValueError otherwise, naming both sizes).
  const Eigen::VectorXd& sized(const Eigen::VectorXd& y, const char* what = "y") const;
  const Eigen::VectorXd& sized(const Eigen::VectorXd& v, int size, const char* what) const;

 private:
  const Formulation* form_;
  StepCounters* counters_;
};

// The view classes, declared on the module (form_view_*.cpp, one registration per kind).
void declare_form_views(py::module_& m);
// A Python object viewing `form` (of any kind), counting into `counters`. The caller invalidates
// it (FormView::invalidate) when the run ends.
py::object make_form_view(const Formulation& form, StepCounters* counters, std::shared_ptr<FormView>& view);

// Per kind (form_view_<kind>.cpp).
void declare_ode_view(py::module_& m);
std::shared_ptr<FormView> make_ode_view(const Formulation& form, StepCounters* counters);

}  // namespace tb::python
