"""The forms a Python step receives besides the ODE's (python/README.md, "The forms a Python step
receives"): the index-1 DAE, the constrained mechanical system, the Lie group ODE and the discrete
Lie group equations. For each, a scheme written in Python on the view's methods is measured like a
compiled one: its order where it is new (BDF1 and the trapezoidal rule on the DAE), and where it is
the scheme of a compiled integrator (RATTLE, RKMK4, the LGVI's Newton), its run agrees with that
integrator's to round-off: the view hands the step the model's own equations and O(N) solvers."""

import os

import numpy as np
import pytest

import tetherbench as tb

PLANAR = tb.bundled_case("T_planar_pendulum_60deg")
STRING = tb.bundled_case("A_string_pendulum_paper")
RIGID_BODY = tb.bundled_case("T_free_rigid_body")
MULTIROTOR = tb.bundled_case("C_single_multirotor")
EPS = np.finfo(float).eps


def dense(entries, n):
    """(rows, cols, values) with repeated entries summed, as a dense n x n matrix (small forms only)."""
    rows, cols, values = entries
    A = np.zeros((n, n))
    np.add.at(A, (rows, cols), values)
    return A


def run_agrees(result, a, b, columns, rel):
    """The two runs' time series agree column by column, to rel of each column's size."""
    ta, tb_ = result.timeseries(a), result.timeseries(b)
    assert len(ta) == len(tb_) and np.array_equal(ta.t, tb_.t)
    worst = {}
    for c in columns:
        size = max(np.abs(tb_[c]).max(), 1e-300)
        worst[c] = np.abs(ta[c] - tb_[c]).max() / size
    assert max(worst.values()) <= rel, worst
    return worst


# ---- The index-1 DAE: implicit Euler (BDF1) and the trapezoidal rule, Newton on the view's
# residual and analytic Jacobian ----

BAUMGARTE = {"baumgarte_p": {"default": 10.0, "lower": 0.0, "lower_inclusive": True,
                             "meaning": "p (1/s): C'' + 2p C' + p^2 C = 0, as ida's"},
             "baumgarte_gamma": {"default": 10.0, "lower": 0.0, "lower_inclusive": True,
                                 "meaning": "gamma (1/s): R^T R - I decays like exp(-gamma t), as ida's"}}


def newton_dae(form, t1, y1, yp_of, cj):
    """Solves F(t1, y1, yp_of(y1)) = 0 for y1, where d yp / d y1 = cj I (BDF1: yp = (y1 - y0)/h,
    cj = 1/h; the trapezoidal rule: yp = 2 (y1 - y0)/h - yp0, cj = 2/h), with the form's Newton
    matrix dF/dy + cj dF/dy'. Stops when a correction is below 1e-13 of the state's size: Newton's
    next one would be its square, far below round-off."""
    n = form.state_size
    for it in range(1, 21):
        yp = yp_of(y1)
        F = form.residual(t1, y1, yp)
        dy = np.linalg.solve(dense(form.jacobian(t1, y1, yp, cj), n), -F)
        y1 = y1 + dy
        if np.abs(dy).max() <= 1e-13 * (1.0 + np.abs(y1).max()):
            form.count_newton_iterations(it)
            return y1, yp_of(y1)
    raise ArithmeticError("Newton on the DAE step did not converge in 20 iterations")


def bdf1(form, t, y, h, settings):
    # BDF1 on F(t, y, y') = 0 (Brenan, Campbell & Petzold, Numerical Solution of Initial-Value
    # Problems in DAEs, SIAM 1996, ch. 3): y1 = y0 + h y1', F(t1, y1, y1') = 0, Newton from the explicit Euler
    # predictor y0 + h y0' (y0' from the view: returning (y1, y1') keeps it current).
    return newton_dae(form, t + h, y + h * form.derivative, lambda y1: (y1 - y) / h, 1.0 / h)


def trapezoidal_dae(form, t, y, h, settings):
    # The trapezoidal rule (two-stage Lobatto IIIA; Brenan, Campbell & Petzold ch. 4):
    # y1 = y0 + h/2 (y0' + y1'), F(t1, y1, y1') = 0. It needs y0', which the view carries from step
    # to step when the step returns (y1, y1') (the consistent y'(t0) at the first); with a wrong y0'
    # it would lose its second order.
    yp0 = form.derivative
    return newton_dae(form, t + h, y + h * yp0, lambda y1: 2.0 * (y1 - y) / h - yp0, 2.0 / h)


