#include "core/hybrid_constrained_ode.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.hpp"
#include "core/unilateral_impulse.hpp"

namespace tb {

namespace {
// A held row whose tension over the force scale is this small at a located event is at its zero (the
// locator's bracket is a few ulps of t): it opens there.
constexpr double kOpeningTension = 1e-8;
// A row within this of its length (relative, g / s) is at it for the impulse problem and the modes.
constexpr double kAtLength = 1e-10;
// A free row's flight back to its length shorter than this many time scales is not integrated:
// the row is held, its inward rate stopped plastically (settle_modes).
constexpr double kShortFlight = 1e-6;
}  // namespace

HybridConstrainedOde::HybridConstrainedOde(std::unique_ptr<const ConstrainedMechanicalFormulation> form,
                                           HybridTimeScales scales, HybridClosingRules closing)
    : form_(std::move(form)),
      scales_(scales),
      closing_(closing),
      n_(form_->positions()),
      rows_(form_->constraints()),
      base_(2 * form_->positions() + form_->work_terms()),
      equality_(equality_rows(*form_)),
      scale_(form_->constraint_scale()),
      solver_(form_->make_solver()),
      zeno_(scales.time_scale) {
  for (int i = 0; i < rows_; ++i)
    if (form_->one_sided(i)) one_sided_.push_back(i);
  if (!(std::isfinite(closing.closing_offset) && closing.closing_offset > 0.0 && std::isfinite(closing.held_flight_depth) &&
        closing.held_flight_depth >= 0.0))
    throw std::invalid_argument("the hybrid ODE needs a positive closing offset and a non-negative held flight depth");
  if (one_sided_.empty() || form_->work_terms() < 1)
    throw std::invalid_argument("the hybrid ODE needs a constrained form with one-sided rows and a work term for the impacts' loss");
  // The force scale: the applied forces at the start (a tension over it is O(1) where a link carries
  // the weights it holds).
  const Eigen::VectorXd y0 = form_->initial_state();
  Eigen::VectorXd f;
  form_->force(0.0, y0.head(n_), y0.segment(n_, n_), f);
  force_scale_ = f.cwiseAbs().maxCoeff() > 0.0 ? f.cwiseAbs().maxCoeff() : 1.0;
}

bool HybridConstrainedOde::accelerations(double t, const Eigen::VectorXd& y, Eigen::VectorXd& a,
                                         Eigen::VectorXd& lambda, Stabilisation stabilisation) const {
  const Eigen::VectorXd q = y.head(n_), v = y.segment(n_, n_);
  std::vector<bool> active(rows_);
  for (int i = 0; i < rows_; ++i) active[i] = equality_[i] || held(y, i);
  if (!solver_->factor_active(q, q, active)) return false;
  Eigen::VectorXd f, g, Gv, Hvv;
  form_->force(t, q, v, f);
  form_->constraint(q, g);
  form_->constraint_jacobian_times(q, v, Gv);
  if (!form_->constraint_curvature(q, v, Hvv)) return false;
  const double p = stabilisation == Stabilisation::On ? scales_.baumgarte_rate : 0.0;
  // g'' + 2 p g' + p^2 g = 0 on the held rows (seed 004 §3); g'' = 0 without the stabilisation.
  const Eigen::VectorXd s = -Hvv - 2.0 * p * Gv - p * p * g;
  solver_->solve(f, s, a, lambda);
  for (int i = 0; i < rows_; ++i)
    if (!active[i]) lambda[i] = 0.0;
  return a.allFinite() && lambda.allFinite();
}

bool HybridConstrainedOde::multipliers(double t, const Eigen::VectorXd& y, Eigen::VectorXd& lambda) const {
  Eigen::VectorXd a;
  return accelerations(t, y, a, lambda, Stabilisation::Off);
}

double HybridConstrainedOde::tension_value(const Eigen::VectorXd& lambda, int row) const {
  return lambda[row] * std::sqrt(scale_[row]) / force_scale_;
}

void HybridConstrainedOde::rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const {
  dydt = Eigen::VectorXd::Zero(state_size());
  dydt.head(n_) = y.segment(n_, n_);
  Eigen::VectorXd a, lambda;
  if (!accelerations(t, y, a, lambda)) {
    dydt.setConstant(std::numeric_limits<double>::quiet_NaN());  // the integrator fails the step
    return;
  }
  dydt.segment(n_, n_) = a;
  Eigen::VectorXd P;
  form_->power(t, y.head(n_), y.segment(n_, n_), P);
  if (P.size()) dydt.segment(2 * n_, P.size()) = P;
}

void HybridConstrainedOde::switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s,
                                            Eigen::VectorXd& rate) const {
  const int k = static_cast<int>(one_sided_.size());
  s.resize(k);
  rate.resize(k);
  const Eigen::VectorXd q = y.head(n_), v = y.segment(n_, n_);
  Eigen::VectorXd g, Gv, a, lambda;
  form_->constraint(q, g);
  form_->constraint_jacobian_times(q, v, Gv);
  bool any_held = false;
  for (int i : one_sided_) any_held = any_held || held(y, i);
  const bool solved = any_held && accelerations(t, y, a, lambda, Stabilisation::Off);
  // A held row's rate, a guide for an interior probe only: the tension's central difference along the
  // flow over 1e-7 time scales.
  Eigen::VectorXd lambda_up, lambda_down;
  if (solved) {
    Eigen::VectorXd dydt, y_probe;
    rhs(t, y, dydt);
    const double dt = 1e-7 * scales_.time_scale;
    y_probe = y + dt * dydt;
    multipliers(t + dt, y_probe, lambda_up);
    y_probe = y - dt * dydt;
    multipliers(t - dt, y_probe, lambda_down);
  }
  for (int e = 0; e < k; ++e) {
    const int i = one_sided_[e];
    if (held(y, i)) {
      s[e] = solved ? tension_value(lambda, i) : std::numeric_limits<double>::quiet_NaN();
      rate[e] = solved && lambda_up.size() && lambda_down.size()
                    ? (tension_value(lambda_up, i) - tension_value(lambda_down, i)) / (2e-7 * scales_.time_scale)
                    : 0.0;
    } else {
      s[e] = g[i] / scale_[i] - y[base_ + rows_ + i] - closing_.closing_offset;
      rate[e] = Gv[i] / scale_[i];
    }
  }
}

