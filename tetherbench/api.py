"""The package's functions: each calls the command line's own code in the compiled part
(tetherbench._core) and turns its CSV text into pandas DataFrames."""

import collections.abc
import contextlib
import hashlib
import inspect
import io
import json
import marshal
import numbers
import os
import re
import shutil
import sys
import tempfile
import warnings

try:
    import pandas as pd
except ImportError as missing:  # pragma: no cover - depends on the interpreter
    import sys

    raise ImportError(
        "tetherbench needs numpy and pandas: Debian's python3-numpy and python3-pandas (installed by "
        "scripts/setup-deps.sh) import under /usr/bin/python3, and this is " + sys.executable + " (" + str(missing) + ")"
    ) from missing

from ._compiled import core as _compiled_core

# The command line's options as a Python call names them: its messages, shared by both (the text the
# command line prints after "tetherbench: "), are worded for the caller here (issue 46 item 5).
_PARAMETER_OF_OPTION = {
    "--integrator": "integrators", "--t-end": "t_end", "--h": "h", "--set": "settings", "--repeats": "repeats",
    "--min-timed-s": "min_timed_s", "--out": "out", "--max-steps": "max_steps", "--max-samples": "max_samples",
    "--max-state": "max_state", "--jobs": "jobs", "--param": "params", "--envelopes": "envelopes",
    "--plugin": "load_plugin",
}
_OPTION = re.compile(r"(?<![\w-])(%s)(?![\w-])" % "|".join(sorted(map(re.escape, _PARAMETER_OF_OPTION), key=len, reverse=True)))


def _python_words(message):
    """A command line message with its options named as the Python parameters: "--set rk45.rtl=1e-08: ..."
    reads "settings: rk45.rtl=1e-08: ...", "--integrator: unknown integrator" "integrators: unknown integrator"."""
    return _OPTION.sub(lambda m: _PARAMETER_OF_OPTION[m.group(1)], message)


class _PythonWorded:
    """The compiled part, each function's ValueError worded for Python (_python_words)."""

    def __init__(self, core):
        self._core = core

    def __getattr__(self, name):
        member = getattr(self._core, name)
        if not callable(member) or isinstance(member, type):
            return member

        def call(*args, **kwargs):
            try:
                return member(*args, **kwargs)
            except ValueError as bad:
                raise ValueError(_python_words(str(bad))) from None

        call.__name__ = name
        setattr(self, name, call)  # looked up once
        return call


_core = _PythonWorded(_compiled_core)


def _array_errors_as_value_errors(cls):
    """A form's methods (the objects a Python step receives) raise ValueError for an array of the wrong
    shape, as python/README.md documents, instead of pybind11's TypeError about its overloads."""
    for name, method in list(vars(cls).items()):
        if name.startswith("_") or not callable(method):
            continue

        def checked(self, *args, _method=method, _name="%s.%s" % (cls.__name__, name), **kwargs):
            try:
                return _method(self, *args, **kwargs)
            except TypeError as bad:
                if "incompatible function arguments" not in str(bad):
                    raise
                shapes = ", ".join(_shape_words(a) for a in args)
                raise ValueError("%s: expected 1-D arrays of numbers (and numbers where the signature has them), got (%s)"
                                 % (_name, shapes)) from None

        checked.__doc__ = getattr(method, "__doc__", None)
        setattr(cls, name, checked)


def _shape_words(value):
    if hasattr(value, "shape"):
        return "an array of shape %s" % (tuple(value.shape),)
    return type(value).__name__


for _form_class in ("Form", "OdeForm", "DaeForm", "ConstrainedForm", "ConstrainedSolver", "LieGroupOdeForm",
                    "DiscreteLieGroupForm", "DiscreteLieGroupStep"):
    if hasattr(_compiled_core, _form_class):
        _array_errors_as_value_errors(getattr(_compiled_core, _form_class))


