#pragma once
// What the derivative tests of the string models (Models A and B) share: seeded random
// configurations, central differences of a discrete step's residual (its Newton matrix) and
// along the flow, plain Newton on that residual, the exact flow a one-step test compares
// with, and the relative errors the analytic derivatives are judged by.

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

#include "core/formulation.hpp"
#include "mechanics/string_pendulum/mechanics.hpp"
#include "numerics/lie_group.hpp"

namespace tb::testing {

// Random numbers and 3-vectors from a fixed seed, so every configuration is reproducible.
class Rng {
 public:
  explicit Rng(unsigned seed) : g_(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g_); }
  Vec3 vec(double scale) { return scale * Vec3(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)); }
  // A random direction (drawn away from 0, so normalising it is well conditioned) of length norm.
  Vec3 vec_with_norm(double norm) {
    Vec3 v;
    do v = vec(1.0); while (v.norm() < 0.2);
    return norm * v.normalized();
  }
  // ±[0.3, 1] scale: a magnitude of either sign that is never near 0.
  double signed_magnitude(double scale) { return (uniform(0, 1) < 0.5 ? -1.0 : 1.0) * uniform(0.3, 1.0) * scale; }

 private:
  std::mt19937 g_;
};

// max_a |fd_a - an_a| / max_a |an_a| over a family of 3-vectors.
inline double family_error(const std::vector<Vec3>& fd, const std::vector<Vec3>& an) {
  double err = 0.0, scale = 0.0;
  for (std::size_t a = 0; a < an.size(); ++a) {
    err = std::max(err, (fd[a] - an[a]).norm());
    scale = std::max(scale, an[a].norm());
  }
  return err / scale;
}

// Worst |fd_a - an_a| / |an_a| over the nodes (the per-node relative error).
inline double worst_node_error(const std::vector<Vec3>& fd, const std::vector<Vec3>& an) {
  double worst = 0.0;
  for (std::size_t a = 0; a < an.size(); ++a) worst = std::max(worst, (fd[a] - an[a]).norm() / an[a].norm());
  return worst;
}

// The central difference (f(c+) - f(c-)) / 2e at c0, where nudge(c, d) moves a copy of c0 by d
// (= +e, -e) along one coordinate: truncation O(e^2), round-off ~eps |f| / e.
template <class Config, class F, class Nudge>
double central_difference(const Config& c0, double e, F&& f, Nudge&& nudge) {
  Config cp = c0, cm = c0;
  nudge(cp, e);
  nudge(cm, -e);
  return (f(cp) - f(cm)) / (2.0 * e);
}

// df/dx_a by central differences for every node a of the family `nodes` of c0 (a member such
// as &Config::r), each of its three components in turn.
template <class Config, class F>
std::vector<Vec3> node_gradient(const Config& c0, std::vector<Vec3> Config::*nodes, double e, F&& f) {
  std::vector<Vec3> g((c0.*nodes).size());
  for (std::size_t a = 0; a < g.size(); ++a)
    for (int i = 0; i < 3; ++i)
      g[a](i) = central_difference(c0, e, f, [&](Config& c, double d) { (c.*nodes)[a](i) += d; });
  return g;
}

// The left-trivialised derivative of f in the rotation `R` of c0 (a member such as &Config::F):
// component i by central differences along R -> R exp(±e hat(e_i)).
template <class Config, class F>
Vec3 rotation_gradient(const Config& c0, Mat3 Config::*R, double e, F&& f) {
  Vec3 g;
  for (int i = 0; i < 3; ++i) {
    const Mat3 Ep = so3::exp(e * Vec3::Unit(i)), Em = so3::exp(-e * Vec3::Unit(i));
    Config cp = c0, cm = c0;
    cp.*R = c0.*R * Ep;
    cm.*R = c0.*R * Em;
    g(i) = (f(cp) - f(cm)) / (2.0 * e);
  }
  return g;
}

