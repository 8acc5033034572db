#pragma once
// Checks shared by the model conformance checks (conformance/model_checks.cpp) and the DAE tests of
// the models: the analytic iteration matrix dF/dy + cj dF/dy' against central finite differences
// of the residual, and its band.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/formulation.hpp"

namespace tb::conformance {

inline Eigen::MatrixXd dae_jacobian_dense(const DaeFormulation& form, double t, const Eigen::VectorXd& y,
                                          const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b) {
  std::vector<Eigen::Triplet<double>> entries;
  form.jacobian(t, y, yp, cj, b, entries);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(y.size(), y.size());
  for (const auto& e : entries) J(e.row(), e.col()) += e.value();
  return J;
}

// Central differences of F in y and y' (step 1e-6 (1 + |y_i|)), combined as dF/dy + cj dF/dy'.
inline Eigen::MatrixXd dae_jacobian_fd(const DaeFormulation& form, double t, const Eigen::VectorXd& y,
                                       const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b) {
  const int n = int(y.size());
  Eigen::MatrixXd J(n, n);
  Eigen::VectorXd Fp, Fm;
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd yy = y, yyp = yp;
    const double hy = 1e-6 * (1.0 + std::abs(y(j)));
    yy(j) = y(j) + hy;
    form.residual(t, yy, yp, b, Fp);
    yy(j) = y(j) - hy;
    form.residual(t, yy, yp, b, Fm);
    J.col(j) = (Fp - Fm) / (2.0 * hy);
    const double hp = 1e-6 * (1.0 + std::abs(yp(j)));
    yyp(j) = yp(j) + hp;
    form.residual(t, y, yyp, b, Fp);
    yyp(j) = yp(j) - hp;
    form.residual(t, y, yyp, b, Fm);
    J.col(j) += cj * (Fp - Fm) / (2.0 * hp);
  }
  return J;
}

// Largest entry error, each row measured against its own largest entry (rows mix scales:
// stiffness kappa, masses cj M, unit kinematic rows).
inline double dae_jacobian_row_relative_error(const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& fd) {
  double worst = 0.0;
  for (int i = 0; i < analytic.rows(); ++i) {
    const double scale = std::max(1.0, fd.row(i).cwiseAbs().maxCoeff());
    worst = std::max(worst, (analytic.row(i) - fd.row(i)).cwiseAbs().maxCoeff() / scale);
  }
  return worst;
}

// Entries (of either matrix) with |value| > tol outside -lower <= col - row <= upper.
inline int entries_outside_band(const Eigen::MatrixXd& J, int lower, int upper, double tol) {
  int count = 0;
  for (int i = 0; i < J.rows(); ++i)
    for (int j = 0; j < J.cols(); ++j)
      if ((j - i > upper || i - j > lower) && std::abs(J(i, j)) > tol) ++count;
  return count;
}

// The smallest band that holds every entry above tol.
inline std::pair<int, int> measured_bandwidths(const Eigen::MatrixXd& J, double tol) {
  int lower = 0, upper = 0;
  for (int i = 0; i < J.rows(); ++i)
    for (int j = 0; j < J.cols(); ++j)
      if (std::abs(J(i, j)) > tol) {
        lower = std::max(lower, i - j);
        upper = std::max(upper, j - i);
      }
  return {lower, upper};
}

}  // namespace tb::conformance
