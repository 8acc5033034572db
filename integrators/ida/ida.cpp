// SUNDIALS IDA (variable-order BDF, orders 1..5) on a DaeFormulation F(t, y, y') = 0.
//
// - One step() is one IDASolve call in IDA_ONE_STEP mode with the stop time set to t_stop,
//   so IDA never steps past it; samples in between come from IDA's own interpolating
//   polynomial (IDAGetDky), valid within the last step.
// - Error control per differential component: err_i <= atol + rtol |y_i|. The multipliers
//   (algebraic, IDASetId) are left out of the error test (IDASetSuppressAlg), although IDA's
//   guide advises keeping them for index 1: with Baumgarte stabilisation a multiplier carries
//   2p C' + p^2 C (planar pendulum: lambda |r|^2 = m (g z + |v|^2 + 2p C' + p^2 C)), so its
//   error estimate is the constraints' local error amplified by p^2, and testing it forces
//   C below rtol lambda / p^2. Measured on T_planar_pendulum_60deg (rtol 1e-8, 10 s): with
//   the multiplier tested, p = 30 took 77654 steps (69260 error-test failures), p = 1000
//   15.8 million; left out, 1945 and 16826. The multipliers are still solved by Newton at
//   every step and are functions of the differential state (index 1), which is what the
//   metrics measure.
// - Newton's matrix dF/dy + cj dF/dy' comes from the model's analytic Jacobian (triplets).
//   By default (sparse = 1) it is stored in compressed columns and factored by KLU
//   (SUNLinSol_KLU; IDA guide, "The SUNLinSol_KLU module"): the pattern is analysed once with a
//   fill-reducing ordering and each later setup refactors in it, so a solve costs O(nnz(L+U)).
//   SUNDIALS' band LU (sparse = 0, band when ida_uses_band_solver, else dense) costs
//   O(n (ml + mu)) per solve and did most of IDA's work on the strings and cables: on
//   C_cooperative_multirotors (147 unknowns, half-bandwidths 24/21) its triangular solve was 67 %
//   of the run, and KLU takes the whole run from 5.5 s to 2.0 s over 50 s (A: 7.2 -> 3.6 s,
//   B deployment 5.6 -> 1.6 s, C single 7.2 -> 3.8 s; the 5-12 unknown textbook DAEs equal),
//   with the same steps to 2 % (cases/README.md, "IDA on Model C").
// - Where the time goes (issue 43; TETHERBENCH_SUNDIALS_PROFILE, perf): C_cooperative_multirotors
//   over 1000 s takes 6.24 M steps, 2.24 residuals and KLU solves per step, a Jacobian (and KLU
//   refactorization) every 11 steps, 115 s of CPU: 18 us per step, of which about 2/3 is IDA's
//   own O(n) vector work on its 147 unknowns (WRMS norms 19 % of the run, linear sums and
//   scalings of its history arrays 36 %), 19 % KLU's triangular solves, 5 % the model's residual
//   and 6 % the Jacobians (model, assembly, klu_refactor; 4 % with fill_sparse's scatter below).
//   KLU refactors in the pivot order of its first
//   factorization at every setup but the first: SUNLinSol_KLU's rcond test called klu_condest
//   2 080 times in 558 124 setups and never found the matrix ill-conditioned enough to factor
//   afresh. 78 % of the Jacobians follow a Newton iteration that failed with a stale matrix
//   (436 k, 7 % of the steps, most after the cables go slack at ~130 s), which SUNNonlinSol_Newton
//   retries with a fresh one at the same step (over the first 250 s none failed a step:
//   IDAGetNumStepSolveFails = 0): about 8 % of the run, the price of IDA's policy of refreshing
//   the matrix only when cj changes or Newton fails (IDA guide, "Mathematical considerations"). The step count is the error test's on the cables (cases/README.md,
//   "IDA on Model C"); the Jacobian's assembly was the one overhead of ours (fill_sparse).
// - Order: variable order 1..max_order (IDASetMaxOrd; IDA guide, "Optional input functions",
//   IDASetMaxOrd; default 5, IDA's own). On an undamped oscillation y' = i w y, BDF3 amplifies
//   for h w < 1.94 and BDF4 for h w < 4.71 (|root| - 1 = +2.5e-5 and +3.3e-7 per step at
//   h w = 0.1), BDF5 damps for h w < 0.71 and amplifies on (0.71, 9.39), BDF1-2 always damp
//   (A-stable). Lowering the cap is still not the cure on Model C, whose oscillations are
//   resolved, not stepped over: on C_cooperative_multirotors (50 s) max_order 4, 3, 2 take
//   1.3x, 2.2x, 4.7x the steps of 5, with 2x-12x the energy error (cases/README.md, "IDA on
//   Model C").
// - Initial values: the model's consistent y0, y'0 are checked, not repaired. IDACalcIC
//   (IDA_YA_YDP_INIT) would recompute the multipliers and y'_d by its own Newton iteration,
//   to its own tolerance, and silently overwrite what the model computed in closed form: a
//   model bug in either would be hidden (and then damped away by the Baumgarte terms). A
//   start with ||F(t0, y0, y'0)|| above kIdaConsistencyTolerance fails the first step instead.
// - Failures: a residual that is not finite is a recoverable error (IDA retries with a
//   smaller step); an exception from the model is unrecoverable. A failed IDASolve leaves
//   time() and state() as they were, reports IDA's flag name and message, and the stepper
//   refuses further steps.

