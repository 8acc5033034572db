// Model C as a constrained mechanical system in natural coordinates, for RATTLE (forms.hpp;
// the pieces it shares with the index-1 DAE: natural_coordinates.hpp and Mechanics).
//
// Saddle-point solve. [M, G(q_b)^T; G(q_a), 0] [x; lambda] = [r; s] splits into the cables and
// the multirotors' rotations (without the attachment offset no term couples them: the thrust
// acts at X_Q = J_n, the torque is zero; with it, below). The cable part is CableTreeKkt with u_j = d_j(q_b)/l (the direction of link j's
// multiplier force), t_j = d_j(q_a)/l (its constraint row) and scale 1: its joint rows
// (M_J x)_j - tau_j u_j + tau_{j+1} u_{j+1} = r_j are ours with lambda_j = -tau_j / l (G^T lambda
// puts +lambda_j d_j on J_j and -lambda_j d_j on J_{j-1}), its link rows t_j.(x_j - x_{j-1}) =
// s_j / l ours divided by l. O(m n), pivots invertible while no link turns by 90 degrees
// between q_b and q_a.
//
// The attachment offset (mechanics.hpp). In natural coordinates the multirotor's centre of mass
// X_Q = J_n + R rho_c moves with the velocity V_n + R' rho_c, LINEAR in (V_n, R') with constant
// coefficients, so its kinetic energy 1/2 m_Q |V_n + R' rho_c|^2 + 1/2 tr(R' J_d,Q R'^T) is still
// a constant quadratic form: m_Q |V_n|^2 / 2 (joint n's, as before) + m_Q V_n . R' rho_c +
// 1/2 tr(R' J_d R'^T) with J_d of J_A (J_d,Q + m_Q rho_c rho_c^T, the square of R' rho_c). M
// gains the constant coupling M[V_n,i ; R'_ik] = m_Q rho_c,k and the body block uses J_A; the
// potential -F_Q e3 . (J_n + R rho_c) adds the constant force F_Q e3 rho_c^T on R (row 3 of R's
// 9). The constraints are unchanged (the link constraints on the joints, R^T R = I), and so
// are their tangents; K_f = 0 still. In the saddle-point solve each multirotor's block (R', its 6
// multipliers) answers joint n's unknown linearly: (X, mu) = body(Y - m_Q x_n rho_c^T, s) =
// body(Y, s) - sum_i x_n,i body(m_Q e_i rho_c^T, 0), so joint n's row (M_J x)_n + m_Q X rho_c
// + ... = r_n becomes CableTreeKkt's with the top block -m_Q [X_i rho_c]_i and the right-hand
// side r_n - m_Q X_0 rho_c (three more body solves per factorisation, O(1) per multirotor).

#include <algorithm>
#include <array>

#include "models/multirotor_payload/forms.hpp"

namespace tb::multirotor_payload {

namespace {

class Solver final : public ConstrainedMechanicalSolver {
 public:
  Solver(const ConstrainedForm& form, const NaturalRigidBody& body)
      : form_(form),
        m_(form.mechanics().params().multirotors),
        n_(form.mechanics().params().links),
        l_(form.mechanics().params().link_length()),
        kkt_(form.mechanics()),
        u_(m_, std::vector<Vec3>(n_)),
        t_(m_, std::vector<Vec3>(n_)),
        bodies_(m_, NaturalRigidBody::Solver(body)),
        offset_(form.mechanics().attachment_offset()),
        mQ_(form.mechanics().params().multirotor_mass),
        rho_c_(form.mechanics().centre_offset()),
        top_(m_, Mat3::Zero()),
        responses_(m_) {}

  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    released_.clear();
    return prepare(q_a, q_b) && kkt_.factor(1.0, u_, t_, offset_ ? &top_ : nullptr);
  }

