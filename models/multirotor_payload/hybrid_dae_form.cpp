// Model C's unilateral cables as a hybrid index-1 DAE for IDA (issue 48); equations and state in
// hybrid_dae_form.hpp.
#include "models/multirotor_payload/hybrid_dae_form.hpp"

namespace tb::multirotor_payload {

namespace {
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
}  // namespace

HybridDaeForm::HybridDaeForm(const Parameters& p, const InitialCondition& ic, HybridTimeScales scales, HybridClosingRules closing)
    : dae_(p, ic),
      constrained_(p, ic),
      switches_(std::make_unique<ConstrainedForm>(p, ic), scales, closing),
      m_(p.multirotors),
      n_(p.links),
      dae_size_(dae_.state_size()),
      rows_(constrained_.constraints()) {}

double HybridDaeForm::slack_row_scale() const {
  const Parameters& p = dae_.mechanics().params();
  return p.link_length() * p.link_length() / p.payload_mass;
}

Eigen::VectorXd HybridDaeForm::switching_state(const Eigen::VectorXd& y) const {
  const int nq = constrained_.positions();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(switches_.state_size());
  for (int a = 0; a < m_; ++a) {
    for (int j = 0; j <= n_; ++j) {
      x.segment<3>(constrained_.joint_index(a, j)) = y.segment<3>(dae_.joint_index(a, j));
      x.segment<3>(nq + constrained_.joint_index(a, j)) = y.segment<3>(dae_.velocity_index(a, j));
    }
    const Mat3 R = Eigen::Map<const RowMajor3>(y.data() + dae_.rotation_index(a));
    const Vec3 Omega = y.segment<3>(dae_.angular_velocity_index(a));
    NaturalRigidBody::write(R, x, constrained_.rotation_index(a));
    // The body's velocity without the DAE's orthonormality correction Xi (a stabilisation, not motion),
    // as ConstrainedForm::natural_state writes it.
    NaturalRigidBody::write(R * so3::hat(Omega), x, nq + constrained_.rotation_index(a));
  }
  x.tail(1 + 2 * rows_) = y.tail(1 + 2 * rows_);  // W, modes, release gaps: the same layout
  return x;
}

void HybridDaeForm::from_switching_state(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  const int nq = constrained_.positions();
  for (int a = 0; a < m_; ++a) {
    for (int j = 0; j <= n_; ++j) {
      y.segment<3>(dae_.joint_index(a, j)) = x.segment<3>(constrained_.joint_index(a, j));
      y.segment<3>(dae_.velocity_index(a, j)) = x.segment<3>(nq + constrained_.joint_index(a, j));
    }
    const Mat3 R = NaturalRigidBody::read(x, constrained_.rotation_index(a));
    Eigen::Map<RowMajor3>(y.data() + dae_.rotation_index(a)) = R;
    y.segment<3>(dae_.angular_velocity_index(a)) =
        NaturalRigidBody::angular_velocity(R, NaturalRigidBody::read(x, nq + constrained_.rotation_index(a)));
  }
  y.tail(1 + 2 * rows_) = x.tail(1 + 2 * rows_);
}

Eigen::VectorXd HybridDaeForm::solve_multipliers(Eigen::VectorXd& y, const BaumgarteParameters& b) const {
  std::vector<std::vector<bool>> released(static_cast<size_t>(m_), std::vector<bool>(static_cast<size_t>(n_)));
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j) released[size_t(a)][size_t(j - 1)] = !held(y, a, j);
  Eigen::VectorXd y_dae = y.head(dae_size_);
  const Eigen::VectorXd yp_dae = dae_.solve_index_one(y_dae, b, &released);
  y.head(dae_size_) = y_dae;
  Eigen::VectorXd yp = Eigen::VectorXd::Zero(state_size());  // W' = 0: the loss accrues only at jumps
  yp.head(dae_size_) = yp_dae;
  return yp;
}

Eigen::VectorXd HybridDaeForm::consistent_initial_state(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(state_size());
  from_switching_state(switches_.initial_state(), y);  // the initial modes, settled as the hybrid ODE's
  solve_multipliers(y, b);
  return y;
}

Eigen::VectorXd HybridDaeForm::consistent_initial_derivative(const BaumgarteParameters& b) const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(state_size());
  from_switching_state(switches_.initial_state(), y);
  return solve_multipliers(y, b);
}

Eigen::VectorXd HybridDaeForm::initial_state() const { return consistent_initial_state({}); }

Eigen::VectorXd HybridDaeForm::differential_components() const {
  Eigen::VectorXd id = Eigen::VectorXd::Ones(state_size());
  id.head(dae_size_) = dae_.differential_components();
  return id;
}

Observation HybridDaeForm::observe(double t, const Eigen::VectorXd& y) const {
  return switches_.observe(t, switching_state(y));  // the constrained form's, with the impacts' loss W
}

Eigen::VectorXd HybridDaeForm::physical_state(const Eigen::VectorXd& y) const {
  return switches_.physical_state(switching_state(y));
}

void HybridDaeForm::switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const {
  switches_.switching_values(t, switching_state(y), s, rate);
}

bool HybridDaeForm::apply_jump(double t, Eigen::VectorXd& y) const {
  Eigen::VectorXd x = switching_state(y);
  if (!switches_.apply_jump(t, x)) return false;
  from_switching_state(x, y);
  return true;
}

bool HybridDaeForm::consistent_after_jump(double, Eigen::VectorXd& y, Eigen::VectorXd& yp,
                                          const BaumgarteParameters& b) const {
  yp = solve_multipliers(y, b);
  return true;
}

void HybridDaeForm::residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters& b,
                             Eigen::VectorXd& F) const {
  Eigen::VectorXd F_dae;
  dae_.residual(t, y.head(dae_size_), yp.head(dae_size_), b, F_dae);
  F.resize(state_size());
  F.head(dae_size_) = F_dae;
  const double scale = slack_row_scale();
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j)
      if (!held(y, a, j)) F(dae_.multiplier_index(a, j)) = scale * y(dae_.multiplier_index(a, j));
  F.tail(1 + 2 * rows_) = yp.tail(1 + 2 * rows_);  // W, modes and release gaps change only at jumps
}

void HybridDaeForm::jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj,
                             const BaumgarteParameters& b, std::vector<Eigen::Triplet<double>>& entries) const {
  std::vector<Eigen::Triplet<double>> dae_entries;
  dae_.jacobian(t, y.head(dae_size_), yp.head(dae_size_), cj, b, dae_entries);
  std::vector<char> slack_row(size_t(dae_size_), 0);
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j) slack_row[size_t(dae_.multiplier_index(a, j))] = !held(y, a, j);
  entries.reserve(entries.size() + dae_entries.size() + size_t(m_ * n_) + size_t(1 + 2 * rows_));
  for (const Eigen::Triplet<double>& e : dae_entries)
    entries.emplace_back(e.row(), e.col(), slack_row[size_t(e.row())] ? 0.0 : e.value());
  const double scale = slack_row_scale();
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j) {
      const int row = dae_.multiplier_index(a, j);
      entries.emplace_back(row, row, slack_row[size_t(row)] ? scale : 0.0);
    }
  for (int k = dae_size_; k < state_size(); ++k) entries.emplace_back(k, k, cj);
}

}  // namespace tb::multirotor_payload
