#pragma once
// The hybrid ODE of any constrained form with one-sided constraints (issue 48: links that go slack
// and snap taut), for event-driven methods: between events an ODE, at each located event a jump.
//
// State y = [q (n), v (n), W (the form's work terms), mode (one per constraint row: 1 held, 0 not),
// release gap (one per row: where a free row was released, max(0, g_i / s_i) then)].
// Between events the held rows (every equality row, and the one-sided rows in mode 1) are
// Baumgarte-stabilised at the acceleration level (seed 004 §3, the index-1 equations the DAE forms
// use), the others free:
//   q' = v,   [M  G_A^T] [v'    ]   [f(t, q, v)                           ]
//             [G_A  0  ] [lambda] = [-(dG/dt) v - 2 p G v - p^2 g, rows A]
// with the form's own structured solver on the held rows (factor_active) and its curvature
// (dG/dt) v = d^2 g/dq^2 [v, v] (ConstrainedMechanicalFormulation::constraint_curvature).
//
// Event functions, one per one-sided row, read the mode: a held row its tension lambda_i sqrt(s_i)
// over the form's force scale (it opens where that falls through 0), a free row its gap
// g_i / s_i (it closes where that reaches 0; s_i = constraint_scale, so g_i / s_i ~ (|d| - l) / l
// on a link), less its release gap: a row released a few ulps beyond its length (the held rows'
// Baumgarte drift) starts on the slack side, so its next closing is a sign change. At a located
// event apply_jump:
//   - releases the held rows whose tension is at its zero;
//   - at rows that close (at their length, G_i v > 0) solves the impulse problem over them and the
//     held rows (core/unilateral_impulse.hpp: an LCP by principal pivoting with Newton's impact
//     law; a snap propagates through taut links), books its loss in W, and holds the rows that
//     end at rest along themselves;
//   - settles the modes at the acceleration level (a held row that would push is released, a free
//     row at its length that would stretch is held: least-index pivoting, as the impulse problem).
// A run of jumps that do not advance time (a Zeno accumulation) is reported, never looped on.

#include <algorithm>
#include <memory>
#include <vector>

#include "core/formulation.hpp"
#include "core/zeno_guard.hpp"

namespace tb {

struct HybridTimeScales {
  double baumgarte_rate = 0.0;  // p (1/s): the held rows' drift decays like exp(-p t)
  double time_scale = 0.0;      // the fastest motion's time (s): Zeno's and the rate probes' unit
};

// Where the form locates a closing and which inward flights it holds instead of integrating, both
// relative to a row's scale s_i (a link's length); a model may take them from its case ([model]
// closing_offset and held_flight_depth on Model C) so that a study can measure their share of a run.
struct HybridClosingRules {
  double closing_offset = 1e-10;    // HybridConstrainedOde::kGapOffset
  double held_flight_depth = 1e-8;  // HybridConstrainedOde::kShallowFlight; 0: every inward flight integrated
};

class HybridConstrainedOde final : public OdeFormulation {
 public:
  // The form must have one-sided rows and a work term (it throws std::invalid_argument otherwise).
  // Throws std::invalid_argument where the closing rules are not finite, the offset not positive or the
  // depth negative.
  HybridConstrainedOde(std::unique_ptr<const ConstrainedMechanicalFormulation> form, HybridTimeScales scales,
                       HybridClosingRules closing = {});
  const HybridClosingRules& closing_rules() const { return closing_; }
  IntegratedConstraints integrated_constraints() const override { return {true, true}; }
  int state_size() const override { return base_ + 2 * rows_; }
  Eigen::VectorXd initial_state() const override;
  void rhs(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dydt) const override;
  Observation observe(double t, const Eigen::VectorXd& y) const override { return form_->observe(t, y.head(base_)); }
  std::vector<std::string> extra_column_names() const override { return form_->extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return form_->physical_state(y.head(base_)); }
  void switching_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& s, Eigen::VectorXd& rate) const override;
  bool apply_jump(double t, Eigen::VectorXd& y) const override;
  const JumpLog* jump_log() const override { return &log_; }

  // A free row's event function is its gap less its release gap less this (relative to the row's
  // scale): a row released at its length starts this far on the slack side, so its next closing is a
  // sign change. It must exceed what a locator's interpolant can mistake for a sign change: 64 ulps
  // did not (a BDF method's interpolant, accurate to about rtol, put a row released at -64 ulps across 0 at
  // every probe, and the no-op jumps that followed came 1000 times within 1e-10 s on a ten-link
  // cable). The snap is located this far beyond the length, a time error of kGapOffset l / v_r, and
  // a closing's rate gains sqrt(2 g'' kGapOffset l) from the free acceleration g'' over that
  // distance; flights no deeper than the held flight depth are held instead (settle_modes), so the two rules set
  // where the resolved sequence of a snap's echoes ends. Measured on C_single_snap (the explicit Runge-Kutta
  // reference at rtol 1e-12, the snap study's rules table): from 1e-10 to 1e-11 and 1e-12 the same 116 record
  // entries, the configuration at t_end 3.9e-7 and 4.3e-7 m and the energy lost 1.8e-8 and 2.0e-8 J away, about
  // linear in the offset (a slow closing's time error offset l / v_r is largest where v_r is least); 1e-12 of a
  // length is a few thousand ulps, close to what a loose BDF interpolant mistakes for a sign change (above).
  // Public: a closing's own event time is its contact's plus this over its rate (the tests' exact answer).
  // The default of HybridClosingRules::closing_offset.
  static constexpr double kGapOffset = 1e-10;
  // A free row at its length moving inwards whose flight reaches no deeper than this (relative to its
  // length: G v^2 / (2 g'' s)) is held and its inward rate stopped plastically, as a flight too short
  // to integrate is (settle_modes): 100 closing offsets, where the offset's share of its return's rate is
  // below 0.5 %. The default of HybridClosingRules::held_flight_depth.
  static constexpr double kShallowFlight = 100.0 * kGapOffset;
  // A row held in flight by settle_modes: what the flight would have been and what the hold took.
  struct HeldFlight {
    int row = 0;
    double rate = 0.0;         // G_i v / s_i when held (1/s; < 0: inwards)
    double depth = 0.0;        // the flight's depth, (G_i v)^2 / (2 g'' s_i), relative to the length
    double flight_time = 0.0;  // its duration back to the length, 2 |G_i v| / g'' (s)
    double taken = 0.0;        // the energy its plastic stop took, booked in W (J)
  };

