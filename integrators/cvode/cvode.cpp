// SUNDIALS CVODE on an OdeFormulation y' = f(t, y) (R as 9 numbers, S^2 directions as 3-vectors).
//
// The scheme (CVODE user guide v6.4.1, ch. "Mathematical Considerations", whose labelled
// equations are numbered (2.1)-(2.11) in that order; Hindmarsh et al., "SUNDIALS: Suite of
// nonlinear and differential/algebraic equation solvers", ACM TOMS 31(3), 2005, §3):
// - Variable-order, variable-step linear multistep formulas in Nordsieck form (2.3),
//     sum_{i=0}^{K1} alpha_{n,i} y^{n-i} + h_n sum_{i=0}^{K2} beta_{n,i} y'^{n-i} = 0,
//   BDF in fixed-leading-coefficient form (K1 = q, K2 = 0, q = 1..5) or Adams-Moulton
//   (K1 = 1, K2 = q - 1, q = 1..12); the coefficients follow the step-size history
//   (Byrne & Hindmarsh, ACM TOMS 1, 1975; Jackson & Sacks-Davis, ACM TOMS 6, 1980).
// - Each step solves F(y^n) = y^n - gamma f(t_n, y^n) - a_n = 0, gamma = h_n beta_{n,0} (2.4).
//   BDF's corrector (adams = 0) by Newton's method (newton = 1, the default) or fixed-point
//   iteration (newton = 0: the single-cable Model C cases choose it).
//   Fixed point (2.5): y^n <- gamma f(t_n, y^n) + a_n, no Jacobian and no linear solve, one
//   evaluation of f per iteration; it contracts by gamma ||J|| per iteration. That is small on
//   every bundled case at its tolerance: their fastest modes are resolved by the error test,
//   not stepped over (Model C at rtol 1e-6: the cable's ~900 rad/s zigzag modes at h ~ 1.6e-4 s
//   and gamma = h beta_{n,0} ~ 0.45 h at BDF5, so gamma omega ~ 0.07). Measured over the first
//   20 s of C_single_multirotor (`tetherbench run cases/C_single_multirotor.toml --integrator
//   cvode --t-end 20 [--set cvode.newton=1 [--set cvode.gmres=0]]`, CPU time, CVODE's counters
//   from TETHERBENCH_SUNDIALS_PROFILE):
//     fixed point      87 112 steps, 1.8 f per step, 2 285 error-test failures, 0.62 s, max |dE| 1.4e-7 J
//     Newton, GMRES   126 457 steps, 3.2 f per step (1.75 Newton its, 0.84 Krylov its per Newton
//                     iteration), 4 835 error-test failures, 1.68 s, max |dE| 6.6e-7 J
//     Newton, dense    72 273 steps, 2.5 f per step (with the Jacobians' columns) and an LU, 1.98 s
//   and on C_cooperative_multirotors (20 s) 23 545 against 23 552 steps, 0.26 s against 0.47 s.
//   Over the single case's 1000 s: 3.85 M steps and 28.6 s against 6.38 M and 86.9 s, max |dE|
//   1.4e-6 J against 6.3e-3 J (cases/README.md, "CVODE"). Over the cooperative case's 1000 s
//   4.10 M steps and 44 s against 4.22 M and 81 s; after the cables go slack the energy error of
//   both runs rises from ~5e-5 J at 500 s (1.0e-2 J at 1000 s against 6.6e-3 J), almost all of it
//   the centre of mass's kinetic energy |dP|^2/(2M) of BDF's momentum drift (issue 44: 0.0108 J of
//   the fixed point's 0.0103 J; the motion's own error 8.7e-4 J), so every Model C case now uses
//   the fixed point (before issue 44 the fixed point's rise crossed the exponential-growth
//   trigger by a hair, x100.2 within an octave at t = 923.6 s, and that case kept Newton). Over the first second of
//   every other bundled case the fixed point took the same steps
//   within 5 % in 0.4-0.7x the time, with the same or smaller errors. Why GMRES's Newton
//   takes more steps than the dense one: SPGMR stops once its residual is below CVODE's
//   default epsLin = 0.05 times the Newton tolerance (CVODE guide, "Linear solver interface",
//   CVodeSetEpsLin), here after 0.84 iterations per Newton iteration on average (near-identity
//   Newton matrices), and the inexact corrections fail the error test twice as often; with
//   epsLin = 0.005 it took 72 863 steps in 1.14 s, but 1.05-1.2x the time of the default on
//   Models A and B, so CVODE's default stays. Why not a preconditioner (CVodeSetPreconditioner)
//   or a sparse Jacobian with KLU: with 0.84 Krylov iterations per Newton iteration there is
//   nothing for a preconditioner to remove (each iteration would add a preconditioner solve to
//   its evaluation of f), and the ODE form's J is dense (below), so KLU would factor a full
//   matrix; the fixed point removes the linear algebra altogether, and its cost is O(N) per
//   iteration on any cable. Newton stays for stiff problems (a mode with gamma omega > 1, which
//   the fixed point cannot converge on: CVODE then cuts h until it does), and stays the default:
//   on the other bundled cases the fixed point moved three gate metrics of their 1e-8 runs past
//   the recorded envelopes (B_reel_fixed_length's momentum 7.2e-10 against 7.1e-10, B_reel_retrieval's
//   ||I - R^T R|| 9.8e-12 against 8.8e-12, the planar pendulum's fitted energy drift rate 1.9e-7
//   against 6.3e-8 J/s, while its max |dE| fell from 7.9e-7 to 3.7e-7), and their cvode runs take
//   seconds, not minutes: the case files choose (cases/C_single_multirotor*.toml,
//   [integrators.cvode] newton = 0).
//   Newton (newton = 1): modified Newton (2.6) with M = I - gamma J (2.7). The ODE forms expose
//   f only, so J comes from difference quotients: dense, column j = [f(y + s_j e_j) - f(y)]/s_j,
//   s_j = max(sqrt(U)|y_j|, s_0/W_j) (n evaluations of f per Jacobian, reused over up to 50
//   steps) and a dense LU (gmres = 0), or matrix-free (gmres = 1, the default): SPGMR on M
//   with J v = [f(y + s v) - f(y)]/s (2.9), one evaluation per Krylov iteration,
//   unpreconditioned. Measured over the first second of every bundled case at rtol 1e-8
//   (`tetherbench run CASE --integrator cvode --t-end 1 --set cvode.gmres=0|1`): the step
//   counts agree within 10%, GMRES takes 1.4-1.5x the Newton iterations and is faster
//   on every string and cable case (2-6x; Model A 1.9 s against 6.7 s: the 132-square LU after
//   each Jacobian dominates the dense solve), slower only on the 4-12-state test models.
//   Why not band: in the forms' [positions, velocities, ...] ordering, dr/dt = v puts
//   identity blocks 3N columns off the diagonal, so the half-bandwidth is at least the
//   number of position unknowns; and with the consistent string mass, or the cable's
//   tension solve, v' = M^{-1} f(r) couples every node to every other (the inverse of a
//   block-tridiagonal matrix is full), so J is dense anyway. A band DQ Jacobian would cost
//   as many evaluations as the dense one. The matrix-free solve is the O(N)-per-product
//   alternative for long strings (each J v is one O(N) evaluation of f).
//   Adams (adams = 1): fixed-point iteration on G(y^n) = gamma f(t_n, y^n) + a_n = y^n (2.5),
//   no Jacobian. It converges while gamma ||J|| < 1, which is the same h ||J|| = O(1) limit
//   that the bounded stability region of Adams-Moulton imposes anyway (Hairer & Wanner,
//   "Solving ODEs II", §V.1, the stability domains of the Adams methods): Newton would add n evaluations of f per Jacobian and
//   an LU without admitting larger steps, which is why CVODE's guide pairs Adams with
//   fixed-point iteration for non-stiff problems. Where stiff modes (a taut string's axial
//   waves, a cable's zigzag modes) cap h for Adams, that is what the tables show.
// - Error control: the local truncation error, estimated from the predictor-corrector
//   difference, must satisfy ||LTE||_WRMS <= 1 with weights W_i = 1/(rtol |y_i| + atol) (2.8).
// - Order: variable, 1..max_order (CVodeSetMaxOrd). The declared order 5 is BDF's maximum
//   (the suite's order studies measure the slope of error against tolerance, not a fixed-h
//   order, for adaptive methods).
// - Dense output: CVodeGetDky evaluates the Nordsieck polynomial (degree q) within the last
//   step. One step() is one CVode call in CV_ONE_STEP mode with the stop time t_stop, so the
//   step sequence does not depend on the observation grid and CVODE never passes t_stop.
//
// Projection (project = 1, BDF only: CVodeSetProjFn refuses Adams in SUNDIALS 6-7). After the
// corrector converges, CVODE replaces the step's result y~ by its projection y = P(y~) onto the
// invariant manifold before the error test, and feeds the correction y - y~ into the Nordsieck
// history (guide §"IVPs with constraints", (2.10)-(2.11); Eich, SIAM J. Numer. Anal. 30(5),
// 1993; Shampine, Comput. Math. Appl. 38, 1999). P is the form's OdeFormulation::project(), a
// closed-form closest point (SO(3): polar factor; S^2: normalisation and removal of the rate's
// normal part; numerics/manifold_projection.hpp), so epsProj (the tolerance of an iterative
// projection) is not used. The correction is the size of one step's drift, O(h^{q+1}), so the
// order is kept (Hairer, Lubich & Wanner, "Geometric Numerical Integration", 2nd ed., §IV.4
// "Projection Methods").
// The error estimate is NOT projected (CVodeSetProjErrEst off; CVODE's default is on, with
// err <- P'(y) err, the tangent part of the corrector's correction). Measured with
// P'(y) err evaluated as the secant P(y + err) - P(y): on a frame spinning at 2.3 rad/s
// (tests/test_cvode.cpp, BDF with the dense Jacobian, rtol 1e-6, 20 s) the projected
// estimate took 9279 steps and ended 4.2e-4 from the exact R, the unprojected one 561 steps
// and 8.1e-6 (no projection: 501 steps, 4.9e-5). At low order the corrector's error on a rotation is mostly normal to
// SO(3) (backward Euler shrinks R by 1/sqrt(1 + h^2 w^2)), so its tangent part is ~300x
// smaller than the whole; the error test then passes on an estimate that no longer matches
// the Nordsieck differences CVODE uses to choose the order, and the step sequence stalls at
// low order. On Models A and C the two choices differ by < 2% in steps. Samples between
// steps are the projected interpolant P(p(t)), so every observed state lies on the manifold.
// A form without invariants (OdeFormulation::project returns false) runs unprojected.
//
// Failures: f non-finite is a recoverable error (CVODE retries with a smaller step); an
// exception from the model is unrecoverable. A failed CVode call leaves time() and state() as
// they were, reports CVODE's flag name, message and time, and the stepper refuses further
// steps; so does a step that does not advance t (h below round-off: CVODE only warns and
// would go on forever); a non-finite accepted state is a divergence (unstable at this tolerance).

