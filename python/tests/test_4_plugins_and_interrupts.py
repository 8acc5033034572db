"""Plugins load into the package's catalogue as with --plugin; Ctrl-C ends a run cleanly."""

import os
import signal
import warnings

import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")


def test_a_plugin_loads_and_its_integrator_runs_measured_like_the_others(cli, test_plugins, tmp_path):
    plugin = os.path.join(test_plugins, "libexample_rk3_plugin.so")
    assert os.path.exists(plugin), plugin
    assert tb.load_plugin(plugin) == ["integrator rk3"]
    assert "rk3" in tb.integrators()
    assert "plugin rk3_example" in tb.integrator_info("rk3")["origin"]
    res = tb.run(PLANAR, integrators=["rk3"], t_end=1.0)
    assert list(res.summary.status) == ["ok"]
    status, _, err = cli("--plugin", plugin, "run", PLANAR, "--integrator", "rk3", "--t-end", "1", "--out", tmp_path)
    assert status == 0, err
    import pandas as pd
    by_cli = tb.api._summary_frame(tmp_path / "summary.csv")  # the command line's file, typed as res.summary
    timed = ["runtime_s", "runtime_passes", "runtime_spread"]  # clock readings (test_2_same_as_cli.py)
    pd.testing.assert_frame_equal(by_cli.drop(columns=timed), res.summary.drop(columns=timed), check_exact=True)
    with pytest.raises(ValueError, match="loaded twice"):
        tb.load_plugin(plugin)  # its names are taken now


def _assert_stopped_in_step(name, step, stopped_at):
    """Registers `step` as `name` and runs it before rk4 on the planar pendulum: the interrupt that
    lands in it ends its run at the next step and rk4 never starts; the call returns both rows."""
    tb.register_integrator(name, step, order=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = tb.run(PLANAR, integrators=[name, "rk4"], t_end=1.0)
    assert res.interrupted
    assert any("interrupted" in str(w.message) for w in caught)
    detail = dict(zip(res.summary.integrator, res.summary.status_detail))
    assert list(res.summary.status) == ["interrupted", "interrupted"]  # the state in one word
    assert detail[name].startswith(stopped_at)
    assert detail["rk4"] == "interrupted before its first step (not started)"


def test_ctrl_c_interrupts_a_run_cleanly_and_python_gets_its_handler_back():
    calls = []

    def interrupting(form, t, y, h):
        calls.append(t)
        if len(calls) == 100:
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C in a terminal or a notebook sends
        return y + h * form.rhs(t, y)

    before = signal.getsignal(signal.SIGINT)
    _assert_stopped_in_step("py_interrupting", interrupting, "interrupted at t = 0.1")  # stopped at the next step
    assert len(calls) == 100
    assert signal.getsignal(signal.SIGINT) is before  # Python's own handler again
    # ... and the flag is down: the next run runs.
    assert list(tb.run(PLANAR, integrators=["rk4"], t_end=0.1).summary.status) == ["ok"]


# Issue 46 item 1: every way a notebook interrupts ends the call at the next step and keeps what ran.
COOPERATIVE = tb.bundled_case("C_cooperative_multirotors")


def _interrupted_run(**kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = tb.run(COOPERATIVE, integrators=["rk4", "lgvi"], t_end=600.0, **kwargs)
    return res, [str(w.message) for w in caught]


def _assert_cut_short(res, messages, heard):
    assert res.interrupted
    assert any("tetherbench.run was interrupted (%s)" % heard in m for m in messages)
    assert list(res.summary.status) == ["interrupted", "interrupted"]
    detail = dict(zip(res.summary.integrator, res.summary.status_detail))
    t_stop = float(detail["rk4"].split("t = ")[1].split(" ")[0])
    assert 0.0 < t_stop < 600.0  # rk4 ran part of the way: 600 s take it seconds
    assert detail["lgvi"] == "interrupted before its first step (not started)"
    series = res.timeseries("rk4")
    assert series.t.iloc[-1] == pytest.approx(t_stop, rel=1e-9)  # kept up to where it stopped
    # The flag is down and Python's handler back: the next call runs.
    assert list(tb.run(PLANAR, integrators=["rk4"], t_end=0.1).summary.status) == ["ok"]


def test_interrupt_main_during_a_compiled_run_keeps_its_result():
    import _thread
    import threading

    timer = threading.Timer(0.3, _thread.interrupt_main)  # a notebook's "interrupt the kernel"
    timer.start()
    try:
        res, messages = _interrupted_run()
    finally:
        timer.cancel()
    _assert_cut_short(res, messages, "KeyboardInterrupt")


def test_a_signal_handler_that_raises_ends_the_runs_as_interrupted():
    class Deadline(Exception):
        pass

    def on_alarm(signum, frame):
        raise Deadline("time is up")

    before = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        res, messages = _interrupted_run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, before)
    _assert_cut_short(res, messages, "Deadline")


def _stopping_step(after):
    calls = []

    def step(form, t, y, h):
        calls.append(t)
        if len(calls) == after:
            raise KeyboardInterrupt  # Ctrl-C landing in the step's own Python code
        return y + h * form.rhs(t, y)

    return step, calls


def test_keyboard_interrupt_raised_in_a_python_step_interrupts_not_fails():
    step, calls = _stopping_step(50)
    _assert_stopped_in_step("py_stopped", step, "interrupted at t = 0.049")  # after its 49 steps of 1 ms
    assert len(calls) == 50


@pytest.mark.parametrize("call", ["study", "table", "gate"])
def test_study_table_and_gate_return_what_ran_when_interrupted(call):
    step, calls = _stopping_step(30)
    tb.register_integrator("py_stopped_" + call, step, order=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if call == "study":
            out = tb.study("work_precision", cases=[PLANAR], integrators=["py_stopped_study"])
        elif call == "table":
            out = tb.table(cases=[PLANAR], integrators=["py_stopped_table", "rk4"])
        else:
            out = tb.gate(cases=[PLANAR], integrators=["py_stopped_gate", "rk4"])
    assert any("tetherbench.%s was interrupted" % call in str(w.message) for w in caught)
    assert len(calls) == 30  # nothing ran the step after the interrupt
    if call == "study":
        assert out.interrupted
    elif call == "table":
        assert out.interrupted
        assert "interrupted" in set(out.summary.status)
    else:
        assert out.attrs["interrupted"]
    # The next call runs.
    assert list(tb.run(PLANAR, integrators=["rk4"], t_end=0.1).summary.status) == ["ok"]