  // Issue 48: the links whose row is not active are released in the cable tree (u = t = 0, their
  // multiplier 0); the bodies' rows are equalities and must all stay active (a body's R^T R = I
  // is never dropped: false otherwise).
  bool factor_active(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, const std::vector<bool>& active) override {
    for (int a = 0; a < m_; ++a)
      for (int k = 0; k < 6; ++k)
        if (!active[form_.rotation_row(a) + k]) return false;
    if (!prepare(q_a, q_b)) return false;
    released_.assign(m_, std::vector<bool>(n_, false));
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j)
        if (!active[form_.link_row(a, j)]) {
          released_[a][j - 1] = true;
          u_[a][j - 1].setZero();
          t_[a][j - 1].setZero();
        }
    return kkt_.factor(1.0, u_, t_, offset_ ? &top_ : nullptr, &released_);
  }

 private:
  // u, t of every link at (q_a, q_b) (header), each body factored and, with the offset, its
  // responses and top block. False if a body's system is singular.
  bool prepare(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) {
    for (int a = 0; a < m_; ++a) {
      for (int j = 1; j <= n_; ++j) {
        const int i = form_.joint_index(a, j), k = form_.joint_index(a, j - 1);
        t_[a][j - 1] = (q_a.segment<3>(i) - q_a.segment<3>(k)) / l_;
        u_[a][j - 1] = (q_b.segment<3>(i) - q_b.segment<3>(k)) / l_;
      }
      const int r = form_.rotation_index(a);
      if (!bodies_[a].factor(NaturalRigidBody::read(q_a, r), NaturalRigidBody::read(q_b, r))) return false;
      if (offset_)  // the body's response to joint n's unknown and the top block (header)
        for (int i = 0; i < 3; ++i) {
          Response& z = responses_[a][i];
          bodies_[a].solve(mQ_ * Vec3::Unit(i) * rho_c_.transpose(), Vec6::Zero(), z.X, z.mu);
          top_[a].col(i) = -mQ_ * (z.X * rho_c_);
        }
    }
    return true;
  }

 public:
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    rhs_.resize(kkt_.size());
    rhs_.head<3>() = r.head<3>();
    for (int a = 0; a < m_; ++a)
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        rhs_(o) = released_.empty() || !released_[a][j - 1] ? s(form_.link_row(a, j)) / l_ : 0.0;
        rhs_.segment<3>(o + 1) = r.segment<3>(form_.joint_index(a, j));
      }
    if (offset_)  // each body's own part first, its coupling into joint n's row (header)
      for (int a = 0; a < m_; ++a) {
        const int ri = form_.rotation_index(a), gi = form_.rotation_row(a);
        Response& z = own_[a];
        bodies_[a].solve(NaturalRigidBody::read(r, ri), Vec6(s.segment<6>(gi)), z.X, z.mu);
        rhs_.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1) -= mQ_ * (z.X * rho_c_);
      }
    kkt_.solve(rhs_, sol_);
    x.resize(r.size());
    lambda.resize(s.size());
    x.head<3>() = sol_.head<3>();
    for (int a = 0; a < m_; ++a) {
      for (int j = 1; j <= n_; ++j) {
        const int o = CableTreeKkt::offset(n_, a, j);
        lambda(form_.link_row(a, j)) = -sol_(o) / l_;
        x.segment<3>(form_.joint_index(a, j)) = sol_.segment<3>(o + 1);
      }
      const int ri = form_.rotation_index(a), gi = form_.rotation_row(a);
      Mat3 X;
      Vec6 mu;
      if (offset_) {
        const Vec3 xn = sol_.segment<3>(CableTreeKkt::offset(n_, a, n_) + 1);
        X = own_[a].X;
        mu = own_[a].mu;
        for (int i = 0; i < 3; ++i) {
          X -= xn(i) * responses_[a][i].X;
          mu -= xn(i) * responses_[a][i].mu;
        }
      } else {
        bodies_[a].solve(NaturalRigidBody::read(r, ri), Vec6(s.segment<6>(gi)), X, mu);
      }
      NaturalRigidBody::write(X, x, ri);
      lambda.segment<6>(gi) = mu;
    }
  }

 private:
  const ConstrainedForm& form_;
  int m_, n_;
  double l_;
  CableTreeKkt kkt_;
  std::vector<std::vector<Vec3>> u_, t_;
  std::vector<NaturalRigidBody::Solver> bodies_;
  // With the attachment offset (header): each body's responses to the three components of joint
  // n's unknown, its own part of the current solve, and the top blocks.
  struct Response {
    Mat3 X = Mat3::Zero();
    Vec6 mu = Vec6::Zero();
  };
  bool offset_;
  double mQ_;
  Vec3 rho_c_;
  std::vector<Mat3> top_;
  std::vector<std::array<Response, 3>> responses_;
  std::vector<Response> own_ = std::vector<Response>(m_);
  Eigen::VectorXd rhs_, sol_;
  std::vector<std::vector<bool>> released_;  // the links the last factor_active released (empty after factor())
};

}  // namespace

