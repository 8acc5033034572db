// The discrete Lie group form (core/formulation.hpp DiscreteLieGroupFormulation) as a Python step
// sees it: the model's step equations G(x) = 0 of a Lie group variational integrator, as a Step
// object (make_step) with the model's residual, its analytic O(N) Newton correction, the update
// from the solved unknowns, and the stopping rule's units (residual_magnitudes, unknown_groups),
// so that a Newton loop written in Python solves the same equations as the compiled variational integrator with the
// same linear algebra. The iteration, its tolerance and its failure handling are the step's.
//
// A DiscreteLieGroupStep is stateful: begin(y, h) sets the step it solves, and the model's
// residual_magnitudes() describe the last residual(). The Step object enforces that order
// (RuntimeError otherwise) rather than let a model read what was never set. It holds the model's
// state and is released with the view when the run ends (FormPart). residual() counts one
// evaluation (rhs_evals), as the compiled variational integrator counts its residuals.

#include <cmath>
#include <optional>

#include "python/form_views.hpp"

namespace tb::python {

namespace {

class StepPart final : public FormPart {
 public:
  StepPart(std::unique_ptr<DiscreteLieGroupStep> step, int state_size, StepCounters* counters)
      : FormPart("step", counters), step_(std::move(step)), n_(state_size), unknowns_(step_->unknowns()) {}

  int unknowns() const {
    check();
    return unknowns_;
  }
  void begin(const Eigen::VectorXd& y, double h, double t) {
    check();
    sized(y, n_, "y");
    if (!(h != 0.0) || !std::isfinite(h)) throw py::value_error("begin: h: expected a finite step other than 0 (either sign)");
    if (!std::isfinite(t)) throw py::value_error("begin: t: expected a finite start time");
    step_->set_start_time(t);
    step_->begin(y, h);
    begun_ = true;
    have_residual_ = false;
  }
  Eigen::VectorXd initial_guess() const {
    require_begun("initial_guess");
    Eigen::VectorXd x;
    step_->initial_guess(x);
    return x;
  }
  Eigen::VectorXd residual(const Eigen::VectorXd& x) {
    require_begun("residual");
    Eigen::VectorXd G;
    step_->residual(sized(x, unknowns_, "x"), G);
    count_evaluation();
    have_residual_ = true;
    return G;
  }
  Eigen::VectorXd residual_magnitudes() const {
    require_begun("residual_magnitudes");
    if (!have_residual_) throw std::runtime_error("residual_magnitudes: they describe the last residual(x): call it first");
    Eigen::VectorXd S;
    step_->residual_magnitudes(S);
    return S;
  }
  std::vector<int> unknown_groups() const {
    check();
    std::vector<int> groups;
    step_->unknown_groups(groups);
    return groups;
  }
  std::optional<Eigen::VectorXd> newton_correction(const Eigen::VectorXd& x, const Eigen::VectorXd& G) {
    require_begun("newton_correction");
    Eigen::VectorXd dx;
    if (!step_->newton_correction(sized(x, unknowns_, "x"), sized(G, unknowns_, "G"), dx)) return std::nullopt;
    return dx;
  }
  Eigen::VectorXd complete(const Eigen::VectorXd& x) {
    require_begun("complete");
    Eigen::VectorXd y_next;
    step_->complete(sized(x, unknowns_, "x"), y_next);
    return y_next;
  }

 private:
  void drop() override { step_.reset(); }
  void require_begun(const char* what) const {
    check();
    if (!begun_) throw std::runtime_error(std::string(what) + ": no step set (call begin(y, h) first)");
  }
  static const Eigen::VectorXd& sized(const Eigen::VectorXd& v, int size, const char* what) {
    if (v.size() != size)
      throw py::value_error(std::string(what) + ": expected " + std::to_string(size) + " numbers, got " + std::to_string(v.size()));
    return v;
  }

  std::unique_ptr<DiscreteLieGroupStep> step_;
  int n_, unknowns_;
  bool begun_ = false, have_residual_ = false;
};

class DiscreteLieGroupView final : public FormView {
 public:
  using FormView::FormView;
  std::shared_ptr<StepPart> make_step() {
    const auto& f = dlg();
    return adopt(std::make_shared<StepPart>(f.make_step(), f.state_size(), counters()));
  }
  std::string why_not_time_symmetric() const { return dlg().why_not_time_symmetric(); }
  Eigen::VectorXd canonical_state(const Eigen::VectorXd& y) const { return dlg().canonical_state(sized(y)); }

 private:
  const DiscreteLieGroupFormulation& dlg() const { return as<DiscreteLieGroupFormulation>(); }
};

}  // namespace

void declare_discrete_lie_group_view(py::module_& m) {
  py::class_<StepPart, std::shared_ptr<StepPart>>(
      m, "DiscreteLieGroupStep",
      "one step y_k -> y_{k+1} of the model's discrete equations G(x) = 0 (valid while its run lasts): begin(y, h), then "
      "residual / newton_correction until solved, then complete(x)")
      .def_property_readonly("unknowns", &StepPart::unknowns, "the number of unknowns x (and rows of G)")
      .def("begin", &StepPart::begin, py::arg("y"), py::arg("h"), py::arg("t") = 0.0,
           "sets the known state y_k, the step h (either sign) and its start time t (read only by a model whose discrete "
           "Lagrangian depends on time, one that drives a point; an autonomous model's step is the same at every t)")
      .def("initial_guess", &StepPart::initial_guess, "the model's starting x (when no previous solution predicts one)")
      .def("residual", &StepPart::residual, py::arg("x"), "G(x); counts one evaluation (rhs_evals)")
      .def("residual_magnitudes", &StepPart::residual_magnitudes,
           "S >= 0 for the last residual: the magnitudes of each row's terms, so eps S_i is row i's round-off floor")
      .def("unknown_groups", &StepPart::unknown_groups,
           "per unknown, the index of its group of like unknowns (a correction is measured against its group's size); "
           "-1 for a multiplier, judged by its rows")
      .def("newton_correction", &StepPart::newton_correction, py::arg("x"), py::arg("G"),
           "dx solving J(x) dx = -G with the model's analytic Jacobian, or None when J is singular")
      .def("complete", &StepPart::complete, py::arg("x"), "the new state y_{k+1} from the solved x");
  py::class_<DiscreteLieGroupView, FormView, std::shared_ptr<DiscreteLieGroupView>>(
      m, "DiscreteLieGroupForm", "the discrete Lagrangian's step equations on R^k x SO(3) x (S^2)^n (position-momentum form)")
      .def("make_step", &DiscreteLieGroupView::make_step,
           "a fresh DiscreteLieGroupStep (it holds the step's state: keep one per run, e.g. in form.store)")
      .def_property_readonly("why_not_time_symmetric", &DiscreteLieGroupView::why_not_time_symmetric,
                             "'' when the step is symmetric (Phi_{-h} Phi_h = id); otherwise why not")
      .def("canonical_state", &DiscreteLieGroupView::canonical_state, py::arg("y"),
           "y in coordinates where two states of one point of phase space are equal component by component");
}

std::shared_ptr<FormView> make_discrete_lie_group_view(const Formulation& form, StepCounters* counters) {
  return std::make_shared<DiscreteLieGroupView>(form, counters);
}

}  // namespace tb::python
