"""The environment and the system: getenv, setenv, computer, ispc, isunix, ismac,
version, ver, verLessThan, matlabroot, system (and the shell escape !command).

mlang answers as MATLAB R2024b (version 24.2): code that tests the release with
verLessThan or version takes the paths it takes on R2024b.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

import mlang
from mlang.builtins.coerce import text_array, text_list, text_or_none, text_scalar
from mlang.builtins.text.forms import empty_char, object_array, row
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import char_row, class_of
from mlang.values.string import StringArray
from mlang.values.struct import Struct

# The MATLAB release mlang answers as.
MATLAB_VERSION = "24.2"
MATLAB_BUILD = "24.2.0.2712019"
MATLAB_RELEASE = "R2024b"
MATLAB_DATE = "August 21, 2024"
MATLAB_DAY = "21-Aug-2024"

# ------------------------------------------------------------ environment variables


def _value_of(name: str) -> str:
    return os.environ.get(name, "")


@builtin()
def getenv(name: Any) -> Any:
    """value = getenv(varname) is the value of an environment variable ('' when it is not set).

    A string gives a string; a string array or a cell array of character vectors gives
    one value for each name, in the same form."""
    texts = text_array(name, "Environment variable name")
    values = [_value_of(t or "") for t in texts.items]
    if texts.kind == "char":
        return row(values[0]) if values[0] else empty_char()
    return texts.pack(values)


def _set_variable(name: str, value: str | None) -> None:
    """Set one variable; a missing value (None) removes it, as MATLAB documents."""
    if not name:
        raise error("MATLAB:setenv:EmptyName", "Environment variable name must not be empty.")
    if "=" in name or "\0" in name or "\0" in (value or ""):
        raise error("MATLAB:setenv:InvalidName",
                    f"Environment variable name '{name}' is not valid.")
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _values(value: Any, count: int) -> list[str | None]:
    """The values setenv was given: '' when none, None for each missing one."""
    if value is None:
        return [""] * count
    if class_of(value) == "missing":
        return [None] * max(int(np.prod(value.shape)), 1)
    if type(value) is StringArray:
        return list(value.data.reshape(-1, order="F"))
    return list(text_list(value, "Environment variable value"))


@builtin()
def setenv(name: Any, value: Any = None) -> None:
    """setenv(varname, value) sets an environment variable of this session (and of the
    programs system starts).

    setenv(varname) sets it to ''; setenv(varname, missing) removes it.  String arrays of
    names and values set several at once (a <missing> value removes its variable)."""
    names = text_list(name, "Environment variable name")
    values = _values(value, len(names))
    if len(values) == 1 and len(names) > 1:
        values = values * len(names)
    if len(values) != len(names):
        raise error("MATLAB:setenv:SizeMismatch",
                    "Variable names and values must have the same number of elements.")
    for n, v in zip(names, values, strict=True):
        _set_variable(n, v)


@builtin()
def isenv(name: Any) -> Any:
    """tf = isenv(varname) is true where the environment variable exists.

    A string array or a cell array of names gives a logical array of the same size."""
    texts = text_array(name, "Environment variable name")
    found = np.array([(t or "") in os.environ for t in texts.items], dtype=bool)
    if texts.kind == "char":
        return bool(found[0])
    return found.reshape(texts.shape, order="F")


@builtin()
def unsetenv(name: Any) -> None:
    """unsetenv(varname) removes environment variables (one name, or a string array or
    a cell array of names); a name that is not set is ignored."""
    for n in text_list(name, "Environment variable name"):
        _set_variable(n, None)


# ------------------------------------------------------------ the computer


def _machine() -> tuple[str, str]:
    """MATLAB's computer type and architecture names for this machine."""
    if sys.platform.startswith("win"):
        return "PCWIN64", "win64"
    if sys.platform == "darwin":
        if platform.machine().lower() in ("arm64", "aarch64"):
            return "MACA64", "maca64"
        return "MACI64", "maci64"
    return "GLNXA64", "glnxa64"


# The largest number of elements of an array on 64-bit MATLAB: 2^48 - 1.
MAX_ARRAY_ELEMENTS = float(2**48 - 1)


@builtin(nargout=True, max_out=3)
def computer(arch: Any = None, *, nargout: int = 1) -> Any:
    """str = computer is the type of computer: 'GLNXA64' (Linux), 'MACA64' or 'MACI64' (macOS),
    'PCWIN64' (Windows).

    [str, maxsize, endian] = computer also gives the largest number of elements of an
    array (2^48-1) and the byte order ('L', little-endian).
    archstr = computer('arch') is the architecture: 'glnxa64', 'maca64', 'maci64', 'win64'."""
    kind, architecture = _machine()
    if arch is not None:
        if (text_or_none(arch) or "").lower() != "arch":
            raise error("MATLAB:computer:invalidInput", "Input must be 'arch'.")
        return char_row(architecture)
    endian = "L" if sys.byteorder == "little" else "B"
    return (char_row(kind), MAX_ARRAY_ELEMENTS, char_row(endian))[:max(nargout, 1)]


