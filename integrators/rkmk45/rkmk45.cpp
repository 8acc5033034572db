// Adaptive Runge-Kutta-Munthe-Kaas with the Dormand-Prince 5(4) pair: "ODE45 that stays on the
// manifold". The RKMK construction (Munthe-Kaas 1999, Appl. Numer. Math. 29, Algorithm 2.1;
// integrators/munthe_kaas_stages.hpp) applies the Dormand-Prince tableau (Dormand & Prince
// 1980, J. Comput. Appl. Math. 6, 19-26, Table 2; Hairer, Norsett & Wanner, "Solving ODEs I",
// §II.5, Table 5.2) to the algebra equation u' = dexp^{-1}_u(xi(exp(u) . y0)), an ODE in a
// linear space, so everything a Runge-Kutta pair does there carries over (Engø 2000, "On the
// construction of geometric integrators in the RKMK class", BIT 40, §3):
//   - the step: y1 = exp(u1) . y0 with u1 = h sum b_j k_j (5th order, the 7th stage is FSAL:
//     k_7 = dexp^{-1}_{u1} xi(y1), and xi(y1) is the next step's k_1);
//   - the local error estimate in the algebra, err = h sum (b_j - bhat_j) k_j (4th order
//     embedded weights), measured as rk45 measures it (Boost.Odeint's default_error_checker,
//     which rk45 uses): max_i |err_i| / (atol + rtol (m_i + h |k1_i|)), m_i = |y_i| for vector
//     entries and 1 for a rotation or direction angle (numerics/homogeneous_product.hpp,
//     algebra_magnitudes), and the same step-size rules as Boost.Odeint's
//     controlled_runge_kutta (reject: h *= max(0.9 err^(-1/3), 1/5); accept with err < 1/2:
//     h *= 0.9 max(err, 5^-5)^(-1/5)), so that rkmk45 and rk45 differ only in where the stages
//     live; `max_step` > 0 caps the proposed step as Boost.Odeint's max_dt caps rk45's (MATLAB's
//     MaxStep): the first step and every increase are cut to it, so no accepted step is longer;
//   - dense output: Dormand and Prince's 4th-order continuous extension (Hairer, Norsett &
//     Wanner, §II.6, the coefficients of their DOPRI5 code) of u(theta), and
//     y(t0 + theta h) = exp(u(theta)) . y0, on the manifold at every sample.
// dexp^{-1} is truncated after ad^4 (q = 4 >= p - 2 = 3, Munthe-Kaas 1999, Thm. 2; B_3 = 0, so
// q = 2 would be the same series to ad^3).

#include "integrators/rkmk45/rkmk45.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "integrators/munthe_kaas_stages.hpp"

