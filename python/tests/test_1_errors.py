"""Bad input raises ValueError with the command line's message (what `tetherbench` prints after
"tetherbench: " before exiting with status 2), its options named as the Python parameters, before
anything runs or is written."""

import os
import re

import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")


def edited_case(tmp_path, name, old, new):
    """The planar pendulum's case file with `old` replaced by `new` (which must occur), in tmp_path/name."""
    text = open(PLANAR).read()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return str(path)


def bad_case(tmp_path):
    return edited_case(tmp_path, "bad.toml", "h = 1.0e-3", "h = -1.0e-3")


def misspelt_case(tmp_path):
    return edited_case(tmp_path, "misspelt.toml", "\nmass = 1.0", "\nmasss = 1.0")


CASES = {
    "a case file with a misspelt key": (
        lambda tmp: (lambda: tb.load_case(misspelt_case(tmp)), ["run", misspelt_case(tmp)])),
    "a case file with a bad value": (
        lambda tmp: (lambda: tb.load_case(bad_case(tmp)), ["run", bad_case(tmp)])),
    "an unknown integrator": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["no_such"]), ["run", PLANAR, "--integrator", "no_such"])),
    "an integrator named twice": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rk4", "rk4"]), ["run", PLANAR, "--integrator", "rk4", "--integrator", "rk4"])),
    "a step longer than the end time": (
        lambda tmp: (lambda: tb.run(PLANAR, h=2.0, t_end=1.0), ["run", PLANAR, "--h", "2", "--t-end", "1"])),
    "a step that is not positive": (
        lambda tmp: (lambda: tb.run(PLANAR, h=-1.0), ["run", PLANAR, "--h", "-1"])),
    "a setting out of its range": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rk45"], settings={"rk45": {"rtol": -1.0}}),
                     ["run", PLANAR, "--integrator", "rk45", "--set", "rk45.rtol=-1.0"])),
    "a setting the integrator does not declare": (
        lambda tmp: (lambda: tb.run(PLANAR, settings={"rk4.rtol": 1e-6}), ["run", PLANAR, "--set", "rk4.rtol=1e-06"])),
    "a setting of an integrator the run leaves out": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rk4"], settings={"rk45": {"rtol": 1e-6}}),
                     ["run", PLANAR, "--integrator", "rk4", "--set", "rk45.rtol=1e-06"])),
    "a repeat count that is not a whole number": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rk4"], repeats=1.5), ["run", PLANAR, "--integrator", "rk4", "--repeats", "1.5"])),
    "a run over the step limit": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rk4"], t_end=1e9), ["run", PLANAR, "--integrator", "rk4", "--t-end", "1e9"])),
    "an integrator that runs none of the case": (
        lambda tmp: (lambda: tb.run(PLANAR, integrators=["rkmk4"]), ["run", PLANAR, "--integrator", "rkmk4"])),
    "a missing plugin": (
        lambda tmp: (lambda: tb.load_plugin(str(tmp / "no_such.so")), ["--plugin", str(tmp / "no_such.so"), "list"])),
}


# The options these messages name, as the Python parameters (issue 46 item 5: a Python caller is told
# of integrators, not of --integrator).
PARAMETERS = {"--integrator": "integrators", "--h": "h", "--t-end": "t_end", "--set": "settings", "--repeats": "repeats",
              "--plugin": "load_plugin", "--max-steps": "max_steps", "--out": "out"}


def in_python_words(cli_message):
    """The command line's message, its options named as the Python parameters."""
    return re.sub(r"(?<![\w-])(--[a-z-]+)(?![\w-])", lambda m: PARAMETERS.get(m.group(1), m.group(1)), cli_message)


@pytest.mark.parametrize("what", sorted(CASES))
def test_bad_input_raises_the_command_lines_message(cli, tmp_path, what):
    call, args = CASES[what](tmp_path)
    status, out, err = cli(*args, *(["--out", tmp_path / "out"] if args[0] == "run" else []))
    assert status == 2, (out, err)
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == in_python_words(err.strip()[len("tetherbench: "):])
    assert "--" not in str(raised.value)
    assert not os.path.exists(tmp_path / "out")  # nothing written by either


def test_unknown_traits_and_settings_fields_name_what_was_expected():
    step = lambda form, t, y, h: y  # noqa: E731
    step5 = lambda form, t, y, h, settings: y  # noqa: E731
    with pytest.raises(ValueError, match="unknown trait 'symplectc' \\(expected some of: implicit, symmetric"):
        tb.register_integrator("py_bad_trait", step, traits={"symplectc": True})
    with pytest.raises(ValueError, match="traits: 'imaginary_axis_bound': expected a number"):
        tb.register_integrator("py_bad_trait", step, traits={"imaginary_axis_bound": True})
    with pytest.raises(ValueError, match="traits: 'symplectic': expected True or False"):
        tb.register_integrator("py_bad_trait", step, traits={"symplectic": 1})
    with pytest.raises(ValueError, match="'theta': expected both 'default' and 'meaning'"):
        tb.register_integrator("py_bad_setting", step5, settings={"theta": {"default": 1.0}})
    with pytest.raises(ValueError, match="default 2 is not a finite number in"):
        tb.register_integrator("py_bad_default", step5,
                               settings={"theta": {"default": 2.0, "meaning": "m", "lower": 0.0, "upper": 1.0}})
    assert "py_bad_trait" not in tb.integrators()
    # Checked when it is registered, not at its first step: the arguments the step takes, its order.
    with pytest.raises(ValueError, match=r"step: expected a function of 5 arguments, \(form, t, y, h, settings\)"):
        tb.register_integrator("py_bad_arity", step, settings={"theta": {"default": 0.5, "meaning": "m"}})
    with pytest.raises(ValueError, match=r"step: expected a function of 4 arguments, \(form, t, y, h\)"):
        tb.register_integrator("py_bad_arity", step5)
    with pytest.raises(ValueError, match="order: expected an integer from 1 to 100, got '2.5'"):
        tb.register_integrator("py_bad_order", step, order=2.5)
    assert not {"py_bad_arity", "py_bad_order"} & set(tb.integrators())


def test_an_output_folder_that_is_a_file_is_refused_as_by_run_out(cli, tmp_path):
    not_a_folder = tmp_path / "a_file"
    not_a_folder.write_text("x")
    status, _, err = cli("run", PLANAR, "--integrator", "rk4", "--out", not_a_folder)
    assert status == 2
    with pytest.raises(ValueError) as raised:
        tb.run(PLANAR, integrators=["rk4"], out=not_a_folder)
    assert str(raised.value) == in_python_words(err.strip()[len("tetherbench: "):])
    assert str(raised.value).startswith("out: expected a folder to write into")
    assert not_a_folder.read_text() == "x"


def test_the_limits_are_raised_from_python_as_with_max_steps():
    res = tb.run(PLANAR, integrators=["rk4"], t_end=1.0, h=1e-6, max_steps=2e6)  # 1e6 steps: over a limit of 1e5 ...
    assert list(res.summary.status) == ["ok"]
    with pytest.raises(ValueError, match=r"exceeds? the limit 1e\+05 \(raise it on purpose with max_steps\)"):
        tb.run(PLANAR, integrators=["rk4"], t_end=1.0, h=1e-6, max_steps=1e5)


def test_a_misspelt_key_is_named_beside_the_missing_one(tmp_path):
    with pytest.raises(ValueError, match=r"missing key 'model.mass': .* \(the table has 'model.masss' \(line \d+\): misspelt\?\)"):
        tb.load_case(misspelt_case(tmp_path))
