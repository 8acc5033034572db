#pragma once
// Model B with the reel locked as a constrained mechanical system in natural coordinates (RATTLE,
// rattle4, generalized-alpha): with s_p fixed the system is Model A's (locked_reel.hpp), so this
// is Model A's constrained form (mechanics/string_pendulum/string_constrained_form.hpp) on the
// mapped parameters, shared rather than copied: the same q = [r_2..r_{N+1}, x_c, R], M, f, g, G,
// tangents and O(N) saddle-point solver. What is Model B's is what the report measures: the
// physical state in Model B's layout (s = s_p0, sdot = 0, no Carnot or control work) and Model
// B's observation of it (Mechanics::observe: its energy, pi3 and columns, as for the reel's other
// forms), with the attachment constraint's |C| and |C'| of Model A's form.

#include "mechanics/string_pendulum/string_constrained_form.hpp"
#include "models/reel_pendulum/mechanics.hpp"

namespace tb::reel_pendulum {

class LockedConstrainedForm final : public ConstrainedMechanicalFormulation {
 public:
  LockedConstrainedForm(const Parameters& p, const InitialCondition& ic);
  IntegratedConstraints integrated_constraints() const override { return a_.integrated_constraints(); }
  Eigen::VectorXd initial_state() const override { return a_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override;
  std::vector<std::string> extra_column_names() const override { return Mechanics::extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override;

  // Model A's constrained system, as it is.
  int positions() const override { return a_.positions(); }
  int constraints() const override { return a_.constraints(); }
  void mass_times(const Eigen::VectorXd& v, Eigen::VectorXd& Mv) const override { a_.mass_times(v, Mv); }
  void mass_entries(std::vector<Eigen::Triplet<double>>& entries) const override { a_.mass_entries(entries); }
  void force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override {
    a_.force(t, q, v, f);
  }
  bool force_depends_on_velocity() const override { return a_.force_depends_on_velocity(); }
  int work_terms() const override { return a_.work_terms(); }
  void power(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& P) const override {
    a_.power(t, q, v, P);
  }
  void constraint(const Eigen::VectorXd& q, Eigen::VectorXd& g) const override { a_.constraint(q, g); }
  Eigen::VectorXd constraint_scale() const override { return a_.constraint_scale(); }
  void constraint_jacobian(const Eigen::VectorXd& q, std::vector<Eigen::Triplet<double>>& entries) const override {
    a_.constraint_jacobian(q, entries);
  }
  void constraint_jacobian_times(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& Gv) const override {
    a_.constraint_jacobian_times(q, v, Gv);
  }
  void constraint_jacobian_transpose_times(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                           Eigen::VectorXd& GTlambda) const override {
    a_.constraint_jacobian_transpose_times(q, lambda, GTlambda);
  }
  std::unique_ptr<ConstrainedMechanicalSolver> make_solver() const override { return a_.make_solver(); }
  std::string why_not_tangents() const override { return a_.why_not_tangents(); }
  void force_jacobian_entries(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              std::vector<Eigen::Triplet<double>>& dfdq,
                              std::vector<Eigen::Triplet<double>>& dfdv) const override {
    a_.force_jacobian_entries(t, q, v, dfdq, dfdv);
  }
  void constraint_force_jacobian_entries(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                         std::vector<Eigen::Triplet<double>>& entries) const override {
    a_.constraint_force_jacobian_entries(q, lambda, entries);
  }

  const string_pendulum::StringConstrainedForm& model_a_form() const { return a_; }
  const Mechanics& mechanics() const { return mech_; }

 private:
  Mechanics mech_;  // Model B's, for the observation
  double s0_;
  string_pendulum::StringConstrainedForm a_;
};

}  // namespace tb::reel_pendulum
