#pragma once
// The summary metrics of SPEC "Metrics", accumulated sample by sample in O(1) memory so that
// runs of 10^6 steps need not keep their trajectory. The same code measures every integrator.

#include <limits>
#include <string>
#include <vector>

#include "core/formulation.hpp"
#include "core/growth.hpp"
#include "core/invariant_values.hpp"

namespace tb {

struct ConservationMetrics {
  long samples = 0;
  // Energy errors are of the energy balance E(t) - E(0) - W(t) (W: external work, zero for
  // conservative models), so forced and dissipative cases are measured the same way.
  double energy_err_max = 0.0;     // max |E(t) - E(0) - W(t)| (J)
  double energy_err_mean = 0.0;    // mean |E(t) - E(0)| (paper Table 1)
  double energy_err_rel_ke = 0.0;  // energy_err_max / max kinetic energy
  double energy_drift_rate = 0.0;  // least-squares slope of E(t) - E(0) against t (J/s)
  // Signed: max over t of E(t) - E(0) - W(t) (J, >= 0: the first sample's is 0; NaN once a
  // sampled energy is not finite) and the first time it was reached (s). Growth, for the
  // instability criterion (core/stability_criterion.hpp), where energy_err_max counts loss too.
  double energy_gain_max = 0.0;
  double energy_gain_t = 0.0;
  double momentum_err_max = 0.0;
  double momentum_err_mean = 0.0;
  double constraint_err_max = 0.0;
  double constraint_err_t = 0.0;  // when constraint_err_max was first reached (s)
  double constraint_rate_err_max = 0.0;
  // max |P(t) - P(0)| of the total linear momentum; NaN where the model does not conserve it.
  double linear_momentum_err_max = std::numeric_limits<double>::quiet_NaN();
  // Where P is conserved (a free centre of mass), the energy error split by its mechanism (NaN
  // elsewhere): a drift dP = P - P0 of the momentum changes the centre of mass's kinetic energy
  // by dE_cm = P0.dP/M + |dP|^2/(2M) (increment form; the potential of a translation does not
  // change where the net external force is zero), and moves the centre of mass x_c away from
  // x_c(0) + P0 (t - t0)/M. The rest, E - E0 - W - dE_cm, is the internal motion's error, the one
  // a method's stability and energy behaviour are judged on (core/stability_criterion.hpp).
  double energy_err_com_max = std::numeric_limits<double>::quiet_NaN();       // max |dE_cm| (J)
  double energy_err_internal_max = std::numeric_limits<double>::quiet_NaN();  // max |E - E0 - W - dE_cm| (J)
  double com_drift_max = std::numeric_limits<double>::quiet_NaN();            // max |x_c - x_c(0) - P0 (t - t0)/M| (m)
  double orthogonality_err_max = 0.0;
  double orthogonality_err_t = 0.0;  // when orthogonality_err_max was first reached (s)
  double orthogonality_err_mean = 0.0;
  double kinetic_max = 0.0;
  // Magnitudes the conserved quantities are computed from, for round-off floors (not columns):
  // max over t of |T| + |E - T| (J), |pi(0)|, |P(0)| (NaN where P is not conserved).
  double energy_magnitude = 0.0;
  double momentum_magnitude = 0.0;
  double linear_momentum_magnitude = std::numeric_limits<double>::quiet_NaN();
  // max |W(t)| of the external work: 0 for a conservative model (energy, not energy balance).
  double external_work_max = 0.0;
  // The energy E and the external work W (signed: > 0 energy put in) at the first and last
  // samples: where W is not 0 the tables print where the energy went and who put it there
  // (issue 44: the deployment's Carnot term puts energy in), beside the balance's error.
  double energy_first = 0.0, energy_last = 0.0, external_work_last = 0.0;
  // The models' own conserved scalars (Observation::invariants, slot by slot of invariant_specs()):
  // max over t of |C(t) - C(0)| and |C(0)| for its round-off floor; NaN where the model has none.
  InvariantValues invariant_err_max = no_invariants();
  InvariantValues invariant_magnitude = no_invariants();
  // Long-time growth laws of |E - E(0) - W| and |pi - pi(0)| (core/growth.hpp); their round-off
  // floors and the round_off law are applied where the run's steps are known (run_case).
  GrowthFit energy_growth, momentum_growth;
};


// The change of the centre of mass's kinetic energy |P|^2/(2M) when the total linear momentum
// moves from P0 to P0 + dP: P0.dP/M + |dP|^2/(2M) (J).
double centre_of_mass_energy_change(const Eigen::Vector3d& P0, const Eigen::Vector3d& dP, double total_mass);

class MetricsAccumulator {
 public:
  void add(double t, const Observation& o);
  ConservationMetrics result() const;

 private:
  long n_ = 0;
  double e0_ = 0.0, pi0_ = 0.0;
  double gain_max_ = 0.0, gain_t_ = 0.0, c_t_ = 0.0, o_t_ = 0.0;
  double e_max_ = 0.0, e_sum_ = 0.0, pi_max_ = 0.0, pi_sum_ = 0.0;
  Eigen::Vector3d p0_ = Eigen::Vector3d::Zero();
  double p_max_ = 0.0;
  Eigen::Vector3d x0_ = Eigen::Vector3d::Zero();  // centre of mass at t0 (NaN: not free)
  double mass_ = 0.0, e_com_max_ = 0.0, e_int_max_ = 0.0, x_drift_max_ = 0.0;
  bool has_free_centre_of_mass() const { return p0_.allFinite() && x0_.allFinite() && mass_ > 0.0; }
  double c_max_ = 0.0, cr_max_ = 0.0, o_max_ = 0.0, o_sum_ = 0.0, ke_max_ = 0.0, e_magnitude_ = 0.0;
  // Running sums for the least-squares slope of dE(t), shifted by the first time for accuracy.
  double t0_ = 0.0, st_ = 0.0, se_ = 0.0, stt_ = 0.0, ste_ = 0.0;
  double w_max_ = 0.0;
  double energy_first_ = 0.0, energy_last_ = 0.0, w_last_ = 0.0;
  InvariantValues inv0_ = no_invariants(), inv_max_ = no_invariants();
  GrowthEnvelope e_envelope_, pi_envelope_;
};

}  // namespace tb
