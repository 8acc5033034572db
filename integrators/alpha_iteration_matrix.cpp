#include "integrators/alpha_iteration_matrix.hpp"

namespace tb {

AlphaIterationMatrix::AlphaIterationMatrix(const ConstrainedMechanicalFormulation& form)
    : form_(form), n_(form.positions()), m_(form.constraints()), variable_mass_(form.mass_depends_on_configuration()) {
  if (!variable_mass_) form.mass_entries(mass_);
  S_.resize(n_ + m_, n_ + m_);
}

bool AlphaIterationMatrix::factor(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  const Eigen::VectorXd& qdd, const Eigen::VectorXd& lambda, double beta_p,
                                  double gamma_p, const std::vector<bool>* active) {
  if (variable_mass_) {  // M(q) and d(M(q) qdd)/dq (in K_t) at the iterate
    work_.clear();
    form_.mass_entries_at(q, work_);
    mass_jacobian_.clear();
    form_.mass_times_jacobian_entries(q, qdd, mass_jacobian_);
    for (const auto& e : mass_jacobian_) work_.emplace_back(e.row(), e.col(), e.value() / beta_p);
  } else {
    work_ = mass_;
  }
  dfdq_.clear();
  dfdv_.clear();
  kg_.clear();
  g_entries_.clear();
  form_.force_jacobian_entries(t, q, v, dfdq_, dfdv_);
  if (m_ > 0) {
    form_.constraint_force_jacobian_entries(q, lambda, kg_);
    form_.constraint_jacobian(q, g_entries_);
  }
  for (const auto& e : dfdq_) work_.emplace_back(e.row(), e.col(), -e.value() / beta_p);
  for (const auto& e : dfdv_) work_.emplace_back(e.row(), e.col(), -e.value() * gamma_p / beta_p);
  for (const auto& e : kg_) work_.emplace_back(e.row(), e.col(), e.value() / beta_p);
  for (const auto& e : g_entries_) {
    if (active && !(*active)[e.row()]) continue;
    work_.emplace_back(n_ + e.row(), e.col(), e.value());
    work_.emplace_back(e.col(), n_ + e.row(), e.value());
  }
  if (active)
    for (int i = 0; i < m_; ++i)
      if (!(*active)[i]) work_.emplace_back(n_ + i, n_ + i, 1.0);
  // Into the last assembly's slots while the entries come in the same sequence (bitwise the
  // values of setFromTriplets, without its sort and allocations: 8 % of a run on
  // C_single_multirotor by perf; integrators/pattern_cached_lu.hpp).
  assembly_.assemble(work_, S_);
  return lu_.factor(S_);
}

}  // namespace tb