 private:
  // Each one-sided row whose mode the jump from `before` to `after` changed, or that closed in it
  // (closing_rows: the impulse problem's rows, a closing one not held before; closing_rate: G v before the
  // jump, every row), and the loss it booked.
  void log_jump(double t, const Eigen::VectorXd& before, const Eigen::VectorXd& after, const std::vector<bool>& closing_rows,
                const Eigen::VectorXd& closing_rate, const std::vector<HeldFlight>& held_flights) const;
  // The held rows' multipliers at y without the stabilisation's terms (the modes' tension, Stabilisation below), all
  // rows; false where singular.
  bool multipliers(double t, const Eigen::VectorXd& y, Eigen::VectorXd& lambda) const;
  bool held(const Eigen::VectorXd& y, int row) const { return y[base_ + row] > 0.5; }
  // Holds a row, or frees it at its present relative gap g_i / s_i (its release gap, header).
  void set_held(Eigen::VectorXd& y, int row, bool hold, double relative_gap) const {
    y[base_ + row] = hold ? 1.0 : 0.0;
    y[base_ + rows_ + row] = hold ? 0.0 : std::max(0.0, relative_gap);
  }
  // Whether the held rows' equations carry the Baumgarte terms 2 p g' + p^2 g. The flow (rhs) does: they pull
  // the solver's drift off the constraint. The modes do not (the held rows' tensions in the event functions, the
  // openings at a jump, settle_modes' push and stretch tests): whether a link pulls is the motion's question, and
  // the terms answer the drift's. At a jump the state is on the manifold first (project_onto_held_rows), where the
  // two agree; between events the event functions read states off it, where at a held link near zero tension the
  // correction of a drift of about rtol l decides the sign. Measured on a ten-link slack cable, a BDF solver of the
  // index-1 DAE at rtol 1e-7 and 1e-8 with the terms and no projection kept a link held past the zero of its
  // tension, where the reference opens it, and ended 0.219 m off with 2765 jumps against the reference's 63
  // (tests/test_unilateral_cable.cpp). The tension without them is the one the acceleration-level complementarity
  // holds for, as the observer's.
  enum class Stabilisation { On, Off };
  // v' and lambda on the held rows of y.
  bool accelerations(double t, const Eigen::VectorXd& y, Eigen::VectorXd& a, Eigen::VectorXd& lambda,
                     Stabilisation stabilisation = Stabilisation::On) const;
  // A held row's tension over the force scale.
  double tension_value(const Eigen::VectorXd& lambda, int row) const;
  // Projects v onto the held rows' G v = 0 and books the energy that takes (a link held at the end of
  // an accumulation of micro-rebounds). False where the system is singular.
  // `taken`: the energy it took (J).
  bool stop_inward_rate(Eigen::VectorXd& y, double& taken) const;
  // Puts q on the held rows' manifold g_A(q) = 0 and v on G_A v = 0 (every equality row and every held one), at a
  // located event before any decision: the integration's drift off it (about rtol of a length) is what the
  // stabilisation's terms answer, and a link released beyond its length, or at an outward rate, by that drift closes
  // again one closing offset further out. The standard step of event-driven schemes at an event (Acary & Brogliato
  // 2008). Not booked as work: the kinetic energy it moves is the integration's error, which E - E0 - W keeps.
  // Returns true where it projected (any row held or an equality row); false where none is, or where the held rows'
  // system is singular (y then untouched).
  bool project_onto_held_rows(Eigen::VectorXd& y) const;
  // The acceleration-level modes (header). Returns whether a mode changed; the rows it held in flight,
  // where asked.
  bool settle_modes(double t, Eigen::VectorXd& y, std::vector<HeldFlight>* held_flights = nullptr) const;

  std::unique_ptr<const ConstrainedMechanicalFormulation> form_;
  HybridTimeScales scales_;
  HybridClosingRules closing_;
  int n_, rows_, base_;
  std::vector<int> one_sided_;
  std::vector<bool> equality_;
  Eigen::VectorXd scale_;  // constraint_scale()
  double force_scale_ = 1.0;
  mutable std::unique_ptr<ConstrainedMechanicalSolver> solver_;  // one formulation object per run
  mutable ZenoGuard zeno_;
  mutable JumpLog log_;  // one formulation object per run, as the guard
};

}  // namespace tb
