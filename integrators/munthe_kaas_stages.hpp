#pragma once
// The stages of an explicit Runge-Kutta-Munthe-Kaas step on a Lie group ODE form
// (core/formulation.hpp, LieGroupOdeFormulation): y' = xi(t, y) . y is solved near y0 as
// y = exp(u) . y0 with u(t0) = 0 and u' = dexp^{-1}_u(xi(t, exp(u) . y0)), an ODE in the
// (linear) algebra, to which the Runge-Kutta tableau is applied (Munthe-Kaas 1999, "High order
// Runge-Kutta methods on manifolds", Appl. Numer. Math. 29, Algorithm 2.1 and eq. (2.6)):
//   u_j = h sum_{l<j} a_jl k_l,   k_j = dexp^{-1}_{u_j}(xi(t0 + c_j h, exp(u_j) . y0)),
//   y1 = exp(h sum_j b_j k_j) . y0.
// dexp^{-1} is its Bernoulli series truncated after ad^q (numerics/so3_dexp.hpp): q >= p - 2
// keeps order p (Munthe-Kaas 1999, Thm. 2); each method states its q.

#include <Eigen/Dense>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

// An explicit Butcher tableau: a is strictly lower triangular (a[j] has j entries).
struct ExplicitTableau {
  std::vector<double> c;
  std::vector<std::vector<double>> a;
  std::vector<double> b;
  int stages() const { return int(c.size()); }
};

class MuntheKaasStages {
 public:
  MuntheKaasStages(const LieGroupOdeFormulation& form, int dexp_inv_terms);

  // Evaluates k_1..k_s of a step of size h from (t, y0). first_field, when given, is
  // xi(t, y0) already known (the last stage of the previous step: FSAL) and saves one evaluation.
  // Returns false when a field value is not finite (the state left the domain of the model).
  bool evaluate(const ExplicitTableau& tableau, double t, const Eigen::VectorXd& y0, double h, long& field_evals,
                const Eigen::VectorXd* first_field = nullptr);
  const Eigen::VectorXd& k(int j) const { return k_[size_t(j)]; }
  // The field xi at the last stage (before dexp^{-1}): xi(t + h, y1) when the last stage is
  // the step's result (FSAL tableaux).
  const Eigen::VectorXd& last_field() const { return xi_; }
  // The last stage's algebra point u_s = h sum_l a_sl k_l and state exp(u_s) . y0 (for s > 1):
  // y1 and u1 themselves when the last stage is the step's result (FSAL, a_s = b), so the step
  // need not combine and act again.
  const Eigen::VectorXd& last_algebra_point() const { return u_; }
  const Eigen::VectorXd& last_state() const { return y_; }
  // u = h sum_j w_j k_j over the evaluated stages (w may be shorter than the stage count).
  void combine(const std::vector<double>& w, double h, Eigen::VectorXd& u) const;

  const LieGroupOdeFormulation& form() const { return form_; }

 private:
  const LieGroupOdeFormulation& form_;
  int q_;
  std::vector<Eigen::VectorXd> k_;
  Eigen::VectorXd u_, y_, xi_;
};

}  // namespace tb