ConstrainedForm::ConstrainedForm(const Parameters& p, const InitialCondition& ic)
    : mech_(p), ic_(ic), m_(p.multirotors), n_(p.links), body_(mech_.attachment_inertia()) {}  // J_Q without the offset

Eigen::VectorXd ConstrainedForm::initial_state() const { return natural_state(mech_.initial_state(ic_)); }

Eigen::VectorXd ConstrainedForm::natural_state(const State& s) const {
  const Joints joints = joints_of(mech_, s);
  const int nq = positions();
  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 * nq + work_terms());
  for (int a = 0; a < m_; ++a) {
    for (int j = 0; j <= n_; ++j) {
      y.segment<3>(joint_index(a, j)) = joints.J[a][j];
      y.segment<3>(nq + joint_index(a, j)) = joints.V[a][j];
    }
    NaturalRigidBody::write(s.R[a], y, rotation_index(a));
    NaturalRigidBody::write(s.R[a] * so3::hat(s.Omega[a]), y, nq + rotation_index(a));
  }
  return y;
}

Joints ConstrainedForm::joints(const Eigen::VectorXd& y) const {
  const int nq = positions();
  Joints out;
  out.J.assign(m_, std::vector<Vec3>(n_ + 1));
  out.V.assign(m_, std::vector<Vec3>(n_ + 1));
  for (int a = 0; a < m_; ++a)
    for (int j = 0; j <= n_; ++j) {
      out.J[a][j] = y.segment<3>(joint_index(a, j));
      out.V[a][j] = y.segment<3>(nq + joint_index(a, j));
    }
  return out;
}

State ConstrainedForm::to_physical(const Eigen::VectorXd& y) const {
  const int nq = positions();
  State s;
  cable_state_from_joints(mech_, joints(y), s);
  s.R.resize(m_);
  s.Omega.resize(m_);
  for (int a = 0; a < m_; ++a) {
    s.R[a] = NaturalRigidBody::read(y, rotation_index(a));
    s.Omega[a] = NaturalRigidBody::angular_velocity(s.R[a], NaturalRigidBody::read(y, nq + rotation_index(a)));
  }
  return s;
}

Eigen::VectorXd ConstrainedForm::physical_state(const Eigen::VectorXd& y) const {
  Eigen::VectorXd x;
  mech_.pack(to_physical(y), x);
  return x;
}

Observation ConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  // As the DAE form: constraint_err is the relative link-length error max | |d_i| - l | / l
  // (through the unnormalised q_i = d_i / l), constraint_rate_err its rate; the energy is the
  // physical state's (1/2 Omega.J_Q Omega, equal to 1/2 tr(R' J_d R'^T) on the constraints).
  Observation o = mech_.observe(to_physical(y));
  o.constraint_rate_err = link_length_rate_error(mech_, joints(y));
  if (unilateral()) o.external_work = 0.0 - y[2 * positions()];  // the impacts' loss W, taken from the system
  return o;
}

