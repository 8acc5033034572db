#pragma once
// Lie group generalized-alpha (Bruls & Cardona 2010; Bruls, Cardona & Arnold 2012; Arnold,
// Bruls & Cardona 2015) on the Lie group ODE form: lie_generalized_alpha.cpp.

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <memory>
#include <string>
#include <vector>

#include "core/integrator.hpp"
#include "integrators/alpha_parameters.hpp"
#include "integrators/implicit_step_result.hpp"
#include "integrators/pattern_cached_lu.hpp"

namespace tb {

IntegratorInfo lie_generalized_alpha_info();

// One step of the scheme with its memory (a_n, vdot_n and the work integrals' rates), its
// workspace and sparse factorisation. Exposed for the tests; the stepper of
// lie_generalized_alpha_info() uses it.
class LieGeneralizedAlphaStep {
 public:
  using Result = ImplicitStepResult;
  // std::invalid_argument with the form's reason when it provides no tangents.
  LieGeneralizedAlphaStep(const LieGroupOdeFormulation& form, const GeneralizedAlphaParameters& p, double newton_tol,
                          int max_newton_iters, bool perturbed_start);
  // vdot_0 = f(t0, g0, v0) and the starting value of a (perturbed start with h, see the .cpp).
  Result start(double t0, const Eigen::VectorXd& y0, double h);
  // y_{n+1} from y_n = y over h; the memory moves on only when it succeeds.
  Result step(double t, double h, const Eigen::VectorXd& y, Eigen::VectorXd& y_next);
  // vdot_n in the rate layout, then the rate rows' multipliers at t_n (rate_multipliers() of them).
  const Eigen::VectorXd& acceleration() const { return vd_; }
  const Eigen::VectorXd& acceleration_like() const { return a_; }  // a_n
  int rates() const { return k_; }
  // Entries of the Newton matrix's last LU factors (tests: the fill stays O(N) on a string).
  Eigen::Index factor_nonzeros() const { return lu_.factor_nonzeros(); }
  // Numeric factorisations and symbolic analyses of the Newton matrix so far (tests: reuse).
  long factorizations() const { return lu_.factorizations(); }
  long analyses() const { return lu_.analyses(); }
  // Assemblies of the Newton matrix that found the entries' (row, column) sequence of the last one.
  long assemblies_reused() const { return assembly_.reused(); }

 private:
  // y1 = g_n exp(u) with the rates v_n + h (1 - gamma) a_n + h gamma a1 (increment form), for
  // a1 from vd1 by the alpha relation; u the configuration's algebra increment.
  void kinematics(double h, const Eigen::VectorXd& y, const Eigen::VectorXd& vd1);
  bool factor(double t1, double h);
  // The stages of step() (lie_generalized_alpha.cpp), members so that they work in the workspace
  // below without copying it; they return false when the step failed (out says why).
  bool newton(double t1, double h, const Eigen::VectorXd& y, Result& out);
  bool write_next_state(double t1, double h, Eigen::VectorXd& y_next, Eigen::VectorXd& zd1, Result& out);
  const LieGroupOdeFormulation& form_;
  const lie::HomogeneousProduct& mf_;
  GeneralizedAlphaParameters p_;
  double newton_tol_;
  int max_newton_iters_;
  bool perturbed_start_;
  int k_;                                     // configuration algebra size = number of rates
  int p_mult_;                                // the rate rows' multipliers (a bordered form), unknowns after vdot
  std::vector<Eigen::Index> rate_y_, rate_alg_;    // rate i: its entry in y and in the algebra layout
  std::vector<Eigen::Index> extra_y_, extra_alg_;  // the other free entries (work integrals)
  Eigen::VectorXd a_, vd_, zd_;                     // memory
  Eigen::VectorXd lambda0_, xi_, base_u_, base_dv_, dv1_, a1_, u_, y1_, r_, S_, dv_, vd1_, vn_;
  std::vector<Eigen::Triplet<double>> M_, K_, C_, work_;
  std::vector<Eigen::Matrix3d> tangent_;  // T(u) per rotation and direction (factor())
  Eigen::SparseMatrix<double> A_;
  TripletAssembly assembly_;  // A_ from work_, into the last pattern's slots while the entries' sequence holds
  // The Newton matrix, analysed once per sparsity pattern; threshold pivoting (0.1) keeps the
  // diagonal pivots of this M-dominated matrix, so a bordered one (Model B's reel) fills O(N).
  PatternCachedSparseLU lu_{0.1};
  bool factored_ = false, refactor_next_ = false;  // modified Newton: the factorisation kept across steps
  double factored_h_ = 0.0;
};

}  // namespace tb