def _count(option, value, low, high):
    """An integer in [low, high] (not 2.5, not True), or ValueError with the command line's words,
    the option named as the Python parameter."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
        raise ValueError(_python_words("%s: expected an integer from %d to %d, got '%s'" % (option, low, high, value)))
    return int(value)


def _limits(max_steps, max_samples, max_state):
    return {"max_steps": max_steps, "max_samples": max_samples, "max_state": max_state}


def integrators():
    """The names of the compared integrators: built in, from loaded plugins, registered from Python."""
    return list(_core.integrators())


def models():
    """The names of the models (built in and from loaded plugins)."""
    return list(_core.models())


def studies():
    """The names of the studies `tetherbench report` runs (tetherbench.study runs one)."""
    return list(_core.studies())


def study_info(name):
    """What a study does and writes, and its parameters -- params= of tetherbench.study, --param
    of `tetherbench study` -- each with its meaning and default: {"name", "summary", "writes",
    "needs_full_runs", "parameters": [{"name", "meaning", "default"}, ...]}."""
    return dict(_core.study_info(name))


def _warn_interrupted(call, raw, what):
    """The warning of a call that an interrupt ended early (issue 46 item 1): by a terminal's Ctrl-C,
    or by what Python raised meanwhile (KeyboardInterrupt from interrupt_main, a signal handler's
    exception), which the call took as the interrupt instead of losing its result."""
    if raw["interrupted"]:
        how = " (%s)" % raw["heard"] if raw.get("heard") else ""
        warnings.warn("%s was interrupted%s: %s" % (call, how, what), RuntimeWarning, stacklevel=3)


def integrator_info(name):
    """What the catalogue declares of an integrator: order, traits, settings, the form it consumes."""
    return _core.integrator_info(name)


def check_integrator(name):
    """The conformance checks `tetherbench check-plugin` runs on a plugin's integrator, on any
    integrator of the session (one written in Python included): its declared order measured on the
    suite's test models against their reference solutions, landing on the end time, the failed-step
    contract, and each declared trait (implicit, symmetric, symplectic, conserving the momentum map,
    on the manifold) against what it does. A DataFrame: check, result (pass / FAIL / n/a), measured, reason."""
    return pd.DataFrame(_core.check_integrator(name), columns=["check", "result", "measured", "reason"])


def data_dir():
    """The bundled data folder (cases/, reference/, scripts/)."""
    return _core.data_dir()


def bundled_case(name):
    """The path of a bundled case file, by case name ("T_planar_pendulum_60deg")."""
    path = os.path.join(_core.cases_dir(), name + ".toml")
    if not os.path.isfile(path):
        names = sorted(f[:-5] for f in os.listdir(_core.cases_dir()) if f.endswith(".toml"))
        raise ValueError("bundled_case: no case '" + name + "' (expected one of: " + ", ".join(names) + ")")
    return path


def load_plugin(path):
    """Loads a plugin (a shared library built against tetherbench::kernel), as `--plugin FILE` does.
    Returns its entries ("integrator rk3", ...). Bad plugins raise ValueError with the command line's message."""
    return list(_core.load_plugin(os.fspath(path)))


class _CaseTable(collections.abc.MutableMapping):
    """One table of a case file, read and set from Python: Case.parameters is [model] (the tables
    inside it, such as [model.body], are nested _CaseTables), Case.settings[NAME] the settings
    integrator NAME runs with. Setting a key changes the case (Case._change): checked at once, as
    the case file's key is, with its message; a key cannot be removed."""

    def __init__(self, case, table, values, words):
        self._case, self._table, self._values, self._words = case, table, values, words

    def __getitem__(self, key):
        value = self._values[key]
        if isinstance(value, dict):
            return _CaseTable(self._case, "%s.%s" % (self._table, key), value, "%s[%r]" % (self._words, key))
        return value

    def __setitem__(self, key, value):
        self._case._change(self._table, str(key), value, "%s[%r] = %r" % (self._words, key, value))

    def __delitem__(self, key):
        raise TypeError("%s: a case's keys can be changed, not removed" % self._words)

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __repr__(self):
        return repr(dict(self._values))