def without_ranking_sweep(case, folder):
    """A copy of the case file without its [report.ranking] table: the work-precision study's orders
    (orders.csv) are what the test reads, and the rankings' own sweep (10 s of the pendulum, timed
    twice) would be most of its cost."""
    lines, skipping = [], False
    with open(case, encoding="utf-8") as f:
        for line in f:
            if line.startswith("["):
                skipping = line.startswith("[report.ranking]")
            if not skipping:
                lines.append(line)
    path = folder / os.path.basename(case)
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def dae_orders(tmp_path_factory):
    case = without_ranking_sweep(PLANAR, tmp_path_factory.mktemp("cases"))
    tb.register_integrator("py_bdf1", bdf1, consumes="dae", order=1, settings=BAUMGARTE,
                           traits={"implicit": True, "dissipative": True})
    tb.register_integrator("py_trapezoidal_dae", trapezoidal_dae, consumes="dae", order=2, settings=BAUMGARTE,
                           traits={"implicit": True, "symmetric": True})
    frames = tb.study("work_precision", case, integrators=["py_bdf1", "py_trapezoidal_dae"])
    return {row.integrator: row for row in frames["orders.csv"].itertuples()}


@pytest.mark.parametrize("name, declared", [("py_bdf1", 1), ("py_trapezoidal_dae", 2)])
def test_a_python_dae_scheme_is_measured_at_its_order(dae_orders, name, declared):
    row = dae_orders[name]
    assert row.declared_order == declared
    assert abs(row.measured_order - declared) < 0.05, row
    # An interval that misses the declared order by the O(h) correction to the leading error term
    # (BDF1's local orders rise 0.935 -> 0.967 -> 0.983) is a note, not a flag: the one rule of
    # orders.csv, the gate and check-plugin (app/judging/order_fit.hpp judge_order; issue 44). Up to
    # then such a miss (below 0.02) was flagged.
    assert not (isinstance(row.flag, str) and row.flag), row.flag
    if "misses the declared" in row.note:
        gap = float(row.note.split(" by ")[1].split(",")[0])
        assert gap < 0.02, row.note


def test_check_integrator_passes_a_correct_first_order_method(dae_orders):
    """Issue 44: tb.check_integrator failed a correct order-1 method whose 95% interval missed 1
    by 0.0019 (clean deterministic convergence: BDF1's local orders approach 1 by the O(h)
    correction of the leading error term), while the gate passed it. One rule now
    (app/judging/order_fit.hpp judge_order): the declared-order check passes, and says by how much the
    interval misses, if it does."""
    checks = tb.check_integrator("py_bdf1").set_index("check")
    row = checks.loc["declared order"]
    assert row["result"] == "pass", row.tolist()
    assert "declared 1" in row["measured"], row.tolist()
    # The same rule as orders.csv, which leaves its order unflagged too.
    assert not (isinstance(dae_orders["py_bdf1"].flag, str) and dae_orders["py_bdf1"].flag)