bool HybridConstrainedOde::stop_inward_rate(Eigen::VectorXd& y, double& taken) const {
  // The velocity projected onto the held rows' G v = 0 (M-orthogonally: M v+ + G_A^T P = M v), and the
  // energy that takes, 1/2 P^T (G v+ + G v), booked in W: the plastic limit of the accumulation of
  // micro-rebounds the held row stands for (each rebound's return a plastic snap; summed, the
  // kinetic energy of the inward rate), so that E - E0 - W stays the method's error.
  const Eigen::VectorXd q = y.head(n_), v = y.segment(n_, n_);
  std::vector<bool> active(rows_);
  for (int i = 0; i < rows_; ++i) active[i] = equality_[i] || held(y, i);
  if (!solver_->factor_active(q, q, active)) return false;
  Eigen::VectorXd Mv, x, P, Gv, Gx;
  form_->mass_times(v, Mv);
  solver_->solve(Mv, Eigen::VectorXd::Zero(rows_), x, P);
  if (!x.allFinite()) return false;
  form_->constraint_jacobian_times(q, v, Gv);
  form_->constraint_jacobian_times(q, x, Gx);
  taken = 0.0;
  for (int i = 0; i < rows_; ++i)
    if (active[i]) taken += 0.5 * P[i] * (Gx[i] + Gv[i]);
  y.segment(n_, n_) = x;
  y[2 * n_] += taken;
  return true;
}