#include "integrators/ida/ida.hpp"

#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"
#include "integrators/sundials_handles.hpp"
#include "integrators/sundials_stepper.hpp"

namespace tb {

bool ida_uses_band_solver(int size, int lower_bandwidth, int upper_bandwidth) {
  return 2 * (lower_bandwidth + upper_bandwidth + 1) < size;
}

namespace {

using sundials::view;
using IdaMemory = sundials::Memory<IDAFree>;

constexpr sundials::SolverApi kIda{"IDA", "IDAGetDky", IDAGetReturnFlagName, IDA_SUCCESS, IDA_TSTOP_RETURN, IDA_WARNING,
                                   IDA_ROOT_RETURN};

// The IDA calls; the step, dense output and failures are the shell's (integrators/sundials_stepper.hpp).
class IdaStepper final : public sundials::Stepper {
 public:
  IdaStepper(const DaeFormulation& dae, const IntegratorSettings& s, double t0)
      : Stepper(kIda, t0, dae.consistent_initial_state(baumgarte(s)), s.h), dae_(dae), b_(baumgarte(s)), n_(dae.state_size()) {
    start([&] { return set_up(s, t0); });
  }
  ~IdaStepper() override {
    if (sundials::profiling() && mem_) print_statistics();
  }

 private:
  // Returns "" on success, else why the stepper cannot run.
  std::string set_up(const IntegratorSettings& s, double t0) {
    if (int(y_.size()) != n_) return "consistent_initial_state() has the wrong size";
    const Eigen::VectorXd yp0 = dae_.consistent_initial_derivative(b_);
    const Eigen::VectorXd id = dae_.differential_components();
    if (int(yp0.size()) != n_ || int(id.size()) != n_) return "consistent_initial_derivative() or differential_components() has the wrong size";
    y_work_.resize(n_);
    yp_work_.resize(n_);
    F_work_.resize(n_);

    // Consistency of the start (see the file comment).
    dae_.residual(t0, y_, yp0, b_, F_work_);
    const double scale = 1.0 + y_.lpNorm<Eigen::Infinity>() + yp0.lpNorm<Eigen::Infinity>();
    Eigen::Index worst = 0;
    const double F0 = F_work_.cwiseAbs().maxCoeff(&worst);
    if (!(F0 <= kIdaConsistencyTolerance * scale))
      return "inconsistent initial values: ||F(t0, y0, y'0)||_inf = " + format_e(F0) + " (component " +
             std::to_string(worst) + ") exceeds " + format_e(kIdaConsistencyTolerance * scale) +
             "; the model's consistent_initial_state/derivative disagree with its residual";

    if (std::string why = create_context(); !why.empty()) return why;
    yy_.reset(N_VNew_Serial(n_, ctx_.get()));
    yp_.reset(N_VNew_Serial(n_, ctx_.get()));
    id_.reset(N_VNew_Serial(n_, ctx_.get()));
    dky_.reset(N_VNew_Serial(n_, ctx_.get()));
    if (!yy_ || !yp_ || !id_ || !dky_) return "N_VNew_Serial failed";
    view(yy_.get()) = y_;
    view(yp_.get()) = yp0;
    view(id_.get()) = id;

    lower_ = std::clamp(dae_.lower_bandwidth(), 0, n_ - 1);
    upper_ = std::clamp(dae_.upper_bandwidth(), 0, n_ - 1);
    sparse_ = s.get_int("sparse") == 1;
    band_ = !sparse_ && ida_uses_band_solver(n_, lower_, upper_);
    if (sparse_) {
      // KLU needs the sparsity pattern before its first factorisation: take it from the model's
      // Jacobian at the start (jacobian() widens it if a later Jacobian has other entries).
      entries_.clear();
      dae_.jacobian(t0, y_, yp0, 1.0, b_, entries_);
      // Only positions matter here: an entry out of range refuses the set-up; a non-finite
      // value is left to the first Jacobian IDA asks for, which reports it as it does without KLU.
      if (check_entries(t0) < 0) return "the Jacobian at t0: " + callback_note_;
      callback_note_.clear();
      pattern_.resize(n_, n_);
      pattern_.setFromTriplets(entries_.begin(), entries_.end());
      A_.reset(SUNSparseMatrix(n_, n_, std::max<sunindextype>(pattern_.nonZeros(), 1), CSC_MAT, ctx_.get()));
      if (A_) LS_.reset(SUNLinSol_KLU(yy_.get(), A_.get(), ctx_.get()));
    } else if (band_) {
      A_.reset(SUNBandMatrix(n_, upper_, lower_, ctx_.get()));
      if (A_) LS_.reset(SUNLinSol_Band(yy_.get(), A_.get(), ctx_.get()));
    } else {
      A_.reset(SUNDenseMatrix(n_, n_, ctx_.get()));
      if (A_) LS_.reset(SUNLinSol_Dense(yy_.get(), A_.get(), ctx_.get()));
    }
    if (!A_ || !LS_) return "creating the linear solver failed";

    mem_.reset(IDACreate(ctx_.get()));
    if (!mem_) return "IDACreate failed";
    void* mem = mem_.get();
    // The handler first, so that every later message is captured instead of printed.
#if SUNDIALS_VERSION_MAJOR >= 7
    std::string why;  // the context's handler, pushed above
#else
    std::string why = check(IDASetErrHandlerFn(mem, error_handler, handler_data()), "IDASetErrHandlerFn");
#endif
    if (why.empty()) why = check(IDAInit(mem, residual, t0, yy_.get(), yp_.get()), "IDAInit");
    if (why.empty()) why = check(IDASetUserData(mem, this), "IDASetUserData");
    if (why.empty()) why = check(IDASStolerances(mem, s.tolerances().rtol, s.tolerances().atol), "IDASStolerances");
    if (why.empty()) why = check(IDASetId(mem, id_.get()), "IDASetId");
    if (why.empty() && s.h > 0.0) why = check(IDASetInitStep(mem, s.h), "IDASetInitStep");
    if (why.empty()) why = check(IDASetLinearSolver(mem, LS_.get(), A_.get()), "IDASetLinearSolver");
    if (why.empty()) why = check(IDASetJacFn(mem, jacobian), "IDASetJacFn");
    if (why.empty()) why = check(IDASetSuppressAlg(mem, SUNTRUE), "IDASetSuppressAlg");
    if (why.empty()) why = check(IDASetMaxOrd(mem, s.get_int("max_order")), "IDASetMaxOrd");
    // Event location (issue 47): IDA's root finding on the model's switching functions.
    locating_ = locates_events(s, dae_);
    if (why.empty() && locating_)
      why = check(IDARootInit(mem, dae_.switching_count(), switching), "IDARootInit");
    return why;
  }

