"""The package's session: the version, the registries, the bundled data -- the command line's."""

import pytest

import tetherbench as tb


def test_version_is_the_command_lines(cli):
    status, out, _ = cli("--version")
    assert status == 0
    assert out.strip() == tb.__version__
    assert tb.kernel_version.startswith(tb.__version__ + "+")


def test_registries_are_the_command_lines(cli):
    # `tetherbench list` prints each integrator and model as "  NAME  summary" under its heading.
    status, out, _ = cli("list")
    assert status == 0
    sections, current = {}, None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = line.split(" ")[0].rstrip(":")
            sections[current] = []
        elif current and line.startswith("  ") and not line.startswith("   "):
            sections[current].append(line.split()[0])
    assert tb.integrators() == sections["Integrators"]
    assert tb.models() == sections["Models"]
    assert len(tb.integrators()) >= 14 and "lgvi" in tb.integrators()


def test_integrator_info_declares_what_the_catalogue_does():
    for name in tb.integrators():
        info = tb.integrator_info(name)
        assert info["name"] == name and info["order"] >= 1
        assert info["interpreter"] in ("", "python")
    rk45 = tb.integrator_info("rk45")
    assert rk45["adaptive"] and "rtol" in rk45["settings"] and "atol" in rk45["settings"]
    assert tb.integrator_info("lgvi")["traits"]["symplectic"]
    # The traits are the described record: every field, the stability interval's end among them.
    assert abs(tb.integrator_info("rk4")["traits"]["imaginary_axis_bound"] - 2 * 2 ** 0.5) < 1e-12
    assert set(tb.integrator_info("lgvi")["traits"]) == {
        "implicit", "symmetric", "symplectic", "dissipative", "conserves_momentum_map", "imaginary_axis_stable",
        "imaginary_axis_bound", "on_manifold"}


def test_study_info_says_what_list_says_with_each_parameter(cli):
    """Issue 46: tb.studies() gave names only. study_info gives each study's summary, files and
    parameters, from its described record, as `tetherbench list` prints them."""
    status, out, _ = cli("list")
    assert status == 0
    for name in tb.studies():
        info = tb.study_info(name)
        assert info["name"] == name and info["summary"] and info["writes"]
        assert "  %s " % name in out and info["summary"][:40] in out
        for parameter in info["parameters"]:
            assert set(parameter) == {"name", "meaning", "default"}
            assert "--param %s=..." % parameter["name"] in out
            assert "(default %s)" % parameter["default"] in out
    assert {"horizon_steps", "min_steps"} <= {p["name"] for p in tb.study_info("stability_map")["parameters"]}
    with pytest.raises(ValueError, match="unknown study 'no_such'"):
        tb.study_info("no_such")


def test_load_case_reads_the_case_and_its_runs():
    case = tb.load_case(tb.bundled_case("T_planar_pendulum_60deg"))
    assert case.name == "T_planar_pendulum_60deg" and case.model == "planar_pendulum"
    assert case.t_end == 10.0 and case.h == 1e-3 and case.sample_interval == 1e-2
    runs = case.runs
    assert set(tb.integrators()) <= set(runs.integrator)
    # The Lie-group ODE methods are declined on S^1 by the model, with its reason.
    declined = runs[runs.why_not != ""]
    assert "rkmk4" in set(declined.integrator)
    assert (runs[runs.integrator == "rk4"].why_not == "").all()
