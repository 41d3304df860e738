"""trainingProgressMonitor: properties, handle semantics, history, printing cadence, errors."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlang.builtins.training.monitor import TrainingProgressMonitor, family_state, flush_monitors
from mlang.evaluation.interpreter import Interpreter


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def session():
    """A fresh interpreter whose monitors read a fake clock; stderr kept apart."""
    out, err = io.StringIO(), io.StringIO()
    interp = Interpreter(stdout=out, stderr=err)
    clock = FakeClock()
    family_state(interp)["clock"] = clock
    return interp, out, err, clock


def lines(err: io.StringIO) -> list[str]:
    return err.getvalue().splitlines()


def test_defaults_and_display(m):
    out = m.run("monitor = trainingProgressMonitor")
    assert out == "\nmonitor = \n" + """
  TrainingProgressMonitor with properties:

       Metrics: [1×0 string]
          Info: [1×0 string]
        XLabel: "Iteration"
      Progress: 0
        Status: "Running"
          Stop: 0
       Visible: 1
    MetricData: [1×1 struct]
      InfoData: [1×1 struct]

"""
    assert m.run("disp(class(trainingProgressMonitor))") == "deep.TrainingProgressMonitor\n"


def test_creation_options(m):
    mon = m.value('x = trainingProgressMonitor(Metrics=["Loss" "Acc"], Info={\'Epoch\'}, '
                  'XLabel="Epoch", Progress=10, Status="Starting", Visible=false);')
    assert mon.metrics == ["Loss", "Acc"] and mon.info == ["Epoch"]
    assert mon.xlabel == "Epoch" and mon.progress == 10 and mon.status == "Starting"
    assert mon.visible is False
    assert m.run("x = trainingProgressMonitor(Metrics='Loss'); disp(x.Metrics)") == "Loss\n"


def test_handle_semantics(m):
    out = m.run("a = trainingProgressMonitor(Metrics='L'); b = a; b.Progress = 40; "
                "recordMetrics(b, 1, L=3); disp(a.Progress); disp(size(a.MetricData.L))")
    assert out == "    40\n\n     1     2\n\n"


def test_history_and_metric_data(m):
    code = """
    mon = trainingProgressMonitor(Metrics=["TrainingLoss", "ValidationLoss"], Info="LR");
    for i = 1:3
        recordMetrics(mon, i, TrainingLoss=1/i);
        updateInfo(mon, LR=0.1*i);
    end
    recordMetrics(mon, 3, ValidationLoss=dlarray(single(0.5)));
    s.TrainingLoss = 0.25; s.ValidationLoss = 0.75;
    mon.recordMetrics(4, s);
    updateInfo(mon, struct('LR', 1));
    d = mon.MetricData; info = mon.InfoData;
    """
    mon, d, info = m.values(code, "mon", "d", "info")
    assert mon.history() == {"TrainingLoss": [(1.0, 1.0), (2.0, 0.5), (3.0, 1 / 3), (4.0, 0.25)],
                             "ValidationLoss": [(3.0, 0.5), (4.0, 0.75)]}
    assert mon.info_history() == {"LR": [0.1, 0.2, pytest.approx(0.3), 1.0]}
    np.testing.assert_allclose(d.element(0)["ValidationLoss"], [[3, 0.5], [4, 0.75]])
    assert d.element(0)["TrainingLoss"].shape == (4, 2)
    np.testing.assert_allclose(info.element(0)["LR"].ravel(), [0.1, 0.2, 0.3, 1.0])


def test_text_information(m):
    info = m.value('mon = trainingProgressMonitor(Info="Epoch"); '
                   'updateInfo(mon, Epoch="1 of 5"); updateInfo(mon, Epoch=\'2 of 5\'); '
                   'x = mon.InfoData;')
    assert info.element(0)["Epoch"].data.ravel().tolist() == ["1 of 5", "2 of 5"]


def test_groups_and_scales(m):
    mon = m.value('x = trainingProgressMonitor(Metrics=["TL" "VL" "TA" "VA"]); '
                  'groupSubPlot(x, "Loss", ["TL" "VL"]); yscale(x, "Loss", "log"); '
                  'x.groupSubPlot("Accuracy", {\'TA\', \'VA\'});')
    assert mon.subplots() == [("Loss", ["TL", "VL"], "log"), ("Accuracy", ["TA", "VA"], "linear")]
    mon = m.value('x = trainingProgressMonitor(Metrics=["A" "B"]); yscale(x, "B", "log");')
    assert mon.subplots() == [("A", ["A"], "linear"), ("B", ["B"], "log")]


def test_printing_cadence_with_fake_clock(session):
    interp, out, err, clock = session
    interp.eval('mon = trainingProgressMonitor(Metrics="Loss", Info="Epoch");')
    assert err.getvalue() == ""  # nothing to say before the first value
    interp.eval("recordMetrics(mon, 1, Loss=0.5);")
    assert lines(err) == ["Iteration 1  Progress 0%  Loss 0.5  Elapsed 0:00:00"]
    clock.now += 0.4
    interp.eval("recordMetrics(mon, 2, Loss=0.25); updateInfo(mon, Epoch=1); mon.Progress = 10;")
    assert len(lines(err)) == 1  # within the second: pending
    clock.now += 0.7
    interp.eval("recordMetrics(mon, 3, Loss=0.125);")
    assert lines(err)[1] == "Iteration 3  Progress 10%  Loss 0.125  Epoch 1  Elapsed 0:00:01"
    clock.now += 0.1
    interp.eval("recordMetrics(mon, 4, Loss=0.0625);")
    assert len(lines(err)) == 2
    flush_monitors(interp)  # what a front end does when the program ends
    assert lines(err)[2] == "Iteration 4  Progress 10%  Loss 0.0625  Epoch 1  Elapsed 0:00:01"
    flush_monitors(interp)
    assert len(lines(err)) == 3  # nothing pending any more
    assert out.getvalue() == ""  # standard output untouched


def test_finish_prints_at_once(session):
    interp, _, err, clock = session
    interp.eval('mon = trainingProgressMonitor(Metrics="Loss"); recordMetrics(mon, 1, Loss=2);')
    clock.now += 3725.2
    interp.eval("recordMetrics(mon, 2, Loss=1); mon.Progress = 100;")
    assert lines(err)[-1] == "Iteration 2  Progress 100%  Loss 1  Elapsed 1:02:05"
    count = len(lines(err))
    interp.eval('mon.Progress = 100;')  # no change: no line
    assert len(lines(err)) == count
    interp.eval('mon.Status = "Training complete";')
    assert lines(err)[-1] == ("Iteration 2  Progress 100%  Loss 1  Status Training complete  "
                              "Elapsed 1:02:05")


def test_invisible_monitor_is_silent(session):
    interp, _, err, _ = session
    interp.eval('mon = trainingProgressMonitor(Metrics="Loss", Visible=0); '
                'recordMetrics(mon, 1, Loss=2); mon.Progress = 100;')
    assert err.getvalue() == ""


def test_clock_is_per_object(session):
    interp, _, _, clock = session
    interp.eval('a = trainingProgressMonitor; b = trainingProgressMonitor;')
    a, b = interp.base.vars["a"], interp.base.vars["b"]
    assert a.clock is clock
    b.clock = lambda: 0.0
    assert a.clock is clock


@pytest.mark.parametrize("code, identifier", [
    ('recordMetrics(mon, 1, Nope=1)', "deep:TrainingProgressMonitor:InvalidMetricName"),
    ('recordMetrics(mon, 1, Loss=[1 2])', "deep:TrainingProgressMonitor:InvalidValue"),
    ('recordMetrics(mon, 1, Loss="a")', "deep:TrainingProgressMonitor:InvalidValue"),
    ('recordMetrics(mon, [1 2], Loss=1)', "deep:TrainingProgressMonitor:InvalidValue"),
    ('recordMetrics(mon, 1, "Loss")', "MATLAB:InputParser:ParamMissingValue"),
    ('recordMetrics(mon)', "MATLAB:minrhs"),
    ('recordMetrics(3, 1, Loss=1)', "MATLAB:UndefinedFunction"),
    ('updateInfo(mon, Other=1)', "deep:TrainingProgressMonitor:InvalidInfoName"),
    ('updateInfo(mon, Epoch={1})', "deep:TrainingProgressMonitor:InvalidValue"),
    ('mon.Progress = 101;', "deep:TrainingProgressMonitor:InvalidProgress"),
    ('mon.Progress = "a";', "deep:TrainingProgressMonitor:InvalidValue"),
    ('mon.Stop = true;', "MATLAB:class:SetProhibited"),
    ('mon.MetricData = 1;', "MATLAB:class:SetProhibited"),
    ('mon.Metrics = ["1abc"];', "deep:TrainingProgressMonitor:InvalidName"),
    ('mon.Metrics = ["a" "a"];', "deep:TrainingProgressMonitor:DuplicateNames"),
    ('mon.XLabel = 3;', "deep:TrainingProgressMonitor:InvalidText"),
    ('mon.Nope = 3;', "MATLAB:noPublicFieldForClass"),
    ('groupSubPlot(mon, "G", ["Loss" "X"])', "deep:TrainingProgressMonitor:InvalidMetricName"),
    ('yscale(mon, "Loss", "cubic")', "deep:TrainingProgressMonitor:InvalidScale"),
    ('yscale(mon, "X", "log")', "deep:TrainingProgressMonitor:InvalidMetricName"),
    ('groupSubPlot(mon, "G", "Loss"); yscale(mon, "Loss", "log")',
     "deep:TrainingProgressMonitor:GroupedMetric"),
    ('yscale(mon, "Loss", "log"); groupSubPlot(mon, "G", ["Loss" "Acc"])',
     "deep:TrainingProgressMonitor:MixedScales"),
    ('trainingProgressMonitor(Color="red")', "MATLAB:InputParser:UnmatchedParameter"),
])
def test_errors(m, code, identifier):
    e = m.fails('mon = trainingProgressMonitor(Metrics=["Loss" "Acc"], Info="Epoch"); ' + code)
    assert e.identifier == identifier


def test_failed_record_changes_nothing(m):
    mon = m.value('x = trainingProgressMonitor(Metrics="Loss"); '
                  'try, recordMetrics(x, 1, Loss=1, Nope=2); catch, end')
    assert mon.history() == {}
    assert isinstance(mon, TrainingProgressMonitor)


def test_request_stop(session):
    interp, out, err, _ = session
    interp.eval('mon = trainingProgressMonitor(Metrics="Loss"); recordMetrics(mon, 1, Loss=2);')
    interp.base.vars["mon"].request_stop()
    assert lines(err)[-1] == "Iteration 1  Progress 0%  Loss 2  Stopped  Elapsed 0:00:00"
    interp.eval("disp(mon.Stop)")
    assert out.getvalue() == "   1\n\n"