def test_the_dae_view_starts_consistent_and_its_jacobian_is_the_residuals_derivative():
    seen = []

    def probe(form, t, y, h, settings):
        if not seen:
            p, gamma = form.baumgarte
            seen.append(dict(b=(p, gamma), settings=dict(settings), y0=y.copy(), yp0=form.derivative,
                             consistent=form.consistent_initial_state(), consistent_yp=form.consistent_initial_derivative(),
                             F0=form.residual(t, y, form.derivative), ids=form.differential_components()))
            # The analytic Jacobian against central differences of the view's residual, at a state
            # off the constraint manifold with a nonzero y' (every term of F live).
            rng = np.random.default_rng(36)
            ys = y + 0.05 * rng.standard_normal(y.size)
            yps = form.derivative + 0.5 * rng.standard_normal(y.size)
            cj = 1.0 / h
            J = dense(form.jacobian(t, ys, yps, cj), y.size)
            fd = np.zeros_like(J)
            for j in range(y.size):
                e = np.zeros(y.size)
                e[j] = 1e-6
                fd[:, j] = (form.residual(t, ys + e, yps) - form.residual(t, ys - e, yps)) / 2e-6 \
                    + cj * (form.residual(t, ys, yps + e) - form.residual(t, ys, yps - e)) / 2e-6
            seen[0]["jacobian_error"] = np.abs(J - fd).max() / np.abs(J).max()
            rows, cols, _ = form.jacobian(t, ys, yps, cj)
            seen[0]["band"] = (form.lower_bandwidth, form.upper_bandwidth, (cols - rows).min(), (cols - rows).max())
        else:
            seen.append(form.derivative)
        # Returns (y, y') at the first step only: the second sees that y', the third none.
        return (y, form.derivative) if len(seen) == 1 else y

    tb.register_integrator("py_dae_probe", probe, consumes="dae", settings=BAUMGARTE)
    res = tb.run(PLANAR, integrators=["py_dae_probe"], t_end=0.004, settings={"py_dae_probe": {"baumgarte_p": 30.0}})
    assert res.status("py_dae_probe") == "ok"
    first = seen[0]
    assert first["b"] == (30.0, 10.0) and first["settings"] == {"baumgarte_p": 30.0, "baumgarte_gamma": 10.0}
    np.testing.assert_array_equal(first["y0"], first["consistent"])  # the run's start: consistent at the run's p, gamma
    np.testing.assert_array_equal(first["yp0"], first["consistent_yp"])
    assert np.abs(first["F0"]).max() < 1e-14 * (1 + np.abs(first["yp0"]).max())
    assert list(first["ids"]) == [1, 1, 1, 1, 0]  # x, z, vx, vz differential; the multiplier algebraic
    assert first["jacobian_error"] < 1e-8, first["jacobian_error"]
    lower, upper, lowest, highest = first["band"]
    assert -lower <= lowest and highest <= upper
    # y' after a step that returned it, and None after one that did not.
    np.testing.assert_array_equal(seen[1], first["yp0"])
    assert seen[2] is None and seen[3] is None


def test_a_bad_derivative_fails_the_run_saying_what_was_expected():
    tb.register_integrator("py_dae_bad_yp", lambda form, t, y, h: (y, y[:2]), consumes="dae")
    tb.register_integrator("py_dae_triple", lambda form, t, y, h: (y, y, y), consumes="dae")
    res = tb.run(PLANAR, integrators=["py_dae_bad_yp", "py_dae_triple"], t_end=0.01)
    assert res.status("py_dae_bad_yp").startswith(
        "failed: the Python step returned yp_next of 2 numbers, expected 5 (the state's size)")
    assert res.status("py_dae_triple").startswith(
        "failed: the Python step returned a tuple of 3 items, expected y_next or (y_next, yp_next)")


# ---- The constrained mechanical system: RATTLE written in Python on the view's M, f, g, G and
# the model's structured solver, step for step the compiled rattle's (integrators/rattle_step.cpp) ----