class Case:
    """A case file as loaded and checked (tetherbench.load_case). Its attributes are the fields of
    the compiled CaseSummary, as its C++ record describes them once (python/module.cpp): file, name,
    description, model, t_end, h and sample_interval (s), discretisations, and runs, the runs `run`
    makes of the case with every integrator as a DataFrame (label, integrator, discretisation and
    why_not: empty where it runs, the model's or the integrator's reason where it does not).

    A case can be changed from Python, each change checked at once as the case file's key is (a bad
    value raises ValueError naming the change, the key and what was expected):
        C.t_end = 10.0; C.h = 5e-4; C.sample_interval = 0.01          # [case]
        C.parameters["cable_length"] = 2.0                             # [model] (nested: ["body"]["height"])
        C.settings["rk45"]["rtol"] = 1e-8                              # [integrators.rk45]
    C.changes lists them; run, study, table and gate run the changed case (from a copy of the file with
    the changes, written into their output folder's cases/), and C.write(path) saves that file."""

    _SETTABLE = ("t_end", "h", "sample_interval")

    def __init__(self, summary, limits=None, text=None, changes=()):
        object.__setattr__(self, "_summary", summary)
        object.__setattr__(self, "_limits", dict(limits or {}))
        object.__setattr__(self, "_text", text)  # the changed file's TOML; None while unchanged
        object.__setattr__(self, "_changes", list(changes))

    def __getattr__(self, name):
        summary = self.__dict__.get("_summary", {})
        if name not in summary or name == "settings":
            raise AttributeError("Case has no attribute '%s' (it has: %s)" % (name, ", ".join(sorted(self.__dir__()))))
        value = summary[name]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return pd.DataFrame(value)  # a list of records: one row each, the columns in their described order
        return list(value) if isinstance(value, list) else value

    def __setattr__(self, name, value):
        if name in self._SETTABLE:
            self._change("case", name, value, "Case.%s = %r" % (name, value))
            return
        raise AttributeError("Case.%s cannot be set: set t_end, h or sample_interval (Case.t_end = 10.0), a model "
                             "parameter through Case.parameters[KEY] and an integrator setting through "
                             "Case.settings[NAME][KEY]" % name)

    def __dir__(self):
        return sorted((set(super().__dir__()) | set(self._summary)) - {"settings"} | {"settings", "parameters", "changes"})

    def __repr__(self):
        changed = ", changed: " + "; ".join(self.changes) if self._changes else ""
        return "Case(%r, model=%r, t_end=%g, h=%g%s)" % (self.name, self.model, self.t_end, self.h, changed)

    @property
    def parameters(self):
        """The [model] table as the case gives it (the model's parameters), each key settable."""
        return _CaseTable(self, "model", self._tables().get("model", {}), "Case.parameters")

    @property
    def settings(self):
        """{integrator: its settings as the case runs them (the defaults, the case file's, the
        changes)}; Case.settings[NAME][KEY] = VALUE changes one."""
        return {name: _CaseTable(self, "integrators." + name, values, "Case.settings[%r]" % name)
                for name, values in self._summary["settings"].items()}

    @property
    def changes(self):
        """The changes made from Python, in order, as they were written."""
        return [words for _, _, _, words in self._changes]

    def write(self, path):
        """Writes the case file as it now stands (the original's keys with the changes; the
        original's comments are not kept) to `path`."""
        with open(os.fspath(path), "w", encoding="utf-8") as out:
            out.write(self._text if self._text is not None else _read(self.file))

    def _tables(self):
        import tomllib

        return tomllib.loads(self._text if self._text is not None else _read(self.file))

    def _change(self, table, key, value, words):
        changes = self._changes + [(table, key, _toml_literal(value, words), words)]
        try:
            raw = _core.edited_case(self.file, changes, **self._limits)
        except ValueError as bad:
            # The key's message, as the case file's; its line numbers would point into the changed
            # copy, which the user never sees.
            raise ValueError(re.sub(r" \(line \d+\)", "", str(bad))) from None
        object.__setattr__(self, "_changes", changes)
        object.__setattr__(self, "_summary", raw["summary"])
        object.__setattr__(self, "_text", raw["text"])

    def _file_in(self, folder):
        """The file a run reads: the case file, or, changed, its copy in folder/cases/."""
        if self._text is None:
            return self.file
        copies = os.path.join(folder, "cases")
        os.makedirs(copies, exist_ok=True)
        path = os.path.join(copies, os.path.basename(self.file))
        self.write(path)
        return path