inline Eigen::VectorXd residual_of(DiscreteLieGroupStep& step, const Eigen::VectorXd& x) {
  Eigen::VectorXd G;
  step.residual(x, G);
  return G;
}

// The step's Newton matrix dG/dx at x by central differences, column k with the step
// step_of(k) (each group of unknowns in its own units).
template <class StepOf>
Eigen::MatrixXd newton_matrix_by_differences(DiscreteLieGroupStep& step, const Eigen::VectorXd& x, StepOf&& step_of) {
  const Eigen::Index n = x.size();
  Eigen::MatrixXd J(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const double e = step_of(k);
    Eigen::VectorXd xp = x, xm = x;
    xp(k) += e;
    xm(k) -= e;
    J.col(k) = (residual_of(step, xp) - residual_of(step, xm)) / (2.0 * e);
  }
  return J;
}

// Plain Newton from x; returns the residual norms |G(x_k)|, k = 0, 1, ..., leaves x at the last
// iterate and, if iterates is given, records x_0, x_1, ... Every correction must succeed.
inline std::vector<double> newton(DiscreteLieGroupStep& step, Eigen::VectorXd& x, int iterations,
                                  std::vector<Eigen::VectorXd>* iterates = nullptr) {
  std::vector<double> norms;
  Eigen::VectorXd G, dx;
  for (int k = 0; k <= iterations; ++k) {
    step.residual(x, G);
    norms.push_back(G.norm());
    if (iterates) iterates->push_back(x);
    if (k == iterations) break;
    REQUIRE(step.newton_correction(x, G, dx));
    x += dx;
  }
  return norms;
}

// Fourth-order central difference d/de f(e) at e = 0 with step e:
//   (8 (f(e) - f(-e)) - (f(2e) - f(-2e))) / 12e, truncation error O(e^4).
// The result is evaluated into the value type (never an Eigen expression over temporaries).
template <class F>
auto derivative(F&& f, double e) -> std::decay_t<decltype(f(e))> {
  using Value = std::decay_t<decltype(f(e))>;
  Value out = ((f(e) - f(-e)) * 8.0 - (f(2.0 * e) - f(-2.0 * e))) / (12.0 * e);
  return out;
}

// The exact flow of an autonomous ODE over h, to the accuracy a one-step test needs: 64 steps of
// the classical Runge-Kutta method (error ~ (h/64)^4 relative, far below the O(h^3) local
// errors the tests resolve).
inline Eigen::VectorXd flow_by_fine_rk4(const OdeFormulation& ode, Eigen::VectorXd y, double h) {
  Eigen::VectorXd k1, k2, k3, k4;
  const int sub = 64;
  const double dt = h / sub;
  for (int i = 0; i < sub; ++i) {
    ode.rhs(0.0, y, k1);
    ode.rhs(0.0, y + 0.5 * dt * k1, k2);
    ode.rhs(0.0, y + 0.5 * dt * k2, k3);
    ode.rhs(0.0, y + dt * k3, k4);
    y += dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return y;
}

// A string pendulum state (Model A) moved along its own flow by e to first order: r + e v,
// v + e vdot, R exp(e Omega), Omega + e Omegadot, with acc = (rddot_2..rddot_{N+1}, Omegadot).
// Central differences in e of a function of it give that function's time derivative.
inline string_pendulum::State displaced(const string_pendulum::State& s, const Eigen::VectorXd& acc, double e) {
  const int N = int(s.r.size()) - 1;
  string_pendulum::State out = s;
  for (int a = 2; a <= N + 1; ++a) {
    out.r[a - 1] = s.r[a - 1] + e * s.v[a - 1];
    out.v[a - 1] = s.v[a - 1] + e * acc.segment<3>(3 * (a - 2));
  }
  out.R = s.R * so3::exp(e * s.Omega);
  out.Omega = s.Omega + e * acc.segment<3>(3 * N);
  return out;
}

}  // namespace tb::testing
