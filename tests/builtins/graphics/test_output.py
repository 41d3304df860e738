"""Figure files, drawnow, saveas, exportgraphics, print, getframe, frame2im, and that
start-up does not load matplotlib."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image


def non_trivial_png(path) -> np.ndarray:
    with Image.open(path) as image:
        assert image.format == "PNG"
        pixels = np.asarray(image.convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 4  # not one colour
    return pixels


def test_files_written_at_the_end(g):
    g.run("plot(1:10, (1:10).^2); figure(3); plot(sin(0:0.1:6), 'r');")
    assert not g.figures_dir.exists()
    err = g.finish()
    pixels = non_trivial_png(g.figures_dir / "figure1.png")
    assert pixels.shape == (420, 560, 3)
    non_trivial_png(g.figures_dir / "figure3.png")
    assert err.count("\n") == 1
    assert "figure1.png" in err and "figure3.png" in err
    assert g.finish() == err  # once only


def test_nothing_written_without_figures(g):
    g.run("x = 1;")
    assert g.finish() == ""
    assert not g.figures_dir.exists()


def test_closed_and_invisible_figures_are_not_written(g):
    g.run("plot(1:3); figure; plot(1:2); close(1); figure('Visible', 'off'); plot(1:4);")
    g.finish()
    assert sorted(os.listdir(g.figures_dir)) == ["figure2.png"]


def test_drawnow_writes_at_most_every_few_seconds(g):
    g.run("h = plot(1:3); drawnow;")
    path = g.figures_dir / "figure1.png"
    first = path.stat().st_mtime_ns
    os.utime(path, ns=(1, 1))
    g.clock.now += 1.0
    g.run("h.YData = [3 2 1]; drawnow limitrate;")
    assert path.stat().st_mtime_ns == 1  # too soon: not written again
    g.clock.now += 5.0
    g.run("drawnow;")
    assert path.stat().st_mtime_ns != 1
    assert first
    g.clock.now += 5.0
    os.utime(path, ns=(1, 1))
    g.run("drawnow;")  # nothing changed since: not written
    assert path.stat().st_mtime_ns == 1
    assert g.fails("drawnow sideways").identifier == "MATLAB:drawnow:InvalidInput"


def test_drawnow_in_a_loop_is_fast(g):
    import time

    start = time.perf_counter()
    g.run("h = plot(0, 0); for k = 1:200, h.XData(end+1) = k; h.YData(end+1) = k^2; drawnow; end")
    assert time.perf_counter() - start < 3.0
    assert g.get("h").artist.get_xdata().size == 201


def test_getframe_and_frame2im(g):
    g.run("plot(1:10); F = getframe(gcf); im = frame2im(F); [x, map] = frame2im(F); G = getframe;"
          "c = class(F.cdata); s = size(F.cdata);")
    frame = g.get("F")
    cdata = frame.element(0)["cdata"]
    assert cdata.dtype == np.uint8 and cdata.shape == (420, 560, 3)
    assert frame.element(0)["colormap"].shape == (0, 0)
    assert np.array_equal(g.get("im"), cdata)
    axes_frame = g.get("G").element(0)["cdata"]
    assert axes_frame.shape == (round(420 * 0.815), round(560 * 0.775), 3)
    assert g.fails("frame2im(5)").identifier == "MATLAB:frame2im:InvalidInput"


def test_getframe_rect(g):
    g.run("plot(1:3); F = getframe(gcf, [10 20 100 50]);")
    assert g.get("F").element(0)["cdata"].shape == (50, 100, 3)


def test_getframe_gif_with_imwrite_append(g, tmp_path):
    g.run("h = plot(0, 0); for k = 1:3, h.XData = 0:k; h.YData = (0:k).^2;"
          "[A, map] = rgb2ind(frame2im(getframe(gcf)), 16);"
          "if k == 1, imwrite(A, map, 'anim.gif', 'gif', 'LoopCount', Inf);"
          "else, imwrite(A, map, 'anim.gif', 'gif', 'WriteMode', 'append'); end; end")
    with Image.open(tmp_path / "anim.gif") as image:
        assert image.n_frames == 3


@pytest.mark.parametrize("name, magic", [
    ("out.png", b"\x89PNG"), ("out.jpg", b"\xff\xd8"), ("out.pdf", b"%PDF"), ("out.svg", b"<?xml"),
    ("out.bmp", b"BM"), ("out.tif", b"II"),
])
def test_saveas_formats(g, tmp_path, name, magic):
    g.run(f"plot(1:3); saveas(gcf, '{name}');")
    assert (tmp_path / name).read_bytes().startswith(magic)


def test_saveas_format_argument_adds_the_extension(g, tmp_path):
    g.run("plot(1:3); saveas(gca, 'chart', 'png'); saveas(gcf, 'doc', 'pdf');")
    non_trivial_png(tmp_path / "chart.png")
    assert (tmp_path / "doc.pdf").read_bytes().startswith(b"%PDF")


def test_saveas_errors(g, tmp_path):
    g.run("plot(1:3);")
    assert g.fails("saveas(gcf, 'x.fig')").identifier == "MATLAB:saveas:badType"
    assert g.fails("saveas(gcf, 'x.xyz')").identifier == "MATLAB:saveas:badType"
    assert g.fails("saveas(5, 'x.png')").identifier == "MATLAB:saveas:invalidHandle"
    err = g.fails("saveas(gcf, 'no/such/folder/x.png')")
    assert err.identifier == "MATLAB:saveas:CannotCreateOutputFile"
    os.mkdir(tmp_path / "folder.png")
    assert g.fails("saveas(gcf, 'folder.png')").identifier == "MATLAB:saveas:CannotCreateOutputFile"


def test_failed_write_keeps_the_old_file(g, tmp_path, monkeypatch):
    (tmp_path / "keep.png").write_bytes(b"old")
    g.run("plot(1:3);")
    figure = g.state.current_figure.artist

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(figure, "savefig", broken)
    err = g.fails("saveas(gcf, 'keep.png')")
    assert err.identifier == "MATLAB:saveas:CannotCreateOutputFile"
    assert (tmp_path / "keep.png").read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["keep.png"]


def test_exportgraphics_resolution_and_axes(g, tmp_path):
    g.run("plot(1:3); exportgraphics(gcf, 'lo.png', 'Resolution', 50);"
          "exportgraphics(gcf, 'hi.png', 'Resolution', 200); exportgraphics(gca, 'ax.jpg');"
          "exportgraphics(gcf, 'v.pdf'); exportgraphics(gcf, 'v.svg');")
    with Image.open(tmp_path / "lo.png") as lo, Image.open(tmp_path / "hi.png") as hi:
        assert hi.size[0] == pytest.approx(4 * lo.size[0], rel=0.05)
    assert (tmp_path / "ax.jpg").read_bytes().startswith(b"\xff\xd8")
    assert (tmp_path / "v.pdf").read_bytes().startswith(b"%PDF")
    assert g.fails("exportgraphics(gcf, 'x.doc')").identifier == \
        "MATLAB:exportgraphics:InvalidFileExtension"
    assert g.fails("exportgraphics(gcf, 'x.png', 'Bogus', 1)").identifier == \
        "MATLAB:InputParser:UnmatchedParameter"


def test_print_argument_orders(g, tmp_path):
    g.run("plot(1:3); print('-dpng', 'a'); print('b.png', '-dpng'); print(gcf, '-djpeg', '-r50', 'c');"
          "print -dpdf d")
    non_trivial_png(tmp_path / "a.png")
    non_trivial_png(tmp_path / "b.png")
    with Image.open(tmp_path / "c.jpg") as image:
        assert image.size == (280, 210)
    assert (tmp_path / "d.pdf").read_bytes().startswith(b"%PDF")
    assert g.fails("print('-dxyz', 'e')").identifier == "MATLAB:print:InvalidDeviceOption"


def test_no_matplotlib_when_nothing_is_drawn(tmp_path):
    code = ("import sys\nfrom mlang.frontends.cli import main\n"
            "status = main(['-e', 'x = 1; y = x + 1;'])\n"
            "print(status, 'matplotlib' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""}, timeout=60)
    assert done.stdout.split() == ["0", "False"]
    assert not (tmp_path / "figures").exists()


@pytest.mark.parametrize("argv", [["--figures", "out", "s.m"], ["s.m", "--figures", "out"],
                                  ["s.m", "--figures=out", "--no-wait"]])
def test_cli_writes_figures(tmp_path, argv):
    script = tmp_path / "s.m"
    script.write_text("plot(1:5, [1 4 9 16 25]); title('squares');\n")
    done = subprocess.run([sys.executable, "-c", "import sys; from mlang.frontends.cli import main;"
                           f"sys.exit(main({argv!r}))"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "Figures written: out/figure1.png"
    non_trivial_png(tmp_path / "out" / "figure1.png")


def test_command_window_writes_figures_as_drawn(g):
    from mlang.builtins.graphics.output import after_statement

    g.state.interactive = True
    g.run("plot(1:3);")
    after_statement(g.interp)
    assert (g.figures_dir / "figure1.png").exists()
    assert g.err.getvalue().count("figure1.png") == 1
    g.run("hold on; plot(3:-1:1);")
    after_statement(g.interp)
    assert g.err.getvalue().count("figure1.png") == 1  # named once only


def test_windows_without_a_toolkit_fall_back_to_files(tmp_path, monkeypatch):
    from mlang.builtins.graphics import backend
    from tests.builtins.graphics.conftest import GraphicsSession

    monkeypatch.chdir(tmp_path)
    session = GraphicsSession(tmp_path)
    session.state.windows, session.state.write_files = True, False
    monkeypatch.setattr(backend, "windows_work", lambda: False)
    session.run("plot(1:3);")
    assert not session.state.windows and session.state.write_files
    session.finish()
    non_trivial_png(session.figures_dir / "figure1.png")


def test_drawnow_limitrate_with_windows(g, monkeypatch):
    from mlang.builtins.graphics import backend

    draws = []
    monkeypatch.setattr(backend, "refresh_windows", lambda: draws.append(g.clock.now))
    g.run("plot(1:3);")
    g.state.windows = True
    g.run("drawnow limitrate; drawnow limitrate;")
    assert len(draws) == 1
    g.clock.now += 0.1
    g.run("drawnow limitrate; drawnow; drawnow;")
    assert len(draws) == 4


def test_exportgraphics_background(g, tmp_path):
    g.run("plot(1:3); exportgraphics(gcf, 't.png', 'BackgroundColor', 'none');"
          "exportgraphics(gcf, 'k.png', 'BackgroundColor', 'k');")
    with Image.open(tmp_path / "t.png") as image:
        assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0
    with Image.open(tmp_path / "k.png") as image:
        assert image.convert("RGB").getpixel((0, 0)) == (0, 0, 0)