  // The step ended at a root: IDA restarts there at order 1 (IDAReInit keeps the tolerances,
  // solvers and root functions) from y and y' of its interpolant at the root. The residual is
  // continuous across the kink (the force is C^0), so that y' satisfies F(t, y, y') = 0 to the
  // interpolant's accuracy, the error IDA's own step left there.
  // After a hybrid form's jump there (issue 48: an impact, a change of mode), y' and the multipliers of
  // the interpolant belong to the old mode: the form re-solves them for the new one (its index-1 system
  // at the jumped state) and IDA restarts from those consistent values.
  std::string restart_at_event() override {
    std::string why;
    if (jumped_) {
      jumped_ = false;
      Eigen::VectorXd yp;
      if (!dae_.consistent_after_jump(t_, y_, yp, b_))
        return "the form jumped at the event but re-solves no consistent values after a jump";
      view(yy_.get()) = y_;
      view(yp_.get()) = yp;
    } else {
      view(yy_.get()) = y_;
      why = check(IDAGetDky(mem_.get(), t_, 1, yp_.get()), "IDAGetDky");
    }
    if (why.empty()) why = check(IDAReInit(mem_.get(), t_, yy_.get(), yp_.get()), "IDAReInit");
    return why;
  }

  // The form's jump at a located event (Formulation::apply_jump), remembered for the restart.
  void jump_at_event(double t, Eigen::VectorXd& y) const override { jumped_ = dae_.apply_jump(t, y) || jumped_; }

