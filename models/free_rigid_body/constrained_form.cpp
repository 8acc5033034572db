// The free rigid body as a constrained mechanical system in natural coordinates (forms.hpp):
// RATTLE on it is the classical constrained integrator of the rigid body (McLachlan-Scovel,
// Reich; HLW VII.5.3), which is equivalent to the discrete Moser-Veselov algorithm, i.e. to
// the LGVI of lie_group_form.cpp: the test compares the two.

#include "models/free_rigid_body/forms.hpp"

namespace tb::free_rigid_body {

namespace {

class Solver final : public ConstrainedMechanicalSolver {
 public:
  explicit Solver(const NaturalRigidBody& body) : block_(body) {}
  bool factor(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b) override {
    return block_.factor(NaturalRigidBody::read(q_a, 0), NaturalRigidBody::read(q_b, 0));
  }
  void solve(const Eigen::VectorXd& r, const Eigen::VectorXd& s, Eigen::VectorXd& x, Eigen::VectorXd& lambda) override {
    Mat3 X;
    Vec6 l;
    block_.solve(NaturalRigidBody::read(r, 0), Vec6(s.head<6>()), X, l);
    x.resize(9);
    NaturalRigidBody::write(X, x, 0);
    lambda = l;
  }

 private:
  NaturalRigidBody::Solver block_;
};

}  // namespace

Eigen::VectorXd ConstrainedForm::initial_state() const {
  Eigen::VectorXd y(18);
  NaturalRigidBody::write(ic_.R0, y, 0);
  NaturalRigidBody::write(ic_.R0 * so3::hat(ic_.Omega0), y, 9);
  return y;
}

Eigen::VectorXd ConstrainedForm::physical_state(const Eigen::VectorXd& y) const {
  const Mat3 R = NaturalRigidBody::read(y, 0);
  return mech_.pack(R, NaturalRigidBody::angular_velocity(R, NaturalRigidBody::read(y, 9)));
}

Observation ConstrainedForm::observe(double, const Eigen::VectorXd& y) const {
  const Mat3 R = NaturalRigidBody::read(y, 0);
  return mech_.observe(R, NaturalRigidBody::angular_velocity(R, NaturalRigidBody::read(y, 9)));
}

void ConstrainedForm::mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const {
  Mv.resize(9);
  NaturalRigidBody::write(body_.mass_times(NaturalRigidBody::read(v, 0)), Mv, 0);
}

void ConstrainedForm::constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const {
  g = NaturalRigidBody::constraint(NaturalRigidBody::read(q, 0));
}

void ConstrainedForm::constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const {
  NaturalRigidBody::jacobian_entries(NaturalRigidBody::read(q, 0), 0, 0, entries);
}

void ConstrainedForm::constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                                Eigen::VectorXd& Gv) const {
  Gv = NaturalRigidBody::jacobian_times(NaturalRigidBody::read(q, 0), NaturalRigidBody::read(v, 0));
}

void ConstrainedForm::constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                                          Eigen::VectorXd& GTlambda) const {
  GTlambda.resize(9);
  NaturalRigidBody::write(NaturalRigidBody::jacobian_transpose_times(NaturalRigidBody::read(q, 0), Vec6(lambda.head<6>())),
                          GTlambda, 0);
}

std::unique_ptr<ConstrainedMechanicalSolver> ConstrainedForm::make_solver() const {
  return std::make_unique<Solver>(body_);
}

}  // namespace tb::free_rigid_body