@builtin()
def ispc() -> bool:
    """tf = ispc is true on Windows."""
    return sys.platform.startswith("win")


@builtin()
def isunix() -> bool:
    """tf = isunix is true on Linux and macOS."""
    return not sys.platform.startswith("win")


@builtin()
def ismac() -> bool:
    """tf = ismac is true on macOS."""
    return sys.platform == "darwin"


@builtin()
def matlabroot() -> np.ndarray:
    """mr = matlabroot is the folder where mlang is installed: the folder of the mlang package.

    It holds mlang's builtins and the functions it has written in MATLAB."""
    return char_row(str(Path(mlang.__file__).resolve().parent))


# ------------------------------------------------------------ versions


def _full_version() -> str:
    return f"{MATLAB_BUILD} ({MATLAB_RELEASE})"


@builtin(nargout=True, max_out=2)
def version(option: Any = None, *, nargout: int = 1) -> Any:
    """v = version is the MATLAB version mlang answers as: '24.2.0.2712019 (R2024b)'.

    [v, d] = version also gives its release date.  version('-release') is '2024b',
    version('-date') the release date, version('-description') '' (no update), and
    version('-java') says that mlang has no Java."""
    if option is None:
        return (char_row(_full_version()), char_row(MATLAB_DATE))[:max(nargout, 1)]
    what = (text_or_none(option) or "").lower()
    answers = {"-release": MATLAB_RELEASE[1:], "-date": MATLAB_DATE, "-description": "",
               "-java": "Java is not enabled", "-version": _full_version()}
    if what not in answers:
        raise error("MATLAB:version:invalidInput",
                    "Invalid input. Option must be '-date', '-description', '-java', '-release' "
                    "or '-version'.")
    text = answers[what]
    return char_row(text) if text else empty_char()


def _products() -> list[dict[str, str]]:
    """The products ver lists: MATLAB (the release mlang answers as) and mlang itself."""
    return [
        {"Name": "MATLAB", "Version": MATLAB_VERSION, "Release": f"({MATLAB_RELEASE})",
         "Date": MATLAB_DAY},
        {"Name": "mlang", "Version": mlang.__version__, "Release": f"({MATLAB_RELEASE})",
         "Date": MATLAB_DAY},
    ]


_TOOLBOX_FOLDERS = {"matlab": "MATLAB", "mlang": "mlang"}


def _product(name: str) -> dict[str, str] | None:
    wanted = _TOOLBOX_FOLDERS.get(name.lower(), name)
    return next((p for p in _products() if p["Name"] == wanted), None)


_RULE = "-" * 101


@builtin(interp=True, nargout=True)
def ver(interp: Any, product: Any = None, *, nargout: int = 0) -> Any:
    """ver shows the version of MATLAB that mlang answers as (R2024b), the operating system,
    and the products installed (MATLAB and mlang).

    v = ver returns them as a struct array with fields Name, Version, Release and Date;
    v = ver(product) only one product ('matlab' or 'mlang')."""
    products = _products()
    if product is not None:
        found = _product(text_scalar(product, "Product name"))
        products = [found] if found is not None else []
        if found is None and not nargout:
            interp.warn("MATLAB:ver:NotFound",
                        f"No properly formatted Contents.m file was found for '{text_scalar(product)}'.")
    if nargout:
        elems = object_array([{k: char_row(v) for k, v in p.items()} for p in products],
                             (1, len(products)))
        return Struct(["Name", "Version", "Release", "Date"], elems)
    system = platform.uname()
    lines = [_RULE,
             f"MATLAB Version: {_full_version()}",
             f"mlang Version: {mlang.__version__}",
             f"Operating System: {system.system} {system.release} {system.version} {system.machine}",
             "Java Version: Java is not enabled",
             _RULE]
    lines += [f"{p['Name']:<54}Version {p['Version']:<12}{p['Release']}" for p in products]
    interp.write("\n".join(lines) + "\n")
    return None


def _version_numbers(text: str) -> list[int]:
    numbers = []
    for part in text.strip().split("."):
        digits = "".join(c for c in part if c.isdigit())
        if not digits:
            break
        numbers.append(int(digits))
    return numbers


