"""The package's session: the version, the registries, the bundled data -- the command line's."""

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
