"""tetherbench.run is `tetherbench run`: the same rows and time series, to the bit.

The package and the executable run the same compiled code (one set of libraries) on the same
inputs, so every metric, count and status is identical: the comparison is exact. Only the runtime columns
differ, being measurements of this machine's clock in two separate runs."""

import os

import pandas as pd
import pytest

import tetherbench as tb

# The clock readings: the runtime, and how many passes it is the minimum of and their spread
# (the passes continue until min_timed_s of them, so their number is a clock reading too).
TIMED = ["runtime_s", "runtime_passes", "runtime_spread"]


@pytest.mark.parametrize(
    "case, integrators, t_end",
    [
        ("T_planar_pendulum_60deg", ["rk4", "rattle", "ida", "lgvi", "rkmk4"], 1.0),
        ("C_single_multirotor", ["lgvi", "rk4", "rk45"], 0.5),
    ],
)
def test_summary_and_timeseries_equal_the_command_lines(cli, tmp_path, case, integrators, t_end):
    path = tb.bundled_case(case)
    args = ["run", path, "--t-end", t_end, "--out", tmp_path / "cli"]
    for name in integrators:
        args += ["--integrator", name]
    status, _, err = cli(*args)
    assert status == 0, err
    res = tb.run(path, integrators=integrators, t_end=t_end)
    by_cli = pd.read_csv(tmp_path / "cli" / "summary.csv", keep_default_na=False)  # the file's text, "n/a" as written
    assert list(by_cli.integrator) == res.labels
    # The same cells, as res.summary types them (counts integer, not_integrated a list, discretisation
    # text, status the state's word beside status_detail): the command line's file read as tetherbench reads it.
    by_cli_typed = tb.api._summary_frame(tmp_path / "cli" / "summary.csv")
    assert list(by_cli_typed.columns) == list(res.summary.columns)
    assert list(by_cli.state) == list(res.summary.status) and list(by_cli.status) == list(res.summary.status_detail)
    pd.testing.assert_frame_equal(by_cli_typed.drop(columns=TIMED), res.summary.drop(columns=TIMED), check_exact=True)
    measured = [label for label in res.labels if not res.status(label).startswith("n/a")]
    assert measured and set(res._timeseries) == set(measured)  # n/a runs write none, as on the command line
    for label in measured:
        with open(tmp_path / "cli" / res.case / label / "timeseries.csv") as f:
            cli_text = f.read()
        assert res._timeseries[label] == cli_text  # byte for byte
        pd.testing.assert_frame_equal(res.timeseries(label), pd.read_csv(tmp_path / "cli" / res.case / label / "timeseries.csv"))
    # write() gives the files `run --out` gives.
    res.write(tmp_path / "py")
    written = tb.api._summary_frame(tmp_path / "py" / "summary.csv")
    pd.testing.assert_frame_equal(by_cli_typed.drop(columns=TIMED), written.drop(columns=TIMED), check_exact=True)
    for label in measured:
        a = (tmp_path / "py" / res.case / label / "timeseries.csv").read_bytes()
        b = (tmp_path / "cli" / res.case / label / "timeseries.csv").read_bytes()
        assert a == b


