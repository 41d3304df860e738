"""ODE solvers and their options (mlang/builtins/math: ode, ode_events, ode_options,
ode_stiff).  Reference values are exact solutions or Octave's numbers."""

import numpy as np
import pytest

# ------------------------------------------------------------------ odeset / odeget


def test_odeset_fields_and_names(m):
    o = m.value("x = odeset();")
    assert o.fields[:4] == ["AbsTol", "BDF", "Events", "InitialStep"]
    assert len(o.fields) == 22
    assert all(v.size == 0 for v in o.element(0).values())
    o = m.value("x = odeset('reltol', 1e-6, 'AbsT', [1 2]);")
    assert o.element(0)["RelTol"] == 1e-6
    assert np.asarray(o.element(0)["AbsTol"]).tolist() == [[1, 2]]
    # an exact name wins over longer names it starts
    assert m.value("x = odeget(odeset('Mass', 3), 'Mass');") == 3.0
    assert m.value("o = odeset('RelTol', 1); x = odeset(o, 'Refine', 2); x = x.RelTol;") == 1.0
    assert m.value("x = odeset(odeset('RelTol', 1), odeset('AbsTol', 2)); x = x.RelTol;") == 1.0


def test_odeget(m):
    assert m.value("x = odeget(odeset('RelTol', 1e-5), 'reltol');") == 1e-5
    assert m.value("x = odeget(odeset(), 'RelTol', 7);") == 7.0
    assert m.value("x = odeget([], 'MaxStep', 3);") == 3.0
    assert m.value("x = odeget(odeset(), 'RelTol');").shape == (0, 0)


def test_odeset_errors(m):
    e = m.fails("odeset('Foo', 1)")
    assert e.exc.identifier == "MATLAB:odeset:InvalidPropName"
    assert e.exc.message == "Unrecognized property name 'Foo'."
    e = m.fails("odeset('M', 1)")
    assert e.exc.identifier == "MATLAB:odeset:AmbiguousPropName"
    assert e.exc.message.startswith("Ambiguous property name 'M' (Mass, MassSingular")
    assert m.fails("odeset('RelTol')").exc.identifier == "MATLAB:odeset:ArgNameValueMismatch"
    assert m.fails("odeset(3, 1)").exc.identifier == "MATLAB:odeset:NoPropName"
    assert m.fails("odeget(odeset(), 'Bogus')").exc.identifier == "MATLAB:odeget:InvalidPropName"
    assert m.fails("odeget(5, 'RelTol')").exc.identifier == "MATLAB:odeget:Arg1NotODESETstruct"


# ---------------------------------------------------------------------- ode45


def test_ode45_two_point_tspan_refines_each_step(m):
    t, y = m.values("[t, y] = ode45(@(t,y) -y, [0 1], 1);", "t", "y")
    # MaxStep defaults to 0.1*|tf-t0|: ten steps, each refined by 4
    assert t.shape == (41, 1) and y.shape == (41, 1)
    assert np.allclose(t[:5, 0], [0, 0.025, 0.05, 0.075, 0.1])
    assert np.max(np.abs(y - np.exp(-t))) < 1e-6


def test_ode45_requested_points(m):
    t, y = m.values("[t, y] = ode45(@(t,y) [y(2); -y(1)], [0 2 4 6], [0; 1]);", "t", "y")
    assert t[:, 0].tolist() == [0, 2, 4, 6]
    assert y.shape == (4, 2)
    # Octave: 0.909279741062943, -0.756833850833324, -0.279312168049415
    assert np.allclose(y[:, 0], np.sin([0, 2, 4, 6]), atol=1e-3)
    assert np.allclose(y[:, 1], np.cos([0, 2, 4, 6]), atol=1e-3)


def test_ode45_tolerances_and_backwards(m):
    y = m.value("o = odeset('RelTol', 1e-8, 'AbsTol', 1e-10);"
                "[t, x] = ode45(@(t,y) -2*y, [0 1], 1, o); x = x(end);")
    assert y == pytest.approx(np.exp(-2), rel=1e-7)
    t, y = m.values("[t, y] = ode45(@(t,y) -y, [1 0], 1);", "t", "y")
    assert t[-1, 0] == 0.0 and y[-1, 0] == pytest.approx(np.e, rel=1e-5)