def rattle(form, t, y, h, settings):
    """RATTLE (Hairer-Lubich-Wanner, Geometric Numerical Integration, VII.1.4 eq. (1.26)) for a
    constant M, with the compiled rattle's Newton on the position multipliers and its stopping rule:
      v_{k+1/2} = v_k + h/2 M^-1 (f_k - G(q_k)^T lambda),  q_{k+1} = q_k + h v_{k+1/2},  g(q_{k+1}) = 0
      v_{k+1} = v_{k+1/2} + h/2 M^-1 (f_{k+1} - G(q_{k+1})^T mu),  G(q_{k+1}) v_{k+1} = 0,
    each Newton correction one solve of [M, G(q_k)^T; G(q^i), 0] by the model's solver."""
    if form.mass_depends_on_configuration:
        raise NotImplementedError("this RATTLE assumes a constant mass matrix")
    n, m, w = form.positions, form.constraints, form.work_terms
    if "solver" not in form.store:  # one solver per run, as one per compiled stepper
        form.store["solver"] = form.make_solver()
        form.store["scale_inverse"] = 1.0 / form.constraint_scale()
    solver, scale_inverse = form.store["solver"], form.store["scale_inverse"]
    tol, max_iters = settings["newton_tol"], int(settings["max_newton_iters"])

    def constraint_error(q):
        g = form.constraint(q)
        return g, (np.abs(g * scale_inverse).max() if m else 0.0)

    q0, v0 = y[:n], y[n:2 * n]
    f = form.force(t, q0, v0)
    q, X, r = q0 + h * v0, np.zeros(n), 0.5 * h * h * f
    g, err = constraint_error(q)
    previous = 0.0
    for it in range(max_iters):
        if not solver.factor(q, q0):
            raise ArithmeticError("singular constraint matrix")
        x, _ = solver.solve(r, -g)
        form.count_newton_iterations()
        q = q + x
        X = X + x
        r = np.zeros(n)
        previous = err
        g, err = constraint_error(q)
        if err <= tol or (it > 0 and err >= 0.5 * previous and err <= 1e-10):
            break
    else:
        raise ArithmeticError("Newton on the position multipliers did not converge")
    vhalf = v0 + X / h
    if not solver.factor(q, q):
        raise ArithmeticError("singular constraint matrix at q_{k+1}")
    s = -form.constraint_jacobian_times(q, vhalf) if m else np.zeros(0)
    v1, change = vhalf, 0.0
    for it in range(max_iters):  # a velocity-dependent force at v_{k+1}: fixed-point passes
        f = form.force(t + h, q, v1)
        x, _ = solver.solve(0.5 * h * f, s)
        previous_change, change = change, np.abs(vhalf + x - v1).max()
        v1 = vhalf + x
        if not form.force_depends_on_velocity:
            break
        size = np.abs(v1).max()
        if change <= 1e-15 * size or (it > 0 and change >= 0.5 * previous_change and change <= 1e-12 * size):
            break
    else:
        raise ArithmeticError("the second half kick's velocity-dependent force did not converge")
    y1 = np.concatenate([q, v1, y[2 * n:]])
    if w:  # W' = P(t, q, v) by the trapezoidal rule (integrators/work_terms.hpp)
        y1[2 * n:] = y[2 * n:] + 0.5 * h * (form.power(t, q0, v0) + form.power(t + h, q, v1))
    return y1


@pytest.fixture(scope="module")
def python_rattle():
    info = tb.integrator_info("rattle")
    settings = {k: {"default": v["default"], "meaning": v["meaning"]} for k, v in info["settings"].items()}
    tb.register_integrator("py_rattle", rattle, consumes="constrained", order=2, settings=settings,
                           traits={"implicit": True, "symmetric": True, "symplectic": True})


@pytest.mark.parametrize("case, t_end, columns", [
    (PLANAR, 1.0, ["energy", "kinetic", "tension"]),
    (STRING, 0.02, ["energy", "kinetic", "x", "y", "z", "vx", "vy", "vz", "Omega_x", "Omega_y", "Omega_z", "stretched_length"]),
    (tb.bundled_case("T_hanging_tether_full"), 0.1, ["energy", "kinetic", "external_work"]),
])
def test_python_rattle_is_the_compiled_rattle(python_rattle, case, t_end, columns):
    res = tb.run(case, integrators=["py_rattle", "rattle"], t_end=t_end)
    s = res.summary.set_index("integrator")
    assert list(s.status) == ["ok", "ok"]
    # The same scheme, the same Newton: the same force evaluations and iterations, step for step.
    for counter in ("steps", "rhs_evals", "newton_iters"):
        assert s.loc["py_rattle", counter] == s.loc["rattle", counter], counter
    ts = res.timeseries("rattle")
    present = [c for c in columns if c in ts.columns]
    assert len(present) == len(columns), (columns, list(ts.columns))
    run_agrees(res, "py_rattle", "rattle", present, rel=1e-12)
    # The constraints hold at the Newton tolerance after every step (RATTLE's, whatever h), where
    # the form integrates any (the hanging tether's strings are elastic: n/a).
    if np.isnan(s.loc["rattle", "constraint_err_max"]):
        assert np.isnan(s.loc["py_rattle", "constraint_err_max"])
    else:
        assert s.loc["py_rattle", "constraint_err_max"] < 1e-12
        assert s.loc["py_rattle", "constraint_err_max"] == pytest.approx(s.loc["rattle", "constraint_err_max"], rel=1e-6, abs=1e-15)


