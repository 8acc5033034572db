// Lie group generalized-alpha on the Lie group ODE form (core/formulation.hpp,
// LieGroupOdeFormulation): O. Bruls & A. Cardona, "On the use of Lie group time integrators in
// multibody dynamics", J. Comput. Nonlinear Dyn. 5 (2010) 031002 (B-C below); O. Bruls, A. Cardona
// & M. Arnold, "Lie group generalized-alpha time integration of constrained flexible multibody
// systems", Mech. Mach. Theory 48 (2012) 121-137 (B-C-A); M. Arnold, O. Bruls & A. Cardona, "Error
// analysis of generalized-alpha Lie group time integration methods for constrained mechanical
// systems", Numer. Math. 129 (2015) 149-179 (A-B-C).
//
// The system (B-C's unconstrained setting; the labels (1)-(4) below are this file's): a
// configuration g in G = SO(3)^r x SO(3)^d x R^p (rotations R acted on from the right, R' = R
// hat(Omega); directions q in S^2 acted on from the left, q' = omega x q; positions, x' = v), its
// velocity v in the algebra (the rates Omega, omega, v: manifold()'s rate slots) and
//   g' = g . v (the action above),   M(g) v' = F(t, g, v),
// the rate rows in mass-matrix form that the form provides (rate_residual), with its tangents.
//
// The scheme (B-C's Lie group generalized-alpha algorithm; B-C-A's without constraints): with the
// acceleration-like variable a_n,
//   g_{n+1} = g_n . exp(h dq_n),  dq_n = v_n + h (1/2 - beta) a_n + h beta a_{n+1}          (1)
//   v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}                                      (2)
//   (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) vdot_{n+1} + alpha_f vdot_n           (3)
//   M(g_{n+1}) vdot_{n+1} = F(t_{n+1}, g_{n+1}, v_{n+1})                                    (4)
// i.e. generalized-alpha (Chung & Hulbert 1993) with the position update of Newmark's formula
// replaced by the exponential of the increment in the algebra (exp of SO(3) for each factor, the
// identity on positions, where (1)-(4) are the vector generalized-alpha method itself). Parameters
// from the spectral radius at infinity rho_inf (Chung-Hulbert eqs. (25), (17), (20),
// GeneralizedAlphaParameters::from_rho_inf): alpha_m = (2 rho_inf - 1)/(rho_inf + 1), alpha_f =
// rho_inf/(rho_inf + 1), gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2/4. rho_inf = 1 is
// the non-dissipative member (alpha_m = alpha_f = 1/2), rho_inf < 1 damps the modes with h w >> 1.
// The other free entries of the state (work integrals W, W' = P(t, g, v)) ride along by the
// trapezoidal rule: W_{n+1} = W_n + h/2 (W'_n + W'_{n+1}).
//
// Newton (B-C and B-C-A: the iteration matrix with the tangent operator): the unknown is vdot =
// vdot_{n+1}; by (3) a_{n+1} = ((1 - alpha_f) vdot + alpha_f vdot_n - alpha_m a_n)/(1 - alpha_m),
// so with c = (1 - alpha_f)/(1 - alpha_m), d a_{n+1} = c d vdot, d v_{n+1} = h gamma c d vdot and
// d(h dq_n) = h^2 beta c d vdot. A change du of the algebra increment u = h dq_n moves g_n exp(u)
// by the trivialised perturbation T(u) du: for R = R_n exp(hat u) (right action) R_n exp(u + du) =
// R exp(hat(dexp(-u) du)) + O(du^2), so T = dexp(-u) (numerics/so3_dexp.hpp: dexp is the
// right-trivialised derivative); for q = exp(hat u) q_n (left action) exp(u + du) q_n =
// exp(hat(dexp(u) du)) q + O(du^2), so T = dexp(u); T = I on positions (B-C call it the tangent
// operator T_SO(3)(h dq); here in both trivialisations). The residual r(vdot) = M(g_{n+1}) vdot - F
// of (4) linearised gives the iteration matrix
//   A = M + h^2 beta c K T(u) + h gamma c C,   K = dr/dg (trivialised), C = dr/dv,
// assembled sparse from the model's entries (rate_tangent_entries) and factored by Eigen's SparseLU
// with COLAMD (O(N) on banded strings, never a dense inverse). A form whose rate rows carry
// multipliers (LieGroupOdeFormulation::rate_multipliers, e.g. one tension per rigid link of a
// cable, which keeps a chain's rows local) adds them to the Newton unknowns: [vdot, lambda], rows
// r(vdot, lambda), A bordered by the lambda columns of M (lambda moves neither g nor v); lambda is
// predicted by its last value, started at the form's rate_multiplier_values(), and judged by the
// residual rows only (it is not part of the state, and its corrections are in other units). The matrix tends to M as h -> 0:
// well conditioned in vdot, and its diagonal pivots are sound, so the LU pivots by threshold
// (0.1, integrators/pattern_cached_lu.hpp) rather than by the column maximum: on Model B, whose
// reel row and column border the string's band, partial pivoting takes border entries as pivots
// and the factors fill faster than N (after 0.3 s of the retrieval at h = 1e-3: 761, 1676, 3647
// entries at N = 20, 40, 80; at a state with larger accelerations 1249, 4049, 14449, O(N^2)); with
// the threshold they stay O(N) (734, 1454, 2894; tests/test_reel_pendulum_lie_generalized_alpha.cpp). It is kept across iterations and steps while each correction is at most
// 1/4 of the one before (it changes by O(h) per step), refactored at the current iterate otherwise,
// when h changes or after a step that needed more than 4 iterations (modified Newton turning into
// full Newton where convergence is slow; as generalized_alpha). Predictor vdot_{n+1} = vdot_n.
// Measured on Model C (issue 43; tests/test_multirotor_lie_rates.cpp): the pattern is analysed
// once per run, and the factorisation is kept for about two steps (0.51-0.52 factorisations per
// step over 300 s of C_cooperative_multirotors): the tensions swing with the cable's ~900 rad/s
// modes, so with the matrix of the step before a step takes 6-7 iterations against 4 with its
// own (iterations 10^-2.4, 10^-5.9, 10^-8.3, 10^-11.1 on average: the rate of modified Newton from
// the predictor's error), and refactoring after it pays (keeping it up to 6 or 8 iterations cut
// the factorisations by 25 % or 52 % for 11 % or 33 % more iterations; with a factorisation
// costing about eight iterations that is a modelled 5 %, inside the timing noise: not taken). The
// matrix is assembled from the entries into the slots of the last assembly (TripletAssembly,
// integrators/pattern_cached_lu.hpp) instead of by setFromTriplets: 3531 entries summed into 633
// nonzeros on the cooperative case, whose sort, transposed copy and allocations took about 12 % of
// the run (perf: factor() outside the LU 25 % -> 13 %). Same values bitwise, so same results.
// Newton stops in the problem's own units (as integrators/lgvi_step_solver.cpp): when every row
// |r_i| is at its round-off floor 4 eps S_i, S_i the magnitudes of the row's terms (rate_residual),
// or when a correction is at most newton_tol of max(|vdot|_inf, |v_n|_inf / h) (the units of vdot),
// or at the round-off floor of the corrections themselves (no longer falling fourfold below 1e-12
// of that size, as generalized_alpha). Updates are formed in increment form
// (HomogeneousProduct::act: R_n + R_n (exp(u) - I), v_n + dv), so a small increment is rounded
// relative to itself.
//
// Starting values (A-B-C, after Arnold & Bruls 2007 Sect. 4): with a_0 = vdot_0 the variable a_n
// differs from vdot(t_n + Delta_alpha h), Delta_alpha = alpha_m - alpha_f, by an O(h) term that
// decays only like (-alpha_m/(1 - alpha_m))^n (at rho_inf = 1, Delta_alpha = 0 and the two starts
// coincide); the perturbed start a_0 = vdot_0 + Delta_alpha h vddot_0 + O(h^2) removes it. vddot_0
// is taken as a difference of vdot over tau = Delta_alpha h: a_0 = vdot at the Taylor state (g_0
// exp(tau v_0 + tau^2/2 vdot_0), v_0 + tau vdot_0) at t_0 + tau, which is vdot(t_0 + tau) +
// O(tau^2) (as generalized_alpha does on the constrained form). Setting perturbed_start = 0 takes
// a_0 = vdot_0, to measure the difference. The start costs two evaluations of the field and no
// Newton (the ODE form gives vdot explicitly). Measured (tests/test_lie_generalized_alpha.cpp): on
// these unconstrained forms g and v converge at order 2 with either start (a_n's O(h) start error
// enters v and g multiplied by h); a_1 itself is O(h^2) from vdot(t_1 + Delta_alpha h) only with
// the perturbed start, O(h) without.