def test_ode45_options_steps(m):
    t = m.value("[x, y] = ode45(@(t,y) -y, [0 1], 1, odeset('MaxStep', 0.01, 'Refine', 1));")
    assert t.shape == (101, 1)
    t = m.value("[x, y] = ode45(@(t,y) -y, [0 1], 1, odeset('InitialStep', 0.01, "
                "'Refine', 1)); x = x(2);")
    assert t == pytest.approx(0.01)
    out = m.run("[t, y] = ode45(@(t,y) -y, [0 1], 1, odeset('Stats', 'on'));")
    assert out == "10 successful steps\n0 failed attempts\n61 function evaluations\n"


def test_ode45_extra_parameters_and_single(m):
    y = m.value("[t, x] = ode45(@(t,y,a) -a*y, [0 1], 1, [], 3); x = x(end);")
    assert y == pytest.approx(np.exp(-3), rel=1e-4)
    y = m.value("[t, x] = ode45(@(t,y) -y, [0 1], single(1));")
    assert y.dtype == np.float32


def test_ode45_events(m):
    te, ye, ie, t = m.values(
        "ev = @(t,y) deal(y(1), 1, -1);"
        "o = odeset('Events', ev);"
        "[t, y, te, ye, ie] = ode45(@(t,y) [y(2); -9.8], [0 30], [0; 20], o);",
        "te", "ye", "ie", "t")
    assert te == pytest.approx(20 / 4.9, rel=1e-9)
    assert ye.shape == (1, 2) and ye[0, 1] == pytest.approx(-20, rel=1e-9)
    assert ie == 1.0
    assert t[-1, 0] == te
    # a non-terminal event in both directions: sin(t) crosses 1/2 three times
    te, ie = m.values("o = odeset('Events', @(t,y) deal(y(1) - 0.5, 0, 0), 'RelTol', 1e-8);"
                      "[t, y, te, ye, ie] = ode45(@(t,y) cos(t), [0 7], 0, o);", "te", "ie")
    assert np.allclose(te[:, 0], np.pi * np.array([1, 5, 13]) / 6, atol=1e-6)
    assert ie[:, 0].tolist() == [1, 1, 1]


def test_ode45_output_fcn_can_stop(m):
    t = m.value("o = odeset('OutputFcn', @(t,y,flag) ~isempty(t) && t(end) >= 0.5);"
                "[x, y] = ode45(@(t,y) -y, [0 1], 1, o); x = x(end);")
    assert t == pytest.approx(0.5)


def test_ode45_solution_struct_and_deval(m):
    sol = m.value("x = ode45(@(t,y) -y, [0 1], 1);")
    assert sol.fields[:4] == ["solver", "extdata", "x", "y"]
    f = sol.element(0)
    assert f["x"].shape == (1, 11) and f["y"].shape == (1, 11)
    assert f["stats"].element(0)["nsteps"] == 10.0
    y, yp = m.values("s = ode45(@(t,y) -y, [0 1], 1); [y, yp] = deval(s, [0 0.3 1]);", "y", "yp")
    assert np.allclose(y, np.exp(-np.array([[0, 0.3, 1]])), atol=1e-6)
    assert np.allclose(yp, -y, atol=1e-5)
    y = m.value("s = ode45(@(t,y) [y(2); -y(1)], [0 2], [0; 1]); x = deval(0.5, s, 2);")
    assert y == pytest.approx(np.cos(0.5), abs=1e-5)
    assert m.fails("s = ode45(@(t,y) -y, [0 1], 1); deval(s, 0.5, 2)").exc.identifier == \
        "MATLAB:badsubscript"
    e = m.fails("s = ode45(@(t,y) -y, [0 1], 1); deval(s, 2)")
    assert e.exc.identifier == "MATLAB:deval:SolOutsideInterval"
    assert e.exc.message == ("Attempting to evaluate the solution outside the interval "
                             "[0.000000e+00, 1.000000e+00] where it is defined.")


def test_ode45_errors(m):
    e = m.fails("ode45(@(t,y) [y; y], [0 1], 1)")
    assert e.exc.identifier == "MATLAB:odearguments:SizeIC"
    assert e.exc.message.startswith("@(t,y)[y;y] returns a vector of length 2, but the length "
                                    "of initial conditions vector is 1.")
    assert m.fails("ode45(@(t,y) -y, 0, 1)").exc.identifier == "MATLAB:odearguments:SizeTspan"
    assert m.fails("ode45(@(t,y) -y, [1 1], 1)").exc.identifier == \
        "MATLAB:odearguments:TspanEndpointsNotDistinct"
    assert m.fails("ode45(@(t,y) -y, [0 2 1], 1)").exc.identifier == \
        "MATLAB:odearguments:TspanNotMonotonic"
    assert m.fails("ode45(@(t,y) -y, [0 1], int8(1))").exc.identifier == \
        "MATLAB:datatypes:superiorfloat"
    # an error in the user's function is the user's error
    assert m.fails("ode45(@(t,y) y(5), [0 1], 1)").exc.identifier == "MATLAB:badsubscript"