def test_the_constrained_views_pieces_are_consistent():
    out = {}

    def probe(form, t, y, h):
        if not out:
            n, m = form.positions, form.constraints
            q = y[:n]
            rng = np.random.default_rng(5)
            v = rng.standard_normal(n)  # the string starts at rest: a random v reaches every row
            M = dense(form.mass_entries(), n)
            G = np.zeros((m, n))
            rows, cols, values = form.constraint_jacobian(q)
            np.add.at(G, (rows, cols), values)
            lam = rng.standard_normal(m)
            out["Mv"] = np.abs(M @ v - form.mass_times(v)).max() / max(np.abs(M @ v).max(), 1e-300)
            out["Gv"] = np.abs(G @ v - form.constraint_jacobian_times(q, v)).max()
            out["GTl"] = np.abs(G.T @ lam - form.constraint_jacobian_transpose_times(q, lam)).max()
            # G against central differences of g.
            fd = np.column_stack([(form.constraint(q + 1e-7 * e) - form.constraint(q - 1e-7 * e)) / 2e-7 for e in np.eye(n)])
            out["G_fd"] = np.abs(G - fd).max() / np.abs(G).max()
            # The solver solves [M, G^T; G, 0] [x; lambda] = [r; s].
            solver = form.make_solver()
            r, s = rng.standard_normal(n), rng.standard_normal(m)
            assert solver.factor(q, q)
            x, lam = solver.solve(r, s)
            K = np.block([[M, G.T], [G, np.zeros((m, m))]])
            # Normwise backward error (Higham, Accuracy and Stability, Thm. 7.1): round-off of a stable solve.
            z, b = np.concatenate([x, lam]), np.concatenate([r, s])
            out["solve"] = np.abs(K @ z - b).max() / (np.abs(K).sum(axis=1).max() * np.abs(z).max() + np.abs(b).max())
            out["solver"], out["form"] = solver, form
            with pytest.raises(ValueError, match="r: expected %d numbers, got 1" % n):
                solver.solve(np.zeros(1), s)
        return y

    tb.register_integrator("py_constrained_probe", probe, consumes="constrained")
    res = tb.run(STRING, integrators=["py_constrained_probe"], t_end=1e-4)
    assert res.status("py_constrained_probe") == "ok"
    assert out["Mv"] < 1e-14 and out["Gv"] < 1e-13 and out["GTl"] < 1e-13
    assert out["G_fd"] < 1e-7, out["G_fd"]
    assert out["solve"] < 100 * EPS, out["solve"]
    # The solver the form made ended with its run, as the form did.
    with pytest.raises(RuntimeError, match="this solver belongs to a run that has ended"):
        out["solver"].factor(np.zeros(3), np.zeros(3))
    with pytest.raises(RuntimeError, match="this form belongs to a run that has ended"):
        out["form"].store


# ---- The Lie group ODE: RKMK4 written in Python on the view's field, act and dexp_inv ----

RK4_B = (1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0)


def rkmk4(form, t, y, h):
    """Runge-Kutta-Munthe-Kaas 4 (Munthe-Kaas 1999, Algorithm 2.1): RK4 on u' = dexp^-1_u xi(exp(u) . y0),
    dexp^-1 truncated after ad^2 (q = 2 suffices for order 4), y1 = exp(u1) . y0."""
    k1 = form.field(t, y)
    u = (h * 0.5) * k1
    k2 = form.dexp_inv(u, form.field(t + 0.5 * h, form.act(u, y)), 2)
    u = (h * 0.5) * k2
    k3 = form.dexp_inv(u, form.field(t + 0.5 * h, form.act(u, y)), 2)
    u = (h * 1.0) * k3
    k4 = form.dexp_inv(u, form.field(t + 1.0 * h, form.act(u, y)), 2)
    u = (h * RK4_B[0]) * k1 + (h * RK4_B[1]) * k2 + (h * RK4_B[2]) * k3 + (h * RK4_B[3]) * k4
    return form.act(u, y)