#include "integrators/cvode/cvode.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "core/format.hpp"
#include "integrators/sundials_handles.hpp"
#include "integrators/sundials_stepper.hpp"

namespace tb {
namespace {

using sundials::view;
using CvodeMemory = sundials::Memory<CVodeFree>;

constexpr sundials::SolverApi kCvode{"CVODE", "CVodeGetDky", CVodeGetReturnFlagName, CV_SUCCESS, CV_TSTOP_RETURN,
                                     CV_WARNING, CV_ROOT_RETURN};

// The CVODE calls; the step, dense output and failures are the shell's (integrators/sundials_stepper.hpp).
class CvodeStepper final : public sundials::Stepper {
 public:
  CvodeStepper(const OdeFormulation& ode, const IntegratorSettings& s, double t0)
      : Stepper(kCvode, t0, ode.initial_state(), s.h), ode_(ode), n_(ode.state_size()) {
    start([&] { return set_up(s, t0); });
  }

  ~CvodeStepper() override {
    if (sundials::profiling() && mem_) print_statistics();
  }

  bool projecting() const { return projecting_; }

 private:
  // Returns "" on success, else why the stepper cannot run.
  std::string set_up(const IntegratorSettings& s, double t0) {
    if (int(y_.size()) != n_) return "initial_state() has the wrong size";
    y_work_.resize(n_);
    f_work_.resize(n_);
    const bool adams = s.get_int("adams") == 1;
    const bool newton = !adams && s.get_int("newton") == 1;  // BDF's corrector (file comment)
    const bool matrix_free = s.get_int("gmres") == 1;
    const int max_order = std::min(s.get_int("max_order"), adams ? 12 : 5);
    if (s.get_int("project") == 1) {
      // Does the form have anything to project? (project() on a copy of the start.)
      Eigen::VectorXd probe = y_;
      projecting_ = ode_.project(probe);
      if (projecting_ && adams)
        return "project = 1 needs the BDF method (adams = 0): CVODE supports projection (CVodeSetProjFn) only "
               "with BDF";
    }

    if (std::string why = create_context(); !why.empty()) return why;
    y_out_.reset(N_VNew_Serial(n_, ctx_.get()));
    dky_.reset(N_VNew_Serial(n_, ctx_.get()));
    if (!y_out_ || !dky_) return "N_VNew_Serial failed";
    view(y_out_.get()) = y_;

    if (!newton) {
      NLS_.reset(SUNNonlinSol_FixedPoint(y_out_.get(), 0, ctx_.get()));
      if (!NLS_) return "SUNNonlinSol_FixedPoint failed";
    } else if (matrix_free) {
      LS_.reset(SUNLinSol_SPGMR(y_out_.get(), SUN_PREC_NONE, 0, ctx_.get()));  // 0: default Krylov dimension (5)
      if (!LS_) return "SUNLinSol_SPGMR failed";
    } else {
      A_.reset(SUNDenseMatrix(n_, n_, ctx_.get()));
      if (A_) LS_.reset(SUNLinSol_Dense(y_out_.get(), A_.get(), ctx_.get()));
      if (!A_ || !LS_) return "creating the dense linear solver failed";
    }

    mem_.reset(CVodeCreate(adams ? CV_ADAMS : CV_BDF, ctx_.get()));
    if (!mem_) return "CVodeCreate failed";
    void* mem = mem_.get();
    // The handler first, so that every later message is captured instead of printed.
#if SUNDIALS_VERSION_MAJOR >= 7
    std::string why;  // the context's handler, pushed above
#else
    std::string why = check(CVodeSetErrHandlerFn(mem, error_handler, handler_data()), "CVodeSetErrHandlerFn");
#endif
    if (why.empty()) why = check(CVodeInit(mem, rhs, t0, y_out_.get()), "CVodeInit");
    if (why.empty()) why = check(CVodeSetUserData(mem, this), "CVodeSetUserData");
    if (why.empty()) why = check(CVodeSStolerances(mem, s.tolerances().rtol, s.tolerances().atol), "CVodeSStolerances");
    if (why.empty() && s.h > 0.0) why = check(CVodeSetInitStep(mem, s.h), "CVodeSetInitStep");
    if (why.empty()) why = check(CVodeSetMaxOrd(mem, max_order), "CVodeSetMaxOrd");
    if (why.empty() && !newton) why = check(CVodeSetNonlinearSolver(mem, NLS_.get()), "CVodeSetNonlinearSolver");
    if (why.empty() && newton) why = check(CVodeSetLinearSolver(mem, LS_.get(), A_.get()), "CVodeSetLinearSolver");
    if (why.empty() && projecting_) why = check(CVodeSetProjFn(mem, projection), "CVodeSetProjFn");
    if (why.empty() && projecting_) why = check(CVodeSetProjErrEst(mem, SUNFALSE), "CVodeSetProjErrEst");
    // Event location (issue 47): CVODE's root finding on the model's switching functions (Illinois
    // on its interpolant, to within 100 ulps of t; Hindmarsh et al., CVODE user guide, "Rootfinding").
    locating_ = locates_events(s, ode_);
    if (why.empty() && locating_) why = check(CVodeRootInit(mem, ode_.switching_count(), switching), "CVodeRootInit");
    return why;
  }

