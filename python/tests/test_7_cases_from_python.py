"""A case changed from Python (issue 46 item 2): t_end, h, sample_interval, model parameters and
integrator settings, each checked as the case file's key is, and run as changed."""

import math
import os

import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")


def test_changed_case_runs_as_changed():
    C = tb.load_case(PLANAR)
    assert (C.t_end, C.h, C.parameters["length"], C.settings["rk45"]["rtol"]) == (10.0, 1e-3, 1.0, 1e-10)
    C.t_end = 0.5
    C.h = 5e-4
    C.sample_interval = 0.05
    C.parameters["length"] = 2.0
    C.settings["rk45"]["rtol"] = 1e-9
    assert (C.t_end, C.h, C.sample_interval, C.parameters["length"], C.settings["rk45"]["rtol"]) == (0.5, 5e-4, 0.05, 2.0, 1e-9)
    assert C.changes == ["Case.t_end = 0.5", "Case.h = 0.0005", "Case.sample_interval = 0.05",
                         "Case.parameters['length'] = 2.0", "Case.settings['rk45']['rtol'] = 1e-09"]
    res = tb.run(C, integrators=["rk4", "rk45"])
    rows = res.summary.set_index("integrator")
    assert rows.loc["rk4", "t_end"] == 0.5 and rows.loc["rk4", "steps"] == 1000  # 0.5 s at 0.5 ms
    rk45 = {s["key"]: s["value"] for s in res.request("rk45")["integrator"]["settings"]}
    assert rk45["rtol"] == 1e-9
    series = res.timeseries("rk4")
    assert list(series.t) == pytest.approx([0.05 * k for k in range(11)])  # the changed sample interval
    # Released at rest from 60 degrees on a 2 m string: E = -m g L cos 60 = -9.81 J (1 m: -4.905 J).
    assert series.energy.iloc[0] == pytest.approx(-1.0 * 9.81 * 2.0 * math.cos(math.pi / 3), rel=1e-12)
    # The case file itself is untouched; the run read a copy with the changes.
    assert tb.load_case(PLANAR).parameters["length"] == 1.0


def test_a_change_keeps_every_other_number_of_the_file_to_the_last_bit(tmp_path):
    # The copy the runs read is the file's TOML written again: a number rounded on the way (a stream's
    # 6 digits) would change the case unseen. A step of 0.3/1400 s has no short decimal form.
    import tomllib

    path = tb.bundled_case("C_single_multirotor")
    C = tb.load_case(path)
    h = 0.3 / (14.0 * 100)
    C.h = h
    assert C.h == h
    C.write(tmp_path / "copy.toml")
    with open(path, "rb") as f:
        original = tomllib.load(f)
    with open(tmp_path / "copy.toml", "rb") as f:
        copy = tomllib.load(f)
    original["case"]["h"] = h
    assert copy == original


def test_changed_case_is_kept_with_the_output_and_can_be_written(tmp_path):
    C = tb.load_case(PLANAR)
    C.t_end = 0.2
    C.parameters["gravity"] = 1.62  # the Moon
    tb.run(C, integrators=["rk4"], out=tmp_path / "out")
    copy = tmp_path / "out" / "cases" / "T_planar_pendulum_60deg.toml"
    assert copy.exists()  # what ran, beside its results
    C.write(tmp_path / "moon.toml")
    again = tb.load_case(tmp_path / "moon.toml")
    assert (again.t_end, again.parameters["gravity"], again.name) == (0.2, 1.62, "T_planar_pendulum_60deg")


@pytest.mark.parametrize("change, message", [
    (lambda C: setattr(C, "t_end", -1.0), "changed from Python by Case.t_end = -1.0: key 'case.t_end': expected a finite number > 0, got -1.0"),
    (lambda C: setattr(C, "h", "fast"), "Case.h = 'fast': key 'case.h': expected a finite number > 0, got a string"),
    (lambda C: C.parameters.__setitem__("lenght", 2.0), "unknown key 'model.lenght' in [model] (expected one of: gravity, length, mass)"),
    (lambda C: C.settings["rk45"].__setitem__("rtl", 1e-8), "unknown key 'integrators.rk45.rtl' in [integrators.rk45]"),
    (lambda C: C.parameters.__setitem__("length", [1.0, 2.0]), "key 'model.length': expected a finite number > 0, got an array"),
    (lambda C: C.parameters.__setitem__("length", object()), "Case.parameters['length'] = <object"),
])
def test_a_bad_change_is_refused_with_the_case_files_message_and_changes_nothing(change, message):
    C = tb.load_case(PLANAR)
    with pytest.raises(ValueError) as caught:
        change(C)
    assert message in str(caught.value)
    assert "(line " not in str(caught.value)  # no line of a copy the user never sees
    assert C.changes == [] and C.t_end == 10.0 and C.parameters["length"] == 1.0


def test_what_cannot_be_set_says_what_can():
    C = tb.load_case(PLANAR)
    with pytest.raises(AttributeError, match="Case.name cannot be set: set t_end, h or sample_interval"):
        C.name = "other"
    with pytest.raises(TypeError, match="can be changed, not removed"):
        del C.parameters["length"]


def test_a_run_without_t_end_says_its_horizon_first(capfd):
    tb.run(PLANAR, integrators=["rk4"], h=0.01)
    err = capfd.readouterr().err
    assert "T_planar_pendulum_60deg over its case's t_end = 10 s at h = 0.01 s (1e+03 steps" in err


def test_only_a_case_files_own_tables_take_changes():
    # What the Case API cannot reach, its compiled part refuses too: a study's table, a nested key.
    from tetherbench._compiled import core

    with pytest.raises(ValueError, match=r"expected a key of \[case\], \[model\], \[initial\] or \[integrators.NAME\], got one of \[report\]"):
        core.edited_case(PLANAR, [("report", "gate_t_end", "1.0", "x")], None, None, None)
    with pytest.raises(ValueError, match="expected a bare key name"):
        core.edited_case(PLANAR, [("model", "a.b", "1.0", "x")], None, None, None)
    with pytest.raises(ValueError, match="expected a value on one line"):
        core.edited_case(PLANAR, [("model", "length", "1.0\n[report]", "x")], None, None, None)
