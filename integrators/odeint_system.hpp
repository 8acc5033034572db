#pragma once
// Adapts an OdeFormulation to Boost.Odeint's system concept `sys(x, dxdt, t)` over
// Eigen::VectorXd. Odeint copies systems by value, so the evaluation counter is held by
// pointer and survives the copies.

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>

#include "core/formulation.hpp"

namespace tb {

struct OdeintSystem {
  const OdeFormulation* ode;
  long* rhs_evals;
  void operator()(const Eigen::VectorXd& y, Eigen::VectorXd& dydt, double t) const {
    ++*rhs_evals;
    ode->rhs(t, y, dydt);
  }
};

}  // namespace tb
