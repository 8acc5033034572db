#include "core/penalty_constrained_ode.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"
#include "core/kelvin_voigt_contact.hpp"
#include "core/unilateral_impulse.hpp"

namespace tb {

PenaltyConstrainedOde::PenaltyConstrainedOde(std::unique_ptr<const ConstrainedMechanicalFormulation> form, PenaltyLaw law,
                                             const Eigen::VectorXd& calibration_q)
    : form_(std::move(form)),
      law_(law),
      n_(form_->positions()),
      rows_(form_->constraints()),
      base_(2 * form_->positions() + form_->work_terms()),
      equality_(equality_rows(*form_)),
      root_scale_(form_->constraint_scale().cwiseSqrt()),
      zeta_(restitution_damping_ratio(law.restitution)),
      calibration_q_(calibration_q),
      solver_(form_->make_solver()) {
  for (int i = 0; i < rows_; ++i)
    if (form_->one_sided(i)) one_sided_.push_back(i);
  if (one_sided_.empty() || form_->work_terms() < 1)
    throw std::invalid_argument("the penalty ODE needs a constrained form with one-sided rows and a work term for the dashpots' loss");
  if (!(law_.contact_frequency > 0.0) || calibration_q.size() != n_)
    throw std::invalid_argument("the penalty ODE needs a positive contact frequency and a calibration configuration of the form's size");
  // Each row's effective mass along itself with every other row held (the rigid-cable limit the regularisation
  // approaches): m_i = [W^-1]_ii, W = G M^-1 G^T / sqrt(s s^T) (the Schur complement of the others, 1 / m_i =
  // W_ii - W_io W_oo^-1 W_oi, is 1 / [W^-1]_ii). [M G^T; G 0] [x; lambda] = [0; e_i] gives lambda = -W^-1 e_i in
  // the form's own row units: m_i = -lambda_i s_i. One O(N) solve a row, once.
  if (!solver_->factor(calibration_q, calibration_q))
    throw std::invalid_argument("the penalty ODE's calibration configuration makes the form's system singular");
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(rows_), x, lambda;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n_);
  for (int i : one_sided_) {
    unit.setZero();
    unit[i] = 1.0;
    solver_->solve(zero, unit, x, lambda);
    const double m = -lambda[i] * root_scale_[i] * root_scale_[i];
    if (!(m > 0.0) || !std::isfinite(m))
      throw std::invalid_argument("the penalty ODE: row " + std::to_string(i) + " has no positive effective mass at the calibration configuration");
    mass_.push_back(m);
    k_.push_back(m * law_.contact_frequency * law_.contact_frequency);
    c_.push_back(2.0 * zeta_ * law_.contact_frequency * m);
  }
  // The local masses: 1 / m_i = (G_i / sqrt(s_i)) x with [M G_E^T; G_E 0] [x; mu] = [G_i^T / sqrt(s_i); 0], the
  // equality rows alone held.
  if (!solver_->factor_active(calibration_q, calibration_q, equality_))
    throw std::invalid_argument("the penalty ODE's calibration configuration makes the form's free system singular");
  Eigen::VectorXd r, Gx;
  const Eigen::VectorXd no_rows = Eigen::VectorXd::Zero(rows_);
  for (int i : one_sided_) {
    unit.setZero();
    unit[i] = 1.0 / root_scale_[i];
    form_->constraint_jacobian_transpose_times(calibration_q, unit, r);
    solver_->solve(r, no_rows, x, lambda);
    form_->constraint_jacobian_times(calibration_q, x, Gx);
    const double inverse_mass = Gx[i] / root_scale_[i];
    local_mass_.push_back(inverse_mass > 0.0 ? 1.0 / inverse_mass : std::numeric_limits<double>::quiet_NaN());
  }
}

