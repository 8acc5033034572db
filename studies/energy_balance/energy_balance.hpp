#pragma once
// Study energy_balance: does a run's energy balance close at the method's order? Where a model
// does external work (damping, control, a reel's Carnot term), the suite judges a run's energy by
// the balance residual E(t) - E(0) - W(t), W the work the run accumulated itself (each stepper's
// own quadrature: a trailing state of the ODE, or the trapezoidal work of work_terms.hpp). The
// exact motion has residual 0, so over a fixed horizon the residual of a method of order q whose W
// is accumulated to order r converges as h^min(q, r); the study measures that order over a step
// sweep, by the one order rule of orders.csv (app/judging/order_fit.hpp), for every fixed-step
// integrator that runs the case. A balance that converges below the declared order says the work
// is accounted for at a lower order than the motion (the residual then mixes the two, and the
// energy columns of the case's tables are that much less sharp); one at the declared order says
// the energy columns measure the method.
//
// Its own table of a case file, [report.energy_balance] (the study runs only on cases with one):
//   steps  the fixed steps h of the sweep (s, at least 3); default the case's [report] steps
//   t_end  the horizon (s); default the case's [report] reference_t_end; at most the case's t_end
// Writes energy_balance.csv (one row per run) and energy_balance.md (the orders, per case).

#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"

namespace tb {

struct EnergyBalance final : StudySection {
  static constexpr const char* kStudy = "energy_balance";
  std::vector<double> steps;  // s, coarse to fine as given
  double t_end = 0.0;         // s
  // Every fixed-step integrator that runs the case is swept, so no selection can leave the table
  // without its integrator: kept whole (the default restricted()). Its finest runs are held to
  // --max-steps like the case's own.
  std::vector<Span> fixed_step_spans() const override;
};

StudyInfo energy_balance_study();
// Its figures in a report (StudyInfo::figures; studies/energy_balance/figures.cpp).
void energy_balance_figures(const FigureRequest& request, std::vector<Figure>& figures);

}  // namespace tb