  // The step ended at a root: CVODE restarts there at order 1 with a fresh history (its
  // CVodeReInit keeps the tolerances, solvers and root functions).
  std::string restart_at_event() override {
    view(y_out_.get()) = y_;
    return check(CVodeReInit(mem_.get(), t_, y_out_.get()), "CVodeReInit");
  }

  bool locating() const override { return locating_; }
  void jump_at_event(double t, Eigen::VectorXd& y) const override { ode_.apply_jump(t, y); }
  void switching_at(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s) const override { ode_.switching_values(t, y, s); }

  // CVRootFn: the switching functions at (t, y).
  static int switching(double t, N_Vector y, double* gout, void* user) {
    auto& self = *static_cast<CvodeStepper*>(user);
    try {
      self.y_work_ = view(y);
      self.ode_.switching_values(t, self.y_work_, self.s_work_);
      for (int i = 0; i < int(self.s_work_.size()); ++i) gout[i] = self.s_work_[i];
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the switching functions threw: ") + e.what();
      return -1;
    }
  }

  int solve_one_step(double t_stop, double& t_reached, const char*& call) override {
    call = "CVodeSetStopTime";
    int flag = CVodeSetStopTime(mem_.get(), t_stop);
    if (flag == CV_SUCCESS) {
      call = "CVode";
      flag = CVode(mem_.get(), t_stop, y_out_.get(), &t_reached, CV_ONE_STEP);
    }
    return flag;
  }
  N_Vector solution() const override { return y_out_.get(); }
  int interpolate(double t, N_Vector into) const override { return CVodeGetDky(mem_.get(), t, 0, into); }