def _toml_literal(value, words):
    """A Python value as the TOML text a case file would hold: a boolean, a number, a text, or a
    list (a numpy array too) of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_literal(v, words) for v in value) + "]"
    raise ValueError("%s: expected a number, a text, a boolean or a list of them, got %s" % (words, type(value).__name__))


def load_case(path, max_steps=None, max_samples=None, max_state=None):
    """Loads a case file (cases/README.md), checked against the catalogue as the command line checks it:
    a bad file raises ValueError with the command line's message (file, key, what was expected).
    max_steps, max_samples, max_state raise the resource guards (--max-steps, ...: README "Resource guards")."""
    limits = _limits(max_steps, max_samples, max_state)
    return Case(_core.load_case(os.fspath(path), **limits), limits)


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, int) else repr(float(value))
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string
    raise ValueError("settings: expected a number or a text, got %r" % (value,))


def _overrides(settings):
    """{"rattle": {"newton_tol": 1e-12}} or {"rattle.newton_tol": 1e-12} -> ["rattle.newton_tol=1e-12"],
    the command line's --set assignments."""
    if settings is None:
        return []
    if not isinstance(settings, dict):
        raise ValueError("settings: expected a dict {integrator: {key: value}} or {'integrator.key': value}")
    out = []
    for key, value in settings.items():
        if isinstance(value, dict):
            out += ["%s.%s=%s" % (key, k, _toml_value(v)) for k, v in value.items()]
        else:
            out.append("%s=%s" % (key, _toml_value(value)))
    return out


def _progress(progress):
    """progress= as the compiled part takes it: on a terminal the command line's own progress line
    (redrawn in place on stderr); elsewhere (a notebook, which never shows the process's stderr) each
    line printed to Python's sys.stderr, which the notebook shows under the cell."""
    if not progress:
        return False
    if sys.stderr is not None and hasattr(sys.stderr, "isatty") and sys.stderr.isatty():
        return True
    return lambda line: print(line.rstrip(), file=sys.stderr, flush=True)


def _names(integrators):
    if integrators is None:
        return []
    if isinstance(integrators, str):
        return [integrators]
    return list(integrators)


@contextlib.contextmanager
def _output_folder(out, prefix):
    """The folder a call writes into: `out` when given, else a scratch folder of the system's
    temporary directory that is removed when the call has read what it needs."""
    if out is not None:
        yield os.fspath(out)
        return
    scratch = tempfile.mkdtemp(prefix=prefix)
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _summary_frame(source):
    """summary.csv as a DataFrame typed as its cells mean: the whole-count columns (steps,
    evaluations, timing passes: the summary's own list) stay integer, <NA> where a run has none (an
    n/a run), not float64; not_integrated is a list of metric names, not one space-separated text;
    discretisation is "" where the model has one unnamed discretisation, not NaN; `status` is the
    state in one word and `status_detail` the status cell. The CSV itself is the command line's."""
    text = source.getvalue() if isinstance(source, io.StringIO) else _read(source)
    frame = pd.read_csv(io.StringIO(text))  # an empty or "n/a" cell is missing, as pandas reads a table
    if "state" in frame:  # ... but the state "n/a" is a word, not a missing value
        frame["state"] = pd.read_csv(io.StringIO(text), usecols=["state"], keep_default_na=False)["state"]
    for column in _core.summary_count_columns():
        if column in frame:
            frame[column] = pd.to_numeric(frame[column], errors="coerce").astype("Int64")
    for listed in ("not_integrated", "drifts"):  # space-separated names: lists
        if listed in frame:
            frame[listed] = [str(x).split() if isinstance(x, str) else [] for x in frame[listed]]
    if "discretisation" in frame:
        frame["discretisation"] = frame["discretisation"].fillna("").astype(str)
    # `status` the state in one word (the CSV's `state`: ok, drift, unstable, diverged, failed,
    # interrupted, n/a), `status_detail` the CSV's status cell that says why.
    if "state" in frame and "status" in frame:
        frame = frame.rename(columns={"status": "status_detail"}).rename(columns={"state": "status"})
    return frame


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class RunResult:
    """The runs of one tetherbench.run: the summary rows and each run's time series, as the command
    line's `run --out DIR` writes them (summary.csv, <case>/<label>/timeseries.csv)."""

    def __init__(self, raw, timeseries_text):
        self.case = raw["case"]
        self._summary_csv = raw["summary_csv"]
        self._rows = raw["rows"]  # the compiled rows, which write() hands back to the command line's writer
        self._runs = raw["runs"]
        self._timeseries = timeseries_text
        self.interrupted = raw["interrupted"]
        self.summary = _summary_frame(io.StringIO(self._summary_csv))

    @property
    def labels(self):
        """The runs' labels (the summary's integrator column: "rk4", "rk4@lumped", ...)."""
        return [r["label"] for r in self._runs]

    def status(self, label):
        """The run's status cell: "ok", "failed: ... at t = ..., step ...", "n/a: ...", "interrupted ..."."""
        return self._run(label)["status"]

    def _run(self, label):
        for r in self._runs:
            if r["label"] == label:
                return r
        raise KeyError("no run '%s' in this result (runs: %s)" % (label, ", ".join(self.labels)))

    def request(self, label):
        """What the run ran, as the runner took it: the one record built from the case, h=, t_end=
        and settings= (its step integrator["h"], every effective setting, its horizon t_end, its
        observation grid), as a dict of the record's fields ("timeseries" is the file the run
        wrote, in a scratch folder already removed when out=None)."""
        return self._run(label)["request"]

    def timeseries(self, label=None):
        """The run's samples: the columns of its timeseries.csv (t, energy, ..., the model's own
        columns). Without a label, every run's in one long frame with an `integrator` column (the
        run's label) first; a column some runs lack (a model's own, or another discretisation's)
        is NaN in their rows."""
        if label is None:
            frames = [self.timeseries(name).assign(integrator=name) for name in self.labels if name in self._timeseries]
            if not frames:
                raise KeyError("no run of this result has a time series: %s" % "; ".join(
                    "%s %s" % (r["label"], r["status"]) for r in self._runs))
            frame = pd.concat(frames, ignore_index=True, sort=False)
            return frame[["integrator"] + [c for c in frame.columns if c != "integrator"]]
        run = self._run(label)
        if label not in self._timeseries:
            raise KeyError("run '%s' has no time series: %s" % (label, run["status"]))
        return pd.read_csv(io.StringIO(self._timeseries[label]))

    def write(self, out_dir):
        """Writes what `tetherbench run --out out_dir` writes: the rows appended to summary.csv (its
        header first in a new file; a file with another header is refused) and each run's
        <case>/<label>/timeseries.csv."""
        _core.write_run(self._rows, os.fspath(out_dir), self._timeseries)

    def __repr__(self):
        return "RunResult(%r: %s)" % (self.case, "; ".join("%s %s" % (r["label"], r["status"]) for r in self._runs))


