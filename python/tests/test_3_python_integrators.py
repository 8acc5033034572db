"""Integrators written in Python, measured like the compiled ones: orders from the work-precision
study's orders.csv (the report's rule), their rows through the same runner and instability
criterion, their failures as results."""

import numpy as np
import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")


def euler(form, t, y, h):
    return y + h * form.rhs(t, y)


def midpoint(form, t, y, h):
    k1 = form.rhs(t, y)
    return y + h * form.rhs(t + h / 2, y + h / 2 * k1)


@pytest.fixture(scope="module", autouse=True)
def python_methods():
    # Neither method's stability region holds an interval of the imaginary axis (HLW: undamped
    # oscillations grow at every h), which the instability criterion's judgement reads.
    tb.register_integrator("py_euler", euler, consumes="ode", order=1, traits={"imaginary_axis_stable": False})
    tb.register_integrator("py_midpoint", midpoint, consumes="ode", order=2, traits={"imaginary_axis_stable": False})


@pytest.fixture(scope="module")
def orders():
    frames = tb.study("work_precision", PLANAR, integrators=["py_euler", "py_midpoint", "rk2"])
    table = frames["orders.csv"]
    return {row.integrator: row for row in table.itertuples()}


@pytest.mark.parametrize("name, declared", [("py_euler", 1), ("py_midpoint", 2)])
def test_a_python_method_is_measured_at_its_order(orders, name, declared):
    row = orders[name]
    assert row.declared_order == declared
    # orders.csv's rule: a fit over the asymptotic range with its 95% interval. The fit is tight
    # enough (intervals of 0.01) that the O(h) correction to the leading error term shows: an
    # interval may miss the declared order by a few thousandths, as for the compiled methods (rk2
    # on the elastic pendulum, the free rigid body). By the one rule (app/judging/order_fit.hpp
    # judge_order; issue 44) that is a note, never a flag; up to then it was flagged.
    assert abs(row.measured_order - declared) < 0.03, row
    assert row.points.startswith("4 of 4") or row.points.startswith("3 of 4"), row
    assert not (isinstance(row.flag, str) and row.flag), row.flag
    if "misses the declared" in row.note:
        gap = float(row.note.split(" by ")[1].split(",")[0])
        assert gap < 0.02, row.note


def test_the_python_midpoint_rule_is_the_compiled_one(orders):
    # The same method (the explicit midpoint rule is rk2) written twice gives the same errors.
    py, cpp = orders["py_midpoint"], orders["rk2"]
    assert py.measured_order == pytest.approx(cpp.measured_order, abs=1e-3)
    assert py.order_ci95 == pytest.approx(cpp.order_ci95, rel=1e-3)
    assert py.error_max == pytest.approx(cpp.error_max, rel=1e-6)
    # No flag on either (the one order rule, issue 44: NaN in the frame), or the same flag.
    assert (py.flag == cpp.flag) or (not isinstance(py.flag, str) and not isinstance(cpp.flag, str))


def test_a_python_run_goes_through_the_same_runner_and_its_runtime_says_python():
    res = tb.run(PLANAR, integrators=["py_midpoint", "rk2"], t_end=2.0)
    s = res.summary.set_index("integrator")
    assert list(s.status) == ["ok", "ok"]
    assert s.loc["py_midpoint", "runtime_code"] == "python" and s.loc["rk2", "runtime_code"] == "compiled"
    assert s.loc["py_midpoint", "steps"] == s.loc["rk2", "steps"] == 2000
    assert s.loc["py_midpoint", "rhs_evals"] == 2 * 2000  # counted by form.rhs
    # Same method, same metrics: the energy error of the midpoint rule agrees with rk2's to round-off.
    assert s.loc["py_midpoint", "energy_err_max"] == pytest.approx(s.loc["rk2", "energy_err_max"], rel=1e-6)
    ts = res.timeseries("py_midpoint")
    assert ts.t.iloc[-1] == pytest.approx(2.0) and len(ts) == 201


def test_a_step_that_raises_is_that_runs_failure():
    def fragile(form, t, y, h):
        if t >= 0.5:
            raise ZeroDivisionError("the step broke at t = %g" % t)
        return euler(form, t, y, h)

    tb.register_integrator("py_fragile", fragile, order=1, traits={"imaginary_axis_stable": False})
    res = tb.run(PLANAR, integrators=["py_fragile", "rk4"], t_end=1.0)
    status = dict(zip(res.summary.integrator, res.summary.status_detail))
    assert dict(zip(res.summary.integrator, res.summary.status)) == {"py_fragile": "failed", "rk4": "ok"}
    assert status["py_fragile"].startswith("failed: the Python step raised ZeroDivisionError: the step broke at t = 0.5")
    assert "at t = 0.5 s, step 501" in status["py_fragile"]
    assert "(in fragile, " + __file__ in status["py_fragile"]  # where it was raised: function, file, line
    assert status["rk4"] == "ok"  # the other runs go on
    assert np.isnan(res.summary.set_index("integrator").loc["py_fragile", "energy_err_max"])  # no metric shown as a result
    assert len(res.timeseries("py_fragile")) == 51  # what was written is kept: samples up to t = 0.5