std::vector<double> ConstrainedForm::link_tensions(const Eigen::VectorXd& y, Eigen::VectorXd* acceleration) const {
  const int nq = positions(), nc = constraints();
  const Eigen::VectorXd q = y.head(nq), v = y.segment(nq, nq);
  const double l = mech_.params().link_length();
  Eigen::VectorXd f, Hvv, x, held_lambda, all_lambda;
  force(0.0, q, v, f);
  constraint_curvature(q, v, Hvv);
  auto solver = make_solver();
  // M a + G^T lambda = f, G a = -(dG/dt) v on the active rows: lambda_j d_j pulls joint j towards
  // j - 1, a tension lambda_j |d_j|.
  std::vector<bool> active(nc, true);
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j)
      active[link_row(a, j)] =
          (q.segment<3>(joint_index(a, j)) - q.segment<3>(joint_index(a, j - 1))).norm() >= l * (1.0 - kLinkAtLength);
  if (!solver->factor_active(q, q, active)) return {};
  solver->solve(f, -Hvv, x, held_lambda);
  if (acceleration) *acceleration = x;
  const bool all_held = std::all_of(active.begin(), active.end(), [](bool a) { return a; });
  if (all_held) all_lambda = held_lambda;  // the same system
  else if (!solver->factor(q, q)) return {};
  else solver->solve(f, -Hvv, x, all_lambda);
  std::vector<double> T(m_ * n_);
  for (int a = 0; a < m_; ++a)
    for (int j = 1; j <= n_; ++j) {
      const int r = link_row(a, j);
      const double length = (q.segment<3>(joint_index(a, j)) - q.segment<3>(joint_index(a, j - 1))).norm();
      T[r] = (active[r] ? held_lambda[r] : all_lambda[r]) * length;
    }
  return T;
}

void ConstrainedForm::mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
  Mv.setZero(positions());
  Mv.head<3>() = mech_.payload_joint_mass() * v.head<3>();
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      Mv.segment<3>(i) += mech_.joint_mass(j) * v.segment<3>(i) + mech_.joint_coupling(j) * v.segment<3>(k);
      Mv.segment<3>(k) += mech_.joint_coupling(j) * v.segment<3>(i);
    }
    const Mat3 Rdot = NaturalRigidBody::read(v, rotation_index(a));
    Mat3 MR = body_.mass_times(Rdot);
    if (mech_.attachment_offset()) {  // the constant coupling m_Q V_n . R' rho_c (header)
      const double mQ = mech_.params().multirotor_mass;
      const Vec3& rho_c = mech_.centre_offset();
      const int top = joint_index(a, n_);
      Mv.segment<3>(top) += mQ * (Rdot * rho_c);
      MR += mQ * Vec3(v.segment<3>(top)) * rho_c.transpose();
    }
    NaturalRigidBody::write(MR, Mv, rotation_index(a));
  }
}

void ConstrainedForm::mass_entries(std::vector<Eigen::Triplet<double>>& e) const {
  for (int c = 0; c < 3; ++c) e.emplace_back(c, c, mech_.payload_joint_mass());
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      for (int c = 0; c < 3; ++c) {
        e.emplace_back(i + c, i + c, mech_.joint_mass(j));
        e.emplace_back(i + c, k + c, mech_.joint_coupling(j));
        e.emplace_back(k + c, i + c, mech_.joint_coupling(j));
      }
    }
    body_.mass_entries(rotation_index(a), e);
    if (mech_.attachment_offset()) {  // M[V_n,i ; R'_ik] = m_Q rho_c,k and its transpose (header)
      const double mQ = mech_.params().multirotor_mass;
      const Vec3& rho_c = mech_.centre_offset();
      const int top = joint_index(a, n_), r = rotation_index(a);
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
          e.emplace_back(top + i, r + 3 * i + k, mQ * rho_c(k));
          e.emplace_back(r + 3 * i + k, top + i, mQ * rho_c(k));
        }
    }
  }
}

