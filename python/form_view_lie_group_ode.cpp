// The Lie group ODE form y' = xi(t, y) . y (core/formulation.hpp LieGroupOdeFormulation) as a
// Python step sees it: the field xi in the algebra, the action exp(u) . y and dexp^{-1} of the
// state's homogeneous product (numerics/homogeneous_product.hpp), its layout (where each R, q,
// position block and their rates sit in y, and where each factor's 3-vector or block sits in the
// algebra), and the rate rows' tangents of the implicit Lie group schemes.
//
// field() counts one evaluation (rhs_evals), as the compiled Munthe-Kaas methods count theirs; so
// does rate_residual(), as the compiled Lie group generalized-alpha counts its residuals.

#include "python/form_views.hpp"

namespace tb::python {

namespace {

class LieGroupOdeView final : public FormView {
 public:
  using FormView::FormView;

  Eigen::VectorXd field(double t, const Eigen::VectorXd& y) const {
    Eigen::VectorXd xi;
    lg().field(t, sized(y), xi);
    count_evaluation();
    return xi;
  }
  int algebra_size() const { return int(manifold().algebra_size()); }
  int group_size() const { return int(manifold().group_size()); }
  int position_size() const { return int(manifold().position_size()); }
  bool is_vector_space() const { return manifold().is_vector_space(); }
  Eigen::VectorXd act(const Eigen::VectorXd& u, const Eigen::VectorXd& y) const {
    Eigen::VectorXd out;
    manifold().act(u_sized(u, "u"), sized(y), out);
    return out;
  }
  Eigen::VectorXd dexp_inv(const Eigen::VectorXd& u, const Eigen::VectorXd& xi, int q) const {
    if (q < -1 || q > 4)
      throw py::value_error("dexp_inv: q: expected -1 (the exact closed form) or a truncation order from 0 to 4, got " +
                            std::to_string(q));
    Eigen::VectorXd k;
    manifold().dexp_inv(u_sized(u, "u"), u_sized(xi, "xi"), q, k);
    return k;
  }
  Eigen::VectorXd embedded_velocity(const Eigen::VectorXd& y, const Eigen::VectorXd& du) const {
    Eigen::VectorXd dydt;
    manifold().embedded_velocity(sized(y), u_sized(du, "du"), dydt);
    return dydt;
  }
  Eigen::VectorXd algebra_magnitudes(const Eigen::VectorXd& y) const {
    Eigen::VectorXd size;
    manifold().algebra_magnitudes(sized(y), size);
    return size;
  }
  double rotation_defect(const Eigen::VectorXd& y) const { return manifold().rotation_defect(sized(y)); }
  double direction_defect(const Eigen::VectorXd& y) const { return manifold().direction_defect(sized(y)); }

  // The layout: [(R, rate)], [(q, rate)], [(x, rate, size)] as first indices into y, and the
  // free entries of y in state order (they follow the positions in the algebra).
  py::list rotations() const {
    py::list out;
    for (const auto& f : manifold().rotations()) out.append(py::make_tuple(f.R, f.rate));
    return out;
  }
  py::list directions() const {
    py::list out;
    for (const auto& f : manifold().directions()) out.append(py::make_tuple(f.q, f.rate));
    return out;
  }
  py::list positions() const {
    py::list out;
    for (const auto& f : manifold().positions()) out.append(py::make_tuple(f.x, f.rate, f.size));
    return out;
  }
  std::vector<Eigen::Index> vector_entries() const { return manifold().vector_entries(); }

  // The rate rows' tangents (the Newton matrix of Lie group generalized-alpha).
  std::string why_not_tangents() const { return lg().why_not_tangents(); }
  int rate_multipliers() const { return lg().rate_multipliers(); }
  py::tuple rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot) const {
    require_tangents("rate_residual");
    Eigen::VectorXd r, S;
    lg().rate_residual(t, sized(y), sized(vdot, rate_unknowns(), "vdot"), r, S);
    count_evaluation();
    return py::make_tuple(r, S);
  }
  py::tuple rate_tangents(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot) const {
    require_tangents("rate_tangents");
    std::vector<Eigen::Triplet<double>> M, K, C;
    lg().rate_tangent_entries(t, sized(y), sized(vdot, rate_unknowns(), "vdot"), M, K, C);
    return py::make_tuple(entry_arrays(M), entry_arrays(K), entry_arrays(C));
  }
  Eigen::VectorXd rate_multiplier_values(double t, const Eigen::VectorXd& y) const {
    require_tangents("rate_multiplier_values");
    Eigen::VectorXd lambda;
    lg().rate_multiplier_values(t, sized(y), lambda);
    return lambda;
  }