@pytest.mark.parametrize("case, t_end, columns", [
    (RIGID_BODY, 2.0, ["energy", "pi_x", "pi_y", "pi_z", "Omega_x", "Omega_y", "Omega_z"]),
    (MULTIROTOR, 0.05, ["energy", "payload_x", "payload_y", "payload_z", "multirotor_x", "multirotor_y", "multirotor_z"]),
])
def test_python_rkmk4_is_the_compiled_rkmk4_and_stays_on_the_group(case, t_end, columns):
    tb.register_integrator("py_rkmk4", rkmk4, consumes="lie_group_ode", order=4, traits={"on_manifold": True})
    res = tb.run(case, integrators=["py_rkmk4", "rkmk4"], t_end=t_end)
    s = res.summary.set_index("integrator")
    assert list(s.status) == ["ok", "ok"]
    assert s.loc["py_rkmk4", "rhs_evals"] == s.loc["rkmk4", "rhs_evals"] == 4 * s.loc["rkmk4", "steps"]
    run_agrees(res, "py_rkmk4", "rkmk4", columns, rel=1e-12)
    # R and q moved only by exp: R^T R = I and |q| = 1 at round-off, whatever the accuracy.
    ts = res.timeseries("py_rkmk4")
    assert ts.orthogonality_err.max() < 20 * EPS
    for err in ("orthogonality_err_max", "constraint_err_max"):
        if not np.isnan(s.loc["rkmk4", err]):
            assert s.loc["py_rkmk4", err] == pytest.approx(s.loc["rkmk4", err], rel=0.5, abs=20 * EPS)


def rate_slots(form):
    """Where the rates (Omega per rotation, omega per direction, the positions' velocities) sit in y,
    in the rate rows' order, and where each sits in the algebra (a free entry)."""
    rates = [rate + i for _, rate in form.rotations + form.directions for i in range(3)] + \
        [rate + i for _, rate, size in form.positions for i in range(size)]
    free = {entry: form.group_size + form.position_size + j for j, entry in enumerate(form.vector_entries)}
    return np.array(rates), np.array([free[i] for i in rates])


@pytest.mark.parametrize("case", [RIGID_BODY, MULTIROTOR])
def test_the_lie_group_views_maps_and_tangents(case):
    out = {}

    def probe(form, t, y, h):
        if not out:
            out["layout"] = (form.algebra_size, form.group_size, form.position_size, form.rotations, form.directions,
                             form.positions, form.vector_entries, form.is_vector_space)
            # d/de act(e du, y) = embedded_velocity(y, du) at e = 0 (Model C starts at rest: a random
            # du, not the field, moves every factor).
            rng = np.random.default_rng(36)
            du = rng.standard_normal(form.algebra_size)
            fd = (form.act(1e-6 * du, y) - form.act(-1e-6 * du, y)) / 2e-6
            out["velocity"] = np.abs(fd - form.embedded_velocity(y, du)).max() / np.abs(fd).max()
            # dexp^-1 at u = 0 is the identity; the truncated series converges to the exact one.
            u = 0.3 * rng.standard_normal(form.algebra_size)
            out["dexp0"] = np.abs(form.dexp_inv(np.zeros_like(u), du) - du).max()
            out["dexp_series"] = [np.abs(form.dexp_inv(u, du, q) - form.dexp_inv(u, du)).max() for q in (0, 2, 4)]
            xi = form.field(t, y)
            with pytest.raises(ValueError, match="q: expected -1"):
                form.dexp_inv(u, xi, 7)
            with pytest.raises(ValueError, match="u: expected %d numbers" % form.algebra_size):
                form.act(np.zeros(2), y)
            # The rate rows at the field's own rates (and the form's multipliers) vanish to their floor.
            rates, in_algebra = rate_slots(form)
            k = rates.size
            vdot = np.concatenate([xi[in_algebra], form.rate_multiplier_values(t, y)])
            r, S = form.rate_residual(t, y, vdot)
            out["rate_residual"] = (np.abs(r) / (EPS * S + np.finfo(float).tiny)).max()
            # The tangents against central differences of the rate residual: in vdot (M), along the
            # trivialised configuration perturbation act(e du, y) (K), in the rates (C).
            M, K, C = (dense(e, vdot.size)[:, :n] for e, n in zip(form.rate_tangents(t, y, vdot), (vdot.size, k, k)))
            e = 1e-6
            fd_M = np.column_stack([(form.rate_residual(t, y, vdot + e * d)[0] - form.rate_residual(t, y, vdot - e * d)[0]) / (2 * e)
                                    for d in np.eye(vdot.size)])
            fd_K = np.column_stack([(form.rate_residual(t, form.act(e * d, y), vdot)[0]
                                     - form.rate_residual(t, form.act(-e * d, y), vdot)[0]) / (2 * e)
                                    for d in np.eye(form.algebra_size)[:k]])
            fd_C = np.column_stack([(form.rate_residual(t, y + e * d, vdot)[0] - form.rate_residual(t, y - e * d, vdot)[0]) / (2 * e)
                                    for d in np.eye(y.size)[rates]])
            scale = max(np.abs(M).max(), np.abs(K).max(), np.abs(C).max())
            out["tangents"] = [np.abs(A - fd).max() / scale for A, fd in ((M, fd_M), (K, fd_K), (C, fd_C))]
        return rkmk4(form, t, y, h)

    tb.register_integrator("py_lie_probe", probe, consumes="lie_group_ode")
    res = tb.run(case, integrators=["py_lie_probe"], t_end=0.01)
    assert res.status("py_lie_probe") == "ok"
    if case == RIGID_BODY:
        assert out["layout"] == (6, 3, 0, [(0, 9)], [], [], [9, 10, 11], False)  # R, then Omega free
    assert out["velocity"] < 1e-8
    assert out["dexp0"] == 0.0
    e0, e2, e4 = out["dexp_series"]
    assert e0 > e2 > e4 > 0 and e4 < 1e-4
    # Two routes to the same accelerations (the ODE form's explicit solve, the rate rows' residual)
    # agree within a few decades of the rows' floor eps S_i: measured 0 on the rigid body, 83 on
    # Model C, whose cable rows carry the link tensions (the conditioning of its cable system).
    assert out["rate_residual"] < 1e3, out["rate_residual"]
    assert max(out["tangents"]) < 1e-7, out["tangents"]