namespace tb {
namespace {

const ExplicitTableau& dormand_prince() {
  static const ExplicitTableau tableau{
      {0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0},
      {{},
       {1.0 / 5.0},
       {3.0 / 40.0, 9.0 / 40.0},
       {44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0},
       {19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0},
       {9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0},
       {35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0}},
      {35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0}};
  return tableau;
}

// The step takes u1 and y1 from its last stage (FSAL): a_7 must be b (and b_7 = 0).
bool last_stage_is_result(const ExplicitTableau& t) {
  return t.b.size() == 7 && t.b[6] == 0.0 && std::equal(t.a[6].begin(), t.a[6].end(), t.b.begin());
}

// b - bhat, bhat the 4th-order weights (5179/57600, 0, 7571/16695, 393/640, -92097/339200, 187/2100, 1/40).
const std::vector<double>& error_weights() {
  static const std::vector<double> e{35.0 / 384.0 - 5179.0 / 57600.0,     0.0,
                                     500.0 / 1113.0 - 7571.0 / 16695.0,   125.0 / 192.0 - 393.0 / 640.0,
                                     -2187.0 / 6784.0 + 92097.0 / 339200.0, 11.0 / 84.0 - 187.0 / 2100.0,
                                     -1.0 / 40.0};
  return e;
}

// The fifth term of DOPRI5's dense output (Hairer, Norsett & Wanner's coefficients d_j).
const std::vector<double>& dense_weights() {
  static const std::vector<double> d{-12715105075.0 / 11282082432.0, 0.0, 87487479700.0 / 32700410799.0,
                                     -10690763975.0 / 1880347072.0, 701980252875.0 / 199316789632.0,
                                     -1453857185.0 / 822651844.0, 69997945.0 / 29380423.0};
  return d;
}

constexpr int kMaxRejections = 500;  // as Boost.Odeint's controlled stepper before it gives up

class Rkmk45Stepper final : public TimeStepper {
 public:
  Rkmk45Stepper(const LieGroupOdeFormulation& form, const IntegratorSettings& s, double t0)
      : TimeStepper(t0, form.initial_state()),
        form_(form),
        stages_(form, 4),
        tolerances_(s.tolerances()),
        max_step_(s.max_step()),
        h_(max_step_ > 0.0 ? std::min(s.h, max_step_) : s.h),
        t_now_(t0),
        y_now_(y_) {
    if (!last_stage_is_result(dormand_prince())) throw std::logic_error("rkmk45: the tableau is not FSAL");
  }

  bool has_dense_output() const override { return true; }
  void dense_state(double t, Eigen::VectorXd& y) const override {
    if (!has_step_ || t_last_ == t_now_) {
      y = y_now_;
      return;
    }
    const double theta = (t - t_last_) / (t_now_ - t_last_), theta1 = 1.0 - theta;
    // u(theta) = theta (u1 + theta1 (B + theta (C + theta1 D))): B = h k1 - u1, C = u1 - h k7 - B,
    // D = h sum d_j k_j (Hairer's CONTD5 in the algebra, where u(0) = 0 and y = exp(u) . y0).
    const Eigen::VectorXd u = theta * (u1_ + theta1 * (B_ + theta * (C_ + theta1 * D_)));
    form_.manifold().act(u, y_last_, y);
  }

  bool step(double t_stop, StepFailure& failure) override {
    if (broken_) {
      failure = {StepFailure::Kind::SolverFailed, "stepper already failed"};
      return false;
    }
    if (t_now_ < t_stop && !accepted_step(failure)) {
      broken_ = true;
      return false;
    }
    // A step may pass t_stop: the state there is the dense output's.
    if (t_now_ >= t_stop) {
      dense_state(t_stop, y_);
      t_ = t_stop;
    } else {
      t_ = t_now_;
      y_ = y_now_;
    }
    return true;
  }