def test_a_step_returning_nonsense_fails_its_run_saying_how():
    tb.register_integrator("py_short", lambda form, t, y, h: y[:1], order=1)
    tb.register_integrator("py_none", lambda form, t, y, h: None, order=1)
    tb.register_integrator("py_nan", lambda form, t, y, h: y * np.nan, order=1)
    tb.register_integrator("py_column", lambda form, t, y, h: y.reshape(1, -1), order=1)
    res = tb.run(PLANAR, integrators=["py_short", "py_none", "py_nan", "py_column"], t_end=0.1)
    status = dict(zip(res.summary.integrator, res.summary.status_detail))
    assert dict(zip(res.summary.integrator, res.summary.status)) == {
        "py_short": "failed", "py_none": "failed", "py_nan": "diverged", "py_column": "failed"}
    assert status["py_short"].startswith("failed: the Python step returned 1 numbers, expected 2 (the state's size)")
    assert status["py_none"].startswith("failed: the Python step returned NoneType, expected a 1-D array of 2 numbers")
    assert status["py_column"].startswith("failed: the Python step returned a ndarray of shape (1, 2), expected a 1-D array")
    assert set(res.summary.runtime_code) == {"python"}  # a failed run still says what ran its steps
    assert status["py_nan"].startswith("diverged at h = 0.001: the Python step returned a non-finite state")


def test_a_form_kept_after_its_run_raises():
    kept = []

    def keeping(form, t, y, h):
        kept.append(form)
        return euler(form, t, y, h)

    tb.register_integrator("py_keeping", keeping, order=1)
    tb.run(PLANAR, integrators=["py_keeping"], t_end=0.01)
    with pytest.raises(RuntimeError, match="belongs to a run that has ended"):
        kept[0].rhs(0.0, np.zeros(2))


def test_declared_settings_reach_the_step_and_are_checked():
    seen = []

    def theta_step(form, t, y, h, settings):
        seen.append(settings["theta"])
        return euler(form, t, y, h)

    tb.register_integrator("py_theta", theta_step, order=1,
                           settings={"theta": {"default": 0.5, "meaning": "weight", "lower": 0.0, "upper": 1.0,
                                               "lower_inclusive": True}})
    tb.run(PLANAR, integrators=["py_theta"], t_end=0.01, settings={"py_theta": {"theta": 0.25}})
    assert set(seen) == {0.25}
    with pytest.raises(ValueError, match="py_theta.theta"):
        tb.run(PLANAR, integrators=["py_theta"], t_end=0.01, settings={"py_theta": {"theta": 2.0}})
    assert "theta" in tb.integrator_info("py_theta")["settings"]


def test_names_of_the_catalogue_are_not_taken():
    with pytest.raises(ValueError, match="taken by the catalogue"):
        tb.register_integrator("rk4", euler)
    with pytest.raises(ValueError, match="lower-case"):
        tb.register_integrator("Py Euler", euler)
    with pytest.raises(ValueError, match="unknown formulation 'odes'"):
        tb.register_integrator("py_x", euler, consumes="odes")
    # A Python integrator registered again (a notebook cell run again) replaces itself.
    tb.register_integrator("py_euler", euler, order=1, traits={"imaginary_axis_stable": False})
    assert tb.integrators().count("py_euler") == 1
    assert tb.integrator_info("py_euler")["interpreter"] == "python"


def test_the_report_table_says_python_beside_an_interpreted_runtime():
    t = tb.table(PLANAR, integrators=["py_midpoint", "rk2"])
    rows = t.summary.set_index("integrator")
    assert rows.loc["py_midpoint", "runtime_code"] == "python" and rows.loc["rk2", "runtime_code"] == "compiled"
    lines = [line for line in t.markdown.splitlines() if line.startswith("| py_midpoint") or line.startswith("| rk2")]
    assert lines and any("(python)" in line for line in lines if line.startswith("| py_midpoint"))
    assert not any("(python)" in line for line in lines if line.startswith("| rk2"))


def test_a_python_method_is_gated_like_a_compiled_one(tmp_path):
    """Envelopes recorded for a Python method hold while it is unchanged; a change that degrades it
    (the midpoint rule replaced by Euler under the same name) fails its gates."""
    envelopes = tmp_path / "my_envelopes.csv"
    tb.register_integrator("py_gated", midpoint, order=2, traits={"imaginary_axis_stable": False})
    recorded = tb.gate(PLANAR, integrators=["py_gated"], envelopes=envelopes, record=True)
    assert recorded["recorded"] and recorded["refused"] == []
    assert "T_planar_pendulum_60deg,py_gated,energy_err_max,max," in envelopes.read_text()
    checks = tb.gate(PLANAR, integrators=["py_gated"], envelopes=envelopes)
    assert list(checks.columns) == ["case", "integrator", "metric", "outcome", "message"]  # GateCheck's described fields
    assert len(checks) >= 2 and set(checks.outcome) == {"ok"}, checks.message.tolist()
    assert (checks.metric == "order").any()
    tb.register_integrator("py_gated", euler, order=2, traits={"imaginary_axis_stable": False})  # degraded
    checks = tb.gate(PLANAR, integrators=["py_gated"], envelopes=envelopes)
    failed = checks[checks.outcome == "failed"]
    assert set(failed.metric) >= {"energy_err_max", "order"}, checks.message.tolist()


