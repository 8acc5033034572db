#pragma once
// The index-1 DAE form (core/formulation.hpp, DaeFormulation) of a mechanical system without
// constraints: point masses ("nodes") in R^3 with a constant mass matrix, written as the implicit
// ODE in natural coordinates
//   F_q = q' - v = 0,   F_v = M v' - f(t, q, v) = 0,   F_W = W' - P(t, q, v) = 0,
// the mass-matrix form of Newton's equations that the constrained mechanical form already holds
// (its M, f, df/dq, df/dv: ConstrainedMechanicalFormulation with constraints() = 0). It has no
// algebraic components; dF/dy + cj dF/dy' is
//   [cj I, -I, 0; -df/dq, cj M - df/dv, 0; -dP/dq, -dP/dv, cj I]   (rows F_q, F_v, F_W; columns q, v, W).
// A model offers it in its menu as
//   offer<UnconstrainedDaeOf<ConstrainedForm>>(FormulationKind::IndexOneDae, p, ic)
// and its observation, physical state and initial state are the constrained form's, so IDA is
// measured by the same code as every other method on the model.
//
// Ordering (the band): node by node, [q_j (3), v_j (3), W_j] for j = 0, 1, ..., so that a node
// couples only to its neighbours within the form's node_half_bandwidth() and the half-bandwidths
// of dF/dy + cj dF/dy' do not grow with the number of nodes (IDA's band LU, or KLU, then costs
// O(N) per step; in [q, v] order the kinematic rows q' - v alone would make them 3N). The form's
// q and v are node-major (node j at 3j .. 3j + 2).
//
// Dissipation (a form that also offers dissipative_force below, e.g. the tether's viscous
// damping -zeta M v): the energy balance needs the work of the dissipative force f_d, which the
// constrained form carries as one work term W' = P = -v . f_d. Carried whole here it would
// give the Jacobian a dense row (dP/dv over every node). Instead each node carries the power of
// the dissipative force on it,
//   W_j' = P_j = -v_j . f_d,j(t, q, v),   W = sum_j W_j,
// which depends only on the nodes that f_d,j depends on (dissipation_node_half_bandwidth()), so
// the band stays narrow; the observation sums them. (The split is exact: sum_j P_j = -v . f_d.)
//
// A driven point (a form that also offers drive_node_powers below, e.g. the tether's moving
// anchor, when drives_a_point()): the constrained form's second work term, the integrated part of
// the driver's work, is carried the same way, node by node, in one more component after W_j:
//   D_j' = P~_j(t, q, v),   D = sum_j D_j,
// with P~_j's derivatives from the form (drive_node_power_jacobian_entries, rows = node).
//
// Baumgarte stabilisation has nothing to act on here (no constraint, no attitude R):
// why_not_stabilised() says so, and IDA refuses a case file's Baumgarte settings for this form.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <concepts>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

// A constrained mechanical form whose positions are nodes in R^3, node j at 3j, declaring how far
// the nodes couple: M, df/dq and df/dv have no entry between nodes j and k with
// |j - k| > node_half_bandwidth().
template <class Form>
concept NodeBandedMechanicalForm =
    std::derived_from<Form, ConstrainedMechanicalFormulation> && requires(const Form& form) {
      { form.node_half_bandwidth() } -> std::convertible_to<int>;
    };

// One that splits out its dissipative force f_d (a part of force()), with its derivatives, and
// how far f_d,j reaches: df_d,j/d(q_k, v_k) = 0 for |j - k| > dissipation_node_half_bandwidth().
template <class Form>
concept DissipatesAtNodes = requires(const Form& form, double t, const Eigen::VectorXd& x, Eigen::VectorXd& out,
                                     std::vector<Eigen::Triplet<double>>& entries) {
  form.dissipative_force(t, x, x, out);
  form.dissipative_force_jacobian_entries(t, x, x, entries, entries);
  { form.dissipation_node_half_bandwidth() } -> std::convertible_to<int>;
};