#include "integrators/lie_generalized_alpha/lie_generalized_alpha.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/fixed_step.hpp"
#include "core/format.hpp"
#include "integrators/lgvi_step_solver.hpp"  // residual_excess: the round-off floor of a residual row
#include "integrators/started_alpha_stepper.hpp"
#include "numerics/so3_dexp.hpp"

namespace tb {


LieGeneralizedAlphaStep::LieGeneralizedAlphaStep(const LieGroupOdeFormulation& form, const GeneralizedAlphaParameters& p,
                                                 double newton_tol, int max_newton_iters, bool perturbed_start)
    : form_(form),
      mf_(form.manifold()),
      p_(p),
      newton_tol_(newton_tol),
      max_newton_iters_(max_newton_iters),
      perturbed_start_(perturbed_start) {
  if (const std::string why = form.why_not_tangents(); !why.empty()) throw std::invalid_argument(why);
  k_ = int(mf_.group_size() + mf_.position_size());
  p_mult_ = form.rate_multipliers();
  for (const auto& f : mf_.rotations())
    for (int i = 0; i < 3; ++i) rate_y_.push_back(f.rate + i);
  for (const auto& f : mf_.directions())
    for (int i = 0; i < 3; ++i) rate_y_.push_back(f.rate + i);
  for (const auto& f : mf_.positions())
    for (Eigen::Index i = 0; i < f.size; ++i) rate_y_.push_back(f.rate + i);
  // The free entries follow the configuration in the algebra layout, in state order.
  const auto& free = mf_.vector_entries();
  std::vector<Eigen::Index> alg_of(size_t(mf_.state_size()), -1);
  for (size_t j = 0; j < free.size(); ++j) alg_of[size_t(free[j])] = k_ + Eigen::Index(j);
  std::vector<char> is_rate(size_t(mf_.state_size()), 0);
  for (Eigen::Index i : rate_y_) {
    rate_alg_.push_back(alg_of[size_t(i)]);
    is_rate[size_t(i)] = 1;
  }
  for (size_t j = 0; j < free.size(); ++j)
    if (!is_rate[size_t(free[j])]) extra_y_.push_back(free[j]), extra_alg_.push_back(k_ + Eigen::Index(j));
  A_.resize(k_ + p_mult_, k_ + p_mult_);
}

void LieGeneralizedAlphaStep::kinematics(double h, const Eigen::VectorXd& y, const Eigen::VectorXd& vd1) {
  const GeneralizedAlphaParameters& p = p_;
  a1_ = ((1.0 - p.alpha_f) * vd1.head(k_) + p.alpha_f * vd_.head(k_) - p.alpha_m * a_) / (1.0 - p.alpha_m);
  u_.setZero(mf_.algebra_size());
  u_.head(k_) = base_u_ + h * h * p.beta * a1_;  // h dq_n, (1)
  dv1_ = base_dv_ + h * p.gamma * a1_;  // v_{n+1} - v_n, (2)
  for (int i = 0; i < k_; ++i) u_(rate_alg_[size_t(i)]) = dv1_(i);
  mf_.act(u_, y, y1_);  // configuration and rates in increment form; work integrals unchanged here
}

bool LieGeneralizedAlphaStep::factor(double t1, double h) {
  const GeneralizedAlphaParameters& p = p_;
  const double c = (1.0 - p.alpha_f) / (1.0 - p.alpha_m), cK = h * h * p.beta * c, cC = h * p.gamma * c;
  M_.clear();
  K_.clear();
  C_.clear();
  form_.rate_tangent_entries(t1, y1_, vd1_, M_, K_, C_);
  work_ = M_;
  // Tangent operators T(u) of the rotations (dexp(-u), right action) and directions (dexp(u), left).
  const Eigen::Index groups = mf_.group_size() / 3, rotations = Eigen::Index(mf_.rotations().size());
  std::vector<Eigen::Matrix3d>& tangent = tangent_;
  tangent.resize(static_cast<size_t>(groups));
  for (Eigen::Index b = 0; b < groups; ++b) {
    const Vec3 ub = u_.segment<3>(3 * b);
    tangent[size_t(b)] = b < rotations ? so3::dexp(-ub) : so3::dexp(ub);
  }
  for (const auto& e : K_) {
    if (e.col() < mf_.group_size()) {
      const Eigen::Index b = e.col() / 3, l = e.col() % 3;
      for (int m = 0; m < 3; ++m)
        if (const double v = tangent[size_t(b)](l, m); v != 0.0) work_.emplace_back(e.row(), 3 * b + m, cK * e.value() * v);
    } else {
      work_.emplace_back(e.row(), e.col(), cK * e.value());
    }
  }
  for (const auto& e : C_) work_.emplace_back(e.row(), e.col(), cC * e.value());
  assembly_.assemble(work_, A_);
  return lu_.factor(A_);
}

LieGeneralizedAlphaStep::Result LieGeneralizedAlphaStep::start(double t0, const Eigen::VectorXd& y0, double h) {
  Result out;
  auto fail = [&](std::string why) {
    out.ok = false;
    out.failure = {StepFailure::Kind::Diverged, std::move(why)};
    return out;
  };
  form_.field(t0, y0, xi_);
  ++out.force_evals;
  if (!xi_.allFinite()) return fail("the field is non-finite (NaN/Inf) at t0");
  vd_.resize(k_ + p_mult_);
  for (int i = 0; i < k_; ++i) vd_(i) = xi_(rate_alg_[size_t(i)]);
  if (p_mult_ > 0) {
    form_.rate_multiplier_values(t0, y0, lambda0_);
    if (lambda0_.size() != p_mult_ || !lambda0_.allFinite()) return fail("the rate rows' multipliers are non-finite at t0");
    vd_.tail(p_mult_) = lambda0_;
  }
  zd_.resize(Eigen::Index(extra_alg_.size()));
  for (size_t j = 0; j < extra_alg_.size(); ++j) zd_(Eigen::Index(j)) = xi_(extra_alg_[j]);
  a_ = vd_.head(k_);
  // Perturbed start (A-B-C): a_0 = vdot(t_0 + Delta_alpha h) + O(h^2).
  const double tau = (p_.alpha_m - p_.alpha_f) * h;
  if (perturbed_start_ && tau != 0.0) {
    Eigen::VectorXd u = Eigen::VectorXd::Zero(mf_.algebra_size()), y_tau;
    for (int i = 0; i < k_; ++i) {
      u(i) = tau * y0(rate_y_[size_t(i)]) + 0.5 * tau * tau * vd_(i);
      u(rate_alg_[size_t(i)]) = tau * vd_(i);
    }
    mf_.act(u, y0, y_tau);
    form_.field(t0 + tau, y_tau, xi_);
    ++out.force_evals;
    if (!xi_.allFinite()) return fail("the field is non-finite (NaN/Inf) at the perturbed start's Taylor state");
    for (int i = 0; i < k_; ++i) a_(i) = xi_(rate_alg_[size_t(i)]);
  }
  return out;
}

LieGeneralizedAlphaStep::Result LieGeneralizedAlphaStep::step(double t, double h, const Eigen::VectorXd& y,
                                                              Eigen::VectorXd& y_next) {
  Result out;
  const GeneralizedAlphaParameters& p = p_;
  const double t1 = t + h;
  vn_.resize(k_);
  for (int i = 0; i < k_; ++i) vn_(i) = y(rate_y_[size_t(i)]);
  base_u_ = h * vn_ + h * h * (0.5 - p.beta) * a_;
  base_dv_ = h * (1.0 - p.gamma) * a_;
  vd1_ = vd_;  // predictor
  if (!newton(t1, h, y, out)) return out;
  Eigen::VectorXd zd1;
  if (!write_next_state(t1, h, y_next, zd1, out)) return out;
  a_ = a1_;
  vd_ = vd1_;
  if (!extra_y_.empty()) zd_ = zd1;
  return out;
}

// vdot_{n+1} (and the rate rows' multipliers) by modified Newton from the predictor in vd1_
// (the file's header: "Newton"); y1_ follows the iterate.
bool LieGeneralizedAlphaStep::newton(double t1, double h, const Eigen::VectorXd& y, Result& out) {
  const double v_scale = vn_.lpNorm<Eigen::Infinity>() / std::abs(h);
  // The iteration matrix is kept across iterations and steps (modified Newton, as
  // generalized_alpha) while it contracts fast; refactored at the current iterate when h
  // changed (h as t_{n+1} - t_n varies by round-off: only a real change counts), when the last
  // step needed more than 4 iterations, or when a correction is more than 1/4 of the one before.
  bool refactor = !factored_ || refactor_next_ || std::abs(h - factored_h_) > 1e-8 * std::abs(h), converged = false;
  int iters = 0;
  double previous = -1.0, last = -1.0, correction = 0.0, excess = 0.0;
  for (int it = 0; it <= max_newton_iters_; ++it) {
    kinematics(h, y, vd1_);
    form_.rate_residual(t1, y1_, vd1_, r_, S_);
    ++out.force_evals;
    if (!r_.allFinite() || !y1_.allFinite())
      return fail(out, StepFailure::Kind::Diverged, "Newton residual M vdot - F is non-finite (NaN/Inf)");
    excess = residual_excess(r_, S_);
    if (excess <= 1.0) {  // every row at its round-off floor
      converged = true;
      break;
    }
    if (it == max_newton_iters_) break;
    if (refactor) {
      factored_ = false;
      if (!factor(t1, h))
        return fail(out, StepFailure::Kind::SolverFailed,
                    "singular iteration matrix M + h^2 beta c K T + h gamma c C (" + lu_.last_error() + ")");
      factored_ = true;
      factored_h_ = h;
      refactor = false;
      previous = -1.0;
    }
    dv_ = lu_.solve(r_);
    ++out.newton_iters;
    ++iters;
    if (!dv_.allFinite()) return fail(out, StepFailure::Kind::Diverged, "Newton correction is non-finite (NaN/Inf)");
    vd1_ -= dv_;
    const double scale =
        std::max({vd1_.head(k_).lpNorm<Eigen::Infinity>(), v_scale, std::numeric_limits<double>::min()});
    correction = dv_.head(k_).lpNorm<Eigen::Infinity>() / scale;  // the multipliers: by their rows
    if (correction <= newton_tol_ || (last > 0.0 && correction >= 0.25 * last && correction <= 1e-12)) {
      kinematics(h, y, vd1_);
      converged = true;  // at the tolerance, or at the corrections' round-off floor
      break;
    }
    if (previous > 0.0 && correction > 0.25 * previous && correction > 1e-12) refactor = true;
    previous = correction;
    last = correction;
  }
  refactor_next_ = iters > 4;
  if (!converged)
    return fail(out, StepFailure::Kind::SolverFailed,
                "Newton on vdot_{n+1} did not converge in " + std::to_string(max_newton_iters_) +
                    " iterations (last correction " + format_g(correction, 3) + " of |vdot|, residual " +
                    format_g(excess, 3) + " times its round-off floor)");
  return true;
}

// y_{n+1} from the converged iterate y1_, its work integrals by the trapezoidal rule (their rates
// at t_{n+1} into zd1); false (the step diverged) if it is non-finite.
bool LieGeneralizedAlphaStep::write_next_state(double t1, double h, Eigen::VectorXd& y_next, Eigen::VectorXd& zd1,
                                               Result& out) {
  y_next = y1_;
  if (!extra_y_.empty()) {  // work integrals by the trapezoidal rule
    form_.field(t1, y_next, xi_);
    ++out.force_evals;
    zd1.resize(Eigen::Index(extra_alg_.size()));
    for (size_t j = 0; j < extra_alg_.size(); ++j) {
      zd1(Eigen::Index(j)) = xi_(extra_alg_[j]);
      y_next(extra_y_[j]) += 0.5 * h * (zd_(Eigen::Index(j)) + zd1(Eigen::Index(j)));
    }
  }
  if (!y_next.allFinite()) return fail(out, StepFailure::Kind::Diverged, "state became non-finite (NaN/Inf)");
  return true;
}

namespace {

}  // namespace

IntegratorInfo lie_generalized_alpha_info() {
  const SettingSpec rho = rho_inf_setting("");
  SettingSpec start = switch_setting(
      "perturbed_start",
      "1: a_0 = vdot(t_0 + (alpha_m - alpha_f) h) (Arnold-Bruls-Cardona 2015's perturbed start); 0: a_0 = vdot_0", 1);
  std::vector<SettingSpec> settings = newton_settings(
      "Newton on vdot_{n+1} stops when every rate row |M vdot - F|_i is at its round-off floor (4 eps times its "
      "terms' magnitudes), or when a correction is below newton_tol of max(|vdot|_inf, |v_n|_inf / h)",
      1e-12);
  settings.insert(settings.begin(), {rho, start});
  IntegratorInfo info{
      "lie_generalized_alpha", 2, false,
      MethodTraits{.implicit = true, .symmetric = false, .symplectic = false, .dissipative = kDefaultRhoInf < 1.0,
                   .imaginary_axis_stable = true, .on_manifold = true},
      "Lie group generalized-alpha (Bruls-Cardona 2010, Bruls-Cardona-Arnold 2012; perturbed start of "
      "Arnold-Bruls-Cardona 2015) on the Lie group ODE form, Newton with the models' analytic tangents, sparse LU",
      settings,
      consuming([](const LieGroupOdeFormulation& form, const IntegratorSettings& s, double t0) {
        return std::make_unique<StartedAlphaStepper<LieGeneralizedAlphaStep>>(
            t0, s.h, form.initial_state(), form, GeneralizedAlphaParameters::from_rho_inf(s.get("rho_inf")),
            s.get("newton_tol"), s.get_int("max_newton_iters"), s.get_int("perturbed_start") == 1);
      })};
  info.why_not = [](const Formulation& form) -> std::string {
    const auto* lg = dynamic_cast<const LieGroupOdeFormulation*>(&form);
    return lg ? lg->why_not_tangents() : std::string("not a Lie group ODE form");
  };
  return info;
}

}  // namespace tb