bool HybridConstrainedOde::settle_modes(double t, Eigen::VectorXd& y, std::vector<HeldFlight>* held_flights) const {
  bool changed = false;
  const Eigen::VectorXd q = y.head(n_);
  Eigen::VectorXd g, Gv, Hvv, Ga, a, lambda;
  form_->constraint(q, g);
  const int k = static_cast<int>(one_sided_.size());
  for (int pivot = 0; pivot <= 4 * k + 8; ++pivot) {
    if (!accelerations(t, y, a, lambda, Stabilisation::Off)) return changed;
    const Eigen::VectorXd v = y.segment(n_, n_);
    form_->constraint_jacobian_times(q, v, Gv);
    form_->constraint_jacobian_times(q, a, Ga);
    form_->constraint_curvature(q, v, Hvv);
    const double rate_tol = 1e-9 * (Gv.cwiseAbs().maxCoeff() + v.cwiseAbs().maxCoeff() * scale_.cwiseSqrt().maxCoeff());
    int flip = -1;
    bool stop_flight = false;
    HeldFlight flight;
    for (int i : one_sided_) {
      if (held(y, i)) {
        if (tension_value(lambda, i) < -kOpeningTension) flip = i;  // it would push
      } else if (g[i] / scale_[i] >= -kAtLength &&
                 (Hvv[i] + Ga[i]) / scale_[i] * scales_.time_scale * scales_.time_scale > kOpeningTension) {
        // At its length, and the free motion would stretch it (by more than the opening's own
        // threshold, relative to s_i / T^2: at an opening the tension and this stretching both pass
        // through 0, and a link released there must not be held again by round-off): held if at
        // rest along itself, or if it moves inwards so slowly that its flight back, 2 |g'| / g'', is
        // shorter than kShortFlight time scales. The latter are the micro-rebounds that plastic impacts pass along a chain
        // through the links' masses (an impulse at one link sets the next one moving inwards, whose
        // return sets the first, each rate a fraction of the last): an accumulation of impacts that
        // an event-driven method cannot pass, ended by holding the link with its inward rate stopped
        // by a plastic projection whose loss is booked (stop_inward_rate).
        const double gdd = Hvv[i] + Ga[i];
        const bool at_rest = std::abs(Gv[i]) <= rate_tol;
        const bool short_flight = Gv[i] < 0.0 && 2.0 * -Gv[i] / gdd <= kShortFlight * scales_.time_scale;
        // Or so shallow, Gv^2 / (2 g'' s_i) relative to the length, that the closing offset would
        // make its return: the row closes kGapOffset beyond its length, where the free acceleration
        // has added sqrt(2 g'' kGapOffset s_i) to its rate. On a slack ten-link cable a snap kicks a
        // held link a few links away inwards through the rods' inertia (the mass matrix couples
        // neighbouring joints, so a slack rod between them passes it); its return kicks the first,
        // and so on, each rate a fraction of the last, the mechanics' way to both links held. With
        // such flights integrated down to the offset's depth the two closing rates settled at
        // exactly sqrt(2 g'' kGapOffset s_i) instead (1.5e-3 and 4.1e-4 /s on C_single_snap at an
        // offset of 1e-9: links 7 and 9, 143 such snaps, each holding its link a further offset
        // out), a cycle the offset drove. A flight of depth kShallowFlight (header) returns with the offset's
        // share of its rate below 0.5 %; shallower ones end as the short flights above.
        const double depth = Gv[i] * Gv[i] / (2.0 * gdd * scale_[i]);
        const bool shallow = Gv[i] < 0.0 && depth <= closing_.held_flight_depth;
        if (at_rest || short_flight || shallow) flip = i;
        stop_flight = (short_flight || shallow) && !at_rest;
        if (stop_flight) flight = {i, Gv[i] / scale_[i], depth, 2.0 * -Gv[i] / gdd, 0.0};
      }
      if (flip >= 0) break;
    }
    if (flip < 0) return changed;
    set_held(y, flip, !held(y, flip), g[flip] / scale_[flip]);
    changed = true;
    if (stop_flight) {
      if (!stop_inward_rate(y, flight.taken)) return changed;
      if (held_flights) held_flights->push_back(flight);
    }
  }
  return changed;
}

