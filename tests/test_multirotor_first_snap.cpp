// Issue 48: Model C's slack cables up to their first snap in closed form
// (models/multirotor_payload/first_snap.hpp): constant accelerations from one solve M_s A = phi, the
// first snap the smallest root of a link's gap, its loss Newton's law over the links that close there.
// Checked against the two event-driven families of the snap study's reference (the catalogue's
// cross-check solver and its event check, tolerance 1e-12), which integrate the hybrid form in
// natural coordinates and locate the closing by root finding: another formulation, another solver;
// and against every other event-driven method of the registry that runs the case (ida: the hybrid
// index-1 DAE, the multipliers IDA's algebraic variables, hybrid_dae_form.hpp).

#include <catch2/catch.hpp>

#include <cmath>

#include "app/input/applicability.hpp"
#include "core/hybrid_constrained_ode.hpp"
#include "studies/snap/against_reference.hpp"
#include "tests/snap_run.hpp"
#include "tests/test_support.hpp"

using namespace tb;
using namespace tb::testing;

TEST_CASE("Model C's slack cables: the first snap's time and loss in closed form, against the event-driven reference",
          "[unilateral][snap][closed_form]") {
  for (const char* name : {"C_single_snap", "C_cooperative_snap"}) {
    INFO(name);
    Case c = load_case(std::string(TETHERBENCH_CASES_DIR) + "/" + name + ".toml");
    const FirstSwitchClosedForm* first = c.model->first_switch_closed_form();
    REQUIRE(first);
    // The single cable's top link closes first; the cooperative case's three top links together.
    const int cables = c.model->switching_count() / (std::string(name) == "C_single_snap" ? 10 : 5);
    CHECK(int(first->elements.size()) == cables);
    CHECK(first->t > 0.0);
    CHECK(first->impact_loss > 0.0);
    // Up to just after the first snap, before the next link closes.
    c.t_end = first->t + 2e-3;
    std::vector<const IntegratorInfo*> solvers{&catalogue().crosscheck(), catalogue().event_check()};
    REQUIRE(solvers.back());
    for (const IntegratorInfo& info : catalogue().integrators)
      if (info.adaptive && !why_not_applicable(c, info, c.model->default_discretisation()) &&
          info.name != solvers[0]->name && info.name != solvers[1]->name)
        solvers.push_back(&info);
    CHECK(solvers.size() >= 3);
    for (const IntegratorInfo* info : solvers) {
      INFO(info->name);
      const snap::SnapRun run = observe_run(c, *info, c.h, snap::kCableReferenceRtol, 1e-5);
      REQUIRE(run.outcome.ok());
      REQUIRE(run.switches.size() == first->elements.size());
      for (size_t k = 0; k < run.switches.size(); ++k) {
        const snap::Switch& s = run.switches[k];
        CHECK(s.to_taut);
        CHECK(std::find(first->elements.begin(), first->elements.end(), s.element) != first->elements.end());
        // The observer times the switch by extrapolating the gap from a 1e-5 s grid (its error
        // estimate s.floor); the solvers' own events are at 1e-12. Measured: 6e-16 s (rk45) and
        // 7.7e-13 s (CVODE) from the closed form's 0.0405717 s; 3e-14 and 5e-13 s on the cooperative;
        // ida 1.3e-13 s on both, its loss booked 5.3e-9 and 6.2e-9 relative off as theirs.
        CHECK(std::abs(s.t - first->t) <= std::max(1e-9, 10.0 * s.floor));
      }
      // The loss booked at the located state (Newton's law on it) against the closed form's. Measured:
      // 5.2e-9 (single) and 6.2e-9 (cooperative) relative for both solvers, which agree with each
      // other to 3e-11: the hybrid form's impulse on its located state, not the solvers' error (the
      // payload's velocity before the snap agrees with A t to 15 digits). The mechanical energy's
      // drop across the snap agrees to 9e-9.
      CHECK(run.booked_total == Approx(first->impact_loss).epsilon(2e-8));
      CHECK(run.energy_lost == Approx(first->impact_loss).epsilon(2e-8));
      // The form's own record (core/jump_log.hpp): one jump, the closed form's links snapped and held at its
      // time to the solvers' own tolerance (the observer's reading above is the samples'), its loss Newton's law's.
      REQUIRE(run.own_log);
      REQUIRE(run.own_switches.size() == first->elements.size());
      double logged = 0.0;
      for (const snap::OwnSwitch& s : run.own_switches) {
        CHECK(s.what() == LoggedSwitch::Kind::Snapped);
        CHECK(std::find(first->elements.begin(), first->elements.end(), s.element) != first->elements.end());
        CHECK(s.t == run.own_switches.front().t);  // the links close together: one jump
        // The hybrid form locates a closing where the gap is kGapOffset of the length beyond it (its event
        // function's offset, core/hybrid_constrained_ode.hpp): kGapOffset / rate after the contact.
        REQUIRE(s.closing_rate > 0.0);
        UNSCOPED_INFO("own time - (closed form + offset / rate): " << s.t - first->t - HybridConstrainedOde::kGapOffset / s.closing_rate);
        CHECK(std::abs(s.t - first->t - HybridConstrainedOde::kGapOffset / s.closing_rate) <= 1e-12);
        logged += s.loss;
      }
      CHECK(logged == Approx(first->impact_loss).epsilon(2e-8));
    }
  }
}