  bool locating() const override { return locating_; }
  void switching_at(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s) const override { dae_.switching_values(t, y, s); }

  // IDARootFn: the switching functions at (t, y).
  static int switching(double t, N_Vector yy, N_Vector, double* gout, void* user) {
    auto& self = *static_cast<IdaStepper*>(user);
    try {
      self.y_work_ = view(yy);
      self.dae_.switching_values(t, self.y_work_, self.s_work_);
      for (int i = 0; i < int(self.s_work_.size()); ++i) gout[i] = self.s_work_[i];
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the switching functions threw: ") + e.what();
      return -1;
    }
  }

  int solve_one_step(double t_stop, double& t_reached, const char*& call) override {
    call = "IDASetStopTime";
    int flag = IDASetStopTime(mem_.get(), t_stop);
    if (flag == IDA_SUCCESS) {
      call = "IDASolve";
      flag = IDASolve(mem_.get(), t_stop, &t_reached, yy_.get(), yp_.get(), IDA_ONE_STEP);
    }
    return flag;
  }
  N_Vector solution() const override { return yy_.get(); }
  int interpolate(double t, N_Vector into) const override { return IDAGetDky(mem_.get(), t, 0, into); }

  void read_counters() override {
    void* mem = mem_.get();
    long v = 0;
    if (IDAGetNumSteps(mem, &v) == IDA_SUCCESS) counters_.steps = v;
    if (IDAGetNumResEvals(mem, &v) == IDA_SUCCESS) counters_.rhs_evals = v;
    if (IDAGetNumNonlinSolvIters(mem, &v) == IDA_SUCCESS) counters_.newton_iters = v;
    if (IDAGetNumErrTestFails(mem, &v) == IDA_SUCCESS) counters_.error_test_failures = v;
    if (sundials::profiling()) {
      int q = 0;
      if (IDAGetLastOrder(mem, &q) == IDA_SUCCESS) orders_.count(counters_.steps, q);
    }
  }

  // The profile (sundials::profiling): IDA's counters (IDA guide, "Optional output functions":
  // main solver, nonlinear solver and linear solver interface) and, with KLU, how many setups
  // factored afresh (klu_factor: the first, after a widened pattern, and when SUNLinSol_KLU's
  // rcond/condest check finds the refactored matrix ill-conditioned) rather than refactored
  // (klu_refactor in the first factorisation's pivot order).
  void print_statistics() {
    void* mem = mem_.get();
    auto get = [&](int (*f)(void*, long*)) {
      long v = -1;
      return f(mem, &v) == IDA_SUCCESS ? v : -1;
    };
    if (sparse_) note_klu_setup();
    std::string line = "ida profile: steps " + std::to_string(get(IDAGetNumSteps)) + ", residuals " +
                       std::to_string(get(IDAGetNumResEvals)) + ", nonlinear iters " +
                       std::to_string(get(IDAGetNumNonlinSolvIters)) + ", nonlinear conv fails " +
                       std::to_string(get(IDAGetNumNonlinSolvConvFails)) + " (steps failed by them " +
                       std::to_string(get(IDAGetNumStepSolveFails)) + "), error-test fails " +
                       std::to_string(get(IDAGetNumErrTestFails)) + ", lin setups " +
                       std::to_string(get(IDAGetNumLinSolvSetups)) + ", jac evals " +
                       std::to_string(get(IDAGetNumJacEvals)) + ", lin residuals (DQ) " +
                       std::to_string(get(IDAGetNumLinResEvals));
    if (sparse_)
      line += ", KLU full factorizations " + std::to_string(klu_factors_) + " (condest computed " +
              std::to_string(klu_condests_) + "), refactorizations " + std::to_string(klu_setups_ - klu_factors_);
    sundials::print_profile(line + "; orders " + orders_.describe());
  }