def run(case, integrators=None, t_end=None, h=None, settings=None, repeats=1, out=None, progress=False,
        max_steps=None, max_samples=None, max_state=None, min_timed_s=None):
    """Runs a case as `tetherbench run` does: the named integrators (every applicable one when None),
    over t_end with step h (the case's when None), with settings over the case file's
    ({"rattle": {"newton_tol": 1e-12}}, as --set). Returns a RunResult.

    With out=None nothing is kept on disk: the runs write into a scratch folder that is read and
    removed (RunResult.write writes the files later). With out=DIR they write there as
    `run --out DIR` does. Input errors raise ValueError with the command line's messages, which
    name its options: --h is h=, --t-end t_end=, --integrator integrators=, --set NAME.KEY=VALUE
    settings={NAME: {KEY: VALUE}}, --repeats repeats=, --min-timed-s min_timed_s=, --out out=, --max-steps max_steps= (and
    --max-samples, --max-state). Ctrl-C ends the runs cleanly: the runs cut short say "interrupted"
    in their rows (RunResult.interrupted). progress=True shows the command line's progress line on
    a terminal.

    Timing passes (the summary's runtime_passes says how many a run took): a compiled run shorter
    than min_timed_s (None: the suite's 0.05 s, as every full run of the command line) is repeated
    unobserved until its passes total that much (at most 1000; runtime_s is the fastest), and
    `repeats` asks for at least that many passes; min_timed_s=0 leaves the `repeats` passes alone
    (one by default). A method written in Python takes the `repeats` passes and no more: its
    step's side effects (prints, appends to a list) happen once per pass, so once by default.
    """
    if t_end is None:
        _say_horizon(case if isinstance(case, Case) else load_case(case, max_steps, max_samples, max_state), h)
    with _output_folder(out, "tetherbench-run-") as folder:
        path = _case_files(case, folder)[0]
        raw = _core.run(path, _names(integrators), t_end, h, _overrides(settings), _count("--repeats", repeats, 1, 1000),
                        None if min_timed_s is None else float(min_timed_s), folder, _progress(progress),
                        **_limits(max_steps, max_samples, max_state))
        texts = {r["label"]: _read(r["timeseries"]) for r in raw["runs"] if r["timeseries"] and os.path.exists(r["timeseries"])}
    result = RunResult(raw, texts)
    _warn_interrupted("tetherbench.run", raw, "the runs cut short say so in their rows, and no later run started")
    return result