Eigen::VectorXd HybridConstrainedOde::initial_state() const {
  const Eigen::VectorXd y0 = form_->initial_state();
  Eigen::VectorXd y = Eigen::VectorXd::Zero(state_size());
  y.head(base_) = y0;
  Eigen::VectorXd g, Gv;
  form_->constraint(y0.head(n_), g);
  form_->constraint_jacobian_times(y0.head(n_), y0.segment(n_, n_), Gv);
  // Held where at the length and not opening; then the acceleration-level modes.
  for (int i = 0; i < rows_; ++i)
    set_held(y, i, equality_[i] || (g[i] / scale_[i] >= -kAtLength && Gv[i] <= 0.0), g[i] / scale_[i]);
  settle_modes(0.0, y);
  return y;
}

bool HybridConstrainedOde::project_onto_held_rows(Eigen::VectorXd& y) const {
  std::vector<bool> active(rows_);
  bool any = false;
  for (int i = 0; i < rows_; ++i) any = (active[i] = equality_[i] || held(y, i)) || any;
  if (!any) return false;
  // Positions: Newton on g_A(q) = 0 by the minimal M-norm step [M G_A^T; G_A 0] [dq; mu] = [0; -g_A], stopped
  // where every held row's relative gap |g_i| / s_i is at round-off (a few eps) or no longer falls.
  Eigen::VectorXd q = y.head(n_), g, dq, mu;
  const Eigen::VectorXd no_force = Eigen::VectorXd::Zero(n_);
  const auto worst_gap = [&] {
    form_->constraint(q, g);
    double worst = 0.0;
    for (int i = 0; i < rows_; ++i)
      if (active[i]) worst = std::max(worst, std::abs(g[i]) / scale_[i]);
    return worst;
  };
  double gap = worst_gap();
  const double round_off = 8.0 * std::numeric_limits<double>::epsilon();
  for (int iteration = 0; iteration < 6 && gap > round_off; ++iteration) {
    if (!solver_->factor_active(q, q, active)) return false;
    solver_->solve(no_force, -g, dq, mu);
    const Eigen::VectorXd before = q;
    q += dq;
    const double next = worst_gap();
    if (!(next < gap)) {
      q = before;
      break;
    }
    gap = next;
  }
  // Velocities: the M-orthogonal projection onto G_A v = 0 at the projected q, in increment form
  // [M G_A^T; G_A 0] [dv; P] = [0; -G_A v], so that its round-off is of the correction's size, not the momentum's
  // (solved for v+ itself, it put 9e-13 N s of round-off into a cooperative cable's linear momentum).
  if (!solver_->factor_active(q, q, active)) return false;
  Eigen::VectorXd Gv, dv, P;
  form_->constraint_jacobian_times(q, y.segment(n_, n_), Gv);
  solver_->solve(no_force, -Gv, dv, P);
  if (!q.allFinite() || !dv.allFinite()) return false;
  y.head(n_) = q;
  y.segment(n_, n_) += dv;
  return true;
}