// One that may drive a point of its own (decided by its parameters: drives_a_point()), with the
// driver's power split over the nodes and its derivatives as (node, coordinate) entries.
template <class Form>
concept DrivesAtNodes = requires(const Form& form, double t, const Eigen::VectorXd& x, Eigen::VectorXd& out,
                                 std::vector<Eigen::Triplet<double>>& entries) {
  { form.drives_a_point() } -> std::convertible_to<bool>;
  form.drive_node_powers(t, x, x, out);
  form.drive_node_power_jacobian_entries(t, x, x, entries, entries);
};

template <NodeBandedMechanicalForm Form>
class UnconstrainedDaeOf final : public DaeFormulation {
  static constexpr bool kDissipates = DissipatesAtNodes<Form>;

 public:
  template <class... Args>
  explicit UnconstrainedDaeOf(const Args&... args) : form_(args...) {
    const int n = form_.positions();
    if (form_.constraints() != 0 || n % 3 != 0 || n == 0)
      throw std::logic_error("UnconstrainedDaeOf: the form must have nodes in R^3 and no constraint");
    if constexpr (DrivesAtNodes<Form>) drives_ = form_.drives_a_point();
    if (form_.work_terms() != (kDissipates ? 1 : 0) + (drives_ ? 1 : 0))
      throw std::logic_error(
          "UnconstrainedDaeOf: the form's work terms must be the work of its dissipative_force and of its driven point");
    if (!form_.why_not_tangents().empty())
      throw std::logic_error("UnconstrainedDaeOf: the form provides no df/dq, df/dv: " + form_.why_not_tangents());
    nodes_ = n / 3;
    form_.mass_entries(mass_);
    stride_ = 6 + (kDissipates ? 1 : 0) + (drives_ ? 1 : 0);
    measure_bandwidths();
  }

  // Natural coordinates of free point masses: nothing among them can drift.
  IntegratedConstraints integrated_constraints() const override { return form_.integrated_constraints(); }
  std::string why_not_stabilised() const override {
    return "the system has no constraint and no attitude R: its DAE form is the implicit ODE q' = v, "
           "M v' = f(t, q, v), with nothing for Baumgarte stabilisation to act on";
  }
  int state_size() const override { return stride_ * nodes_; }
  Eigen::VectorXd initial_state() const override { return from_form(form_.initial_state()); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return form_.observe(t, to_form(y)); }
  std::vector<std::string> extra_column_names() const override { return form_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return form_.physical_state(to_form(y)); }

  Eigen::VectorXd differential_components() const override { return Eigen::VectorXd::Ones(state_size()); }
  Eigen::VectorXd consistent_initial_state(const BaumgarteParameters&) const override { return initial_state(); }
  // q' = v, v' = M^{-1} f (the form's own O(N) mass solve), W_j' = P_j.
  Eigen::VectorXd consistent_initial_derivative(const BaumgarteParameters&) const override {
    const Eigen::VectorXd y = initial_state();
    split(y, q_, v_, W_);
    form_.force(0.0, q_, v_, f_);
    auto solver = form_.make_solver();
    Eigen::VectorXd a, lambda;
    if (!solver->factor(q_, q_)) throw std::runtime_error("UnconstrainedDaeOf: the mass matrix is singular");
    solver->solve(f_, Eigen::VectorXd(0), a, lambda);
    Eigen::VectorXd P, D;
    node_powers(0.0, P, D);
    return join(v_, a, P, D);
  }

