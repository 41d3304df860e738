"""load and save: MAT-files (versions 4, 6, 7 through SciPy; 7.3 through h5py) and ASCII
data files.

Without an output, load assigns the variables into the caller's workspace; with one it
returns them as the fields of a struct (an ASCII file: the matrix).  save writes the
caller's variables (all of them, or those named, matched by wildcards or -regexp, or
the fields of a scalar struct with -struct); objects (strings, datetimes, tables...)
are stored as MATLAB stores them (``mat_objects``, ``mat_subsystem``).  Every write goes
through a temporary file renamed over the target (``atomic.py``), including -append, so
a failed save leaves an existing file as it was.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import struct
from typing import Any

from mlang.builtins.coerce import text_scalar
from mlang.builtins.files import mat_ascii, mat_hdf5
from mlang.builtins.files.atomic import atomic_file, atomic_path, os_reason
from mlang.builtins.files.mat_objects import contains_object
from mlang.builtins.files.mat_subsystem import SubsystemBuilder
from mlang.builtins.files.mat_values import (
    Unsupported,
    from_scipy,
    header_text,
    make_writer,
    mat5_entries,
    mat5_raw_blocks,
    read_mat5,
    subsystem_bytes,
    to_writable,
)
from mlang.builtins.language.introspection import caller_frame, find_file
from mlang.errors import RUNNING, error, warn
from mlang.registry import builtin
from mlang.values.struct import Struct

DEFAULT_FILE = "matlab.mat"
_MAT_HEADER = 128


# ------------------------------------------------------------------- reading files


def mat_kind(path: str) -> str | None:
    """'v73', 'v5' or 'v4' for a MAT-file, None for anything else."""
    try:
        with open(path, "rb") as f:
            head = f.read(_MAT_HEADER)
    except OSError:
        return None
    if mat_hdf5.is_hdf5(path):
        return "v73"
    if len(head) == _MAT_HEADER and head[:6] == b"MATLAB" and head[126:128] in (b"IM", b"MI"):
        return "v5"
    # SciPy on first use: keeps start-up fast
    from scipy.io.matlab import matfile_version

    try:
        major, _ = matfile_version(path)
    except Exception:  # noqa: BLE001 -- SciPy raises many kinds for a file that is not a MAT-file
        return None
    return "v4" if major == 0 else None


def _not_binary(display: str) -> Exception:
    return error("MATLAB:load:notBinaryFile",
                 f"Unable to read MAT-file {display}. Not a binary MAT-file. "
                 "Try load -ASCII to read as text.")


def _corrupt(display: str) -> Exception:
    return error("MATLAB:load:unableToReadMatFile",
                 f"Unable to read MAT-file {display}. File might be corrupt.")


def names_in_file(path: str, kind: str, display: str) -> list[str]:
    """The names of the variables in a MAT-file, in file order."""
    if kind == "v73":
        h5py = mat_hdf5.h5py_module()
        try:
            with h5py.File(path, "r") as f:
                return mat_hdf5.variable_names(f)
        except OSError:
            raise _corrupt(display) from None
    # SciPy on first use: keeps start-up fast
    from scipy.io import whosmat
    from scipy.io.matlab._mio5 import MatFile5Reader

    try:
        if kind == "v4":
            return [name for name, _, _ in whosmat(path)]
        return [name for name, _ in mat5_entries(path, MatFile5Reader, None, headers_only=True)
                if name != "__function_workspace__"]
    except Exception:  # noqa: BLE001 -- SciPy's errors for a damaged file vary
        raise _corrupt(display) from None


def read_variables(path: str, kind: str, display: str, names: list[str] | None = None) -> dict[str, Any]:
    """The variables of a MAT-file as MATLAB values (all, or those named), in file order;
    values mlang cannot represent are left out after a warning."""
    if kind == "v73":
        return mat_hdf5.read_v73(path, names)
    try:
        raw = read_mat5(path, names, v4=kind == "v4")
    except Exception:  # noqa: BLE001 -- SciPy's errors for a damaged file vary
        raise _corrupt(display) from None
    context = {"__function_workspace__": raw.pop("__function_workspace__", None)}
    out = {}
    for name, obj in raw.items():
        context["variable"] = name  # named in the warnings about the objects inside it
        value = from_scipy(obj, name, context)
        if value is not None:
            out[name] = value
    return out


def locate(interp: Any, name: str, error_id: str = "MATLAB:load:couldNotReadFile") -> str:
    """The path of the file load reads for ``name`` (``name.mat`` first when ``name`` has
    no extension), or MATLAB's error."""
    candidates = [name + ".mat", name] if not os.path.splitext(name)[1] else [name]
    for candidate in candidates:
        found = find_file(interp, candidate, add_m=False)
        if found is not None:
            path = str(found)
            if not os.access(path, os.R_OK):
                raise error(error_id, f"Unable to read file '{name}'. No permission.")
            return path
    if os.path.isdir(name):
        raise error(error_id, f"Unable to read file '{name}'. Input cannot be a directory.")
    raise error(error_id, f"Unable to find file or directory '{name}'.")