bool HybridConstrainedOde::apply_jump(double t, Eigen::VectorXd& y) const {
  zeno_.on_jump(t);  // jumps that do not advance time: reported, never looped on
  bool changed = project_onto_held_rows(y);
  const Eigen::VectorXd q = y.head(n_), v = y.segment(n_, n_);
  const Eigen::VectorXd before = y;
  Eigen::VectorXd g, Gv, a, lambda;
  form_->constraint(q, g);
  form_->constraint_jacobian_times(q, v, Gv);
  // Openings: held rows whose tension is at its zero.
  std::vector<bool> opened(rows_, false);
  if (accelerations(t, y, a, lambda, Stabilisation::Off))
    for (int i : one_sided_)
      if (held(y, i) && tension_value(lambda, i) <= kOpeningTension) {
        set_held(y, i, false, g[i] / scale_[i]);
        opened[i] = changed = true;
      }
  // Closings: free rows at their length moving beyond it. The impulse problem runs over them and
  // every held row (a snap pulls through the taut links). Not a row this jump opened: it is at its
  // length with the held phase's drift in its rate, which may point outwards (a BDF solver of the DAE
  // at rtol 1e-10 on a ten-link slack cable, its payload's link opening at 0.2047 s); taken as a closing, it was held again
  // with its tension at 0 and falling, a sign change no root finder sees from there on: a link that
  // pushed for the rest of the run, and the snap that ends its flight never made.
  std::vector<bool> candidates(rows_, false);
  bool closing = false;
  for (int i : one_sided_) {
    const bool at_length = g[i] / scale_[i] >= -kAtLength;
    if (!held(y, i) && !opened[i] && at_length && Gv[i] > 0.0) closing = candidates[i] = true;
    else if (held(y, i)) candidates[i] = true;
  }
  const std::vector<bool> closing_rows = candidates;  // with the held rows; a closing row is one not held before
  if (closing) {
    const ImpulseSolution impact = solve_impulses(*form_, *solver_, q, v, v, form_->restitution(), candidates);
    if (!impact.ok) throw std::runtime_error("the impulse problem at t = " + format_g(t, 10) + " s failed: " + impact.why_not);
    y.segment(n_, n_) = impact.v_plus;
    y[2 * n_] += impact.energy_taken;
    Eigen::VectorXd Gv_plus;
    form_->constraint_jacobian_times(q, impact.v_plus, Gv_plus);
    const double rate_tol = 1e-9 * (Gv.cwiseAbs().maxCoeff() + v.cwiseAbs().maxCoeff() * scale_.cwiseSqrt().maxCoeff());
    // Held: the rows that carry an impulse and end at rest along themselves (e = 0); a rebound
    // (G_i v+ = -e G_i v- < 0) flies.
    // A held row the impulses left moving inwards goes slack too.
    for (int i : one_sided_)
      if (impact.active[i]) set_held(y, i, std::abs(Gv_plus[i]) <= rate_tol, g[i] / scale_[i]);
      else if (held(y, i) && Gv_plus[i] < -rate_tol) set_held(y, i, false, g[i] / scale_[i]);
    changed = true;
  }
  std::vector<HeldFlight> held_flights;
  changed = settle_modes(t, y, &held_flights) || changed;
  // Every free row's event function restarts on the slack side: a row the jump left free at or a
  // few ulps beyond its length (grazing, not closing: G_i v <= 0 and no pull to hold it) gets its
  // present gap as its release gap, so that its next closing is a sign change a locator sees.
  for (int i : one_sided_)
    if (!held(y, i) && g[i] / scale_[i] > y[base_ + rows_ + i]) {
      set_held(y, i, false, g[i] / scale_[i]);
      changed = true;
    }
  log_jump(t, before, y, closing_rows, Gv, held_flights);
  return changed;
}

void HybridConstrainedOde::log_jump(double t, const Eigen::VectorXd& before, const Eigen::VectorXd& after,
                                    const std::vector<bool>& closing_rows, const Eigen::VectorXd& closing_rate,
                                    const std::vector<HeldFlight>& held_flights) const {
  log_.begin_jump(t);
  for (size_t k = 0; k < one_sided_.size(); ++k) {
    const int i = one_sided_[k];
    const bool was = held(before, i), is = held(after, i);
    const bool held_in_flight =
        std::any_of(held_flights.begin(), held_flights.end(), [i](const HeldFlight& f) { return f.row == i; });
    if (was && !is) log_.add(t, int(k), LoggedSwitch::Kind::Opened);
    else if (!was && closing_rows[i])
      log_.add(t, int(k), is ? LoggedSwitch::Kind::Snapped : LoggedSwitch::Kind::Touched, closing_rate[i] / scale_[i]);
    else if (!was && is && !held_in_flight) log_.add(t, int(k), LoggedSwitch::Kind::HeldAtLength);
    // After the row's other entry: a rebound or a held link's kick inwards, then held.
    for (const HeldFlight& f : held_flights)
      if (f.row == i) log_.add_held_flight(t, int(k), f.rate, f.depth, f.flight_time, f.taken);
  }
  log_.end_jump(after[2 * n_] - before[2 * n_]);
}

}  // namespace tb