@builtin(name="verLessThan")
def ver_less_than(toolbox: Any, version_text: Any) -> bool:
    """tf = verLessThan(toolbox, version) is true when the installed version of toolbox ('MATLAB' or
    'mlang') is older than version.

    mlang answers as MATLAB 24.2 (R2024b), so verLessThan('MATLAB', '9.14') is false."""
    name = text_scalar(toolbox, "Toolbox name")
    wanted = text_or_none(version_text)
    if wanted is None:
        raise error("MATLAB:verLessThan:invalidInput",
                    "Version must be a character vector or string scalar.")
    found = _product(name)
    if found is None:
        raise error("MATLAB:verLessThan:missingToolbox", f"Toolbox '{name}' is not installed.")
    have, want = _version_numbers(found["Version"]), _version_numbers(wanted)
    width = max(len(have), len(want))
    return have + [0] * (width - len(have)) < want + [0] * (width - len(want))


def _release_key(text: str) -> tuple[int, str] | None:
    found = re.fullmatch(r"\s*R?(\d{4})([ab])\s*", text, re.IGNORECASE)
    return (int(found.group(1)), found.group(2).lower()) if found else None


@builtin(name="isMATLABReleaseOlderThan")
def is_release_older_than(release: Any, release_type: Any = None, update: Any = None) -> bool:
    """tf = isMATLABReleaseOlderThan(release) is true when the release mlang answers as
    (R2024b, general release, update 0) is older than release ("R2023a").

    The release type ('release' or 'prerelease') and update number arguments are
    accepted; at an equal release they compare as MATLAB does."""
    text = text_scalar(release, "Release")
    wanted = _release_key(text)
    if wanted is None:
        raise error("MATLAB:isMATLABReleaseOlderThan:InvalidRelease",
                    f"Invalid release '{text}'. Specify the release as 'R' followed by a year "
                    "and 'a' or 'b', such as \"R2020b\".")
    have = _release_key(MATLAB_RELEASE)
    if have != wanted:
        return have < wanted
    kind = (text_or_none(release_type) or "release").lower() if release_type is not None else "release"
    if kind not in ("release", "prerelease"):
        raise error("MATLAB:isMATLABReleaseOlderThan:InvalidReleaseType",
                    "Release type must be 'release' or 'prerelease'.")
    if kind == "release" and update is not None:
        return float(np.asarray(update).reshape(-1)[0]) > 0
    return False


# ------------------------------------------------------------ system


def run_command(interp: Any, command: str, echo: bool, environment: dict[str, str]) -> tuple[int, str]:
    """Run ``command`` in the shell (its standard input empty), its output and error
    output together; echoed to the interpreter's output when ``echo``."""
    env = {**os.environ, **environment} if environment else None
    # MATLAB's choice of shell: MATLAB_SHELL, else SHELL, else /bin/sh
    shell = None
    if not sys.platform.startswith("win"):
        shell = os.environ.get("MATLAB_SHELL") or os.environ.get("SHELL") or None
    executable = shell if shell and os.path.exists(shell) else None
    stripped = command.rstrip()
    if stripped.endswith("&") and not stripped.endswith("&&"):
        # a background command: started, not waited for; its output is not captured
        try:
            subprocess.Popen(command, shell=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env, executable=executable,
                             start_new_session=True)
        except OSError as exc:
            raise error("MATLAB:system:OSError",
                        f"Unable to run the command: {exc.strerror}.") from None
        return 0, ""
    try:
        done = subprocess.run(command, shell=True, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                              executable=executable)
    except OSError as exc:
        raise error("MATLAB:system:OSError", f"Unable to run the command: {exc.strerror}.") from None
    output = done.stdout.decode("utf-8", errors="replace")
    if echo:
        interp.write(output)
    status = done.returncode if done.returncode >= 0 else 128 - done.returncode
    return status, output


@builtin(interp=True, nargout=True, max_out=2)
def system(interp: Any, command: Any, *options: Any, nargout: int = 0) -> Any:
    """status = system(command) runs command in the operating system's shell; its output shows in
    the Command Window and status is its exit status (0 for success).

    [status, cmdout] = system(command) returns the output instead of showing it;
    [status, cmdout] = system(command, '-echo') returns and shows it.
    system(command, EnvName1, EnvVal1, ...) runs it with these environment variables set.
    !command at the start of a statement runs command the same way."""
    text = text_scalar(command, "Command")
    echo = nargout < 2
    rest = list(options)
    if rest and (text_or_none(rest[0]) or "").lower() == "-echo":
        echo = True
        rest = rest[1:]
    if len(rest) % 2:
        raise error("MATLAB:system:InvalidEnvironment",
                    "Environment variable names must be followed by values.")
    environment = {text_scalar(rest[k], "Environment variable name"):
                   text_scalar(rest[k + 1], "Environment variable value")
                   for k in range(0, len(rest), 2)}
    status, output = run_command(interp, text, echo, environment)
    out = row(output) if output else empty_char()
    return (float(status), out)[:max(nargout, 1)]

