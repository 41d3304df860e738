"""The training progress monitor's figure (training/monitor_plots.py)."""

from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
from PIL import Image

from mlang.builtins.training import monitor as monitor_module
from mlang.builtins.training import monitor_plots
from mlang.evaluation.interpreter import Interpreter
from mlang.values.core import char_text

SETUP = """
monitor = trainingProgressMonitor(Metrics=["TrainingLoss","ValidationLoss","Accuracy"], ...
    Info=["LearningRate","Epoch"], XLabel="Epoch");
groupSubPlot(monitor, "Loss", ["TrainingLoss","ValidationLoss"]);
yscale(monitor, "Loss", "log");
"""


def _session(g):
    """A monitor on the session's fake clock."""
    monitor_module.family_state(g.interp)["clock"] = g.clock
    g.run(SETUP)
    return g.get("monitor")


def test_panels_lines_scale_and_info(g):
    monitor = _session(g)
    g.run("recordMetrics(monitor, 1, TrainingLoss=1, ValidationLoss=2, Accuracy=0.5);")
    plots = monitor.plots
    assert plots is not None and plots.updates == 1
    g.run("updateInfo(monitor, LearningRate=0.01, Epoch=1);")
    assert plots.updates == 1 and plots.pending  # within the second: drawn later
    g.clock.now += 1
    g.run("updateInfo(monitor, LearningRate=0.01, Epoch=1);")
    assert plots.updates == 2 and not plots.pending
    figure = plots.figure
    assert figure.number == monitor_plots.FIRST_NUMBER
    assert [char_text(a.labels["Title"].get_value("String")) for a in plots.axes] == \
        ["Loss", "Accuracy"]
    loss_axes, accuracy_axes = plots.axes
    assert loss_axes.artist.get_yscale() == "log"
    assert accuracy_axes.artist.get_yscale() == "linear"
    assert loss_axes.artist.get_xlabel() == "Epoch"
    assert [t.get_text() for t in loss_axes.artist.get_legend().get_texts()] == \
        ["TrainingLoss", "ValidationLoss"]
    assert accuracy_axes.artist.get_legend() is None
    np.testing.assert_array_equal(plots.lines["ValidationLoss"].artist.get_ydata(), [2])
    # the Info line shows the latest values
    assert "LearningRate: 0.01" in plots.info_text.get_text()
    assert "Epoch: 1" in plots.info_text.get_text()


def test_updated_at_most_once_a_second(g):
    monitor = _session(g)
    for k in range(1, 21):
        g.clock.now += 0.25
        g.run(f"recordMetrics(monitor, {k}, TrainingLoss={1 / k}, Accuracy={k / 20});")
    plots = monitor.plots
    assert 4 <= plots.updates <= 6  # 5 s of training: about one update a second, not 20
    assert plots.pending or len(plots.lines["TrainingLoss"].artist.get_xdata()) == 20
    # Progress reaching 100 draws at once
    g.run("monitor.Progress = 100;")
    np.testing.assert_array_equal(plots.lines["TrainingLoss"].artist.get_xdata(), np.arange(1, 21))
    assert "Progress: 100%" in plots.info_text.get_text()


def test_stderr_line_unchanged_and_figure_written_at_the_end(g):
    monitor = _session(g)
    g.run("for k = 1:5, recordMetrics(monitor, k, TrainingLoss=1/k); end")
    g.clock.now += 0.5
    g.run("recordMetrics(monitor, 6, TrainingLoss=0.1);")
    assert monitor.plots.pending
    err = g.finish()
    assert err.splitlines()[0].startswith("Epoch 1  Progress 0%  TrainingLoss 1")
    assert "Figures written: " in err and "figure100.png" in err
    # the pending points were drawn before the file was written
    np.testing.assert_array_equal(monitor.plots.lines["TrainingLoss"].artist.get_xdata(),
                                  np.arange(1, 7))
    with Image.open(g.figures_dir / "figure100.png") as image:
        pixels = np.asarray(image.convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 4


def test_the_programs_figures_stay_its_own(g):
    monitor = _session(g)
    g.run("recordMetrics(monitor, 1, TrainingLoss=1); f = figure; plot(1:3); n = f.Number;")
    assert g.get("n") == 1.0
    assert g.value("c = get(groot, 'CurrentFigure'); k = c.Number;", "k") == 1.0
    assert char_text(monitor.plots.figure.get_value("HandleVisibility")) == "off"


def test_regrouping_rebuilds_the_panels(g):
    monitor = _session(g)
    g.run("recordMetrics(monitor, 1, TrainingLoss=1, ValidationLoss=2, Accuracy=0.5);")
    g.clock.now += 2
    g.run("groupSubPlot(monitor, 'All', [\"TrainingLoss\", \"ValidationLoss\", \"Accuracy\"]);"
          "recordMetrics(monitor, 2, TrainingLoss=1, ValidationLoss=2, Accuracy=0.5);")
    assert len(monitor.plots.axes) == 1
    assert len(monitor.plots.lines) == 3


def test_closed_figure_is_not_made_again(g):
    monitor = _session(g)
    g.run("recordMetrics(monitor, 1, TrainingLoss=1);")
    monitor.plots.figure.delete()
    g.clock.now += 2
    g.run("recordMetrics(monitor, 2, TrainingLoss=0.5);")
    assert monitor.plots.closed
    assert monitor_plots.FIRST_NUMBER not in g.state.figures


def test_invisible_monitor_draws_nothing(g):
    monitor_module.family_state(g.interp)["clock"] = g.clock
    g.run("monitor = trainingProgressMonitor(Metrics='Loss', Visible=false);"
          "recordMetrics(monitor, 1, Loss=1);")
    assert g.get("monitor").plots.figure is None


def test_rule_figures_only_when_requested(tmp_path, monkeypatch):
    """No graphics configured (a bare interpreter), or the default headless mode without
    --figures: no figure; --figures DIR or windows: a figure."""
    monkeypatch.chdir(tmp_path)
    from mlang.builtins.graphics.state import configure

    bare = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    assert not monitor_plots.figures_on(bare)
    default = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    configure(default, figures_dir=None, wait=False, windows=False)
    assert not monitor_plots.figures_on(default)
    default.eval("m = trainingProgressMonitor(Metrics='Loss'); recordMetrics(m, 1, Loss=1);")
    default.finish()
    assert not (tmp_path / "figures").exists()
    requested = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    configure(requested, figures_dir=str(tmp_path / "out"), wait=False)
    assert monitor_plots.figures_on(requested)
    windowed = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())
    state = configure(windowed, figures_dir=None, wait=False, windows=True)
    assert state.windows and monitor_plots.figures_on(windowed)


def test_no_matplotlib_for_a_monitor_without_figures():
    code = ("import io, sys\n"
            "from mlang.evaluation.interpreter import Interpreter\n"
            "i = Interpreter(stdout=io.StringIO(), stderr=io.StringIO())\n"
            "i.eval(\"m = trainingProgressMonitor(Metrics='Loss'); recordMetrics(m, 1, Loss=1);"
            " m.Progress = 100;\")\n"
            "i.finish()\n"
            "print('matplotlib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr



def test_a_monitor_without_metrics_takes_a_status(g):
    g.run('m = trainingProgressMonitor; m.Status = "a";')
    assert g.interp.base.vars["m"].get_property("Status") is not None