  // A failed call names where CVODE was when it failed; a divergence, where the step ended.
  std::string failure_time(bool solver_call_failed, double t_reached) const override {
    double t = t_reached;
    if (solver_call_failed) {
      t = t_;
      CVodeGetCurrentTime(mem_.get(), &t);
    }
    return " at t = " + format_e(t);
  }

  // CVODE's returned y at t_stop is its interpolant there (within round-off of the step's
  // projected end), and a dense sample is the interpolant: keep both on the manifold.
  void accepted(bool at_stop, Eigen::VectorXd& y) override {
    if (projecting_ && at_stop) ode_.project(y);
  }
  void interpolated(Eigen::VectorXd& y) const override {
    if (projecting_) ode_.project(y);
  }

  void read_counters() override {
    void* mem = mem_.get();
    long v = 0;
    if (CVodeGetNumSteps(mem, &v) == CV_SUCCESS) counters_.steps = v;
    // Every evaluation of f: the method's, and the difference quotients' (Jacobian columns, J v).
    long rhs = 0, lin_rhs = 0;
    CVodeGetNumRhsEvals(mem, &rhs);
    if (LS_) CVodeGetNumLinRhsEvals(mem, &lin_rhs);
    counters_.rhs_evals = rhs + lin_rhs;
    if (CVodeGetNumNonlinSolvIters(mem, &v) == CV_SUCCESS) counters_.newton_iters = v;
    if (CVodeGetNumErrTestFails(mem, &v) == CV_SUCCESS) counters_.error_test_failures = v;
    if (sundials::profiling()) {
      int q = 0;
      if (CVodeGetLastOrder(mem, &q) == CV_SUCCESS) orders_.count(counters_.steps, q);
    }
  }

