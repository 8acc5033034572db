// The constrained mechanical form (core/formulation.hpp ConstrainedMechanicalFormulation)
//   q' = v,  M v' = f(t, q, v) - G(q)^T lambda,  g(q) = 0,   y = [q (n), v (n), W (work_terms)]
// as a Python step sees it: M, f, g, G as products and sparse entries, and the model's structured
// solver of the saddle-point system
//   [ M(q_a)   G(q_b)^T ] [x     ]   [r]
//   [ G(q_a)   0        ] [lambda] = [s]
// as a Python object (make_solver): its factor and solve are the model's own (banded along a
// string, O(m n) on a cable tree, closed form per rigid body), so a scheme written in Python does
// the same O(N) linear algebra as the compiled ones and never forms a dense inverse. The solver
// holds the model's state and is released with the view when the run ends (FormPart).
//
// f counts one evaluation (rhs_evals) per call, as the compiled schemes count force evaluations.

#include "python/form_views.hpp"

namespace tb::python {

namespace {

class SolverPart final : public FormPart {
 public:
  SolverPart(std::unique_ptr<ConstrainedMechanicalSolver> solver, int positions, int constraints)
      : FormPart("solver", nullptr), solver_(std::move(solver)), n_(positions), m_(constraints) {}

  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) {
    check();
    sized(q_a, n_, "q_a");
    sized(q_b, n_, "q_b");
    factored_ = solver_->factor(q_a, q_b);
    return factored_;
  }
  py::tuple solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s) {
    check();
    // The model's solve reads its last factorisation: without one it would read whatever is there.
    if (!factored_) throw std::runtime_error("solve: no factorisation (call factor(q_a, q_b) first, and check that it returned True)");
    sized(r, n_, "r");
    sized(s, m_, "s");
    Eigen::VectorXd x, lambda;
    solver_->solve(r, s, x, lambda);
    return py::make_tuple(x, lambda);
  }

 private:
  void drop() override { solver_.reset(); }
  static void sized(const Eigen::VectorXd& v, int size, const char* what) {
    if (v.size() != size)
      throw py::value_error(std::string(what) + ": expected " + std::to_string(size) + " numbers, got " + std::to_string(v.size()));
  }

  std::unique_ptr<ConstrainedMechanicalSolver> solver_;
  int n_, m_;
  bool factored_ = false;
};

class ConstrainedView final : public FormView {
 public:
  using FormView::FormView;

  int positions() const { return cm().positions(); }
  int constraints() const { return cm().constraints(); }
  int work_terms() const { return cm().work_terms(); }