def test_write_appends_as_run_out_does_and_refuses_a_foreign_summary(tmp_path):
    path = tb.bundled_case("T_planar_pendulum_60deg")
    res = tb.run(path, integrators=["rk4"], t_end=0.1)
    res.write(tmp_path)
    res.write(tmp_path)
    assert len(pd.read_csv(tmp_path / "summary.csv")) == 2  # appended, one header
    foreign = tmp_path / "other"
    foreign.mkdir()
    (foreign / "summary.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="rows are never appended to a foreign file"):
        res.write(foreign)


def test_a_pickled_result_writes_the_same_files(tmp_path):
    # A notebook keeps results across sessions by pickling them: the compiled rows go with them,
    # and write() from the copy gives the original's bytes (the command line's writer both times).
    import pickle
    res = tb.run(tb.bundled_case("T_planar_pendulum_60deg"), integrators=["rk4", "rattle"], t_end=0.1)
    copy = pickle.loads(pickle.dumps(res))
    res.write(tmp_path / "a")
    copy.write(tmp_path / "b")
    assert (tmp_path / "a" / "summary.csv").read_bytes() == (tmp_path / "b" / "summary.csv").read_bytes()
    for label in ("rk4", "rattle"):
        a = (tmp_path / "a" / res.case / label / "timeseries.csv").read_bytes()
        assert a == (tmp_path / "b" / res.case / label / "timeseries.csv").read_bytes()
    assert copy.summary.equals(res.summary)


def test_run_with_out_writes_where_told_and_nothing_else(tmp_path):
    path = tb.bundled_case("T_planar_pendulum_60deg")
    before = set(os.listdir(tmp_path))
    res = tb.run(path, integrators=["rk4", "rattle"], t_end=0.1, out=tmp_path / "out")
    assert set(os.listdir(tmp_path)) - before == {"out"}
    assert sorted(os.listdir(tmp_path / "out")) == ["T_planar_pendulum_60deg", "summary.csv"]
    assert sorted(os.listdir(tmp_path / "out" / "T_planar_pendulum_60deg")) == ["rattle", "rk4"]
    assert list(res.summary.integrator) == ["rk4", "rattle"]  # in the order named, as --integrator


def test_an_override_of_h_is_what_each_run_ran_and_what_both_print(cli, tmp_path):
    """One run request (issue 45 item 3): h= (--h) is applied once, into each run's request; the
    request bound to Python, the summary's h and the command line's printed line all say it."""
    path = tb.bundled_case("T_planar_pendulum_60deg")
    case = tb.load_case(path)
    h, t_end = case.h / 2, 0.1
    res = tb.run(path, h=h, t_end=t_end)  # every integrator that runs the case (the registry's)
    status, out, err = cli("run", path, "--h", h, "--t-end", t_end, "--out", tmp_path / "cli")
    assert status == 0, err
    measured = [label for label in res.labels if not res.status(label).startswith("n/a")]
    assert len(measured) >= 10
    for label in measured:
        request = res.request(label)
        assert request["run"] == label
        assert request["integrator"]["h"] == h
        assert request["t_end"] == t_end
        assert res.summary.loc[res.summary.integrator == label, "h"].item() == h
        assert any(line.split()[:4] == [label, "h", "=", "%g" % h] for line in out.splitlines()), out
    assert case.h == tb.load_case(path).h  # the case is as its file says


def test_counts_stay_integer_and_every_time_series_in_one_long_frame():
    """Issue 46 item 4: `steps` and the other counts stay integer when an n/a row is present, and
    res.timeseries() without a label is every run's samples in one long frame."""
    res = tb.run(tb.bundled_case("T_elastic_pendulum"), t_end=0.2)  # every integrator, the n/a ones too
    na = res.summary.status == "n/a"  # the state's word, read as text, not as pandas' NaN marker
    assert na.any() and (~na).sum() >= 5
    assert res.summary.loc[na, "steps"].isna().all()
    assert str(res.summary.energy_err_max.dtype) == "float64"  # an n/a run's metric is missing, not the text "n/a"
    ok = res.summary.status.str.startswith("ok")
    assert ok.sum() >= 5
    for column in ["steps", "rhs_evals", "newton_iters", "error_test_failures", "runtime_passes"]:
        assert str(res.summary[column].dtype) == "Int64", column
        assert res.summary.loc[ok, column].notna().all()
    assert all(isinstance(x, list) for x in res.summary.not_integrated)
    assert any("constraint_err_max" in x for x in res.summary.not_integrated)  # a spring pendulum: no constraint
    assert res.summary.discretisation.notna().all()
    measured = [label for label in res.labels if not res.status(label).startswith("n/a")]
    long = res.timeseries()
    assert long.columns[0] == "integrator" and list(long.integrator.unique()) == measured
    frames = {label: res.timeseries(label) for label in measured}
    assert len(long) == sum(len(f) for f in frames.values())
    assert set(long.columns) == {"integrator"}.union(*[set(f.columns) for f in frames.values()])
    for label, frame in frames.items():  # each run's rows are its own samples, in order
        mine = long[long.integrator == label][list(frame.columns)].reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, frame, check_dtype=False)