 private:
  const LieGroupOdeFormulation& lg() const { return as<LieGroupOdeFormulation>(); }
  const lie::HomogeneousProduct& manifold() const { return lg().manifold(); }
  const Eigen::VectorXd& u_sized(const Eigen::VectorXd& u, const char* what) const {
    return sized(u, algebra_size(), what);
  }
  // A form without the tangents leaves the outputs untouched (core/formulation.hpp's defaults):
  // an empty r or no entries would read as a zero residual or a zero matrix.
  void require_tangents(const char* what) const {
    if (const std::string why = lg().why_not_tangents(); !why.empty()) throw std::runtime_error(std::string(what) + ": " + why);
  }
  // The rate rows' unknown: k = group_size + position_size rates, then the multipliers.
  int rate_unknowns() const { return group_size() + position_size() + rate_multipliers(); }
};

}  // namespace

void declare_lie_group_ode_view(py::module_& m) {
  py::class_<LieGroupOdeView, FormView, std::shared_ptr<LieGroupOdeView>>(
      m, "LieGroupOdeForm",
      "y' = xi(t, y) . y on a product of SO(3)s (R as 9 numbers, row-major, acted on from the right), S^2s (acted on "
      "from the left) and vector spaces; the algebra layout is [3 per rotation, 3 per direction, the positions, the free "
      "entries in state order]")
      .def("field", &LieGroupOdeView::field, py::arg("t"), py::arg("y"),
           "xi(t, y) in the algebra layout; counts one evaluation (rhs_evals)")
      .def_property_readonly("algebra_size", &LieGroupOdeView::algebra_size)
      .def_property_readonly("group_size", &LieGroupOdeView::group_size,
                             "3 per rotation and direction: where the positions start in the algebra")
      .def_property_readonly("position_size", &LieGroupOdeView::position_size)
      .def_property_readonly("is_vector_space", &LieGroupOdeView::is_vector_space)
      .def("act", &LieGroupOdeView::act, py::arg("u"), py::arg("y"),
           "exp(u) . y: R exp(hat u_R), exp(hat u_q) q, y + u on the vector entries (in increment form)")
      .def("dexp_inv", &LieGroupOdeView::dexp_inv, py::arg("u"), py::arg("xi"), py::arg("q") = -1,
           "k with y = exp(u(t)) . y0 solving y' = xi . y when u' = k: dexp^{-1}, exact (q = -1) or its Bernoulli "
           "series truncated after ad^q (0..4; RKMK of order p needs q >= p - 2)")
      .def("embedded_velocity", &LieGroupOdeView::embedded_velocity, py::arg("y"), py::arg("du"),
           "d/de exp(e du) . y at e = 0, in the state's layout")
      .def("algebra_magnitudes", &LieGroupOdeView::algebra_magnitudes, py::arg("y"),
           "the size against which a relative tolerance measures each algebra component (1 for angles, |y_i| else)")
      .def("rotation_defect", &LieGroupOdeView::rotation_defect, py::arg("y"), "max ||I - R^T R||_F over the rotations")
      .def("direction_defect", &LieGroupOdeView::direction_defect, py::arg("y"), "max ||q| - 1| over the directions")
      .def_property_readonly("rotations", &LieGroupOdeView::rotations, "[(first index of R's 9 entries, of Omega's 3)]")
      .def_property_readonly("directions", &LieGroupOdeView::directions, "[(first index of q's 3 entries, of omega's 3)]")
      .def_property_readonly("positions", &LieGroupOdeView::positions, "[(first index of x, of its velocity, size)]")
      .def_property_readonly("vector_entries", &LieGroupOdeView::vector_entries,
                             "indices of the free entries of y, in the order they follow the positions in the algebra")
      .def_property_readonly("why_not_tangents", &LieGroupOdeView::why_not_tangents,
                             "'' when the form provides rate_residual and rate_tangents; otherwise why not")
      .def_property_readonly("rate_multipliers", &LieGroupOdeView::rate_multipliers,
                             "p auxiliary unknowns lambda of the rate rows (their unknown is [vdot (k), lambda (p)])")
      .def("rate_residual", &LieGroupOdeView::rate_residual, py::arg("t"), py::arg("y"), py::arg("vdot"),
           "(r, S): r = M(g) vdot - F(t, g, v) and the magnitudes of its terms (eps S_i: row i's round-off floor); "
           "counts one evaluation")
      .def("rate_tangents", &LieGroupOdeView::rate_tangents, py::arg("t"), py::arg("y"), py::arg("vdot"),
           "(M, K, C) = (dr/dvdot, dr/dg trivialised, dr/dv), each as (rows, cols, values)")
      .def("rate_multiplier_values", &LieGroupOdeView::rate_multiplier_values, py::arg("t"), py::arg("y"),
           "the multipliers lambda for which r = 0 at the field's rates");
}

std::shared_ptr<FormView> make_lie_group_ode_view(const Formulation& form, StepCounters* counters) {
  return std::make_shared<LieGroupOdeView>(form, counters);
}

}  // namespace tb::python
