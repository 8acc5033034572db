#pragma once
// The small oscillations of a constrained mechanical system (core/formulation.hpp,
// ConstrainedMechanicalFormulation) about a configuration at rest: the model's slowest period,
// computed instead of estimated by hand (issue 44, class 8).
//
// Linearising  M(q) q'' = f(q, v) - G(q)^T lambda,  g(q) = 0  about a rest state q* (v = 0) with
// its multipliers lambda* gives, on the constraints' tangent space ker G(q*) = range Z,
//   Z^T M Z x'' + Z^T K Z x = 0,   K = -d/dq [f(q, 0) - G(q)^T lambda*] at q*
// (Geradin & Cardona, Flexible Multibody Dynamics, Sect. 5.5: the tangent stiffness of the
// constrained system is the Hessian of the Lagrangian V + lambda.g restricted to ker G; the
// constraint-curvature term lambda* d2g is what gives a rigid link its pendulum stiffness).
// The generalised eigenproblem Kr x = w^2 Mr x gives the modes: w^2 > 0 oscillations of period
// 2 pi / w, w^2 ~ 0 zero modes (a free centre of mass, a rotation about the vertical, an
// attitude no force acts on: ignored), w^2 < 0 unstable directions (counted).
// Velocity-dependent forces (damping, gyroscopic terms) are left out: the periods are the
// undamped ones, and v = 0 makes the velocity-quadratic terms of M(q) vanish.
//
// Set-up only, once per model: K by central differences of the form's force() and
// constraint_jacobian_transpose_times() (2 n evaluations), the null space of G and the
// eigenproblem dense (n ~ 100-800 positions: milliseconds to a second). Never per step.

#include <Eigen/Dense>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/formulation.hpp"
#include "core/model.hpp"

namespace tb {

struct LinearModes {
  // Periods (s) of the oscillating modes, slowest first.
  std::vector<double> periods;
  double slowest_period() const {
    return periods.empty() ? std::numeric_limits<double>::quiet_NaN() : periods.front();
  }
  int zero_modes = 0;      // |w^2| below the zero threshold (rigid-body and free directions)
  int unstable_modes = 0;  // w^2 < 0 beyond it: the rest state is not a minimum along them
  int tangent_dimension = 0;  // dim ker G: the degrees of freedom
  // Whether q* is an equilibrium: Newton's step from it to the equilibrium moves no coordinate
  // by more than kEquilibriumTolerance of the configuration's size (after the refinement, if asked).
  bool equilibrium = false;
  double residual = std::numeric_limits<double>::quiet_NaN();  // that step's size, relative
  int newton_iterations = 0;
  Eigen::VectorXd q;  // the configuration linearised about (refined when asked)
};

struct LinearModesOptions {
  double t = 0.0;
  // Newton on the equilibrium conditions Z^T (f - G^T lambda) = 0, g = 0 from the given q
  // (converged: a model's rest state guessed up to the strings' static stretch); 0: about q as given.
  int max_newton = 30;
  // |w^2| <= zero_threshold * max |w^2|: a zero mode. The differences' noise is ~1e-12 of the
  // largest stiffness; the slowest physical modes of the bundled models sit 1e-5..1e-4 of the fastest.
  double zero_threshold = 1e-9;
};

inline constexpr double kEquilibriumTolerance = 1e-9;

// The modes about q (positions() entries) at rest. Throws std::runtime_error when M is not
// positive definite on ker G (no set of modes exists).
LinearModes linear_modes(const ConstrainedMechanicalFormulation& form, const Eigen::VectorXd& q,
                         const LinearModesOptions& options = {});

// The rest configuration of the form's initial state (its first positions() entries).
inline Eigen::VectorXd initial_configuration(const ConstrainedMechanicalFormulation& form) {
  return form.initial_state().head(form.positions());
}

// The slowest period of `form` about the configuration q at rest, and its basis in words: `about`
// names the state (e.g. "the hanging equilibrium"); the basis says whether that was an equilibrium
// (the Newton refinement settles what the model guessed: a string's static stretch), how many zero
// and unstable modes were left out, and the next-slowest period. (NaN, "") for a form with no
// oscillating mode.
std::pair<double, std::string> linearised_slowest_period(const ConstrainedMechanicalFormulation& form,
                                                         const Eigen::VectorXd& q, const std::string& about,
                                                         const LinearModesOptions& options = {});

// Declares the model's slowest period (Model::slowest_period_s) as the slowest mode of the form
// make_form() builds at the model's rest state, about its initial configuration, or about the q
// that make_q(form) returns (a model that solves its own equilibrium: a tether's static shape).
// Computed when the period is first asked for (Model::declare_slowest_period_source): the dense
// eigen solve is O(n^3) in the coordinates, which a model built only to be stepped never pays.
template <class MakeForm>
void declare_linearised_slowest_period(Model& model, MakeForm make_form, std::string about,
                                       LinearModesOptions options = {}) {
  model.declare_slowest_period_source([make_form, about = std::move(about), options] {
    const auto form = make_form();
    return linearised_slowest_period(form, initial_configuration(form), about, options);
  });
}
template <class MakeForm, class MakeQ>
void declare_linearised_slowest_period(Model& model, MakeForm make_form, MakeQ make_q, std::string about,
                                       LinearModesOptions options = {}) {
  model.declare_slowest_period_source([make_form, make_q, about = std::move(about), options] {
    const auto form = make_form();
    return linearised_slowest_period(form, make_q(form), about, options);
  });
}

}  // namespace tb