PenaltyConstrainedOde::LinearModes PenaltyConstrainedOde::linear_modes() const {
  LinearModes out;
  const Eigen::VectorXd& q = calibration_q_;
  std::vector<Eigen::Triplet<double>> m_entries, g_entries;
  form_->mass_entries(m_entries);
  form_->constraint_jacobian(q, g_entries);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n_, n_), G = Eigen::MatrixXd::Zero(rows_, n_);
  for (const auto& e : m_entries) M(e.row(), e.col()) += e.value();
  for (const auto& e : g_entries) G(e.row(), e.col()) += e.value();
  // K = sum_i k_i g_i g_i^T and C alike, g_i = G_i^T / sqrt(s_i): every one-sided row stretched.
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n_, n_), C = Eigen::MatrixXd::Zero(n_, n_);
  for (size_t e = 0; e < one_sided_.size(); ++e) {
    const Eigen::VectorXd g = G.row(one_sided_[e]).transpose() / root_scale_[one_sided_[e]];
    K += k_[e] * g * g.transpose();
    C += c_[e] * g * g.transpose();
  }
  // The equality rows' null space Z (the motions they allow).
  int equalities = 0;
  for (bool eq : equality_) equalities += eq ? 1 : 0;
  Eigen::MatrixXd Z = Eigen::MatrixXd::Identity(n_, n_);
  if (equalities > 0) {
    Eigen::MatrixXd GE(equalities, n_);
    for (int i = 0, r = 0; i < rows_; ++i)
      if (equality_[i]) GE.row(r++) = G.row(i);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(GE);
    Z = lu.kernel();
  }
  const Eigen::MatrixXd Mr = Z.transpose() * M * Z, Kr = Z.transpose() * K * Z, Cr = Z.transpose() * C * Z;
  const Eigen::Index r = Mr.rows();
  Eigen::LDLT<Eigen::MatrixXd> mass(Mr);
  if (mass.info() != Eigen::Success) return out;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * r, 2 * r);
  A.topRightCorner(r, r) = Eigen::MatrixXd::Identity(r, r);
  A.bottomLeftCorner(r, r) = -mass.solve(Kr);
  A.bottomRightCorner(r, r) = -mass.solve(Cr);
  Eigen::EigenSolver<Eigen::MatrixXd> eig(A, false);
  if (eig.info() != Eigen::Success) return out;
  const Eigen::VectorXcd lambda = eig.eigenvalues();
  out.fastest = lambda.cwiseAbs().maxCoeff();
  // The slowest oscillatory pair: complex, above the round-off of the rigid motions' zero eigenvalues.
  double slowest = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const double size = std::abs(lambda[i]);
    if (std::abs(lambda[i].imag()) <= 1e-6 * size || size <= 1e-8 * out.fastest || size >= slowest) continue;
    slowest = size;
    out.slow_frequency = size;
    out.slow_damping_ratio = -lambda[i].real() / size;
  }
  out.found = std::isfinite(slowest);
  if (out.found) {
    const double z = std::clamp(out.slow_damping_ratio, 0.0, 1.0);
    out.slow_restitution = z < 1.0 ? std::exp(-M_PI * z / std::sqrt(1.0 - z * z)) : 0.0;
  }
  return out;
}

double PenaltyConstrainedOde::contact_time() const { return contact_window(law_.contact_frequency, zeta_); }

void PenaltyConstrainedOde::gaps(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& x, Eigen::VectorXd& rate) const {
  form_->constraint(q, x);
  form_->constraint_jacobian_times(q, v, rate);
  x = x.cwiseQuotient(root_scale_);
  rate = rate.cwiseQuotient(root_scale_);
}

Eigen::VectorXd PenaltyConstrainedOde::pulls(const Eigen::VectorXd& y) const {
  Eigen::VectorXd x, rate, T = Eigen::VectorXd::Zero(Eigen::Index(one_sided_.size()));
  gaps(y.head(n_), y.segment(n_, n_), x, rate);
  for (size_t e = 0; e < one_sided_.size(); ++e) {
    const int i = one_sided_[e];
    if (x[i] > 0.0) T[Eigen::Index(e)] = k_[e] * x[i] + dashpot_engaged(x[i], root_scale_[i]) * c_[e] * rate[i];
  }
  return T;
}