  // The profile (sundials::profiling): CVODE's counters (CVODE guide, "Optional output functions":
  // main solver, nonlinear solver and linear solver interface), one line.
  void print_statistics() const {
    void* mem = mem_.get();
    auto get = [&](int (*f)(void*, long*)) {
      long v = -1;
      return f(mem, &v) == CV_SUCCESS ? v : -1;
    };
    std::string line = "cvode profile: steps " + std::to_string(get(CVodeGetNumSteps)) + ", rhs " +
                       std::to_string(get(CVodeGetNumRhsEvals)) + ", nonlinear iters " +
                       std::to_string(get(CVodeGetNumNonlinSolvIters)) + ", nonlinear conv fails " +
                       std::to_string(get(CVodeGetNumNonlinSolvConvFails)) + " (steps failed by them " +
                       std::to_string(get(CVodeGetNumStepSolveFails)) + "), error-test fails " +
                       std::to_string(get(CVodeGetNumErrTestFails)) + ", stab-lim order reductions " +
                       std::to_string(get(CVodeGetNumStabLimOrderReds));
    if (LS_)
      line += ", lin setups " + std::to_string(get(CVodeGetNumLinSolvSetups)) + ", jac evals " +
              std::to_string(get(CVodeGetNumJacEvals)) + ", lin rhs (DQ) " + std::to_string(get(CVodeGetNumLinRhsEvals)) +
              ", lin iters " + std::to_string(get(CVodeGetNumLinIters)) + ", lin conv fails " +
              std::to_string(get(CVodeGetNumLinConvFails)) + ", jtimes " + std::to_string(get(CVodeGetNumJtimesEvals)) +
              ", prec evals " + std::to_string(get(CVodeGetNumPrecEvals)) + ", prec solves " +
              std::to_string(get(CVodeGetNumPrecSolves));
    sundials::print_profile(line + "; orders " + orders_.describe());
  }