  Eigen::VectorXd mass_times(const Eigen::VectorXd& v) const {
    Eigen::VectorXd Mv;
    cm().mass_times(q_sized(v, "v"), Mv);
    return Mv;
  }
  py::tuple mass_entries() const {
    std::vector<Eigen::Triplet<double>> e;
    cm().mass_entries(e);
    return entry_arrays(e);
  }
  Eigen::VectorXd force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd f;
    cm().force(t, q_sized(q, "q"), q_sized(v, "v"), f);
    count_evaluation();
    return f;
  }
  bool force_depends_on_velocity() const { return cm().force_depends_on_velocity(); }
  Eigen::VectorXd power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd P;
    cm().power(t, q_sized(q, "q"), q_sized(v, "v"), P);
    return P;
  }
  Eigen::VectorXd constraint(const Eigen::VectorXd& q) const {
    Eigen::VectorXd g;
    cm().constraint(q_sized(q, "q"), g);
    return g;
  }
  Eigen::VectorXd constraint_scale() const { return cm().constraint_scale(); }
  py::tuple constraint_jacobian(const Eigen::VectorXd& q) const {
    std::vector<Eigen::Triplet<double>> e;
    cm().constraint_jacobian(q_sized(q, "q"), e);
    return entry_arrays(e);
  }
  Eigen::VectorXd constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd Gv;
    cm().constraint_jacobian_times(q_sized(q, "q"), q_sized(v, "v"), Gv);
    return Gv;
  }
  Eigen::VectorXd constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda) const {
    Eigen::VectorXd GTl;
    cm().constraint_jacobian_transpose_times(q_sized(q, "q"), sized(lambda, cm().constraints(), "lambda"), GTl);
    return GTl;
  }
  std::shared_ptr<SolverPart> make_solver() {
    const auto& f = cm();
    return adopt(std::make_shared<SolverPart>(f.make_solver(), f.positions(), f.constraints()));
  }

  // Tangents (the alpha methods' Newton matrix).
  std::string why_not_tangents() const { return cm().why_not_tangents(); }
  py::tuple force_jacobian(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    require_tangents("force_jacobian");
    std::vector<Eigen::Triplet<double>> dfdq, dfdv;
    cm().force_jacobian_entries(t, q_sized(q, "q"), q_sized(v, "v"), dfdq, dfdv);
    return py::make_tuple(entry_arrays(dfdq), entry_arrays(dfdv));
  }
  py::tuple constraint_force_jacobian(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda) const {
    require_tangents("constraint_force_jacobian");
    std::vector<Eigen::Triplet<double>> e;
    cm().constraint_force_jacobian_entries(q_sized(q, "q"), sized(lambda, cm().constraints(), "lambda"), e);
    return entry_arrays(e);
  }

  // A configuration-dependent mass matrix M(q).
  bool mass_depends_on_configuration() const { return cm().mass_depends_on_configuration(); }
  Eigen::VectorXd mass_times_at(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd Mv;
    cm().mass_times_at(q_sized(q, "q"), q_sized(v, "v"), Mv);
    return Mv;
  }
  py::tuple mass_entries_at(const Eigen::VectorXd& q) const {
    std::vector<Eigen::Triplet<double>> e;
    cm().mass_entries_at(q_sized(q, "q"), e);
    return entry_arrays(e);
  }
  Eigen::VectorXd mass_change_times(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, const Eigen::VectorXd& v) const {
    Eigen::VectorXd out;
    cm().mass_change_times(q_sized(q, "q"), q_sized(dq, "dq"), q_sized(v, "v"), out);
    return out;
  }
  py::tuple mass_times_jacobian(const Eigen::VectorXd& q, const Eigen::VectorXd& a) const {
    std::vector<Eigen::Triplet<double>> e;
    cm().mass_times_jacobian_entries(q_sized(q, "q"), q_sized(a, "a"), e);
    return entry_arrays(e);
  }
  Eigen::VectorXd kinetic_gradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd dT;
    cm().kinetic_gradient(q_sized(q, "q"), q_sized(v, "v"), dT);
    return dT;
  }
  Eigen::VectorXd applied_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    Eigen::VectorXd f;
    cm().applied_force(t, q_sized(q, "q"), q_sized(v, "v"), f);
    count_evaluation();
    return f;
  }
  std::string why_not_admissible(const Eigen::VectorXd& q) const { return cm().why_not_admissible(q_sized(q, "q")); }

 private:
  const ConstrainedMechanicalFormulation& cm() const { return as<ConstrainedMechanicalFormulation>(); }
  // A form without the tangents appends no entries (core/formulation.hpp's defaults), which would
  // read as zero matrices.
  void require_tangents(const char* what) const {
    if (const std::string why = cm().why_not_tangents(); !why.empty()) throw std::runtime_error(std::string(what) + ": " + why);
  }
  const Eigen::VectorXd& q_sized(const Eigen::VectorXd& v, const char* what) const { return sized(v, cm().positions(), what); }
};

}  // namespace

