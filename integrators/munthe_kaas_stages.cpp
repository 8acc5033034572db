#include "integrators/munthe_kaas_stages.hpp"

#include "core/integrator.hpp"

namespace tb {

MuntheKaasStages::MuntheKaasStages(const LieGroupOdeFormulation& form, int dexp_inv_terms)
    : form_(form), q_(dexp_inv_terms) {}

bool MuntheKaasStages::evaluate(const ExplicitTableau& tableau, double t, const Eigen::VectorXd& y0, double h,
                                long& field_evals, const Eigen::VectorXd* first_field) {
  const lie::HomogeneousProduct& manifold = form_.manifold();
  const int s = tableau.stages();
  k_.resize(size_t(s));
  for (int j = 0; j < s; ++j) {
    if (j == 0) {
      // u_1 = 0: dexp^{-1}_0 is the identity and exp(0) . y0 = y0.
      if (first_field) {
        xi_ = *first_field;
      } else {
        form_.field(t, y0, xi_);
        ++field_evals;
      }
      k_[0] = xi_;
    } else {
      combine(tableau.a[size_t(j)], h, u_);
      manifold.act(u_, y0, y_);
      form_.field(t + tableau.c[size_t(j)] * h, y_, xi_);
      ++field_evals;
      manifold.dexp_inv(u_, xi_, q_, k_[size_t(j)]);
    }
    if (!all_finite(k_[size_t(j)])) return false;
  }
  return true;
}

void MuntheKaasStages::combine(const std::vector<double>& w, double h, Eigen::VectorXd& u) const {
  u.setZero(form_.manifold().algebra_size());
  for (size_t l = 0; l < w.size(); ++l)
    if (w[l] != 0.0) u.noalias() += (h * w[l]) * k_[l];
}

}  // namespace tb
