#include "models/hanging_tether/static_equilibrium.hpp"

#include <stdexcept>

#include "core/format.hpp"
#include "models/hanging_tether/shapes.hpp"

namespace tb::hanging_tether {

StaticSolution solve_static_equilibrium(const Mechanics& mech) {
  const Parameters& p = mech.params();
  const double strain_guess = 1e-4 + 0.5 * p.mu * p.g * p.length / p.EA;
  return solve_static_equilibrium(mech, parabola_shape(p, p.length * (1.0 + strain_guess)));
}

StaticSolution solve_static_equilibrium(const Mechanics& mech, std::vector<Vec3> r) {
  const Parameters& p = mech.params();
  const int N = p.N;
  constexpr int kMaxIterations = 50;
  BlockTridiagonal3 S;
  Eigen::VectorXd f, dr, f_trial;
  std::vector<Vec3> trial(r.size());
  StaticSolution out;
  mech.static_forces(r, f);
  for (int it = 1; it <= kMaxIterations; ++it) {
    // Newton: f(r + dr) ~ f(r) - S dr = 0  =>  S dr = f.
    mech.assemble_tangent_stiffness(r, S);
    if (!S.factor())
      throw std::runtime_error("hanging tether static solve: singular tangent stiffness at iteration " +
                               std::to_string(it));
    dr = f;
    S.solve_in_place(dr);
    // Backtracking: halve the step until |f| decreases (a full step near the solution, where
    // round-off may stall |f|, is always taken so the step-size test can end the iteration).
    const double f0 = f.norm();
    double alpha = 1.0;
    for (int halving = 0;; ++halving) {
      for (int j = 1; j < N; ++j) trial[j] = r[j] + alpha * dr.segment<3>(3 * (j - 1));
      trial[0] = r[0];
      trial[N] = r[N];
      mech.static_forces(trial, f_trial);
      if (f_trial.norm() < f0 || alpha * dr.lpNorm<Eigen::Infinity>() <= 1e-10 * p.length || halving == 40) break;
      alpha *= 0.5;
    }
    r.swap(trial);
    f.swap(f_trial);
    out.iterations = it;
    const double previous_step = out.last_step_inf;
    out.last_step_inf = alpha * dr.lpNorm<Eigen::Infinity>();
    // Converged: a full step below 1e-12 L, or (very stiff tethers, where round-off in the
    // forces, ~EA eps, moves the nodes by more than that) a full step below 1e-9 L that no
    // longer contracts quadratically.
    const bool stalled = it > 1 && out.last_step_inf <= 1e-9 * p.length && out.last_step_inf > 0.1 * previous_step;
    if (alpha == 1.0 && (out.last_step_inf <= 1e-12 * p.length || stalled)) {
      out.r = std::move(r);
      out.residual_inf = f.lpNorm<Eigen::Infinity>();
      return out;
    }
  }
  throw std::runtime_error("hanging tether static solve: no convergence in " + std::to_string(kMaxIterations) +
                           " Newton iterations (last step " + format_g(out.last_step_inf, 3) + " m)");
}

}  // namespace tb::hanging_tether
