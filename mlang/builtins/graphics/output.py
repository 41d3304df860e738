"""Figures as files and pixels: the figure files of a program, drawnow, saveas,
exportgraphics, print, getframe, frame2im.

When figures are written as files (no display, or ``mlang --figures DIR``), each open
figure becomes ``DIR/figureN.png`` (default ``./figures``) when the program ends, and
when ``drawnow`` is called, at most once every few seconds (the state's ``clock``).  The
end writes one line on stderr naming the files.  With windows, drawnow lets the window
loop draw, and the end waits for the windows to be closed (unless ``--no-wait``).
Every file is written through ``files/atomic.py``.
"""

from __future__ import annotations

import io
import os
from typing import Any

import numpy as np

from mlang.builtins.coerce import text_or_none
from mlang.builtins.files.atomic import atomic_path, os_reason
from mlang.builtins.graphics import backend
from mlang.builtins.graphics import props as pv
from mlang.builtins.graphics.figure_axes import Axes, Figure
from mlang.builtins.graphics.figures import TiledLayout, current_axes, current_figure
from mlang.builtins.graphics.handles import GraphicsHandle, invalid_handle
from mlang.builtins.graphics.state import FAMILY, GraphicsState, configure, graphics_state
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import class_of
from mlang.values.struct import Struct

# File formats: extension or device name -> matplotlib's format name.
FORMATS = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "tif": "tiff", "tiff": "tiff", "pdf": "pdf",
           "svg": "svg", "eps": "eps", "epsc": "eps", "bmp": "bmp", "gif": "gif"}
EXTENSIONS = {"png": ".png", "jpg": ".jpg", "tiff": ".tif", "pdf": ".pdf", "svg": ".svg",
              "eps": ".eps", "bmp": ".bmp", "gif": ".gif"}
PRINT_DEVICES = {"png": "png", "jpeg": "jpg", "jpg": "jpg", "tiff": "tiff", "tiffn": "tiff",
                 "pdf": "pdf", "svg": "svg", "eps": "eps", "epsc": "eps", "eps2": "eps",
                 "epsc2": "eps", "bmp": "bmp", "bmp16m": "bmp", "bmp256": "bmp"}

__all__ = ["after_statement", "configure", "finish_figures", "refresh", "write_figure", "frame_of"]


# ---------------------------------------------------------------- the program's figures


def _shown_path(path: str) -> str:
    """A path as the stderr line shows it: relative to the current folder when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _open_figures(state: GraphicsState) -> list[Figure]:
    return [state.figures[n] for n in sorted(state.figures)
            if state.figures[n].valid and pv.on_off(state.figures[n].get_value("Visible"), "Visible")]


def write_program_figures(state: GraphicsState, only_changed: bool = False) -> list[str]:
    """Write the open figures as DIR/figureN.png; the paths written."""
    written = []
    folder = state.output_dir()
    for figure in _open_figures(state):
        if only_changed and not figure.dirty:
            continue
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise error("MATLAB:print:CannotCreateOutputFile",
                        f"Cannot create output folder '{folder}': {os_reason(exc)}.") from None
        path = os.path.join(folder, f"figure{figure.number}.png")
        write_figure(figure, path, "png", 100.0, "print")
        figure.dirty = False
        written.append(path)
        if path not in state.written:
            state.written.append(path)
    return written


def finish_figures(interp: Any) -> None:
    """The program's end: write the figure files (one line on stderr names them), or wait
    for the windows to be closed."""
    state = interp.family_state.get(FAMILY)
    if state is None or not state.figures:
        return
    if state.windows:
        if state.wait and not state.interactive:
            backend.wait_for_windows()
        return
    if not state.write_files:
        return
    # a Command Window has written its figures as they were drawn: only what changed since
    written = write_program_figures(state, only_changed=state.interactive)
    if written:
        interp.out.flush()
        interp.err.write("Figures written: " + ", ".join(_shown_path(p) for p in written) + "\n")
        interp.err.flush()


# drawnow limitrate draws windows at most this often (seconds): MATLAB's 20 frames a second
WINDOW_FRAME_INTERVAL = 0.05


def refresh(interp: Any, limit_rate: bool = False) -> None:
    """drawnow: draw windows now (with ``limit_rate``, at most 20 times a second), or write
    the changed figure files (at most once every few seconds)."""
    state = graphics_state(interp)
    if state.windows:
        now = state.clock()
        if limit_rate and state.last_window_draw is not None \
                and now - state.last_window_draw < WINDOW_FRAME_INTERVAL:
            return
        state.last_window_draw = now
        backend.refresh_windows()
        return
    if not state.write_files or not state.figures:
        return
    now = state.clock()
    if state.last_write is not None and now - state.last_write < state.drawnow_interval:
        return
    state.last_write = now
    write_program_figures(state, only_changed=True)


def after_statement(interp: Any) -> None:
    """For a Command Window, after each statement: windows draw what changed; figure
    files are written as drawn (a line on stderr names a file the first time)."""
    state = interp.family_state.get(FAMILY)
    if state is None or not state.figures:
        return
    if state.windows:
        backend.refresh_windows()
        return
    if not state.write_files:
        return
    known = set(state.written)
    fresh = [p for p in write_program_figures(state, only_changed=True) if p not in known]
    if fresh:
        interp.out.flush()
        interp.err.write("Figures written: " + ", ".join(_shown_path(p) for p in fresh) + "\n")
        interp.err.flush()


# ---------------------------------------------------------------- writing one figure


def _white_background(figure: Figure) -> Any:
    """The page colour: the figure's own when set, else white (InvertHardcopy)."""
    return figure.artist.get_facecolor() if "Color" in figure.stored else "white"