void declare_constrained_view(py::module_& m) {
  py::class_<SolverPart, std::shared_ptr<SolverPart>>(
      m, "ConstrainedSolver",
      "the model's structured solver of [M(q_a), G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] (valid while its run lasts)")
      .def("factor", &SolverPart::factor, py::arg("q_a"), py::arg("q_b"),
           "factors the matrix at (q_a, q_b) (M at q_a); False when it is singular")
      .def("solve", &SolverPart::solve, py::arg("r"), py::arg("s"),
           "(x, lambda) with the last factorisation; r has `positions` entries, s `constraints`");
  py::class_<ConstrainedView, FormView, std::shared_ptr<ConstrainedView>>(
      m, "ConstrainedForm", "q' = v, M v' = f(t, q, v) - G(q)^T lambda, g(q) = 0 in natural coordinates; y = [q, v, W]")
      .def_property_readonly("positions", &ConstrainedView::positions, "n = dim q = dim v")
      .def_property_readonly("constraints", &ConstrainedView::constraints, "the number of rows of g")
      .def_property_readonly("work_terms", &ConstrainedView::work_terms,
                             "trailing entries W of the state, W' = power(t, q, v) (0 for conservative forms)")
      .def("mass_times", &ConstrainedView::mass_times, py::arg("v"), "M v (M at the initial configuration when it depends on q)")
      .def("mass_entries", &ConstrainedView::mass_entries, "M as (rows, cols, values)")
      .def("force", &ConstrainedView::force, py::arg("t"), py::arg("q"), py::arg("v"),
           "f(t, q, v), every applied force; counts one evaluation (rhs_evals)")
      .def_property_readonly("force_depends_on_velocity", &ConstrainedView::force_depends_on_velocity)
      .def("power", &ConstrainedView::power, py::arg("t"), py::arg("q"), py::arg("v"), "W' (work_terms entries)")
      .def("constraint", &ConstrainedView::constraint, py::arg("q"), "g(q)")
      .def("constraint_scale", &ConstrainedView::constraint_scale,
           "the size of each constraint's terms: |g_i| / scale_i is a relative error")
      .def("constraint_jacobian", &ConstrainedView::constraint_jacobian, py::arg("q"), "G(q) = dg/dq as (rows, cols, values)")
      .def("constraint_jacobian_times", &ConstrainedView::constraint_jacobian_times, py::arg("q"), py::arg("v"), "G(q) v")
      .def("constraint_jacobian_transpose_times", &ConstrainedView::constraint_jacobian_transpose_times, py::arg("q"),
           py::arg("lambda_"), "G(q)^T lambda")
      .def("make_solver", &ConstrainedView::make_solver,
           "a fresh ConstrainedSolver (it holds a factorisation: keep one per run, e.g. in form.store)")
      .def_property_readonly("why_not_tangents", &ConstrainedView::why_not_tangents,
                             "'' when the form provides force_jacobian and constraint_force_jacobian; otherwise why not")
      .def("force_jacobian", &ConstrainedView::force_jacobian, py::arg("t"), py::arg("q"), py::arg("v"),
           "(df/dq, df/dv), each as (rows, cols, values)")
      .def("constraint_force_jacobian", &ConstrainedView::constraint_force_jacobian, py::arg("q"), py::arg("lambda_"),
           "d(G(q)^T lambda)/dq as (rows, cols, values)")
      .def_property_readonly("mass_depends_on_configuration", &ConstrainedView::mass_depends_on_configuration,
                             "M = M(q): then force() includes the velocity-quadratic terms and the _at methods give M(q)")
      .def("mass_times_at", &ConstrainedView::mass_times_at, py::arg("q"), py::arg("v"), "M(q) v")
      .def("mass_entries_at", &ConstrainedView::mass_entries_at, py::arg("q"), "M(q) as (rows, cols, values)")
      .def("mass_change_times", &ConstrainedView::mass_change_times, py::arg("q"), py::arg("dq"), py::arg("v"),
           "(M(q + dq) - M(q)) v formed from the increment")
      .def("mass_times_jacobian", &ConstrainedView::mass_times_jacobian, py::arg("q"), py::arg("a"),
           "d(M(q) a)/dq at fixed a as (rows, cols, values)")
      .def("kinetic_gradient", &ConstrainedView::kinetic_gradient, py::arg("q"), py::arg("v"), "dT/dq at fixed v")
      .def("applied_force", &ConstrainedView::applied_force, py::arg("t"), py::arg("q"), py::arg("v"),
           "the applied forces f_a alone (force() without M(q)'s inertial terms); counts one evaluation")
      .def("why_not_admissible", &ConstrainedView::why_not_admissible, py::arg("q"),
           "'' when q lies where M, f and g are defined; otherwise why not");
}

std::shared_ptr<FormView> make_constrained_view(const Formulation& form, StepCounters* counters) {
  return std::make_shared<ConstrainedView>(form, counters);
}

}  // namespace tb::python
