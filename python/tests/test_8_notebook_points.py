"""Issue 46 item 5, as a notebook user meets it: progress shown where the process's stderr is not,
errors in Python's words, a wrongly shaped array refused with ValueError, a gate row without an
envelope named."""

import sys

import numpy as np
import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")


def test_progress_reaches_pythons_stderr_where_it_is_not_a_terminal(capsys):
    # pytest's captured sys.stderr, like a notebook's, is not a terminal: the lines come through Python.
    assert not sys.stderr.isatty()
    calls = []

    def slow(form, t, y, h):  # a Python step of about 1 ms: 2.5 s of run, a progress line every 2 s
        calls.append(t)
        end = __import__("time").perf_counter() + 1e-3
        while __import__("time").perf_counter() < end:
            pass
        return y + h * form.rhs(t, y)

    tb.register_integrator("py_slow_progress", slow, order=1)
    tb.run(PLANAR, integrators=["py_slow_progress"], t_end=2.5, progress=True)
    err = capsys.readouterr().err
    assert "T_planar_pendulum_60deg | py_slow_progress" in err and "t = " in err
    tb.table(cases=[PLANAR], integrators=["rk4"], progress=True)
    assert "jobs: " in capsys.readouterr().err  # the job list's closing line
    tb.run(PLANAR, integrators=["rk4"], t_end=0.5)
    assert "py_slow_progress" not in capsys.readouterr().err  # progress=False: nothing


def test_errors_name_the_python_parameters():
    with pytest.raises(ValueError, match=r"^settings rk45\.rtl=1e-08: ") as bad_setting:
        tb.run(PLANAR, integrators=["rk45"], t_end=0.1, settings={"rk45": {"rtl": 1e-8}})
    with pytest.raises(ValueError, match=r"^integrators: unknown integrator 'rk5'") as bad_name:
        tb.run(PLANAR, integrators=["rk5"], t_end=0.1)
    with pytest.raises(ValueError, match=r"^jobs: expected an integer from 1 to 1024") as bad_jobs:
        tb.table(cases=[PLANAR], jobs=0)
    for raised in (bad_setting, bad_name, bad_jobs):
        assert "--" not in str(raised.value)


def test_a_wrongly_shaped_array_is_a_value_error_naming_the_method():
    def flat_and_square(form, t, y, h):
        return y + h * form.rhs(t, np.vstack([y, y]))  # a 2-D array where the state goes

    tb.register_integrator("py_bad_shape", flat_and_square, order=1)
    res = tb.run(PLANAR, integrators=["py_bad_shape"], t_end=0.01)
    detail = res.summary.status_detail.iloc[0]
    assert "the Python step raised ValueError: OdeForm.rhs: expected 1-D arrays of numbers" in detail
    assert "an array of shape (2, " in detail
    assert "TypeError" not in detail


def test_a_gate_without_an_envelope_names_what_is_missing():
    # A method of one's own before recording: the bundled envelopes have none of it.
    tb.register_integrator("py_unguarded", lambda form, t, y, h: y + h * form.rhs(t, y), order=1)
    rows = tb.gate(cases=[PLANAR], integrators=["py_unguarded"])
    missing = rows[rows.metric == "envelope"]
    assert len(missing) == 1 and missing.outcome.iloc[0] == "failed"
    assert "no envelope in" in missing.message.iloc[0] and "record=True" in missing.message.iloc[0]
    assert (rows.metric != "").all()