def file_variables(interp: Any, name: str) -> dict[str, Any]:
    """All the variables of a MAT-file (for whos -file and matfile)."""
    path = locate(interp, name)
    kind = mat_kind(path)
    if kind is None:
        raise _not_binary(name)
    return read_variables(path, kind, name)


def _select(names: list[str], patterns: list[str], regexp: bool) -> tuple[list[str], list[str]]:
    """The names matching the patterns (wildcards, or regular expressions with ``regexp``),
    and the patterns that matched nothing."""
    if regexp:
        compiled = [re.compile(p) for p in patterns]
        return [n for n in names if any(p.search(n) for p in compiled)], []
    chosen = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    missing = [p for p in patterns if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    return chosen, missing


# ----------------------------------------------------------------------------- load


@builtin(interp=True, nargout=True)
def load(interp: Any, *args: Any, nargout: int = 0) -> Any:
    """load  Load variables from a file into the workspace.

    load(filename) loads the variables of a MAT-file into the workspace; load alone
    reads matlab.mat.  A file with an extension other than .mat is read as ASCII
    numbers, into a variable named after the file.
    load(filename, variables) loads only the variables named (wildcards * allowed).
    load(filename, '-regexp', expressions) loads those matching regular expressions.
    load(filename, '-mat') and load(filename, '-ascii') force the file's format.
    S = load(...) returns the variables as the fields of a struct (an ASCII file: the
    matrix).  Version 7.3 files need h5py (pip install 'mlang[hdf5]')."""
    form, regexp, name, patterns = None, False, None, []
    for a in args:
        word = text_scalar(a, "File name or variable name")
        lowered = word.lower()
        if lowered in ("-mat", "-ascii"):
            form = lowered[1:]
        elif lowered == "-regexp":
            regexp = True
        elif name is None:
            name = word
        else:
            patterns.append(word)
    name = name or DEFAULT_FILE
    path = locate(interp, name)
    kind = mat_kind(path) if form != "ascii" else None
    if kind is None and (form == "mat" or (form is None and os.path.splitext(path)[1].lower() == ".mat")):
        raise _not_binary(name)
    if kind is None:
        data = mat_ascii.read_ascii(path, name)
        if nargout:
            return data
        _assign(interp, {mat_ascii.variable_name_for(path): data})
        return None
    chosen = None
    if patterns:
        chosen, missing = _select(names_in_file(path, kind, name), patterns, regexp)
        for p in missing:
            warn("MATLAB:load:variableNotFound", f"Variable '{p}' not found.")
    values = read_variables(path, kind, name, chosen) if chosen != [] else {}
    if nargout:
        s = Struct.scalar(values)
        s.fields = list(values)
        return s
    _assign(interp, values)
    return None


def _assign(interp: Any, values: dict[str, Any]) -> None:
    """Put the loaded values into the caller's workspace (a declared global's value
    into the global workspace)."""
    frame = caller_frame(interp)
    for name, value in values.items():
        if name in frame.global_names:
            interp.globals[name] = value
        else:
            frame.vars[name] = value


# ----------------------------------------------------------------------------- save


_VERSIONS = {"-v4": "v4", "-v6": "v6", "-v7": "v7", "-v7.3": "v73", "-mat": "v7"}


class _SaveRequest:
    def __init__(self) -> None:
        self.name: str | None = None
        self.version = "v7"
        self.ascii = self.double = self.tabs = self.append = self.regexp = False
        self.compress = True
        self.struct_name: str | None = None
        self.names: list[str] = []


def _parse_save(words: list[str]) -> _SaveRequest:
    request = _SaveRequest()
    k = 0
    while k < len(words):
        word = words[k]
        lowered = word.lower()
        k += 1
        if lowered in _VERSIONS:
            request.version = _VERSIONS[lowered]
        elif lowered == "-ascii":
            request.ascii = True
        elif lowered == "-double":
            request.double = True
        elif lowered == "-tabs":
            request.tabs = True
        elif lowered == "-append":
            request.append = True
        elif lowered == "-nocompression":
            request.compress = False
        elif lowered == "-compress":
            request.compress = True
        elif lowered == "-regexp":
            request.regexp = True
        elif lowered == "-struct":
            if k >= len(words):
                raise error("MATLAB:save:missingStructName",
                            "The -struct option must be followed by the name of a structure.")
            request.struct_name = words[k]
            k += 1
        elif word.startswith("-") and not request.regexp:
            raise error("MATLAB:save:unknownOption", f"Unknown option '{word}'.")
        elif request.name is None:
            request.name = word
        else:
            request.names.append(word)
    return request


def _visible(interp: Any) -> dict[str, Any]:
    """The caller's variables, declared globals included."""
    frame = caller_frame(interp)
    visible = dict(frame.vars)
    for n in frame.global_names:
        if n in interp.globals:
            visible[n] = interp.globals[n]
    return visible


def _chosen_variables(interp: Any, request: _SaveRequest) -> dict[str, Any]:
    visible = _visible(interp)
    if request.struct_name is not None:
        s = visible.get(request.struct_name)
        if type(s) is not Struct or s.elems.size != 1:
            raise error("MATLAB:save:structArgMustBeScalarStructure",
                        "The argument to -STRUCT must be the name of a scalar structure variable.")
        visible = dict(s.element(0))
        if not request.names:
            return visible
        source = f"{request.struct_name}."
    else:
        if not request.names:
            return dict(sorted(visible.items()))
        source = ""
    if request.regexp:
        chosen, _ = _select(list(visible), request.names, True)
        return {n: visible[n] for n in chosen}
    out: dict[str, Any] = {}
    for pattern in request.names:
        if any(c in pattern for c in "*?["):
            matched = [n for n in visible if fnmatch.fnmatchcase(n, pattern)]
            if not matched:
                raise error("MATLAB:save:noMatchingVariables",
                            f"No variable matched the pattern '{source}{pattern}'.")
            out.update((n, visible[n]) for n in sorted(matched))
        elif pattern in visible:
            out[pattern] = visible[pattern]
        else:
            raise error("MATLAB:save:couldNotFindVariable", f"Variable '{source}{pattern}' not found.")
    return out


@builtin(interp=True, max_out=0)
def save(interp: Any, *args: Any) -> None:
    """save  Save workspace variables to a file.

    save(filename) saves every variable of the current workspace in a MAT-file (.mat
    added when the name has no extension); save alone writes matlab.mat.
    save(filename, variables) saves those named (wildcards * allowed);
    save(filename, '-regexp', expressions) those matching regular expressions;
    save(filename, '-struct', s) the fields of scalar struct s as variables, and
    save(filename, '-struct', s, fields) only those fields.
    Options: -append (add to or replace in an existing file), -v7 (default,
    compressed), -v6, -v4, -v7.3 (HDF5, needs pip install 'mlang[hdf5]'),
    -nocompression, -ascii (text; with -double for 16 digits, -tabs for tabs).
    String arrays, datetime, duration, categorical and table values and handles
    to named functions are saved as MATLAB saves them (not in -v4 files)."""
    request = _parse_save([text_scalar(a, "File name or option") for a in args])
    name = request.name or DEFAULT_FILE
    if not request.ascii and not os.path.splitext(name)[1]:
        name += ".mat"
    variables = _chosen_variables(interp, request)
    _check_folder(name)
    try:
        if request.ascii:
            _save_ascii(name, variables, request)
        else:
            _save_mat(name, variables, request)
    except OSError as exc:
        if exc.errno in (13, 1):
            raise error("MATLAB:save:permissionDenied",
                        f"Unable to write file {name}: permission denied.") from None
        raise error("MATLAB:save:couldNotWriteFile",
                    f"Unable to write file {name}: {os_reason(exc)}.") from None


def _check_folder(name: str) -> None:
    folder = os.path.dirname(name)
    if folder and not os.path.isdir(folder):
        raise error("MATLAB:save:noParentDir",
                    f"Cannot create '{os.path.basename(name)}' because '{folder}' does not exist.")


def _save_ascii(name: str, variables: dict[str, Any], request: _SaveRequest) -> None:
    text = mat_ascii.ascii_text(variables, request.double, request.tabs)
    existing = ""
    if request.append and os.path.isfile(name):
        with open(name, encoding="utf-8", errors="replace") as f:
            existing = f.read()
    with atomic_file(name, "w", encoding="utf-8", newline="\n") as f:
        f.write(existing + text)


def _writable_values(variables: dict[str, Any], version: str,
                     objects: SubsystemBuilder | None = None) -> dict[str, Any]:
    """The variables converted for the chosen format (their objects collected in
    ``objects``); those it cannot hold are left out after a warning."""
    out: dict[str, Any] = {}
    for name, value in variables.items():
        try:
            if version == "v73":
                mat_hdf5.check_writable(value)
                out[name] = value
            else:
                out[name] = to_writable(value, v4=version == "v4", objects=objects)
        except Unsupported as exc:
            form = "-v4 " if version == "v4" else ""
            warn("MATLAB:save:unsupportedClass",
                 f"Variable '{name}' was not saved: values of class '{exc.args[0]}' cannot be "
                 f"saved to a {form}MAT-file.")
    return out


def _save_mat(name: str, variables: dict[str, Any], request: _SaveRequest) -> None:
    version = request.version
    existing_kind = None
    if request.append and os.path.isfile(name):
        existing_kind = mat_kind(name)
        if existing_kind is None:
            raise _not_binary(name)
        version = {"v73": "v73", "v4": "v4"}.get(existing_kind, "v7" if request.compress else "v6")
    objects = SubsystemBuilder()
    values = _writable_values(variables, version, objects)
    if version == "v73":
        mat_hdf5.h5py_module()
        with atomic_path(name) as temporary:
            if existing_kind == "v73":
                shutil.copyfile(name, temporary)
                mat_hdf5.write_v73(temporary, values, append=True)
            else:
                mat_hdf5.write_v73(temporary, values)
        return
    if version == "v4":
        # SciPy on first use: keeps start-up fast
        import scipy.io

        if existing_kind == "v4":
            old = scipy.io.loadmat(name, mat_dtype=True, chars_as_strings=False)
            values = {k: v for k, v in old.items() if not k.startswith("__") and k not in values} | values
        with atomic_file(name) as f:
            scipy.io.savemat(f, values, format="4")
        return
    kept: list[tuple[str, bytes]] = []
    if existing_kind == "v5" and _little_endian(name):
        try:
            kept = [b for b in mat5_raw_blocks(name) if b[0] not in values]
        except Exception:  # noqa: BLE001 -- SciPy's errors for a damaged file vary
            raise _corrupt(name) from None
        if objects and any(block_name == "" for block_name, _ in kept):
            kept, values = _merge_objects(name, kept, variables, values, version, objects)
    elif existing_kind == "v5":  # stored bytes of the other byte order: the values are rewritten
        old = read_variables(name, "v5", name)
        rest = {k: v for k, v in old.items() if k not in values}
        values = _writable_values(rest, version, objects) | values
    subsystem = b"".join(block for block_name, block in kept if block_name == "")
    with atomic_file(name) as f:
        writer = make_writer(f, compress=version == "v7" and request.compress)
        writer.write_file_header()
        f.seek(0)
        f.write(header_text().ljust(116, b" ")[:116])
        f.seek(_MAT_HEADER)
        for block_name, block in kept:
            if block_name:
                f.write(block)
        writer.put_variables(values, write_header=False)
        position = f.tell()
        if objects:  # the objects' contents: an unnamed variable after the others
            writer.put_variables({"": subsystem_bytes(objects)}, write_header=False)
        elif subsystem:  # the kept objects' contents stay last, where the header points
            f.write(subsystem)
        if objects or subsystem:
            f.seek(116)
            f.write(struct.pack("<Q", position))
            f.seek(0, os.SEEK_END)


def _merge_objects(name: str, kept: list[tuple[str, bytes]], variables: dict[str, Any],
                   values: dict[str, Any], version: str,
                   objects: SubsystemBuilder) -> tuple[list[tuple[str, bytes]], dict[str, Any]]:
    """Appending objects to a file that has some already: one subsystem must hold them
    all, so the file's variables are read and written again.  When one of them cannot be
    read (an object of a class mlang does not know), the file is kept as it is and the new
    variables holding objects are left out (with a warning)."""
    names = [block_name for block_name, _ in kept if block_name]
    token = RUNNING.set(None)  # reading quietly: what cannot be read is handled below
    try:
        old = read_variables(name, "v5", name, names)
    finally:
        RUNNING.reset(token)
    if all(n in old for n in names):
        return [], _writable_values({n: old[n] for n in names}, version, objects) | values
    for variable, value in variables.items():
        if contains_object(value):
            warn("MATLAB:save:unsupportedClass",
                 f"Variable '{variable}' was not saved: mlang cannot add objects to '{name}', "
                 "which holds objects of classes it cannot read.")
            values.pop(variable, None)
    objects.clear()
    return kept, _writable_values({n: variables[n] for n in values}, version)


def _little_endian(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(_MAT_HEADER)[126:128] == b"IM"
