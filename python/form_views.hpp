#pragma once
// What a step written in Python receives as `form`: a view of the model's formulation of the kind
// the integrator consumes, with its methods taking and returning NumPy arrays (python/README.md
// lists them per kind). A view is valid while its run lasts: the formulation belongs to the run,
// and a view kept after it raises RuntimeError rather than reach a formulation that is gone. So
// do the objects a view hands out that hold model state bound to the formulation (the
// constrained form's solver, the discrete Lie group form's step: FormPart below): the view
// releases them when the run ends.
//
// One view per formulation kind (core/formulation.hpp), each in a file of its own
// (form_view_<kind>.cpp), all on the common part here: the Formulation methods every kind has
// (state_size, initial_state, observe, physical_state), the evaluation counter the run's
// rhs_evals column reads, the run's store (a dict a step keeps things in for the rest of its
// run), the state the run starts from, and the invalidation.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "core/integrator.hpp"

namespace tb::python {

namespace py = pybind11;

// An object a view hands out that holds model state bound to the run's formulation (a
// ConstrainedMechanicalSolver, a DiscreteLieGroupStep). Its view releases it when the run ends:
// drop() frees the model's object while the formulation still exists, and every later call
// raises RuntimeError (check()).
class FormPart {
 public:
  FormPart(std::string what, StepCounters* counters) : what_(std::move(what)), counters_(counters) {}
  virtual ~FormPart() = default;
  void release() {
    released_ = true;
    counters_ = nullptr;
    drop();
  }

 protected:
  void check() const {
    if (released_)
      throw std::runtime_error("this " + what_ + " belongs to a run that has ended; a step may use it only while its run lasts");
  }
  // One evaluation of the form's equations: the run's rhs_evals column (as FormView's).
  void count_evaluation() const {
    if (counters_) ++counters_->rhs_evals;
  }
  virtual void drop() = 0;

 private:
  std::string what_;
  StepCounters* counters_;
  bool released_ = false;
};

class FormView {
 public:
  FormView(const Formulation& form, StepCounters* counters) : form_(&form), counters_(counters), store_(py::dict()) {}
  virtual ~FormView() = default;
  // The run ended: the parts handed out are released, the store emptied, and every later call
  // raises. Called with the interpreter's lock held.
  void invalidate();

  std::string kind() const { return to_string(form().kind()); }
  int state_size() const { return form().state_size(); }
  Eigen::VectorXd initial_state() const { return form().initial_state(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const { return form().physical_state(sized(y)); }
  py::dict observe(double t, const Eigen::VectorXd& y) const;
  py::dict integrated_constraints() const;
  // Newton iterations the step took: the run's newton_iters column (an implicit scheme's cost
  // beside its evaluations, as the compiled ones count theirs).
  void count_newton_iterations(long n) const {
    form();  // raises after the run
    if (n < 0) throw py::value_error("count_newton_iterations: n: expected a count >= 0, got " + std::to_string(n));
    if (counters_) counters_->newton_iters += n;
  }
  // A dict for the step's own use that lasts the run: the same one at every step of it (one
  // solver per run, a multistep method's history), emptied when the run ends.
  py::object store() const {
    form();  // raises after the run
    return store_;
  }

  // ---- What the stepper asks of the view (python_integrator.cpp) ----
  // The state the run starts from: Formulation::initial_state() unless the kind says otherwise
  // (the DAE view: the consistent state for the run's Baumgarte parameters).
  virtual Eigen::VectorXd starting_state() const { return form().initial_state(); }
  // The state in what a step returned. A kind whose step may return more than the state (the
  // DAE's (y_next, yp_next)) takes the rest here and keeps it for accept(); a malformed result
  // raises std::invalid_argument saying what was expected.
  virtual py::object state_in(const py::object& result) { return result; }
  // The step's result was accepted: the run moves on to it.
  virtual void accept() {}

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
  StepCounters* counters() const { return counters_; }
  // A state argument of the form's size (ValueError otherwise, naming both sizes).
  const Eigen::VectorXd& sized(const Eigen::VectorXd& y, const char* what = "y") const;
  const Eigen::VectorXd& sized(const Eigen::VectorXd& v, int size, const char* what) const;
  // Keeps a part the view hands out, to release it with the view.
  template <class Part>
  std::shared_ptr<Part> adopt(std::shared_ptr<Part> part) {
    std::erase_if(parts_, [](const std::weak_ptr<FormPart>& p) { return p.expired(); });
    parts_.push_back(part);
    return part;
  }

 private:
  const Formulation* form_;
  StepCounters* counters_;
  py::object store_;  // a dict; null after invalidate(), so that a view dropped without the lock touches no Python object
  std::vector<std::weak_ptr<FormPart>> parts_;
};

// Sparse matrix entries as a step receives them: (rows, cols, values), NumPy arrays of one length
// (int64, int64, float64), repeated (row, column) pairs to be summed (scipy.sparse.coo_matrix's
// convention; np.add.at(A, (rows, cols), values) assembles a dense A).
py::tuple entry_arrays(const std::vector<Eigen::Triplet<double>>& entries);

// The view classes, declared on the module (form_view_*.cpp, one registration per kind).
void declare_form_views(py::module_& m);
// A Python object viewing `form` (of any kind) for a run with settings `s`, counting into
// `counters`. The caller invalidates it (FormView::invalidate) when the run ends.
py::object make_form_view(const Formulation& form, const IntegratorSettings& s, StepCounters* counters,
                          std::shared_ptr<FormView>& view);

// Per kind (form_view_<kind>.cpp).
void declare_ode_view(py::module_& m);
std::shared_ptr<FormView> make_ode_view(const Formulation& form, StepCounters* counters);
void declare_dae_view(py::module_& m);
// The Baumgarte parameters the run's settings declare (baumgarte_p, baumgarte_gamma; 0 where undeclared).
std::shared_ptr<FormView> make_dae_view(const Formulation& form, const IntegratorSettings& s, StepCounters* counters);
void declare_constrained_view(py::module_& m);
std::shared_ptr<FormView> make_constrained_view(const Formulation& form, StepCounters* counters);
void declare_lie_group_ode_view(py::module_& m);
std::shared_ptr<FormView> make_lie_group_ode_view(const Formulation& form, StepCounters* counters);
void declare_discrete_lie_group_view(py::module_& m);
std::shared_ptr<FormView> make_discrete_lie_group_view(const Formulation& form, StepCounters* counters);

}  // namespace tb::python