def write_figure(figure: Figure, path: str, fmt: str, dpi: float, function: str,
                 crop: Any = None, background: Any = None) -> None:
    """Write a figure (or the part ``crop``, in inches) to ``path`` atomically, on the
    page colour ``background`` (None: the figure's own when set, else white)."""
    page = background if background is not None else _white_background(figure)
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise error(f"MATLAB:{function}:CannotCreateOutputFile",
                    f"Cannot create output file '{path}': Is a directory.")
    if not os.path.isdir(folder):
        raise error(f"MATLAB:{function}:CannotCreateOutputFile",
                    f"Cannot create output file '{path}': No such file or directory.")
    try:
        with atomic_path(path) as temporary:
            if fmt in ("bmp", "gif"):
                _write_with_pillow(figure, temporary, fmt, dpi, crop, page)
            else:
                figure.artist.savefig(temporary, format=fmt, dpi=dpi, facecolor=page, bbox_inches=crop)
    except OSError as exc:
        raise error(f"MATLAB:{function}:CannotCreateOutputFile",
                    f"Cannot create output file '{path}': {os_reason(exc)}.") from None
    except (ValueError, TypeError, OverflowError, RuntimeError) as exc:  # matplotlib could not draw it
        raise error(f"MATLAB:{function}:RenderingFailed",
                    f"Cannot draw the figure for '{path}': {exc}") from None


def _write_with_pillow(figure: Figure, path: str, fmt: str, dpi: float, crop: Any, page: Any) -> None:
    from PIL import Image  # Pillow on first use: keeps start-up fast

    buffer = io.BytesIO()
    figure.artist.savefig(buffer, format="png", dpi=dpi, facecolor=page, bbox_inches=crop)
    buffer.seek(0)
    Image.open(buffer).convert("RGB").save(path, format=fmt.upper())


def _target_figure(value: Any, function: str) -> tuple[Figure, Axes | None]:
    """The figure (and axes, when an axes was given) a graphics argument names."""
    if isinstance(value, GraphicsHandle):
        if not value.valid:
            raise invalid_handle()
        if isinstance(value, Axes):
            return value.figure(), value
        if isinstance(value, TiledLayout):
            return value.figure(), None
        if isinstance(value, Figure):
            return value, None
    raise error(f"MATLAB:{function}:InvalidHandle" if function != "saveas" else "MATLAB:saveas:invalidHandle",
                "Invalid figure or axes handle." if function != "saveas" else "Invalid handle.")


def _format_of(path: str, function: str) -> str | None:
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    return FORMATS.get(extension) if extension else None