Eigen::VectorXd PenaltyConstrainedOde::spring_pulls(const Eigen::VectorXd& y) const {
  Eigen::VectorXd x, rate, T = Eigen::VectorXd::Zero(Eigen::Index(one_sided_.size()));
  gaps(y.head(n_), y.segment(n_, n_), x, rate);
  for (size_t e = 0; e < one_sided_.size(); ++e)
    if (x[one_sided_[e]] > 0.0) T[Eigen::Index(e)] = k_[e] * x[one_sided_[e]];
  return T;
}

void PenaltyConstrainedOde::rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt = Eigen::VectorXd::Zero(base_);
  const Eigen::VectorXd q = y.head(n_), v = y.segment(n_, n_);
  dydt.head(n_) = v;
  Eigen::VectorXd f, g, Gv, Hvv, GT, a, lambda;
  form_->force(t, q, v, f);
  // The rows' values and rates, once: the one-sided rows' gaps in their length units (gaps()), the equality
  // rows' for the stabilisation below.
  form_->constraint(q, g);
  form_->constraint_jacobian_times(q, v, Gv);
  const Eigen::VectorXd x = g.cwiseQuotient(root_scale_), rate = Gv.cwiseQuotient(root_scale_);
  // The stretched rows' pulls as multipliers of G: T_i / sqrt(s_i) (header), and the dashpots' power.
  Eigen::VectorXd pulls = Eigen::VectorXd::Zero(rows_);
  double dashpot_power = 0.0;
  for (size_t e = 0; e < one_sided_.size(); ++e) {
    const int i = one_sided_[e];
    if (!(x[i] > 0.0)) continue;
    const double share = dashpot_engaged(x[i], root_scale_[i]);
    pulls[i] = (k_[e] * x[i] + share * c_[e] * rate[i]) / root_scale_[i];
    dashpot_power += share * c_[e] * rate[i] * rate[i];
  }
  form_->constraint_jacobian_transpose_times(q, pulls, GT);
  f -= GT;
  // The equality rows held, stabilised: g'' + 2 p g' + p^2 g = 0 (seed 004 §3); the one-sided rows' entries are ignored.
  const double p = law_.baumgarte_rate;
  if (!solver_->factor_active(q, q, equality_) || !form_->constraint_curvature(q, v, Hvv)) {
    dydt.setConstant(std::numeric_limits<double>::quiet_NaN());  // the integrator fails the step
    return;
  }
  solver_->solve(f, -Hvv - 2.0 * p * Gv - p * p * g, a, lambda);
  dydt.segment(n_, n_) = a;
  Eigen::VectorXd P;
  form_->power(t, q, v, P);
  if (P.size()) dydt.segment(2 * n_, P.size()) = P;
  dydt[2 * n_] += dashpot_power;  // the impacts' loss W: here the dashpots' work
}

Observation PenaltyConstrainedOde::observe(double t, const Eigen::VectorXd& y) const {
  Observation o = form_->observe(t, y);
  Eigen::VectorXd x, rate;
  gaps(y.head(n_), y.segment(n_, n_), x, rate);
  for (size_t e = 0; e < one_sided_.size(); ++e) {
    const double stretch = std::max(0.0, x[one_sided_[e]]);
    o.energy += 0.5 * k_[e] * stretch * stretch;  // the springs', part of E: the dashpots alone take energy out
  }
  return o;
}

void PenaltyConstrainedOde::switching_values(double /*t*/, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const {
  Eigen::VectorXd x, x_rate;
  gaps(y.head(n_), y.segment(n_, n_), x, x_rate);
  s.resize(Eigen::Index(one_sided_.size()));
  rate.resize(s.size());
  for (size_t e = 0; e < one_sided_.size(); ++e) s[Eigen::Index(e)] = x[one_sided_[e]], rate[Eigen::Index(e)] = x_rate[one_sided_[e]];
}

}  // namespace tb
