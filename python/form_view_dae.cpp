// The index-1 DAE form F(t, y, y') = 0 (core/formulation.hpp DaeFormulation) as a Python step
// sees it.
//
// The Baumgarte parameters (p, gamma) enter the residual, its Jacobian and the consistent initial
// values. The compiled DAE integrator (SUNDIALS' BDF) takes them from its settings baumgarte_p and
// baumgarte_gamma; a Python integrator that declares settings of those names gets the same: its
// run starts from consistent_initial_state(p, gamma), the step's y' starts at
// consistent_initial_derivative(p, gamma), and every method below takes them as its default. One
// that does not declare them integrates the plain index-1 system (p = gamma = 0), as the compiled one with both
// at 0 does. A method's p and gamma arguments override the run's for that call (a scheme that
// compares, or a test).
//
// y' at the step's start: a DAE scheme other than BDF1 (the trapezoidal rule, a BDF with a
// Nordsieck history, ...) needs it, and it is not a function of y alone (the multipliers'
// derivatives). The view's `derivative` holds it: the consistent y' at the run's first step, then
// the y'_{n+1} the previous step returned with its state as (y_next, yp_next), or None when it
// returned y_next alone (then the step has no y' to read).

#include <optional>

#include "python/form_views.hpp"

namespace tb::python {

namespace {

class DaeView final : public FormView {
 public:
  DaeView(const Formulation& form, StepCounters* counters, const BaumgarteParameters& run)
      : FormView(form, counters), run_(run), derivative_(dae().consistent_initial_derivative(run)) {}

  // ---- The stepper's side ----
  Eigen::VectorXd starting_state() const override { return dae().consistent_initial_state(run_); }
  py::object state_in(const py::object& result) override {
    pending_.reset();
    if (!py::isinstance<py::tuple>(result)) return result;
    const auto pair = result.cast<py::tuple>();
    if (pair.size() != 2)
      throw std::invalid_argument("a tuple of " + std::to_string(pair.size()) +
                                  " items, expected y_next or (y_next, yp_next)");
    try {
      pending_ = pair[1].cast<Eigen::VectorXd>();
    } catch (const py::cast_error&) {
      throw std::invalid_argument("(y_next, " + std::string(py::str(py::type::of(pair[1]).attr("__name__"))) +
                                  "), expected yp_next an array of " + std::to_string(state_size()) + " numbers");
    }
    if (pending_->size() != state_size())
      throw std::invalid_argument("yp_next of " + std::to_string(pending_->size()) + " numbers, expected " +
                                  std::to_string(state_size()) + " (the state's size)");
    if (!pending_->allFinite()) throw std::invalid_argument("a non-finite yp_next");
    return pair[0];
  }
  void accept() override {
    derivative_ = pending_;
    pending_.reset();
  }

  // ---- The step's side ----
  py::object derivative() const {
    form();  // raises after the run
    return derivative_ ? py::cast(*derivative_) : py::none();
  }
  py::tuple baumgarte() const {
    form();
    return py::make_tuple(run_.p, run_.gamma);
  }
  std::string why_not_stabilised() const { return dae().why_not_stabilised(); }
  Eigen::VectorXd differential_components() const { return dae().differential_components(); }
  Eigen::VectorXd consistent_initial_state(std::optional<double> p, std::optional<double> gamma) const {
    return dae().consistent_initial_state(parameters(p, gamma));
  }
  Eigen::VectorXd consistent_initial_derivative(std::optional<double> p, std::optional<double> gamma) const {
    return dae().consistent_initial_derivative(parameters(p, gamma));
  }
  Eigen::VectorXd residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, std::optional<double> p,
                           std::optional<double> gamma) const {
    Eigen::VectorXd F(y.size());
    dae().residual(t, sized(y), sized(yp, "yp"), parameters(p, gamma), F);
    count_evaluation();
    return F;
  }
  py::tuple jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, std::optional<double> p,
                     std::optional<double> gamma) const {
    std::vector<Eigen::Triplet<double>> entries;
    dae().jacobian(t, sized(y), sized(yp, "yp"), cj, parameters(p, gamma), entries);
    return entry_arrays(entries);
  }
  int lower_bandwidth() const { return dae().lower_bandwidth(); }
  int upper_bandwidth() const { return dae().upper_bandwidth(); }

 private:
  const DaeFormulation& dae() const { return as<DaeFormulation>(); }
  BaumgarteParameters parameters(std::optional<double> p, std::optional<double> gamma) const {
    return {p.value_or(run_.p), gamma.value_or(run_.gamma)};
  }

  const BaumgarteParameters run_;
  std::optional<Eigen::VectorXd> derivative_, pending_;
};

double declared_or_zero(const IntegratorSettings& s, const char* key) { return s.declares(key) ? s.get(key) : 0.0; }

}  // namespace

void declare_dae_view(py::module_& m) {
  const auto p = py::arg("p") = py::none(), gamma = py::arg("gamma") = py::none();
  py::class_<DaeView, FormView, std::shared_ptr<DaeView>>(
      m, "DaeForm",
      "the index-1 DAE F(t, y, y') = 0 (Baumgarte-stabilised constraints, multipliers as algebraic components); p and "
      "gamma default to the run's (form.baumgarte)")
      .def_property_readonly("baumgarte", &DaeView::baumgarte,
                             "(p, gamma) of the run (1/s): the integrator's settings baumgarte_p, baumgarte_gamma, 0 where "
                             "it declares none")
      .def_property_readonly("derivative", &DaeView::derivative,
                             "y' at the step's start: the consistent y'(t0) at the first step, then the yp_next the previous "
                             "step returned as (y_next, yp_next); None when it returned y_next alone")
      .def_property_readonly("why_not_stabilised", &DaeView::why_not_stabilised,
                             "'' when p and gamma act on the form; otherwise why not (e.g. no constraints)")
      .def("differential_components", &DaeView::differential_components, "1 for differential components, 0 for algebraic ones")
      .def("consistent_initial_state", &DaeView::consistent_initial_state, p, gamma,
           "y0 with consistent multipliers (the run starts from it at the run's p, gamma)")
      .def("consistent_initial_derivative", &DaeView::consistent_initial_derivative, p, gamma,
           "y'(t0) with F(t0, y0, y'(t0)) = 0")
      .def("residual", &DaeView::residual, py::arg("t"), py::arg("y"), py::arg("yp"), p, gamma,
           "F(t, y, y'); counts one evaluation (rhs_evals)")
      .def("jacobian", &DaeView::jacobian, py::arg("t"), py::arg("y"), py::arg("yp"), py::arg("cj"), p, gamma,
           "dF/dy + cj dF/dy' as (rows, cols, values); repeated entries are summed")
      .def_property_readonly("lower_bandwidth", &DaeView::lower_bandwidth, "the Jacobian's entries have column - row >= -lower")
      .def_property_readonly("upper_bandwidth", &DaeView::upper_bandwidth, "... and column - row <= upper");
}

std::shared_ptr<FormView> make_dae_view(const Formulation& form, const IntegratorSettings& s, StepCounters* counters) {
  return std::make_shared<DaeView>(form, counters,
                                   BaumgarteParameters{declared_or_zero(s, "baumgarte_p"), declared_or_zero(s, "baumgarte_gamma")});
}

}  // namespace tb::python