@builtin("saveas", max_out=0)
def saveas(target: Any, filename: Any, formattype: Any = None) -> None:
    """saveas  save a figure to a file.

    saveas(fig, filename) writes the figure in the format its extension names (.png,
    .jpg, .tif, .bmp, .pdf, .svg, .eps); saveas(fig, filename, formattype) names the
    format ('png', 'jpeg', 'pdf', 'svg', 'epsc'...; the extension is added when the name
    has none).  An axes saves its figure."""
    figure, _ = _target_figure(target, "saveas")
    path = text_or_none(filename)
    if path is None or not path:
        raise error("MATLAB:saveas:invalidFilename", "Invalid filename.")
    if formattype is not None:
        word = text_or_none(formattype)
        fmt = FORMATS.get((word or "").lower().lstrip("."))
        if fmt is None:
            raise error("MATLAB:saveas:badType", f"Unsupported format or extension: {word}")
        if not os.path.splitext(path)[1]:
            path += EXTENSIONS[fmt]
    else:
        extension = os.path.splitext(path)[1].lower()
        fmt = _format_of(path, "saveas")
        if fmt is None:
            if extension in ("", ".fig"):
                raise error("MATLAB:saveas:badType",
                            "Unsupported format or extension: fig (give an image or PDF format).")
            raise error("MATLAB:saveas:badType", f"Unsupported format or extension: {extension[1:]}")
    write_figure(figure, path, fmt, 100.0 if fmt not in ("pdf", "svg", "eps") else 72.0, "saveas")


@builtin("exportgraphics", max_out=0)
def exportgraphics(target: Any, filename: Any, *options: Any) -> None:
    """exportgraphics  save a figure or axes to a file, cropped tightly.

    exportgraphics(obj, filename) writes the figure, axes or tiled layout obj in the
    format of the extension (.png, .jpg, .jpeg, .tif, .tiff, .gif, .pdf, .svg, .eps);
    options: Resolution (dots per inch, default 150), BackgroundColor, ContentType
    ('auto', 'vector', 'image')."""
    figure, axes = _target_figure(target, "exportgraphics")
    path = text_or_none(filename)
    if path is None or not path:
        raise error("MATLAB:exportgraphics:InvalidFilename", "Invalid filename.")
    fmt = _format_of(path, "exportgraphics")
    if fmt is None or fmt == "bmp":
        raise error("MATLAB:exportgraphics:InvalidFileExtension",
                    "Specified file extension is not supported.")
    resolution = 150.0
    if len(options) % 2:
        raise error("MATLAB:InputParser:ParamMissingValue", "Invalid parameter/value pair arguments.")
    background = None
    for k in range(0, len(options), 2):
        name = (text_or_none(options[k]) or "").lower()
        value = options[k + 1]
        if name == "resolution":
            resolution = pv.positive_number(value, "Resolution")
        elif name == "backgroundcolor":
            background = pv.parse_color(value, "BackgroundColor", ("none", "current"))
        elif name in ("contenttype", "colorspace", "append", "padding"):
            continue
        else:
            raise error("MATLAB:InputParser:UnmatchedParameter",
                        f"'{text_or_none(options[k])}' is not a recognized parameter.")
    crop: Any = "tight"
    if axes is not None:
        renderer = figure.artist.canvas.get_renderer()
        crop = axes.artist.get_tightbbox(renderer).transformed(figure.artist.dpi_scale_trans.inverted())
    page = None
    if background == "current":
        page = figure.artist.get_facecolor()
    elif background is not None:
        page = pv.mpl_color(background)
    write_figure(figure, path, fmt, resolution, "exportgraphics", crop=crop, background=page)


