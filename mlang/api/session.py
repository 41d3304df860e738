"""``mlang.Session``: a MATLAB session driven from Python.

Each Session owns one interpreter (its workspace, path, figures and random state), so two
sessions never see each other's variables.  Values cross with the conversions of
``mlang.api.conversions``; MATLAB errors arrive as ``mlang.MatlabError``.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from mlang import errors
from mlang.api.conversions import MatlabFunction, from_matlab, to_matlab
from mlang.api.gradients import value_and_gradients
from mlang.errors import MatlabSyntaxError, report
from mlang.evaluation.interpreter import Interpreter
from mlang.frontends.reporting import read_source_line
from mlang.values.core import char_row
from mlang.values.handle import FunctionHandle

# The base-workspace variable an expression's value passes through (eval with nargout=1);
# a name no MATLAB code can make by accident.
_RESULT = "mlang_api_result_"


class MatlabError(errors.MatlabError):
    """A MATLAB error seen from Python.

    ``identifier`` and ``message`` are MException's; ``stack`` is its stack as
    ``(file, name, line)`` tuples, innermost first; ``str(err)`` is MATLAB's report (what
    the Command Window prints).  Raised in a Python function called from MATLAB code, it
    is a MATLAB error there (try/catch sees its identifier and message).
    """

    def __init__(self, identifier: str | errors.MException, message: str = "",
                 report_text: str | None = None) -> None:
        super().__init__(identifier, message)
        self.report = report_text if report_text is not None else report(self.exc, read_source_line)

    @property
    def stack(self) -> list[tuple[str, str, int]]:
        return [(f.file, f.name, f.line) for f in self.exc.stack]

    def __str__(self) -> str:
        return self.report.rstrip("\n")

    def __reduce__(self) -> Any:
        return (MatlabError, (self.identifier, self.message, self.report))


@contextmanager
def matlab_errors(interp: Interpreter) -> Iterator[None]:
    """Run MATLAB code with its errors raised as ``MatlabError`` (MATLAB's report as text);
    after Ctrl-C the session is ready for more code."""
    try:
        yield
    except errors.MatlabError as exc:
        syntax = getattr(exc, "syntax", None)  # a file that could not be parsed was run
        text = f"{syntax}\n" if isinstance(syntax, MatlabSyntaxError) else report(exc.exc, read_source_line)
        raise MatlabError(exc.exc, report_text=text) from None
    except MatlabSyntaxError as exc:
        identifier = "MATLAB:m_incomplete_statement" if exc.incomplete else "MATLAB:m_parse_error"
        raise MatlabError(identifier, exc.message, f"{exc}\n") from None
    except KeyboardInterrupt:
        interp.back_at_prompt()
        raise


class _CurrentStream:
    """sys.stdout or sys.stderr as it is when written to (pytest, Jupyter and
    contextlib.redirect_stdout replace them after a Session is made)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def write(self, text: str) -> int:
        return getattr(sys, self.name).write(text)

    def flush(self) -> None:
        getattr(sys, self.name).flush()

    def isatty(self) -> bool:
        return Interpreter.is_terminal(getattr(sys, self.name))


class Session:
    """A MATLAB session: run code, call functions and move values between Python and MATLAB.

    >>> import mlang
    >>> m = mlang.Session()
    >>> m.eval("x = magic(3);")
    >>> m["x"].sum()
    45.0
    >>> m.call("max", [3, 9, 4], nargout=2)
    (9.0, 2.0)

    ``stdout``/``stderr``: where MATLAB output and warnings go (default: ``sys.stdout``
    and ``sys.stderr`` at the time of writing); ``path``: folders to add to the MATLAB
    path; ``figures_dir``: a folder where open figures are written as PNG files when the
    session is closed (default: figures are written nowhere).
    """

    def __init__(self, *, stdout: TextIO | None = None, stderr: TextIO | None = None,
                 path: list[str] | tuple[str, ...] = (), figures_dir: str | None = None) -> None:
        self.interpreter = Interpreter(stdout or _CurrentStream("stdout"),  # type: ignore[arg-type]
                                       stderr or _CurrentStream("stderr"))  # type: ignore[arg-type]
        if figures_dir is not None:
            self.interpreter.options["figures"] = {"figures_dir": figures_dir, "windows": False,
                                                   "wait": False}
        for folder in path:
            self.addpath(folder)

    # ------------------------------------------------------------ running code

    def eval(self, code: str, *, nargout: int = 0, capture: bool = False) -> Any:
        """Run MATLAB statements in the base workspace, as typed in the Command Window.

        ``nargout=1``: ``code`` is an expression; its value is returned.  ``capture=True``:
        what the code prints is returned as a string instead of being written (with
        ``nargout=1``: a tuple of the value and the text).
        """
        interp = self.interpreter
        interp.notice_file_changes()  # (a function file saved since the last call runs anew)
        with self._maybe_capture(capture) as out, matlab_errors(interp):
            if nargout:
                interp.eval(f"{_RESULT} = {code.strip().rstrip(';')};")
                value = from_matlab(interp.base.vars.pop(_RESULT), self)
            else:
                interp.eval(code)
        if nargout and capture:
            return value, out.getvalue()
        if nargout:
            return value
        return out.getvalue() if capture else None

    def run(self, path: str | os.PathLike[str], *args: Any, nargout: int = 0) -> Any:
        """Run a script file in the base workspace, or call a function file with ``args``
        (its folder is searched for the functions it calls while it runs)."""
        interp = self.interpreter
        full = Path(path).resolve()
        with matlab_errors(interp):
            if not full.is_file():
                raise errors.error("MATLAB:run:FileNotFound", f"{path} not found.")
            unit = interp.unit_for(full) if full.suffix == ".m" else None
            if unit is None or unit.is_script:
                if args or nargout:
                    raise errors.error("MATLAB:TooManyInputs" if args else "MATLAB:TooManyOutputs",
                                       f"Too many {'input' if args else 'output'} arguments.")
                interp.run_file(full)
                return None
            folder = str(full.parent)
            interp.script_dirs.insert(0, folder)
            interp.invalidate()
            try:
                with interp.running():
                    out = interp.invoke(unit.primary, [to_matlab(a, self) for a in args], nargout,
                                        interp.base)
            finally:
                interp.script_dirs.remove(folder)
                interp.invalidate()
        return self._outputs(out, nargout)

    def call(self, function: Any, *args: Any, nargout: int = 1) -> Any:
        """Call a MATLAB function (a name, a handle from MATLAB, or a Python callable).

        ``nargout=0``: no output (None); ``nargout=1``: the first output; more: a tuple.
        """
        interp = self.interpreter
        interp.notice_file_changes()
        values = [to_matlab(a, self) for a in args]
        with matlab_errors(interp):
            if isinstance(function, str):
                target = interp.resolve(function)
                if target is None:
                    raise errors.error("MATLAB:UndefinedFunction",
                                       f"Unrecognized function or variable '{function}'.")
                with interp.running():
                    out = interp.invoke(target, values, nargout, interp.base)
            else:
                with interp.running():
                    out = interp.call_value(to_matlab(function, self), values, nargout)
        return self._outputs(out, nargout)

    def _outputs(self, out: list, nargout: int) -> Any:
        if nargout == 0:
            return None
        if len(out) < nargout:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
        values = [from_matlab(v, self) for v in out[:nargout]]
        return values[0] if nargout == 1 else tuple(values)

    def function(self, name: str) -> MatlabFunction:
        """The MATLAB function ``name`` as a Python callable (``m.function("sin")(0.5)``)."""
        return MatlabFunction(FunctionHandle(name), self)

    def grad(self, loss: Any, *params: Any, data: tuple | list = ()) -> tuple[float, list]:
        """The value and gradients of a MATLAB loss, for a Python optimiser.

        ``loss`` is a function name (a .m file or builtin), a handle from MATLAB or the
        text of an anonymous function (``"@(w, X, y) mean((X*w - y).^2)"``).  It is
        called as ``loss(params..., data...)`` through dlfeval with each parameter as a
        dlarray (a dict of arrays: a struct of dlarrays), and must return a scalar.  Returns
        ``(loss, [gradient for each parameter])``: the loss as a float, the gradients as
        NumPy arrays shaped like the parameters given (dicts for dicts).
        """
        handle = self._handle(loss)
        with matlab_errors(self.interpreter):
            return value_and_gradients(self, handle, list(params), list(data))

    def dlarray(self, data: Any, fmt: str = "") -> Any:
        """A dlarray made from ``data`` (with data format ``fmt``, such as ``"CB"``), to
        pass to ``call``, ``set`` or ``grad``; converted back it is a NumPy array."""
        interp = self.interpreter
        args = [to_matlab(np.asarray(data, dtype=np.result_type(np.asarray(data), np.float64)), self)]
        if fmt:
            args.append(char_row(fmt))
        with matlab_errors(interp), interp.running():
            return interp.invoke(interp.resolve("dlarray"), args, 1, interp.base)[0]

    def _handle(self, function: Any) -> Any:
        """The MATLAB function value for a name, a handle or anonymous-function text."""
        if isinstance(function, str) and function.lstrip().startswith("@"):
            interp = self.interpreter
            with matlab_errors(interp):
                interp.eval(f"{_RESULT} = {function};")
            return interp.base.vars.pop(_RESULT)
        if isinstance(function, str):
            return FunctionHandle(function)
        return to_matlab(function, self)

    # ------------------------------------------------------------ output

    @contextmanager
    def capture(self) -> Iterator[io.StringIO]:
        """Collect what MATLAB prints (results and warnings, as evalc does) while the block
        runs: ``with m.capture() as out: ...`` then ``out.getvalue()``."""
        interp = self.interpreter
        saved = interp.out, interp.err, interp.at_line_start
        buffer = io.StringIO()
        interp.out = interp.err = buffer
        interp.at_line_start = True
        try:
            yield buffer
        finally:
            interp.out, interp.err, _ = saved

    @contextmanager
    def _maybe_capture(self, capture: bool) -> Iterator[io.StringIO]:
        if capture:
            with self.capture() as out:
                yield out
        else:
            yield io.StringIO()

    # ------------------------------------------------------------ workspace

    def get(self, name: str) -> Any:
        """A base-workspace variable converted to Python (KeyError when there is none)."""
        vars = self.interpreter.base.vars
        if name not in vars:
            raise KeyError(name)
        return from_matlab(vars[name], self)

    def set(self, name: str, value: Any) -> None:
        """Set a base-workspace variable from a Python value."""
        if not (isinstance(name, str) and name.isascii() and name.isidentifier()
                and name[0].isalpha() and len(name) <= 63):
            raise ValueError(f"'{name}' is not a valid MATLAB variable name")
        self.interpreter.base.vars[name] = to_matlab(value, self)

    def __getitem__(self, name: str) -> Any:
        return self.get(name)

    def __setitem__(self, name: str, value: Any) -> None:
        self.set(name, value)

    def __delitem__(self, name: str) -> None:
        del self.workspace[name]

    def __contains__(self, name: object) -> bool:
        return name in self.interpreter.base.vars

    @property
    def workspace(self) -> Workspace:
        """The base workspace as a mapping of names to converted values."""
        return Workspace(self)

    @property
    def vars(self) -> Variables:
        """The base workspace by attribute: ``m.vars.x``, ``m.vars.x = 3``, ``del m.vars.x``."""
        return Variables(self)

    # ------------------------------------------------------------ path

    def addpath(self, *folders: str | os.PathLike[str], end: bool = False) -> None:
        """Add folders to the top of the MATLAB path (``end=True``: the bottom)."""
        for folder in folders:
            if not os.path.isdir(folder):
                raise FileNotFoundError(f"not a folder: {folder}")
        args: list[Any] = [os.fspath(f) for f in folders]
        self.call("addpath", *args, *(["-end"] if end else []), nargout=0)

    def rmpath(self, *folders: str | os.PathLike[str]) -> None:
        """Remove folders from the MATLAB path."""
        for folder in folders:
            if os.path.abspath(folder) not in self.interpreter.path:
                raise ValueError(f"not on the path: {folder}")
        self.call("rmpath", *[os.fspath(f) for f in folders], nargout=0)

    @property
    def path(self) -> list[str]:
        """The folders on the MATLAB path, in search order (a copy)."""
        return list(self.interpreter.path)

    # ------------------------------------------------------------ life

    def close(self) -> None:
        """End the session's program: figures are written (``figures_dir``), monitors end."""
        with matlab_errors(self.interpreter):
            self.interpreter.finish()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<mlang.Session with {len(self.interpreter.base.vars)} variables>"


class Workspace(MutableMapping):
    """A session's base workspace as a Python mapping (values converted both ways)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def __getitem__(self, name: str) -> Any:
        return self._session.get(name)

    def __setitem__(self, name: str, value: Any) -> None:
        self._session.set(name, value)

    def __delitem__(self, name: str) -> None:
        del self._session.interpreter.base.vars[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._session.interpreter.base.vars))

    def __len__(self) -> int:
        return len(self._session.interpreter.base.vars)

    def __contains__(self, name: object) -> bool:
        return name in self._session.interpreter.base.vars


class Variables:
    """Attribute access to a session's base workspace (``m.vars.x``)."""

    __slots__ = ("_session",)

    def __init__(self, session: Session) -> None:
        object.__setattr__(self, "_session", session)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._session.get(name)
        except KeyError:
            raise AttributeError(f"no variable '{name}' in the workspace") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self._session.set(name, value)

    def __delattr__(self, name: str) -> None:
        try:
            del self._session.interpreter.base.vars[name]
        except KeyError:
            raise AttributeError(f"no variable '{name}' in the workspace") from None

    def __dir__(self) -> list[str]:
        return sorted(self._session.interpreter.base.vars)