# ---- The discrete Lie group equations: the LGVI's Newton written in Python on the model's step ----

FLOOR_EPS = 4.0  # integrators/lgvi_step_solver.cpp kFloorEps


def lgvi(form, t, y, h, settings):
    """One LGVI step (seed 003 Algorithm 1): Newton on the model's discrete Legendre transform
    G(x) = 0 with its analytic Newton correction, from the compiled lgvi's predictor (the parabola
    through the last three solutions at the same step), stopping by its rule (integrators/
    lgvi_step_solver.cpp): every row at its round-off floor 4 eps S_i, or a correction below
    newton_tol of its group's size. Without the compiled solver's continuation in h: a step whose
    Newton fails raises."""
    st = form.store
    if "step" not in st:
        st["step"] = form.make_step()
        groups = np.array(st["step"].unknown_groups())
        st["masks"] = [groups == g for g in range(groups.max() + 1)] if groups.size else []
        st["history"], st["h"] = [], None
    step, masks, history = st["step"], st["masks"], st["history"]
    tol, max_iters = settings["newton_tol"], int(settings["max_newton_iters"])
    step.begin(y, h)
    same = st["h"] is not None and abs(h - st["h"]) <= 1e-9 * abs(h)
    if not same:
        history.clear()
        x = step.initial_guess()
    elif len(history) >= 3:
        x = 3.0 * (history[-1] - history[-2]) + history[-3]
    elif len(history) == 2:
        x = 2.0 * history[-1] - history[-2]
    else:
        x = history[-1].copy()
    previous, stalls = np.inf, 0
    for it in range(max_iters):
        G = step.residual(x)
        form.count_newton_iterations()
        excess = (np.abs(G) / (FLOOR_EPS * (EPS * step.residual_magnitudes() + np.finfo(float).tiny))).max()
        if excess <= 1.0:
            break
        stalls = stalls + 1 if excess > 0.5 * previous else 0
        if stalls >= 2:
            raise ArithmeticError("the residual stalls at %g times its round-off floor" % excess)
        previous = excess
        dx = step.newton_correction(x, G)
        if dx is None:
            raise ArithmeticError("singular Newton matrix")
        x = x + dx
        relative = 0.0
        for mask in masks:
            correction = np.abs(dx[mask]).max()
            if correction != 0.0:
                size = np.abs(x[mask]).max()
                relative = max(relative, correction / size if size > 0 else np.inf)
        if masks and relative <= tol:
            break
    else:
        raise ArithmeticError("no convergence in %d iterations" % max_iters)
    history.append(x)
    del history[:-3]
    st["h"] = h
    return step.complete(x)


