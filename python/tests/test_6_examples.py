"""The worked examples of examples/python/ run as a user runs them, and say what they claim."""

import os
import subprocess
import sys

import pandas as pd

from conftest import ROOT


def run_example(name, *args, cwd):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", name), *map(str, args)],
                          capture_output=True, text=True, timeout=600, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_compare_runs_model_c_with_lgvi_rk4_and_a_python_method(tmp_path):
    out = run_example("compare.py", "--t-end", "1", "--out", tmp_path / "compare", cwd=tmp_path)
    assert os.path.getsize(tmp_path / "compare" / "compare.png") > 10000
    summary = pd.read_csv(tmp_path / "compare" / "summary.csv").set_index("integrator")
    assert list(summary.index) == ["lgvi", "rk4", "py_rk4_projected"] and set(summary.status) == {"ok"}
    assert summary.loc["py_rk4_projected", "runtime_code"] == "python"
    # The projection keeps the links' |q_i| = 1 to round-off, which RK4 alone does not (the
    # multirotor does not turn in this case: R = I throughout for every method).
    assert summary.loc["py_rk4_projected", "constraint_err_max"] < 1e-14 < summary.loc["rk4", "constraint_err_max"]
    # The LGVI conserves the linear momentum to round-off (discrete Noether), the RK methods do not.
    assert summary.loc["lgvi", "linear_momentum_err_max"] < 1e-12 < summary.loc["rk4", "linear_momentum_err_max"]
    assert "py_rk4_projected" in out and "wrote" in out


def test_step_cost_compares_the_same_method_compiled_and_in_python(tmp_path):
    out = run_example("step_cost.py", "--links", "10", "--steps", "200", "--repeats", "1", cwd=tmp_path)
    row = [line.split() for line in out.splitlines() if line.split() and line.split()[0] == "10"][0]
    compiled_us, python_us = float(row[3]), float(row[4])
    assert python_us > compiled_us  # an interpreted step is not free
    e_compiled, e_python = (float(x) for x in row[6].split("/"))
    assert abs(e_python - e_compiled) <= 1e-3 * e_compiled  # the same method: the same error, to round-off


def test_the_notebook_runs_under_debians_jupyter_kernel(tmp_path):
    """examples/python/compare.ipynb executed cell by cell by Debian's nbclient and Python 3 kernel
    (/usr/bin/python3), from the folder it lives in, as Jupyter opens it."""
    import nbclient
    import nbformat

    notebook = nbformat.read(os.path.join(ROOT, "examples", "python", "compare.ipynb"), as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": os.path.join(ROOT, "examples", "python")}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    table = [o for o in outputs if o.output_type == "execute_result" and "text/html" in o.data and "py_rk4_projected" in o.data["text/html"]]
    assert table and "python" in table[0].data["text/html"]
    assert any(o.output_type == "display_data" and "image/png" in o.data for o in outputs)  # the figure
    # The case changed from Python: the changes listed, the run over the changed horizon, a bad value
    # refused with the key's message.
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "Case.parameters['links_per_cable'] = 5" in printed and "Case.t_end = 5.0" in printed
    assert "changed from Python by Case.parameters['link_mass'] = -1.0: key 'model.link_mass': expected" in printed
    assert "C_single_multirotor | lgvi" in printed  # progress=True, shown under the cell