  // CVRhsFn: 0 ok, > 0 recoverable (CVODE retries with a smaller step), < 0 fatal. No C++
  // exception may cross into CVODE's C frames.
  static int rhs(double t, N_Vector y, N_Vector ydot, void* user) {
    auto& self = *static_cast<CvodeStepper*>(user);
    try {
      self.y_work_ = view(y);
      self.ode_.rhs(t, self.y_work_, self.f_work_);
      if (int(self.f_work_.size()) != self.n_) {
        self.callback_note_ = "the right-hand side has the wrong size";
        return -1;
      }
      if (!self.f_work_.allFinite()) {
        self.callback_note_ = "the right-hand side was not finite (NaN/Inf) at t = " + format_e(t);
        return 1;
      }
      view(ydot) = self.f_work_;
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the right-hand side threw: ") + e.what();
      return -1;
    }
  }

  // CVProjFn: corr = P(ycur) - ycur. err is NULL: the error estimate is not projected (see
  // the file comment).
  static int projection(double t, N_Vector ycur, N_Vector corr, double /*epsProj*/, N_Vector /*err*/, void* user) {
    auto& self = *static_cast<CvodeStepper*>(user);
    try {
      self.y_work_ = view(ycur);
      self.ode_.project(self.y_work_);
      if (!self.y_work_.allFinite()) {
        self.callback_note_ = "the projection was not finite (NaN/Inf) at t = " + format_e(t);
        return 1;
      }
      view(corr) = self.y_work_ - view(ycur);
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the projection threw: ") + e.what();
      return -1;
    }
  }