  // What SUNLinSol_KLU's last setup did, read from KLU's common block (its rcond and condest).
  // Called at each Jacobian (IDA evaluates one just before each setup: IDA guide, "Linear solver
  // interface", so the previous setup is complete) and at the end.
  void note_klu_setup() {
    if (!klu_setup_pending_) {
      klu_setup_pending_ = true;
      return;
    }
    const sun_klu_common* common = SUNLinSol_KLUGetCommon(LS_.get());
    const double threshold = std::pow(std::numeric_limits<double>::epsilon(), 2.0 / 3.0);  // SUNLinSol_KLU's
    ++klu_setups_;
    if (klu_setups_ == 1 || klu_reinit_) {  // klu_analyze + klu_factor
      ++klu_factors_;
      klu_reinit_ = false;
    } else if (common->rcond < threshold) {  // klu_refactor, then klu_condest; klu_factor if that is large too
      ++klu_condests_;
      if (common->condest > 1.0 / threshold) ++klu_factors_;
    }
  }

  void load(N_Vector yy, N_Vector yp) {
    y_work_ = view(yy);
    yp_work_ = view(yp);
  }

  // IDAResFn: 0 ok, > 0 recoverable (IDA retries with a smaller step), < 0 fatal. No C++
  // exception may cross into IDA's C frames.
  static int residual(double t, N_Vector yy, N_Vector yp, N_Vector rr, void* user) {
    auto& self = *static_cast<IdaStepper*>(user);
    try {
      self.load(yy, yp);
      self.dae_.residual(t, self.y_work_, self.yp_work_, self.b_, self.F_work_);
      if (int(self.F_work_.size()) != self.n_) {
        self.callback_note_ = "the residual has the wrong size";
        return -1;
      }
      if (!self.F_work_.allFinite()) {
        self.callback_note_ = "the residual was not finite (NaN/Inf) at t = " + format_e(t);
        return 1;
      }
      view(rr) = self.F_work_;
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the residual threw: ") + e.what();
      return -1;
    }
  }

  // IDALsJacFn: J = dF/dy + cj dF/dy' from the model's triplets into the band or dense matrix.
  static int jacobian(double t, double cj, N_Vector yy, N_Vector yp, N_Vector /*rr*/, SUNMatrix J, void* user,
                      N_Vector, N_Vector, N_Vector) {
    auto& self = *static_cast<IdaStepper*>(user);
    try {
      if (self.sparse_ && sundials::profiling()) self.note_klu_setup();
      self.load(yy, yp);
      self.entries_.clear();
      self.dae_.jacobian(t, self.y_work_, self.yp_work_, cj, self.b_, self.entries_);
      if (const int refused = self.check_entries(t); refused != 0) return refused;
      if (self.sparse_) return self.fill_sparse(J);
      SUNMatZero(J);
      for (const auto& e : self.entries_) {
        const int i = e.row(), j = e.col();
        if (self.band_) {
          if (j - i > self.upper_ || i - j > self.lower_) {
            self.callback_note_ = "Jacobian entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                  ") lies outside the declared bandwidths (lower " + std::to_string(self.lower_) +
                                  ", upper " + std::to_string(self.upper_) + ")";
            return -1;
          }
          SM_ELEMENT_B(J, i, j) += e.value();
        } else {
          SM_ELEMENT_D(J, i, j) += e.value();
        }
      }
      return 0;
    } catch (const std::exception& e) {
      self.callback_note_ = std::string("the Jacobian threw: ") + e.what();
      return -1;
    }
  }

  // The model's triplets in entries_, checked before any matrix takes them: IDA's flag for an
  // entry out of range (-1, unrecoverable) or a non-finite value (1, IDA retries with a smaller
  // step), with the reason in callback_note_.
  int check_entries(double t) {
    for (const auto& e : entries_) {
      if (e.row() < 0 || e.col() < 0 || e.row() >= n_ || e.col() >= n_) {
        callback_note_ = "Jacobian entry (" + std::to_string(e.row()) + ", " + std::to_string(e.col()) + ") out of range";
        return -1;
      }
      if (!std::isfinite(e.value())) {
        callback_note_ = "the Jacobian was not finite (NaN/Inf) at t = " + format_e(t);
        return 1;
      }
    }
    return 0;
  }

