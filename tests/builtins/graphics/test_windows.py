"""Figures in windows (a display and a window toolkit needed, else skipped): the script's
figures open in windows, pause and drawnow keep working, ``--no-wait`` exits at the end,
and without it mlang waits until the windows are closed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SCRIPT = """\
plot(1:10, (1:10).^2); title('windows');
pause(0.1); drawnow;
figure; bar(1:3); drawnow;
disp('script done');
"""

# Runs mlang's command line in a child process; with CLOSE_AFTER set, each window still
# open when mlang starts waiting is closed by the window toolkit's own timer, as a user
# closing it would.
HARNESS = textwrap.dedent("""\
    import os, sys, time
    import matplotlib
    from mlang.frontends.cli import main

    close_after = float(os.environ.get("CLOSE_AFTER", "0"))
    if close_after:
        from matplotlib import pyplot
        original_show = pyplot.show

        def show(*args, **kwargs):
            for number in pyplot.get_fignums():
                figure = pyplot.figure(number)
                timer = figure.canvas.new_timer(interval=int(close_after * 1000))
                timer.single_shot = True
                timer.add_callback(pyplot.close, figure)
                timer.start()
                figure._close_timer = timer
            return original_show(*args, **kwargs)
        pyplot.show = show
    start = time.monotonic()
    code = main(sys.argv[1:])
    from matplotlib import pyplot
    print("BACKEND", pyplot.get_backend(), "OPEN", len(pyplot.get_fignums()),
          "ELAPSED", round(time.monotonic() - start, 2))
    sys.exit(code)
""")


def _window_backend() -> str | None:
    if not os.environ.get("DISPLAY") or os.environ.get("CI"):
        return None
    probe = subprocess.run([sys.executable, "-c", "from mlang.builtins.graphics.backend import windows_work;"
                            "import matplotlib.pyplot as p; print(windows_work(), p.get_backend())"],
                           capture_output=True, text=True, timeout=60)
    words = probe.stdout.split()
    return words[1] if probe.returncode == 0 and words and words[0] == "True" else None


BACKEND = _window_backend()
pytestmark = pytest.mark.skipif(BACKEND is None, reason="needs a display (DISPLAY) and a matplotlib window "
                                                        "toolkit (Tk, Qt...), and CI not set")


def _run(tmp_path: Path, *options: str, close_after: float = 0.0, timeout: float = 60) -> tuple[str, float]:
    (tmp_path / "win.m").write_text(SCRIPT)
    environment = {**os.environ, "CLOSE_AFTER": str(close_after)}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", HARNESS, "win.m", *options], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout, time.monotonic() - started


def test_no_wait_exits_with_windows_open(tmp_path):
    out, _ = _run(tmp_path, "--no-wait")
    assert "script done" in out
    words = out.split("BACKEND", 1)[1].split()
    assert words[0].lower() not in ("agg", "pdf", "svg")  # a window toolkit drew the figures
    assert words[2] == "2"  # both figures in windows, nothing written to files
    assert not (tmp_path / "figures").exists()


def test_waits_until_the_windows_are_closed(tmp_path):
    out, _ = _run(tmp_path, close_after=2.0)
    assert "script done" in out
    words = out.split("BACKEND", 1)[1].split()
    assert words[2] == "0" and float(words[4]) >= 2.0  # it waited for the closing, then ended


def test_still_waiting_while_a_window_is_open(tmp_path):
    (tmp_path / "win.m").write_text(SCRIPT)
    child = subprocess.Popen([sys.executable, "-c", HARNESS, "win.m"], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            child.wait(timeout=5)
    finally:
        child.kill()
        child.wait()