  const OdeFormulation& ode_;
  const int n_;
  bool projecting_ = false;
  bool locating_ = false;  // locate_events on a form with switching functions
  sundials::OrderHistogram orders_;  // while profiling
  Eigen::VectorXd y_work_, f_work_, s_work_;  // callback workspaces (the model takes VectorXd)
  // Creation order = declaration order, after the shell's context and dense-output vector;
  // destruction runs backwards (integrators/sundials_handles.hpp).
  sundials::Vector y_out_;
  sundials::Matrix A_;
  sundials::LinearSolver LS_;
  sundials::NonlinearSolver NLS_;
  CvodeMemory mem_;
};

}  // namespace

IntegratorInfo cvode_info() {
  SettingSpec max_order = positive_integer_setting(
      "max_order",
      "largest order CVODE may choose (CVodeSetMaxOrd): BDF uses at most 5, Adams at most 12, so the default 12 "
      "means each method's maximum; BDF 1-2 are A-stable and damp undamped oscillations, 3 and 4 amplify those "
      "with h·ω below 1.9 and 4.7, 5 damps them while h·ω < 0.71 (as ida's max_order)",
      12);
  max_order.upper = 12;
  IntegratorInfo info{"cvode", 5, true, MethodTraits{.implicit = true, .dissipative = true},
          "SUNDIALS CVODE: variable-order BDF (1-5, Newton with a difference-quotient Jacobian, or a fixed-point "
          "corrector) or Adams (1-12, fixed point) on the ODE form, rtol/atol, optional projection onto SO(3) and S^2",
          {switch_setting("adams", "0: BDF (its corrector: `newton`); 1: Adams-Moulton with fixed-point iterations "
                                   "(no Jacobian; non-stiff problems)",
                          0),
           max_order,
           switch_setting("newton",
                          "BDF's corrector: 1 Newton's method on (I − γJ)x = r (linear solver: `gmres`); 0 fixed-point "
                          "iteration y ← γf(y) + a (no Jacobian, no linear solve; it contracts while the spectral radius of γJ, "
                          "about γ·ω_max, is below 1, where CVODE's step already follows the fastest mode; measured 1.5-3x "
                          "faster on the single-cable Model C cases, which choose it). Adams always iterates to a fixed point",
                          1),
           switch_setting("gmres",
                          "BDF's Newton systems (I − γJ)x = r (newton = 1): 1 matrix-free GMRES, J·v by one evaluation of f "
                          "(O(N) per product); 0 dense difference-quotient J (n evaluations of f) and LU (O(n³))",
                          1),
           switch_setting("project",
                          "1: project each step onto the form's invariants (R onto SO(3) by its polar factor, "
                          "|q_i| = 1 and q_i·ω_i = 0; CVodeSetProjFn), also the samples; BDF only (with adams = 1 it is "
                          "refused as input, exit status 2); no effect on forms without invariants",
                          0),
           locate_events_setting()},
          consuming([](const OdeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<CvodeStepper>(form, s, t0);
          })};
  const auto tolerances = error_tolerance_settings(
      "relative tolerance of CVODE's error control ‖LTE_i/(rtol·|y_i| + atol)‖_WRMS ≤ 1", 1e-8,
      "absolute tolerance of the same error control", 1e-10);
  info.settings.insert(info.settings.begin(), tolerances.begin(), tolerances.end());
  info.idle_setting = idle_locate_events;
  info.impacts_by = "event-driven: each switch located by CVODE's root finding (and on its interpolant inside a step), the form's impact law or change of mode applied "
                    "there, and the method restarted";
  // CVodeSetProjFn projects BDF steps only: refused with the input, before anything runs.
  info.conflict = [](const IntegratorSettings& s) -> IntegratorInfo::SettingConflict {
    if (s.get_int("adams") == 1 && s.get_int("project") == 1)
      return {"project", "0 when adams = 1 (CVODE projects BDF steps only)"};
    return {};
  };
  return info;
}

}  // namespace tb