@pytest.fixture(scope="module")
def python_lgvi():
    info = tb.integrator_info("lgvi")
    settings = {k: {"default": v["default"], "meaning": v["meaning"]} for k, v in info["settings"].items()}
    tb.register_integrator("py_lgvi", lgvi, consumes="discrete_lie_group", order=2, settings=settings,
                           traits={"implicit": True, "symmetric": True, "symplectic": True, "on_manifold": True})


@pytest.mark.parametrize("case, t_end, columns", [
    (STRING, 0.02, ["energy", "kinetic", "x", "y", "z", "vx", "vy", "vz", "Omega_x", "Omega_y", "Omega_z", "stretched_length"]),
    (MULTIROTOR, 0.1, ["energy", "payload_x", "payload_y", "payload_z", "P_x", "P_y", "P_z", "multirotor_x", "multirotor_z"]),
])
def test_python_lgvi_is_the_compiled_lgvi(python_lgvi, case, t_end, columns):
    res = tb.run(case, integrators=["py_lgvi", "lgvi"], t_end=t_end)
    s = res.summary.set_index("integrator")
    assert list(s.status) == ["ok", "ok"]
    for counter in ("steps", "rhs_evals", "newton_iters"):
        assert s.loc["py_lgvi", counter] == s.loc["lgvi", counter], counter
    run_agrees(res, "py_lgvi", "lgvi", columns, rel=1e-12)
    assert s.loc["py_lgvi", "orthogonality_err_max"] < 20 * EPS


def test_the_discrete_step_keeps_its_order_of_calls_and_ends_with_its_run():
    out = {}

    def probe(form, t, y, h):
        if not out:
            step = form.make_step()
            with pytest.raises(RuntimeError, match=r"call begin\(y, h\) first"):
                step.residual(np.zeros(step.unknowns))
            step.begin(y, h)
            with pytest.raises(RuntimeError, match="call it first"):
                step.residual_magnitudes()
            x = step.initial_guess()
            G = step.residual(x)
            # The analytic Newton correction against the Jacobian by central differences of G.
            n = step.unknowns
            J = np.column_stack([(step.residual(x + 1e-7 * e) - step.residual(x - 1e-7 * e)) / 2e-7 for e in np.eye(n)])
            dx = step.newton_correction(x, G)
            out["newton"] = np.abs(J @ dx + G).max() / np.abs(G).max()
            out["symmetric"], out["canonical"] = form.why_not_time_symmetric, form.canonical_state(y)
            out["step"] = step
        return y

    tb.register_integrator("py_dlg_probe", probe, consumes="discrete_lie_group")
    res = tb.run(RIGID_BODY, integrators=["py_dlg_probe"], t_end=0.02)
    assert res.status("py_dlg_probe") == "ok"
    assert out["newton"] < 1e-6, out["newton"]
    assert out["symmetric"] == "" and out["canonical"].size == 12
    with pytest.raises(RuntimeError, match="this step belongs to a run that has ended"):
        out["step"].begin(np.zeros(12), 0.01)


def test_baumgarte_settings_given_where_they_act_on_nothing_are_refused_as_for_ida(cli, tmp_path):
    # The elastic pendulum's DAE form is the implicit ODE of an unconstrained system: nothing to
    # stabilise, so p given for a DAE integrator written in Python is refused as ida's is.
    tb.register_integrator("py_dae_idle", bdf1, consumes="dae", order=1, settings=BAUMGARTE)
    elastic = tb.bundled_case("T_elastic_pendulum")
    with pytest.raises(ValueError) as python_dae:
        tb.run(elastic, integrators=["py_dae_idle"], t_end=0.01, settings={"py_dae_idle": {"baumgarte_p": 5.0}})
    status, _, err = cli("run", elastic, "--integrator", "ida", "--t-end", "0.01", "--set", "ida.baumgarte_p=5.0",
                         "--out", tmp_path)
    assert status == 2
    # The same message, with --set named as Python's settings (issue 46 item 5).
    assert str(python_dae.value) == err.strip()[len("tetherbench: "):].replace("ida", "py_dae_idle").replace("--set ", "settings ")
    assert "nothing to act on" in str(python_dae.value)
