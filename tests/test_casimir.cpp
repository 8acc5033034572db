// The Casimir of the free rigid body, |Pi| = |J Omega| (the body angular momentum's magnitude): a
// metric added through the registry alone (core/metric_registry.cpp: casimir_err_max). Its
// formula on every form the model offers, and its physics: constant on the coadjoint orbit, so
// the LGVI (Pi' = F^T Pi, F orthogonal) and RATTLE keep it at round-off while RK4's additive
// updates of Omega leave the sphere |Pi| = const (and so do RKMK4's and CF4's, whose Omega lives
// in R^3). Other models have no Casimir: n/a, never 0.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <map>

#include "app/judging/metric_cells.hpp"
#include "app/running/round_off.hpp"
#include "core/metric_registry.hpp"
#include "tests/test_support.hpp"

using namespace tb;

namespace {
const std::string kCase = TETHERBENCH_CASES_DIR "/T_free_rigid_body.toml";
}

TEST_CASE("casimir: |Pi| = |J Omega| = |R J Omega| on every form of the free rigid body", "[casimir][registry]") {
  const Case c = testing::load_case(kCase);
  const size_t slot = invariant_slot("casimir");
  const Vec3 Pi0 = Vec3(1.0, 2.0, 3.0).asDiagonal() * Vec3(0.05, 2.0, 0.05);  // the case's J Omega0
  int forms = 0;
  for (const auto& key : runs_of(c, testing::catalogue().integrators)) {
    if (why_not_applicable(c, *key.integrator, key.discretisation)) continue;
    std::string why_not;
    const auto form = c.model->make_formulation(key.integrator->consumes, key.discretisation, why_not);
    REQUIRE(form);
    INFO(key.label());
    const Observation o = form->observe(0.0, form->initial_state());
    CHECK(o.invariants[slot] == Approx(Pi0.norm()).epsilon(1e-15));
    // R0 = I here; the spatial momentum's magnitude is the same number for any orthogonal R.
    CHECK(o.invariants[slot] == Approx(std::hypot(o.extra[0], o.extra[1], o.extra[2])).epsilon(1e-15));
    CHECK(violable_invariants(*c.model, *form).invariants[slot]);
    ++forms;
  }
  CHECK(forms >= 10);
}

TEST_CASE("casimir: the LGVI and RATTLE keep |Pi| at round-off, RK4 and RKMK4 drift - other models print n/a (no Casimir)",
          "[casimir][registry]") {
  const Case c = testing::load_case(kCase);
  const MetricSpec& casimir = metric_spec("casimir_err_max");
  RunOptions options;
  options.min_timed_s = 0.0;
  std::map<std::string, SummaryRow> rows;  // the case's full 20 s (2000 steps at h = 10 ms)
  for (const auto& key : runs_of(c, testing::catalogue().integrators)) {
    SummaryRow row = run_case(key, options);
    if (row.outcome.not_applicable()) continue;
    REQUIRE(row.outcome.ok());
    std::printf("  casimir_err_max %-18s %.3e  (round-off floor %.3e)\n", row.integrator.c_str(), casimir.value(row.metrics),
                round_off_floor(casimir, row));
    rows.emplace(row.integrator, std::move(row));
  }
  // The variational methods: the LGVI's Pi' = F^T Pi and RATTLE's exact spatial momentum on an
  // orthogonal R (measured 1.3e-14 to 2.9e-14 N m s over 20 s).
  for (const char* kept : {"lgvi", "lgvi4", "rattle", "rattle4"}) {
    INFO(kept);
    REQUIRE(rows.count(kept));
    const SummaryRow& r = rows.at(kept);
    CHECK(casimir.value(r.metrics) <= round_off_floor(casimir, r));  // 8 eps |Pi0| sqrt(steps) = 3.6e-13 N m s
  }
  // RK4 adds increments to Omega: 2.1e-10 N m s over 20 s, 665 x the floor. The Lie group RK
  // methods (rkmk4, cf4) move R on SO(3) but Omega in R^3, so they drift exactly as RK4 does.
  for (const char* drifts : {"rk4", "rkmk4", "cf4"}) {
    INFO(drifts);
    REQUIRE(rows.count(drifts));
    const SummaryRow& r = rows.at(drifts);
    CHECK(casimir.value(r.metrics) > 100.0 * round_off_floor(casimir, r));
    CHECK(casimir.value(r.metrics) < 1e-9);  // still a 4th-order method's error at h = 10 ms
  }
  const SummaryRow& rk4 = rows.at("rk4");
  CHECK(metric_cell(rk4, casimir) != "n/a (no Casimir)");
  // A model without the invariant: its metric is n/a with the registry's reason.
  const Case pendulum = testing::load_case(TETHERBENCH_CASES_DIR "/T_planar_pendulum_60deg.toml");
  options.t_end = 3.0 * pendulum.h;
  const SummaryRow other = run_case(pendulum, testing::integrator("rk4"), options);
  CHECK_FALSE(other.violable.covers(casimir));
  CHECK(metric_cell(other, casimir) == "n/a (no Casimir)");
  CHECK(std::isnan(casimir.value(other.metrics)));
}