# ---------------------------------------------------------------------- ode23


def test_ode23(m):
    t, y = m.values("[t, y] = ode23(@(t,y) -y, [0 1], 1);", "t", "y")
    assert t[0, 0] == 0 and t[-1, 0] == 1
    assert np.max(np.abs(y - np.exp(-t))) < 1e-3
    y = m.value("[t, x] = ode23(@(t,y) [y(2); -y(1)], [0 1 2], [0; 1]);")
    assert np.allclose(y[:, 0], np.sin([0, 1, 2]), atol=2e-3)
    y = m.value("s = ode23(@(t,y) -y, [0 2], 1); x = deval(s, [0.5 1.5]);")
    assert np.allclose(y, np.exp(-np.array([[0.5, 1.5]])), atol=1e-3)


# ------------------------------------------- ode113, ode15s, ode23s, ode23t, ode23tb


@pytest.mark.parametrize("solver", ["ode113", "ode15s", "ode23s", "ode23t", "ode23tb"])
def test_scipy_solvers(m, solver):
    t, y = m.values(f"[t, y] = {solver}(@(t,y) -y, [0 1 2], 1);", "t", "y")
    assert t[:, 0].tolist() == [0, 1, 2]
    assert np.allclose(y[:, 0], np.exp(-t[:, 0]), atol=5e-3)
    y = m.value(f"s = {solver}(@(t,y) -y, [0 2], 1); x = deval(s, 1.5);")
    assert y == pytest.approx(np.exp(-1.5), abs=5e-3)
    te = m.value(f"o = odeset('Events', @(t,y) deal(y - 0.5, 1, 0));"
                 f"[t, y, x] = {solver}(@(t,y) -y, [0 5], 1, o);")
    assert te == pytest.approx(np.log(2), abs=5e-3)


def test_ode15s_stiff_van_der_pol(m):
    y = m.value("f = @(t,y) [y(2); 1000*(1-y(1)^2)*y(2)-y(1)];"
                "[t, x] = ode15s(f, [0 1000], [2; 0]); x = x(end, 1);")
    assert y == pytest.approx(-1.8636, abs=0.01)


def test_mass_matrix(m):
    # M*y' = -y with M = 2: y = exp(-t/2)
    y = m.value("[t, x] = ode45(@(t,y) -y, [0 1], 1, odeset('Mass', 2)); x = x(end);")
    assert y == pytest.approx(np.exp(-0.5), abs=1e-5)
    y = m.value("o = odeset('Mass', @(t) 2, 'MStateDependence', 'none');"
                "[t, x] = ode15s(@(t,y) -y, [0 1], 1, o); x = x(end);")
    assert y == pytest.approx(np.exp(-0.5), abs=2e-3)
    y = m.value("o = odeset('Mass', @(t,y) [2 0; 0 1]);"
                "[t, x] = ode23(@(t,y) -y, [0 1], [1; 1], o); x = x(end, :);")
    assert np.allclose(y, [[np.exp(-0.5), np.exp(-1)]], atol=1e-3)
    e = m.fails("ode45(@(t,y) -y, [0 1], [1; 1], odeset('Mass', [1 1; 1 1]))")
    assert e.exc.identifier == "MATLAB:odearguments:MassSingular"


def test_ode_function_must_return_a_column(m):
    e = m.fails("ode45(@(t,y) [y y], [0 1], [1; 1])")
    assert e.exc.identifier == "MATLAB:odearguments:FoMustReturnCol"
    assert e.exc.message == "@(t,y)[y,y] must return a column vector."


def test_nonnegative(m):
    # MATLAB's documented example: y' = -|y| stays at zero only with NonNegative
    t, y, sol_min, idx = m.values(
        "f = @(t,y) -abs(y); o = odeset('NonNegative', 1);"
        "[t, y] = ode45(f, [0 40], 1, o); s = ode45(f, [0 40], 1, o);"
        "sol_min = min(deval(s, linspace(0, 40, 500))); idx = s.idata.idxNonNegative;",
        "t", "y", "sol_min", "idx")
    assert y.min() == 0.0 and sol_min == 0.0 and idx == 1.0
    early = t[:, 0] < 3
    assert np.allclose(y[early, 0], np.exp(-t[early, 0]), atol=1e-3)
    e = m.fails("ode45(@(t,y) -y, [0 1], 1, odeset('NonNegative', 3))")
    assert e.exc.identifier == "MATLAB:odenonnegative:NonNegativeIndicesInvalid"