  // The triplets summed into KLU's compressed-column matrix. A Jacobian with entries outside the
  // pattern KLU analysed (a model whose structure changes along the run) widens the pattern
  // to the union and makes KLU analyse it afresh (SUNLinSol_KLUReInit).
  // The models emit their triplets in the same order at every Jacobian, so each triplet's slot in
  // the compressed columns is found once (locate_slots) and later Jacobians are summed straight
  // into it, in the triplets' order, which is the order in which Eigen's setFromTriplets sums
  // duplicates: the same matrix, bit for bit. Measured (perf, C_cooperative_multirotors over 250
  // s, a Jacobian every 16 steps): sorting the triplets (setFromTriplets), checking the pattern
  // and copying it in took 2.4 % of the run; the scatter takes 0.4 %.
  int fill_sparse(SUNMatrix J) {
    if (!same_positions()) {
      jacobian_.resize(n_, n_);
      jacobian_.setFromTriplets(entries_.begin(), entries_.end());
      if (!same_pattern(jacobian_, pattern_)) {
        std::vector<Eigen::Triplet<double>> both;  // the union; only its positions are used
        for (const auto* m : {&pattern_, &jacobian_})
          for (int j = 0; j < n_; ++j)
            for (Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>::InnerIterator v(*m, j); v; ++v)
              both.emplace_back(int(v.row()), j, 1.0);
        pattern_.setFromTriplets(both.begin(), both.end());
        if (SUNLinSol_KLUReInit(LS_.get(), J, pattern_.nonZeros(), SUNKLU_REINIT_FULL) != 0) {
          callback_note_ = "SUNLinSol_KLUReInit failed for the widened sparsity pattern";
          return -1;
        }
        klu_reinit_ = true;
      }
      locate_slots();
    }
    // The pattern (IDA zeroes the whole matrix, indices included, before each Jacobian: SUNMatZero),
    // then the values in its slots (zero where this Jacobian has no entry).
    std::copy(colptr_.begin(), colptr_.end(), SUNSparseMatrix_IndexPointers(J));
    std::copy(rowind_.begin(), rowind_.end(), SUNSparseMatrix_IndexValues(J));
    double* data = SUNSparseMatrix_Data(J);
    std::fill(data, data + rowind_.size(), 0.0);
    for (std::size_t k = 0; k < entries_.size(); ++k) data[slot_[k]] += entries_[k].value();
    return 0;
  }

  // Whether entries_ has the positions, in order, that slot_ was located for.
  bool same_positions() const {
    if (slot_.size() != entries_.size()) return false;
    for (std::size_t k = 0; k < entries_.size(); ++k)
      if (entries_[k].row() != slot_row_[k] || entries_[k].col() != slot_col_[k]) return false;
    return true;
  }

  // pattern_'s compressed columns, and each triplet's slot in them.
  void locate_slots() {
    colptr_.assign(pattern_.outerIndexPtr(), pattern_.outerIndexPtr() + n_ + 1);
    rowind_.assign(pattern_.innerIndexPtr(), pattern_.innerIndexPtr() + pattern_.nonZeros());
    slot_.resize(entries_.size());
    slot_row_.resize(entries_.size());
    slot_col_.resize(entries_.size());
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      const int i = entries_[k].row(), j = entries_[k].col();
      slot_[k] = std::lower_bound(rowind_.begin() + colptr_[j], rowind_.begin() + colptr_[j + 1], sunindextype(i)) -
                 rowind_.begin();
      slot_row_[k] = i;
      slot_col_[k] = j;
    }
  }

  static bool same_pattern(const Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>& a,
                           const Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>& pattern) {
    // Every entry of a lies in the pattern (a may have fewer entries).
    for (int j = 0; j < a.outerSize(); ++j) {
      Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>::InnerIterator p(pattern, j);
      for (Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype>::InnerIterator v(a, j); v; ++v) {
        while (p && p.row() < v.row()) ++p;
        if (!p || p.row() != v.row()) return false;
      }
    }
    return true;
  }

  static BaumgarteParameters baumgarte(const IntegratorSettings& s) {
    return {s.get("baumgarte_p"), s.get("baumgarte_gamma")};
  }