 private:
  // One accepted step from (t_now_, y_now_), retrying with smaller h while the error test fails.
  bool accepted_step(StepFailure& failure) {
    if (!have_field_) {
      form_.field(t_now_, y_now_, field_now_);
      ++counters_.rhs_evals;
      have_field_ = true;
    }
    for (int attempt = 0;; ++attempt) {
      if (attempt >= kMaxRejections) {
        failure = {StepFailure::Kind::SolverFailed, "step size control failed: " + std::to_string(kMaxRejections) +
                                                        " rejected steps in a row at h = " + std::to_string(h_)};
        return false;
      }
      if (!(std::abs(h_) > 16.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t_now_)))) {
        // The runner adds the time and step of the failure.
        failure = {StepFailure::Kind::SolverFailed, "step size control failed: h fell below 16 eps |t|"};
        return false;
      }
      const double h = h_;
      bool finite = stages_.evaluate(dormand_prince(), t_now_, y_now_, h, counters_.rhs_evals, &field_now_);
      if (finite) {
        // The 7th stage is at u_7 = h sum a_7j k_j = u1 (FSAL): y1 = exp(u1) . y0, its field xi(y1)
        // is the next step's k_1 and k_7 = dexp^{-1}_{u1} xi(y1) enters the error and the dense output.
        // u_7 and exp(u_7) . y0 are the stages' own (a_7j = b_j, b_7 = 0: the same weights summed in
        // the same order, so bitwise u1 and y1): not combined and acted again, which cost one
        // exponential per factor per step, a seventh of them (about 3 % of a run on Model C by the
        // profile; 1.2 % measured over 200 s of C_cooperative_multirotors, results bitwise equal).
        u1_ = stages_.last_algebra_point();
        y_next_ = stages_.last_state();
        field_next_ = stages_.last_field();
        finite = all_finite(y_next_);
      }
      double err = std::numeric_limits<double>::infinity();
      if (finite) err = error_norm(h);
      if (!std::isfinite(err)) {
        // Non-finite stages: the state left the model's domain at this h; retry smaller like a rejected step.
        ++counters_.error_test_failures;
        h_ *= 0.2;
        continue;
      }
      if (err > 1.0) {
        ++counters_.error_test_failures;
        h_ *= std::max(0.9 * std::pow(err, -1.0 / 3.0), 0.2);
        continue;
      }
      // Accepted: keep what the dense output needs, then move on.
      const Eigen::VectorXd& k1 = stages_.k(0);
      B_ = h * k1 - u1_;
      C_ = u1_ - h * stages_.k(6) - B_;
      stages_.combine(dense_weights(), h, D_);
      y_last_ = y_now_;
      t_last_ = t_now_;
      y_now_ = y_next_;
      t_now_ = t_last_ + h;
      field_now_ = field_next_;
      has_step_ = true;
      ++counters_.steps;
      if (err < 0.5) h_ *= 0.9 * std::pow(std::max(err, std::pow(5.0, -5.0)), -1.0 / 5.0);
      if (max_step_ > 0.0) h_ = std::min(h_, max_step_);
      return true;
    }
  }

  // max_i |err_i| / (atol + rtol (m_i + h |k1_i|)) with err = h sum (b - bhat)_j k_j.
  double error_norm(double h) {
    stages_.combine(error_weights(), h, err_);
    form_.manifold().algebra_magnitudes(y_now_, size_);
    // One expression, the same operations per entry as a scale vector would take: no allocation per attempt.
    return (err_.array().abs() /
            (tolerances_.atol + tolerances_.rtol * (size_.array() + std::abs(h) * stages_.k(0).array().abs())))
        .maxCoeff();
  }

  const LieGroupOdeFormulation& form_;
  MuntheKaasStages stages_;
  ErrorTolerances tolerances_;
  double max_step_;  // 0: none
  double h_;  // the next step to try
  double t_now_, t_last_ = 0.0;
  Eigen::VectorXd y_now_, y_last_, y_next_, field_now_, field_next_, u1_, B_, C_, D_, err_, size_;
  bool have_field_ = false, has_step_ = false, broken_ = false;
};

}  // namespace

IntegratorInfo rkmk45_info() {
  std::vector<SettingSpec> settings =
      error_tolerance_settings("relative tolerance of the error control err_i ≤ atol + rtol·(m_i + h|k1_i|) in the Lie "
                               "algebra (m_i = |y_i|, 1 for an angle of R or q)",
                               1e-8,
                               "absolute tolerance of the same error control (in the units of each algebra component: "
                               "rad for R and q)",
                               1e-10);
  settings.push_back(max_step_setting());
  return {"rkmk45", 5, true, MethodTraits{.on_manifold = true},
          "adaptive Runge-Kutta-Munthe-Kaas with Dormand-Prince 5(4), dense output, rtol/atol as rk45: ODE45 on the manifold",
          std::move(settings),
          consuming([](const LieGroupOdeFormulation& form, const IntegratorSettings& s, double t0) {
            return std::make_unique<Rkmk45Stepper>(form, s, t0);
          })};
}

}  // namespace tb
