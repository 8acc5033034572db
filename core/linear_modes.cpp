#include "core/linear_modes.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/format.hpp"

namespace tb {
namespace {

Eigen::MatrixXd dense(int rows, int cols, const std::vector<Eigen::Triplet<double>>& entries) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, cols);
  for (const auto& e : entries) A(e.row(), e.col()) += e.value();
  return A;
}

struct Statics {
  Eigen::MatrixXd M, G;
  Eigen::VectorXd f, lambda, g;
  double unbalanced = 0.0;  // |f - G^T lambda|_inf (N): M a, the force the motion from rest starts with
};

// M, G, f at (q, v = 0) and the multipliers the motion from rest would have: [M G^T; G 0] [a; lambda]
// = [f; 0] (at rest the constraints' curvature term (G' v) is 0). At an equilibrium a = 0, and then
// lambda balances f exactly; elsewhere f - G^T lambda = M a is the unbalanced force.
Statics statics(const ConstrainedMechanicalFormulation& form, double t, const Eigen::VectorXd& q) {
  const int n = form.positions(), m = form.constraints();
  Statics s;
  std::vector<Eigen::Triplet<double>> entries;
  form.mass_entries_at(q, entries);
  s.M = dense(n, n, entries);
  entries.clear();
  if (m > 0) form.constraint_jacobian(q, entries);
  s.G = dense(m, n, entries);
  s.f = Eigen::VectorXd::Zero(n);
  form.force(t, q, Eigen::VectorXd::Zero(n), s.f);
  s.g.resize(m);
  if (m > 0) form.constraint(q, s.g);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + m, n + m);
  A.topLeftCorner(n, n) = s.M;
  A.topRightCorner(n, m) = s.G.transpose();
  A.bottomLeftCorner(m, n) = s.G;
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + m);
  rhs.head(n) = s.f;
  const Eigen::VectorXd x = A.completeOrthogonalDecomposition().solve(rhs);
  s.lambda = x.tail(m);
  const Eigen::VectorXd reaction = s.G.transpose() * s.lambda;
  s.unbalanced = (s.f - reaction).lpNorm<Eigen::Infinity>();
  return s;
}

// K = -d/dq [f(q, 0) - G(q)^T lambda] at fixed lambda, by central differences (step ~ eps^(1/3)
// of each coordinate's size: truncation and round-off balanced).
Eigen::MatrixXd stiffness(const ConstrainedMechanicalFormulation& form, double t, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& lambda) {
  const int n = form.positions(), m = form.constraints();
  const Eigen::VectorXd v0 = Eigen::VectorXd::Zero(n);
  auto residual = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd f = Eigen::VectorXd::Zero(n), GTl = Eigen::VectorXd::Zero(n);
    form.force(t, x, v0, f);
    if (m > 0) form.constraint_jacobian_transpose_times(x, lambda, GTl);
    return Eigen::VectorXd(f - GTl);
  };
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd x = q;
  for (int j = 0; j < n; ++j) {
    const double h = 6e-6 * std::max(1.0, std::abs(q(j)));
    x(j) = q(j) + h;
    const Eigen::VectorXd rp = residual(x);
    x(j) = q(j) - h;
    const Eigen::VectorXd rm = residual(x);
    x(j) = q(j);
    K.col(j) = -(rp - rm) / (2.0 * h);
  }
  return K;
}

double constraint_error(const ConstrainedMechanicalFormulation& form, const Eigen::VectorXd& g) {
  if (g.size() == 0) return 0.0;
  return (g.array().abs() / form.constraint_scale().array()).maxCoeff();
}

}  // namespace