  void residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, const BaumgarteParameters&,
                Eigen::VectorXd& F) const override {
    split(y, q_, v_, W_);
    split(yp, qp_, vp_, Wp_, Dp_);
    form_.force(t, q_, v_, f_);
    form_.mass_times(vp_, Mvp_);
    Eigen::VectorXd P, D;
    node_powers(t, P, D);
    F = join(qp_ - v_, Mvp_ - f_, Wp_ - P, Dp_ - D);
  }

  void jacobian(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& /*yp*/, double cj, const BaumgarteParameters&,
                std::vector<Eigen::Triplet<double>>& entries) const override {
    split(y, q_, v_, W_);
    const int n = form_.positions();
    for (int i = 0; i < n; ++i) {  // F_q = q' - v
      entries.emplace_back(q_index(i), q_index(i), cj);
      entries.emplace_back(q_index(i), v_index(i), -1.0);
    }
    for (const auto& m : mass_) entries.emplace_back(v_index(m.row()), v_index(m.col()), cj * m.value());
    dfdq_.clear();
    dfdv_.clear();
    form_.force_jacobian_entries(t, q_, v_, dfdq_, dfdv_);
    for (const auto& e : dfdq_) entries.emplace_back(v_index(e.row()), q_index(e.col()), -e.value());
    for (const auto& e : dfdv_) entries.emplace_back(v_index(e.row()), v_index(e.col()), -e.value());
    if constexpr (kDissipates) {
      // F_W,j = W_j' - P_j with P_j = -v_j . f_d,j: dF_W,j/dx = v_j^T df_d,j/dx, and f_d,j more
      // along v_j itself. Written even where 0 (at rest), so that the sparsity pattern is the same
      // at every step.
      form_.dissipative_force(t, q_, v_, fd_);
      dfdq_.clear();
      dfdv_.clear();
      form_.dissipative_force_jacobian_entries(t, q_, v_, dfdq_, dfdv_);
      for (const auto& e : dfdq_) entries.emplace_back(w_index(e.row() / 3), q_index(e.col()), v_(e.row()) * e.value());
      for (const auto& e : dfdv_) entries.emplace_back(w_index(e.row() / 3), v_index(e.col()), v_(e.row()) * e.value());
      for (int i = 0; i < n; ++i) entries.emplace_back(w_index(i / 3), v_index(i), fd_(i));
      for (int j = 0; j < nodes_; ++j) entries.emplace_back(w_index(j), w_index(j), cj);
    }
    if constexpr (DrivesAtNodes<Form>) {
      if (drives_) {  // F_D,j = D_j' - P~_j
        dfdq_.clear();
        dfdv_.clear();
        form_.drive_node_power_jacobian_entries(t, q_, v_, dfdq_, dfdv_);
        for (const auto& e : dfdq_) entries.emplace_back(d_index(e.row()), q_index(e.col()), -e.value());
        for (const auto& e : dfdv_) entries.emplace_back(d_index(e.row()), v_index(e.col()), -e.value());
        for (int j = 0; j < nodes_; ++j) entries.emplace_back(d_index(j), d_index(j), cj);
      }
    }
  }

  // The band of dF/dy + cj dF/dy' (measure_bandwidths): independent of the number of nodes.
  int lower_bandwidth() const override { return lower_; }
  int upper_bandwidth() const override { return upper_; }

  const Form& form() const { return form_; }
  // The constrained form's state [q, v, W] of a state of this form, and back (the initial work
  // on node 0).
  Eigen::VectorXd to_form(const Eigen::VectorXd& y) const {
    split(y, q_, v_, W_);
    const int n = form_.positions();
    Eigen::VectorXd out(form_.state_size());
    out.head(n) = q_;
    out.segment(n, n) = v_;
    if constexpr (kDissipates) out(2 * n) = W_.sum();
    if (drives_) out(2 * n + (kDissipates ? 1 : 0)) = D_.sum();
    return out;
  }
  Eigen::VectorXd from_form(const Eigen::VectorXd& yc) const {
    const int n = form_.positions();
    Eigen::VectorXd W = Eigen::VectorXd::Zero(kDissipates ? nodes_ : 0), D = Eigen::VectorXd::Zero(drives_ ? nodes_ : 0);
    if constexpr (kDissipates) W(0) = yc(2 * n);
    if (drives_) D(0) = yc(2 * n + (kDissipates ? 1 : 0));
    return join(yc.head(n), yc.segment(n, n), W, D);
  }

 private:
  int stride() const { return stride_; }

  // The half-bandwidths, tight: those of the matrix's pattern at a generic state, the initial one
  // with every entry moved by a different nonzero amount (so that no entry that is not zero by
  // structure, a diagonal mass block's off-diagonal or a force without velocity dependence, is zero
  // there by accident), within the bound the form declares (the nodes couple within
  // node_half_bandwidth(), the dissipation within dissipation_node_half_bandwidth()): a form whose
  // pattern exceeds its declaration is refused here, and IDA's band solver checks every later
  // Jacobian against the band (integrators/ida).
  void measure_bandwidths() {
    Eigen::VectorXd y = initial_state();
    for (int i = 0; i < y.size(); ++i) y(i) += 1e-2 * (1.0 + std::abs(y(i))) * std::sin(1.0 + i);
    std::vector<Eigen::Triplet<double>> entries;
    jacobian(0.0, y, y, 1.0, BaumgarteParameters{}, entries);
    // (A driven point's powers sit on the nodes they read, within the form's node coupling.)
    int reach = form_.node_half_bandwidth();
    if constexpr (kDissipates) reach = std::max(reach, int(form_.dissipation_node_half_bandwidth()));
    lower_ = upper_ = 0;
    for (const auto& e : entries)
      if (e.value() != 0.0) {
        if (std::abs(e.row() / stride() - e.col() / stride()) > reach)
          throw std::logic_error("UnconstrainedDaeOf: the Jacobian couples nodes further apart than the form declares");
        lower_ = std::max(lower_, e.row() - e.col());
        upper_ = std::max(upper_, e.col() - e.row());
      }
  }
  int q_index(int i) const { return stride() * (i / 3) + i % 3; }  // the form's position index i
  int v_index(int i) const { return q_index(i) + 3; }
  int w_index(int node) const { return stride() * node + 6; }
  int d_index(int node) const { return stride() * node + 6 + (kDissipates ? 1 : 0); }

  // y's parts; the three-part form also fills D_, the driven point's per-node work (empty without one).
  void split(const Eigen::VectorXd& y, Eigen::VectorXd& q, Eigen::VectorXd& v, Eigen::VectorXd& W) const {
    split(y, q, v, W, D_);
  }
  void split(const Eigen::VectorXd& y, Eigen::VectorXd& q, Eigen::VectorXd& v, Eigen::VectorXd& W, Eigen::VectorXd& D) const {
    const int n = form_.positions();
    q.resize(n);
    v.resize(n);
    W.resize(kDissipates ? nodes_ : 0);
    D.resize(drives_ ? nodes_ : 0);
    for (int i = 0; i < n; ++i) {
      q(i) = y(q_index(i));
      v(i) = y(v_index(i));
    }
    if constexpr (kDissipates)
      for (int j = 0; j < nodes_; ++j) W(j) = y(w_index(j));
    if (drives_)
      for (int j = 0; j < nodes_; ++j) D(j) = y(d_index(j));
  }
  Eigen::VectorXd join(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& W,
                       const Eigen::VectorXd& D) const {
    Eigen::VectorXd y(state_size());
    for (int i = 0; i < form_.positions(); ++i) {
      y(q_index(i)) = q(i);
      y(v_index(i)) = v(i);
    }
    if constexpr (kDissipates)
      for (int j = 0; j < nodes_; ++j) y(w_index(j)) = W(j);
    if (drives_)
      for (int j = 0; j < nodes_; ++j) y(d_index(j)) = D(j);
    return y;
  }
  // P_j = -v_j . f_d,j at (t, q_, v_), one per node (none without dissipation), and the driven
  // point's P~_j (none without one).
  void node_powers(double t, Eigen::VectorXd& P, Eigen::VectorXd& D) const {
    P.setZero(kDissipates ? nodes_ : 0);
    D.setZero(drives_ ? nodes_ : 0);
    if constexpr (kDissipates) {
      form_.dissipative_force(t, q_, v_, fd_);
      for (int j = 0; j < nodes_; ++j) P(j) = -v_.template segment<3>(3 * j).dot(fd_.template segment<3>(3 * j));
    }
    if constexpr (DrivesAtNodes<Form>)
      if (drives_) form_.drive_node_powers(t, q_, v_, D);
  }

  Form form_;
  bool drives_ = false;  // the form drives a point: one more work component per node
  int stride_ = 6;       // components per node: q, v, then W_j and D_j where carried
  int nodes_ = 0;
  int lower_ = 0, upper_ = 0;  // half-bandwidths (measure_bandwidths)
  std::vector<Eigen::Triplet<double>> mass_;  // M, constant
  // Workspaces (one formulation object per run).
  mutable Eigen::VectorXd q_, v_, W_, D_, qp_, vp_, Wp_, Dp_, f_, fd_, Mvp_;
  mutable std::vector<Eigen::Triplet<double>> dfdq_, dfdv_;
};

}  // namespace tb
