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


def test_ctrl_c_interrupts_a_run_cleanly_and_python_gets_its_handler_back():
    calls = []

    def interrupting(form, t, y, h):
        calls.append(t)
        if len(calls) == 100:
            os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C in a terminal or a notebook sends
        return y + h * form.rhs(t, y)

    tb.register_integrator("py_interrupting", interrupting, order=1)
    before = signal.getsignal(signal.SIGINT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = tb.run(PLANAR, integrators=["py_interrupting", "rk4"], t_end=1.0)
    assert res.interrupted
    assert any("interrupted" in str(w.message) for w in caught)
    status = dict(zip(res.summary.integrator, res.summary.status_detail))
    assert list(res.summary.status) == ["interrupted", "interrupted"]  # the state in one word
    assert status["py_interrupting"].startswith("interrupted at t = 0.1")  # stopped at the next step
    assert status["rk4"] == "interrupted before its first step (not started)"
    assert len(calls) == 100
    assert signal.getsignal(signal.SIGINT) is before  # Python's own handler again
    # ... and the flag is down: the next run runs.
    assert list(tb.run(PLANAR, integrators=["rk4"], t_end=0.1).summary.status) == ["ok"]