def test_plot_output_functions_continue(m):
    t = m.value("[x, y] = ode45(@(t,y) -y, [0 1], 1, odeset('OutputFcn', @odeplot));")
    assert t.shape == (41, 1)
    assert m.value("x = odephas2([0 1], [1 2], 'init');") is False


def test_odextend(m):
    y, n, steps = m.values("s = ode45(@(t,y) -y, [0 1], 1); s2 = odextend(s, [], 3);"
                           "y = deval(s2, [0.5 2 3]); n = numel(s2.x); steps = s2.stats.nsteps;",
                           "y", "n", "steps")
    assert np.allclose(y, np.exp(-np.array([[0.5, 2, 3]])), atol=1e-5)
    assert n == 21.0 and steps == 20.0
    y = m.value("s = ode15s(@(t,y) -y, [0 1], 1); s = odextend(s, [], 2); x = deval(s, 1.5);")
    assert y == pytest.approx(np.exp(-1.5), abs=5e-3)
    y = m.value("s = ode23(@(t,y) -y, [0 1], 1); s = odextend(s, @(t,y) -2*y, 2, 1);"
                "x = deval(s, 2);")
    assert y == pytest.approx(np.exp(-2), abs=1e-3)
    e = m.fails("s = ode45(@(t,y) -y, [0 1], 1); odextend(s, [], 0.5)")
    assert e.exc.identifier == "MATLAB:odextend:TfinalNotBeyondEnd"


def test_option_value_errors(m):
    cases = {"odeset('RelTol', -1)": "MATLAB:odearguments:RelTolNotPosScalar",
             "odeset('AbsTol', 0)": "MATLAB:odearguments:AbsTolNotPos",
             "odeset('AbsTol', [1 2 3])": "MATLAB:odearguments:SizeAbsTol",
             "odeset('MaxStep', 0)": "MATLAB:odearguments:MaxStepLEzero",
             "odeset('InitialStep', -1)": "MATLAB:odearguments:InitialStepLEzero"}
    for opts, identifier in cases.items():
        e = m.fails(f"ode45(@(t,y) -y, [0 1], [1; 1], {opts})")
        assert e.exc.identifier == identifier
    assert m.fails("ode45(@(t,y) -y, [0 1], 1, odeset('RelTol', -1))").exc.message == \
        "RelTol must be a positive scalar."
    # a RelTol below 100*eps is raised, with a warning
    m.run("[t, y] = ode45(@(t,y) -y, [0 0.1], 1, odeset('RelTol', 1e-20));")
    assert m.err.getvalue() == "Warning: RelTol has been increased to 2.220446e-14.\n"


def test_output_fcn_arguments(m, tmp_path):
    (tmp_path / "showout.m").write_text(
        "function stop = showout(t, y, flag)\n"
        "  fprintf('%s %s %s\\n', flag, mat2str(size(t)), mat2str(size(y)));\n"
        "  stop = false;\nend\n")
    out = m.run(f"addpath('{tmp_path}');"
                "o = odeset('OutputFcn', @showout, 'OutputSel', 2, 'Refine', 2);"
                "[t, y] = ode45(@(t,y) [-y(1); -2*y(2)], [0 0.2], [1; 1], o);"
                f"rmpath('{tmp_path}');")
    lines = out.splitlines()
    # init with [t0 tf] and y0(OutputSel); each step its refined points; then done
    assert lines[0] == "init [1 2] [1 1]"
    assert lines[1] == " [1 2] [1 2]"
    assert lines[-1] == "done [0 0] [0 0]"
    assert len(lines) == 12


def test_ode45_steps_match_matlab_van_der_pol(m):
    # MATLAB's documentation: sol = ode45(@vdp1,[0 20],[2 0]) has x = [0 1.0048e-04
    # 6.0285e-04 0.0031 0.0157 0.0785 0.2844 0.5407 0.8788 ...] and y of size 2x60
    x, y = m.values("sol = ode45(@(t,y) [y(2); (1-y(1)^2)*y(2)-y(1)], [0 20], [2 0]);"
                    "x = sol.x; y = sol.y;", "x", "y")
    assert x.shape == (1, 60) and y.shape == (2, 60)
    assert np.allclose(x[0, :9], [0, 1.0048e-04, 6.0285e-04, 0.0031, 0.0157, 0.0785, 0.2844,
                                  0.5407, 0.8788], rtol=5e-4, atol=5e-5)