class StudyResult(dict):
    """What tetherbench.study returns: {file name: DataFrame} for every CSV the study wrote, and
    `interrupted`: True when an interrupt ended it early (its tables then hold the jobs that ran,
    each cut-short run saying so in its row)."""

    def __init__(self, frames, interrupted):
        super().__init__(frames)
        self.interrupted = interrupted


def study(name, cases=None, integrators=None, out=None, params=None, settings=None, jobs=1, progress=False):
    """Runs one study (tetherbench.studies(): work_precision gives orders.csv, ...) as
    `tetherbench study NAME` does, on case files (Case objects or paths; None: the bundled cases it
    applies to), with only the named integrators (as --integrator). Returns a StudyResult,
    {file name: DataFrame} for every CSV it wrote. With out=None it writes into a scratch folder that is removed."""
    params = {str(k): str(v) for k, v in (params or {}).items()}
    with _output_folder(out, "tetherbench-study-") as folder:
        raw = _core.study(name, _case_files(cases, folder), _names(integrators), folder, params, _overrides(settings),
                          _count("--jobs", jobs, 1, 1024), _progress(progress))
        _warn_interrupted("tetherbench.study", raw, "its tables hold the jobs that ran; the runs cut short say so")
        return StudyResult({os.path.relpath(path, folder): pd.read_csv(path)
                            for path in raw["written"] if path.endswith(".csv") and os.path.exists(path)},
                           raw["interrupted"])


def _case_files(cases, folder):
    """The files the command line's code reads for `cases` (Case objects or paths; None: none, the
    bundled ones): a changed Case's copy with its changes, in folder/cases/ (Case._file_in), once
    `folder` is known to be one the call may write into."""
    if cases is None:
        return []
    if isinstance(cases, (Case, str, os.PathLike)):
        cases = [cases]
    if any(isinstance(c, Case) and c.changes for c in cases):
        _core.output_folder("out", folder)  # refused before anything is written
    return [c._file_in(folder) if isinstance(c, Case) else os.fspath(c) for c in cases]


def _say_horizon(case, h):
    """No run without a horizon the user sees: run() without t_end= runs the case's own, printed
    first with the steps it takes (Model C's 1000 s at 1 ms are 10^6 steps a run)."""
    step = case.h if h is None else float(h)
    print("tetherbench.run: %s over its case's t_end = %g s at h = %g s (%.3g steps for a fixed-step method); "
          "t_end= runs another horizon" % (case.name, case.t_end, step, case.t_end / step), file=sys.stderr)


class Table:
    """What `tetherbench table` writes: the summary rows of every case's full runs (summary.csv)
    and the report's per-case tables (summary.md), where an interpreted method's runtime says so."""

    def __init__(self, summary, markdown, interrupted=False):
        self.summary = summary
        self.markdown = markdown
        self.interrupted = interrupted  # an interrupt ended it early: the runs cut short say so in their rows

    def __repr__(self):
        return "Table(%d rows%s)" % (len(self.summary), ", interrupted" if self.interrupted else "")


def table(cases=None, integrators=None, out=None, settings=None, repeats=1, jobs=1, progress=False):
    """Runs every case's full runs as `tetherbench table` does (the bundled cases when None; only
    the named integrators when given) and returns a Table. With out=None the files are written
    into a scratch folder that is removed."""
    with _output_folder(out, "tetherbench-table-") as folder:
        raw = _core.table(_case_files(cases, folder), _names(integrators), folder, _overrides(settings),
                          _count("--repeats", repeats, 1, 1000), _count("--jobs", jobs, 1, 1024), _progress(progress))
        _warn_interrupted("tetherbench.table", raw, "the runs cut short say so in their rows, and no later run started")
        csv, md = raw["written"]
        return Table(_summary_frame(csv), _read(md), raw["interrupted"])


