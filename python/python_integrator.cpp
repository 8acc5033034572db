#include "python/python_integrator.hpp"

#include "app/running/interrupt.hpp"

#include <pybind11/eigen.h>

#include <memory>

#include "core/fixed_step.hpp"
#include "python/form_views.hpp"

namespace tb::python {

namespace {

// The Python function, shared by every copy of the IntegratorInfo. Those copies are made and
// dropped by C++ with the interpreter's lock released (the runner, the job pool), so the function's
// reference count is touched only here, with the lock held.
class PythonFunction {
 public:
  explicit PythonFunction(py::object f) : f_(std::move(f)) {}
  ~PythonFunction() {
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      f_ = py::object();
    } else {
      f_.release();  // the interpreter is gone: nothing to release it into
    }
  }
  const py::object& operator*() const { return f_; }

 private:
  py::object f_;
};

std::string exception_text(const py::error_already_set& e) {
  // The type and message on one line (a table cell), and where it was raised: the innermost frame
  // of the traceback (function, file and line), which is what one needs to find the fault.
  std::string message = py::str(e.value());
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  std::string where;
  try {
    py::object tb = e.trace();
    while (!tb.is_none() && !tb.attr("tb_next").is_none()) tb = tb.attr("tb_next");
    if (!tb.is_none()) {
      const py::object code = tb.attr("tb_frame").attr("f_code");
      where = " (in " + std::string(py::str(code.attr("co_name"))) + ", " + std::string(py::str(code.attr("co_filename"))) +
              " line " + std::string(py::str(tb.attr("tb_lineno"))) + ")";
    }
  } catch (const py::error_already_set&) {
    where.clear();  // no traceback to read: the type and message say what happened
  }
  return std::string(py::str(e.type().attr("__name__"))) + (message.empty() ? "" : ": " + message) + where;
}

// What a step returned that is not a 1-D array of numbers, for the failure's reason.
std::string returned_what(const py::object& result) {
  const std::string type = py::str(py::type::of(result).attr("__name__"));
  if (py::hasattr(result, "shape")) return "a " + type + " of shape " + std::string(py::str(result.attr("shape")));
  return type;
}

class PythonStepper final : public FixedStepStepper {
 public:
  PythonStepper(std::shared_ptr<const PythonFunction> step, const Formulation& form, const IntegratorSettings& s,
                double t0, bool pass_settings)
      : FixedStepStepper(t0, s.h, Eigen::VectorXd()), step_(std::move(step)) {
    py::gil_scoped_acquire gil;
    try {
      view_object_ = make_form_view(form, s, &counters_, view_);
      y_ = view_->starting_state();  // the kind's start (the DAE's consistent state: python_integrator.hpp)
      if (pass_settings) {
        py::dict d;
        for (const auto& [key, value] : s.values()) d[py::str(key)] = value;
        for (const auto& [key, value] : s.words()) d[py::str(key)] = value;
        settings_ = d;
      }
    } catch (...) {
      release();  // here, with the lock: the members would otherwise be dropped after it
      throw;
    }
  }
  ~PythonStepper() override {
    py::gil_scoped_acquire gil;
    release();
  }

 protected:
  bool advance(double dt, Eigen::VectorXd& next, StepFailure& failure) override {
    py::gil_scoped_acquire gil;
    py::object result;
    try {
      result = settings_ ? (**step_)(view_object_, t_, y_, dt, settings_) : (**step_)(view_object_, t_, y_, dt);
    } catch (py::error_already_set& e) {
      // Ctrl-C in a notebook (interrupt_main, or SIGINT under Python's own handler) lands in the
      // step's Python code: the user's stop, not the method's failure (issue 46 item 1).
      if (e.matches(PyExc_KeyboardInterrupt)) throw RunInterrupted();
      failure = {StepFailure::Kind::SolverFailed, "the Python step raised " + exception_text(e)};
      return false;
    }
    try {
      result = view_->state_in(result);  // the DAE's (y_next, yp_next): its yp_next kept for the next step
    } catch (const std::invalid_argument& e) {
      failure = {StepFailure::Kind::SolverFailed, std::string("the Python step returned ") + e.what()};
      return false;
    }
    try {
      next = result.cast<Eigen::VectorXd>();
    } catch (const py::cast_error&) {
      failure = {StepFailure::Kind::SolverFailed, "the Python step returned " + returned_what(result) +
                                                      ", expected a 1-D array of " + std::to_string(y_.size()) + " numbers"};
      return false;
    }
    if (next.size() != y_.size()) {
      failure = {StepFailure::Kind::SolverFailed, "the Python step returned " + std::to_string(next.size()) +
                                                      " numbers, expected " + std::to_string(y_.size()) + " (the state's size)"};
      return false;
    }
    if (!all_finite(next)) {
      failure = {StepFailure::Kind::Diverged, "the Python step returned a non-finite state"};
      return false;
    }
    view_->accept();
    return true;
  }

 private:
  // Ends the view's run and drops the Python objects; called with the interpreter's lock held.
  void release() {
    if (view_) view_->invalidate();
    view_.reset();  // a view the step did not keep goes here
    view_object_ = py::object();
    settings_ = py::object();
  }

  std::shared_ptr<const PythonFunction> step_;
  std::shared_ptr<FormView> view_;
  py::object view_object_, settings_;
};

template <class Form>
StepperFactory python_factory(std::shared_ptr<const PythonFunction> step, bool pass_settings) {
  return consuming([step, pass_settings](const Form& form, const IntegratorSettings& s, double t0) -> std::unique_ptr<TimeStepper> {
    return std::make_unique<PythonStepper>(step, form, s, t0, pass_settings);
  });
}

}  // namespace

IntegratorInfo python_integrator(const PythonIntegratorSpec& spec) {
  IntegratorInfo info;
  info.name = spec.name;
  info.order = spec.order;
  info.adaptive = false;
  info.traits = spec.traits;
  info.summary = spec.summary;
  info.settings = spec.settings;
  info.interpreter = "python";
  auto step = std::make_shared<const PythonFunction>(spec.step);
  const bool pass_settings = !spec.settings.empty();
  switch (spec.consumes) {
    case FormulationKind::EmbeddedOde: info.make = python_factory<OdeFormulation>(step, pass_settings); break;
    case FormulationKind::IndexOneDae: info.make = python_factory<DaeFormulation>(step, pass_settings); break;
    case FormulationKind::ConstrainedMechanical: info.make = python_factory<ConstrainedMechanicalFormulation>(step, pass_settings); break;
    case FormulationKind::LieGroupOde: info.make = python_factory<LieGroupOdeFormulation>(step, pass_settings); break;
    case FormulationKind::DiscreteLieGroup: info.make = python_factory<DiscreteLieGroupFormulation>(step, pass_settings); break;
  }
  info.consumes = info.make.consumes();
  // A DAE method's Baumgarte settings, as the compiled one's: refused where they act on nothing.
  if (spec.consumes == FormulationKind::IndexOneDae) info.idle_setting = idle_baumgarte_setting;
  return info;
}

}  // namespace tb::python