  const DaeFormulation& dae_;
  bool locating_ = false;  // locate_events on a form with switching functions
  mutable bool jumped_ = false;  // the form jumped at the last located event: consistent values to re-solve
  const BaumgarteParameters b_;
  const int n_;
  int lower_ = 0, upper_ = 0;
  bool band_ = false;
  bool sparse_ = false;  // KLU on a compressed-column matrix (setting `sparse`)
  Eigen::SparseMatrix<double, Eigen::ColMajor, sunindextype> pattern_, jacobian_;  // KLU's pattern; the last Jacobian
  std::vector<sunindextype> colptr_, rowind_, slot_;  // pattern_'s compressed columns; each triplet's slot in them
  std::vector<int> slot_row_, slot_col_;               // the positions slot_ was located for
  Eigen::VectorXd y_work_, yp_work_, F_work_, s_work_;  // callback workspaces (the model takes VectorXd)
  std::vector<Eigen::Triplet<double>> entries_;
  sundials::OrderHistogram orders_;  // while profiling
  long klu_setups_ = 0, klu_factors_ = 0, klu_condests_ = 0;  // while profiling (note_klu_setup)
  bool klu_setup_pending_ = false;  // a Jacobian was evaluated, so a setup followed it
  bool klu_reinit_ = false;  // the pattern was widened: KLU analyses and factors afresh
  // Creation order = declaration order, after the shell's context and dense-output vector;
  // destruction runs backwards (integrators/sundials_handles.hpp).
  sundials::Vector yy_, yp_, id_;
  sundials::Matrix A_;
  sundials::LinearSolver LS_;
  IdaMemory mem_;
};

// IDASetMaxOrd's range: 1..5 (IDA caps larger values at 5; IDA guide, IDASetMaxOrd).
SettingSpec max_order_setting() {
  SettingSpec s = positive_integer_setting(
      "max_order",
      "largest BDF order IDA may choose (IDASetMaxOrd): 1-2 are A-stable and damp undamped oscillations, "
      "3 and 4 amplify those with h·ω below 1.9 and 4.7, 5 damps them while h·ω < 0.71",
      5);
  s.upper = 5;
  return s;
}

}  // namespace

IntegratorInfo ida_info() {
  IntegratorInfo info{"ida", 5, true, MethodTraits{.implicit = true, .dissipative = true},
          "SUNDIALS IDA: variable-order BDF (1-5) on the index-1 DAE (Baumgarte-stabilised constraints; the implicit ODE M v' = f of a "
          "system without them), analytic Jacobian, rtol/atol",
          {// 10/s damps drift within ~0.1-0.5 s, against pendulum periods of seconds, and keeps the
           // added eigenvalues -p (double) and -gamma slow enough not to shorten IDA's steps.
           non_negative_setting("baumgarte_p",
                                "p (1/s): constraints obey C̈ + 2pĊ + p²C = 0, so drift decays like e^(−pt); 0 gives "
                                "the plain index-1 DAE, whose drift grows",
                                10.0),
           non_negative_setting("baumgarte_gamma",
                                "γ (1/s): attitude R integrated as Ṙ = R(hat(Ω) + Ξ), Ξ = γ/2((RᵀR)⁻¹ − I), so "
                                "RᵀR − I decays like e^(−γt); unused by models without a rotation matrix",
                                10.0),
           max_order_setting(),
           switch_setting("sparse",
                          "1: Newton matrix stored sparse (compressed columns) and factored by KLU (SUNLinSol_KLU) with a "
                          "fill-reducing ordering, O(nnz) per solve; 0: SUNDIALS' band LU when the model's bandwidths are narrow, "
                          "else dense LU",
                          1),
           locate_events_setting()},
          consuming([](const DaeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<IdaStepper>(form, s, t0);
          })};
  info.impacts_by = "event-driven: each switch located by IDA's root finding (and on its interpolant inside a step), the "
                    "form's impact law or change of mode applied there, its consistent values re-solved for the new mode (the "
                    "multipliers and y'), and IDA restarted at order 1";
  // Its Baumgarte rates, given where they act on nothing, are refused (core/formulation.hpp).
  info.idle_setting = [](const std::string& key, const Formulation& form) {
    const std::string idle = idle_baumgarte_setting(key, form);
    return idle.empty() ? idle_locate_events(key, form) : idle;
  };
  const auto tolerances = error_tolerance_settings(
      "IDA's error control err_i ≤ atol + rtol·|y_i| on the differential components (the multipliers are left out of "
      "the error test)", 1e-8, "absolute tolerance of the same error control", 1e-10);
  info.settings.insert(info.settings.begin(), tolerances.begin(), tolerances.end());
  return info;
}

}  // namespace tb