@builtin("print", interp=True, max_out=0)
def print_(interp: Any, *args: Any) -> None:
    """print  print a figure to a file.

    print(filename, '-dformat') or print('-dformat', filename) writes the current figure
    (print(fig, ...) another) in a format: -dpng, -djpeg, -dtiff, -dbmp, -dpdf, -dsvg,
    -depsc; the extension is added when the name has none.  -rN sets the resolution
    (dots per inch, default 150).  Without -d, the format comes from the extension."""
    figure: Figure | None = None
    fmt = None
    dpi = 150.0
    path = None
    for arg in args:
        if isinstance(arg, GraphicsHandle):
            figure, _ = _target_figure(arg, "print")
            continue
        word = text_or_none(arg)
        if word is None:
            raise error("MATLAB:print:InvalidInput", "Invalid input argument.")
        if word.startswith("-d"):
            fmt = PRINT_DEVICES.get(word[2:].lower())
            if fmt is None:
                raise error("MATLAB:print:InvalidDeviceOption", f"Illegal option '{word}' given.")
        elif word.startswith("-r"):
            try:
                dpi = float(word[2:]) or 100.0
            except ValueError:
                raise error("MATLAB:print:InvalidResolution", f"Illegal option '{word}' given.") from None
        elif word.startswith("-f") and word[2:].isdigit():
            number = int(word[2:])
            state = graphics_state(interp)
            if number not in state.figures:
                raise error("MATLAB:print:InvalidFigure", f"Invalid figure handle: {number}.")
            figure = state.figures[number]
        elif word.startswith("-"):
            continue  # -noui, -painters, -opengl, -vector, -image, -fillpage, -bestfit...
        else:
            path = word
    if path is None:
        raise error("MATLAB:print:NoPrinter", "No file name given: mlang prints only to files.")
    if fmt is None:
        fmt = _format_of(path, "print") or "png"
    if not os.path.splitext(path)[1]:
        path += EXTENSIONS[fmt]
    write_figure(figure or current_figure(interp), path, fmt, dpi, "print")


# ---------------------------------------------------------------- frames


def frame_of(figure: Figure, axes: Axes | None = None, rect: Any = None) -> np.ndarray:
    """The pixels of a figure (of an axes' box, or of ``rect`` = [left bottom width height]
    in pixels from the figure's or axes' lower left corner), H×W×3 uint8."""
    try:
        image = backend.render_rgb(figure.artist)
    except (ValueError, TypeError, OverflowError, RuntimeError) as exc:  # matplotlib could not draw it
        raise error("MATLAB:getframe:RenderingFailed", f"Cannot draw the figure: {exc}") from None
    height, width = image.shape[:2]
    left = bottom = 0.0
    box_w, box_h = float(width), float(height)
    if axes is not None:
        x0, y0, w, h = axes.artist.get_position().bounds
        left, bottom, box_w, box_h = x0 * width, y0 * height, w * width, h * height
    if rect is not None:
        r = pv.real_vector(rect, "rect", 4)
        left, bottom, box_w, box_h = left + r[0], bottom + r[1], r[2], r[3]
    x0, x1 = int(round(left)), int(round(left + box_w))
    y1, y0 = height - int(round(bottom)), height - int(round(bottom + box_h))
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, width), min(y1, height)
    return np.ascontiguousarray(image[y0:y1, x0:x1, :]).astype(np.uint8)


@builtin("getframe", interp=True)
def getframe(interp: Any, *args: Any) -> Struct:
    """getframe  capture a figure or axes as an image.

    F = getframe captures the current axes; getframe(fig) a whole figure; getframe(ax)
    the axes ax; getframe(h, rect) the rectangle rect = [left bottom width height] (in
    pixels) of h.  F is a structure with cdata (height-by-width-by-3 uint8) and colormap
    ([]): frame2im(F) gives the image, and imwrite writes it (GIF animations with
    'WriteMode','append')."""
    if len(args) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    if args:
        figure, axes = _target_figure(args[0], "getframe")
    else:
        axes = current_axes(interp)
        figure = axes.figure()
    pixels = frame_of(figure, axes, args[1] if len(args) > 1 else None)
    return Struct.scalar({"cdata": pixels, "colormap": np.zeros((0, 0))})


@builtin("frame2im", nargout=True, max_out=2)
def frame2im(frame: Any, *, nargout: int = 1) -> Any:
    """frame2im  the image of a movie frame.

    RGB = frame2im(F) is the cdata of the frame F (from getframe); [X, map] =
    frame2im(F) also gives its colormap."""
    if type(frame) is not Struct or not frame.is_scalar() or "cdata" not in frame.fields:
        raise error("MATLAB:frame2im:InvalidInput" if class_of(frame) != "struct" else
                    "MATLAB:frame2im:InvalidFrame", "Input must be a movie frame (a structure with "
                                                    "fields cdata and colormap).")
    element = frame.element(0)
    colormap = element.get("colormap", np.zeros((0, 0)))
    return (element["cdata"], colormap) if nargout > 1 else element["cdata"]