void ConstrainedForm::force(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& f) const {
  f.setZero(positions());
  f.head<3>() = mech_.payload_joint_force();
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) f.segment<3>(joint_index(a, j)) = mech_.joint_force(j);
    // With the offset: -d/dR of -F_Q e3 . R rho_c, i.e. F_Q rho_c^T in R's third row (header).
    if (mech_.attachment_offset()) f.segment<3>(rotation_index(a) + 6) = mech_.body_force() * mech_.centre_offset();
  }
}

void ConstrainedForm::constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  const double l = mech_.params().link_length();
  g.resize(constraints());
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j)
      g(link_row(a, j)) = link_constraint(q.segment<3>(joint_index(a, j)) - q.segment<3>(joint_index(a, j - 1)), l);
    g.segment<6>(rotation_row(a)) = NaturalRigidBody::constraint(NaturalRigidBody::read(q, rotation_index(a)));
  }
}

Eigen::VectorXd ConstrainedForm::constraint_scale() const {
  const double l = mech_.params().link_length();
  Eigen::VectorXd scale = Eigen::VectorXd::Ones(constraints());
  scale.head(m_ * n_).setConstant(l * l);
  return scale;
}

void ConstrainedForm::constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& e) const {
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      const Vec3 d = q.segment<3>(i) - q.segment<3>(k);
      for (int c = 0; c < 3; ++c) {
        e.emplace_back(link_row(a, j), i + c, d(c));
        e.emplace_back(link_row(a, j), k + c, -d(c));
      }
    }
    NaturalRigidBody::jacobian_entries(NaturalRigidBody::read(q, rotation_index(a)), rotation_row(a), rotation_index(a), e);
  }
}

void ConstrainedForm::constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::VectorXd& Gv) const {
  Gv.resize(constraints());
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      Gv(link_row(a, j)) = (q.segment<3>(i) - q.segment<3>(k)).dot(v.segment<3>(i) - v.segment<3>(k));
    }
    const int r = rotation_index(a);
    Gv.segment<6>(rotation_row(a)) = NaturalRigidBody::jacobian_times(NaturalRigidBody::read(q, r), NaturalRigidBody::read(v, r));
  }
}

bool ConstrainedForm::constraint_curvature(const Eigen::VectorXd&, const Eigen::VectorXd& v, Eigen::VectorXd& Hvv) const {
  constraint_jacobian_times(v, v, Hvv);  // G(v) v (forms.hpp)
  return true;
}

void ConstrainedForm::constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                          Eigen::VectorXd& out) const {
  out.setZero(positions());
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      const Vec3 f = lambda(link_row(a, j)) * (q.segment<3>(i) - q.segment<3>(k));
      out.segment<3>(i) += f;
      out.segment<3>(k) -= f;
    }
    const int r = rotation_index(a);
    NaturalRigidBody::write(
        NaturalRigidBody::jacobian_transpose_times(NaturalRigidBody::read(q, r), Vec6(lambda.segment<6>(rotation_row(a)))),
        out, r);
  }
}

void ConstrainedForm::constraint_force_jacobian_entries(const Eigen::VectorXd&, const Eigen::VectorXd& lambda,
                                                        std::vector<Eigen::Triplet<double>>& e) const {
  // G^T lambda puts +lambda_j d_j on J_j and -lambda_j d_j on J_{j-1}, d_j = J_j - J_{j-1}.
  for (int a = 0; a < m_; ++a) {
    for (int j = 1; j <= n_; ++j) {
      const int i = joint_index(a, j), k = joint_index(a, j - 1);
      const double l = lambda(link_row(a, j));
      for (int c = 0; c < 3; ++c) {
        e.emplace_back(i + c, i + c, l);
        e.emplace_back(i + c, k + c, -l);
        e.emplace_back(k + c, i + c, -l);
        e.emplace_back(k + c, k + c, l);
      }
    }
    NaturalRigidBody::constraint_force_jacobian_entries(Vec6(lambda.segment<6>(rotation_row(a))), rotation_index(a), e);
  }
}

std::unique_ptr<ConstrainedMechanicalSolver> ConstrainedForm::make_solver() const {
  return std::make_unique<Solver>(*this, body_);
}

}  // namespace tb::multirotor_payload