def gate(cases=None, integrators=None, envelopes=None, record=False, accept_failures=False):
    """The CI regression gates of `tetherbench gate`: each case's short run (its [report] gate_t_end)
    checked against the envelopes in `envelopes` (the bundled reference/envelopes.csv when None),
    and each fixed-step integrator's measured order against its declared one. Returns a DataFrame
    (case, integrator, metric, outcome: ok/failed/inconclusive, message) -- or, recording, a dict.

    record=True re-measures the envelopes of these cases and integrators into `envelopes` (a file
    of your own, created if missing) and returns {"recorded": True, ...}; it is refused, nothing
    written, while a run fails that the file does not expect to fail that way (returned under
    "refused"), unless accept_failures=True records such runs as expected to fail."""
    with _output_folder(None, "tetherbench-gate-") as folder:  # a changed case's copy, removed after
        raw = _core.gate(_case_files(cases, folder), _names(integrators), None if envelopes is None else os.fspath(envelopes),
                         bool(record), bool(accept_failures))
    _warn_interrupted("tetherbench.gate", raw, "the checks so far are returned, and nothing was recorded")
    if record:
        return {"file": raw["file"], "recorded": raw["recorded"], "refused": list(raw["refused"]),
                "expected_failures": raw["expected_failures"], "interrupted": raw["interrupted"]}
    # The rows are GateCheck's described fields, in its order (one list, in C++). An interrupt ends
    # it with the checks so far: frame.attrs["interrupted"] says so.
    frame = pd.DataFrame.from_records(raw["checks"], columns=list(raw["check_fields"]))
    frame.attrs["interrupted"] = raw["interrupted"]
    return frame


def _origin(step):
    """Where a Python step comes from, with a hash of its code: part of its runs' fingerprints, so
    a stored result of another function of the same name is never taken for its own."""
    code = getattr(step, "__code__", None) or getattr(getattr(step, "__call__", None), "__code__", None)
    digest = hashlib.sha256(marshal.dumps(code)).hexdigest()[:12] if code is not None else "unknown"
    where = getattr(step, "__module__", None) or type(step).__module__
    name = getattr(step, "__qualname__", None) or type(step).__qualname__
    return "python function %s.%s, code hash %s" % (where, name, digest)


def register_integrator(name, step, consumes="ode", order=1, traits=None, settings=None, summary=None):
    """Adds a fixed-step integrator written in Python to the catalogue:

        step(form, t, y, h) -> y_next        (step(form, t, y, h, settings) when it declares settings)

    on NumPy arrays, where `form` views the model's formulation of the kind it consumes: "ode"
    (form.rhs(t, y), form.project(y)), "dae" (form.residual(t, y, yp), form.jacobian(...)),
    "constrained" (form.force, form.constraint, form.make_solver(): the model's O(N) solver),
    "lie_group_ode" (form.field, form.act, form.dexp_inv), "discrete_lie_group" (form.make_step():
    the model's step equations and Newton correction); python/README.md lists each form's methods.
    form.store is a dict that lasts the run (one solver per run). Its runs go through the same
    runner, metrics, instability criterion, tables, studies and gates as the compiled methods'; its
    runtime column says "python". A step that raises fails its run with the exception.

    A run starts from form.initial_state(), except on "dae", where it starts, as ida's does, from
    form.consistent_initial_state() at the Baumgarte parameters the integrator declares as settings
    baumgarte_p and baumgarte_gamma (0 where it declares none: the plain index-1 system). There
    form.derivative is y' at the step's start: the consistent y'(t0) at the first step, then what
    the previous step returned as (y_next, yp_next) (None after one that returned y_next alone).

    traits: what theory says of the method (MethodTraits: implicit, symmetric, symplectic,
    dissipative, conserves_momentum_map, imaginary_axis_stable, imaginary_axis_bound, on_manifold),
    judged against what the suite measures; a trait not given is not claimed (all False, the
    bound NaN). settings: {"key": {"default": 0.5, "meaning": "...", "lower": 0,
    "upper": 1}} -- set per case ([integrators.NAME]) or with run(settings=...).
    Registering a name again (a notebook cell run again) replaces the Python integrator."""
    order = _count("register_integrator('%s'): order" % name, order, 1, 100)
    if not callable(step):
        raise ValueError("register_integrator('%s'): step: expected a callable step(form, t, y, h)" % name)
    arguments = 5 if settings else 4
    try:
        inspect.signature(step).bind(*range(arguments))
    except TypeError:
        raise ValueError("register_integrator('%s'): step: expected a function of %d arguments, %s, got %s%s" % (
            name, arguments, "(form, t, y, h, settings) as it declares settings" if settings else "(form, t, y, h)",
            getattr(step, "__qualname__", type(step).__name__), inspect.signature(step))) from None
    except ValueError:
        pass  # a builtin without a signature: called as it is
    _core.register_integrator(name, step, consumes, order, dict(traits or {}), dict(settings or {}), summary or "",
                              _origin(step))