LinearModes linear_modes(const ConstrainedMechanicalFormulation& form, const Eigen::VectorXd& q0,
                         const LinearModesOptions& options) {
  const int n = form.positions(), m = form.constraints();
  if (q0.size() != n) throw std::runtime_error("linear_modes: the configuration has the wrong size");
  LinearModes out;
  out.q = q0;
  Statics s = statics(form, options.t, out.q);
  // Newton on the equilibrium: [K G^T; G 0] [dq; dlambda] = [f - G^T lambda; -g], solved in the least-
  // squares sense (zero modes make it singular: the minimum-norm step does not move along them).
  // The configuration is an equilibrium when Newton's step from it moves no coordinate by more than
  // kEquilibriumTolerance of the configuration's size: a distance, which needs no force scale (the
  // net force of a system without constraints is 0 at its equilibrium, so a force relative to
  // itself cannot tell). The step is measured at the last point even when no step may be taken.
  const double size = std::max(1.0, q0.lpNorm<Eigen::Infinity>());
  for (int k = 0;; ++k) {
    const Eigen::MatrixXd K = stiffness(form, options.t, out.q, s.lambda);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + m, n + m);
    A.topLeftCorner(n, n) = K;
    A.topRightCorner(n, m) = s.G.transpose();
    A.bottomLeftCorner(m, n) = s.G;
    Eigen::VectorXd rhs(n + m);
    rhs.head(n) = s.f - s.G.transpose() * s.lambda;
    rhs.tail(m) = -s.g;
    const Eigen::VectorXd step = A.completeOrthogonalDecomposition().solve(rhs);
    out.residual = step.head(n).lpNorm<Eigen::Infinity>() / size;
    if (out.residual <= kEquilibriumTolerance) {
      out.equilibrium = true;
      break;
    }
    if (k >= options.max_newton) break;
    const Eigen::VectorXd q_next = out.q + step.head(n);
    if (!form.why_not_admissible(q_next).empty() || !q_next.allFinite()) break;
    Statics next = statics(form, options.t, q_next);
    // A step that reduces neither the unbalanced force nor the constraints' error is a step away
    // from the equilibrium (a saddle nearby, or a start outside Newton's basin): keep the point.
    if (!(next.unbalanced < s.unbalanced || constraint_error(form, next.g) < constraint_error(form, s.g))) break;
    out.q = q_next;
    s = std::move(next);
    ++out.newton_iterations;
  }

  // The tangent space of the constraints: ker G, the orthogonal complement of range(G^T), from the
  // rank-revealing (column-pivoted) orthogonal decomposition G^T P = Q [T 0; 0 0] Z: the last n - r
  // columns of Q, r the number of pivots above 1e-10 of the largest. (The decomposition Newton
  // used above, so no other one is compiled: an SVD here cost 28 s of the build, issue 43.)
  Eigen::MatrixXd Z;
  if (m == 0) {
    Z = Eigen::MatrixXd::Identity(n, n);
  } else {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> range(n, m);
    range.setThreshold(1e-10);
    range.compute(s.G.transpose());
    const Eigen::MatrixXd Q = range.householderQ();
    Z = Q.rightCols(n - range.rank());
  }
  out.tangent_dimension = int(Z.cols());
  if (Z.cols() == 0) return out;
  const Eigen::MatrixXd K = stiffness(form, options.t, out.q, s.lambda);
  Eigen::MatrixXd Kr = Z.transpose() * K * Z;
  Kr = 0.5 * (Kr + Kr.transpose()).eval();  // symmetric at an equilibrium; the differences' noise removed
  const Eigen::MatrixXd Mr = Z.transpose() * s.M * Z;
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kr, Mr, Eigen::EigenvaluesOnly);
  if (eig.info() != Eigen::Success)
    throw std::runtime_error("linear_modes: the mass matrix is not positive definite on the constraints' tangent space");
  const Eigen::VectorXd w2 = eig.eigenvalues();
  const double scale = w2.cwiseAbs().maxCoeff();
  for (int i = 0; i < w2.size(); ++i) {
    if (std::abs(w2(i)) <= options.zero_threshold * scale)
      ++out.zero_modes;
    else if (w2(i) < 0.0)
      ++out.unstable_modes;
    else
      out.periods.push_back(2.0 * M_PI / std::sqrt(w2(i)));
  }
  std::sort(out.periods.begin(), out.periods.end(), std::greater<double>());
  return out;
}

std::pair<double, std::string> linearised_slowest_period(const ConstrainedMechanicalFormulation& form,
                                                         const Eigen::VectorXd& q, const std::string& about,
                                                         const LinearModesOptions& options) {
  const LinearModes modes = linear_modes(form, q, options);
  if (modes.periods.empty()) return {std::numeric_limits<double>::quiet_NaN(), ""};
  std::string basis = "linearised about " + about;
  basis += modes.equilibrium ? " (an equilibrium"
                              : " (not an equilibrium: Newton's step to one is " + format_g(modes.residual, 2) +
                                    " of the configuration's size";
  if (modes.zero_modes > 0) basis += "; " + std::to_string(modes.zero_modes) + " zero modes left out";
  if (modes.unstable_modes > 0) basis += "; " + std::to_string(modes.unstable_modes) + " unstable directions left out";
  basis += ")";
  if (modes.periods.size() > 1) basis += ", next mode " + format_g(modes.periods[1], 4) + " s";
  return {modes.slowest_period(), basis};
}

}  // namespace tb