def test_the_runtime_ranking_leaves_an_interpreted_method_out_and_says_so():
    frames = tb.study("work_precision", PLANAR, integrators=["py_midpoint", "rk2", "rk4"])
    rankings = frames["work_precision_rankings.csv"]
    by_work = {row.work: row for row in rankings.itertuples()}
    assert "py_midpoint" not in by_work["runtime"].ranking.split(" ")
    assert "left out of the runtime ranking" in by_work["runtime"].note and "py_midpoint (python)" in by_work["runtime"].note
    if by_work["rhs_evals"].ranking not in ("inconclusive", "short-time accuracy only"):
        assert "py_midpoint" in by_work["rhs_evals"].ranking  # evaluations compare across languages


def test_the_conformance_checks_judge_a_python_methods_declarations():
    """check_integrator runs check-plugin's integrator checks: the midpoint rule passes as order 2;
    declared symplectic and conserving the momentum map, which it is not, it fails those checks."""
    honest = tb.check_integrator("py_midpoint").set_index("check")
    assert honest.loc["declared order", "result"] == "pass", honest.loc["declared order"].tolist()
    assert "FAIL" not in set(honest.result), honest[honest.result == "FAIL"].reason.tolist()
    tb.register_integrator("py_boastful", midpoint, order=2,
                           traits={"imaginary_axis_stable": False, "symplectic": True, "conserves_momentum_map": True})
    boastful = tb.check_integrator("py_boastful").set_index("check")
    failed = set(boastful[boastful.result == "FAIL"].index)
    assert {"trait: conserves the momentum map", "trait: energy (symplectic / dissipative / drift)"} <= failed, \
        boastful.reason.tolist()
    assert boastful.loc["declared order", "result"] == "pass"


def test_a_python_step_runs_once_per_pass_and_the_passes_are_in_the_results():
    """Issue 46: no timing floor for an interpreted method. Its step runs once per step of the run,
    `repeats` passes and no more, and the summary says how many passes each runtime is the fastest of;
    a compiled run keeps the floor unless min_timed_s=0."""
    calls = []

    def counted(form, t, y, h):
        calls.append(t)
        return midpoint(form, t, y, h)

    tb.register_integrator("py_counted", counted, order=2, traits={"imaginary_axis_stable": False})
    steps = 100
    t_end = steps * tb.load_case(PLANAR).h
    res = tb.run(PLANAR, integrators=["py_counted"], t_end=t_end)
    assert len(calls) == steps  # one pass: the run's 100 steps, once
    assert res.summary.runtime_passes.tolist() == [1]
    calls.clear()
    res = tb.run(PLANAR, integrators=["py_counted"], t_end=t_end, repeats=3)
    assert len(calls) == 3 * steps
    assert res.summary.runtime_passes.tolist() == [3]
    # Every compiled run of the case (the registry's): one pass with the floor off, and the
    # sub-millisecond runs repeated under the default floor.
    compiled = [name for name in tb.integrators() if tb.integrator_info(name)["interpreter"] == ""]
    one = tb.run(PLANAR, integrators=compiled, t_end=t_end, min_timed_s=0)
    measured = one.summary[~one.summary.status.str.startswith("n/a")]
    assert len(measured) >= 10 and set(measured.runtime_passes) == {1}
    floored = tb.run(PLANAR, integrators=compiled, t_end=t_end)
    assert floored.summary[~floored.summary.status.str.startswith("n/a")].runtime_passes.max() > 1
    with pytest.raises(ValueError, match="min_timed_s: expected a finite number >= 0"):
        tb.run(PLANAR, integrators=["py_counted"], t_end=t_end, min_timed_s=-1.0)


def test_a_python_method_claims_no_trait_it_does_not_declare():
    """Issue 46: a Heun step registered without traits claimed an interval of the imaginary axis
    (the compiled default) and then failed the stability map's reading on Model C."""
    tb.register_integrator("py_plain", midpoint, order=2)
    traits = tb.integrator_info("py_plain")["traits"]
    claimed = [name for name, value in traits.items() if isinstance(value, bool) and value]
    assert claimed == [], claimed
    assert np.isnan(traits["imaginary_axis_bound"])
    tb.register_integrator("py_plain", midpoint, order=2, traits={"imaginary_axis_stable": True})
    assert tb.integrator_info("py_plain")["traits"]["imaginary_axis_stable"] is True
