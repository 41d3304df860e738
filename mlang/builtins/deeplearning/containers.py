"""The containers of learnable parameters, walked in one way by every optimizer.

The optimizers (adamupdate, sgdmupdate, rmspropupdate, dlupdate, lbfgsupdate) take
their parameters in any container MATLAB allows -- a dlarray or numeric array, a
struct (nested, or a struct array), a cell array, a Learnables table (variables
Layer, Parameter, Value: the Value cells are the parameters) -- and return the same
container.  ``map_parameters(fn, first, *others)`` walks matching containers in
parallel, calls ``fn`` on each parameter with the matching parts of the others, and
rebuilds the first one's structure around the results.

A value class defined later (a network) plugs in its own walking by registering a
``ContainerKind`` in ``CONTAINER_KINDS`` under its Python type.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.autodiff.dlarray import DlArray
from mlang.errors import MatlabError, error
from mlang.values.cell import Cell
from mlang.values.core import class_of
from mlang.values.struct import Struct
from mlang.values.table import Table


def mismatch(detail: str) -> MatlabError:
    """The error for containers whose structures do not match."""
    return error("deep:optimizers:MismatchedInputs",
                 f"Inputs must have the same structure: {detail}")


class ContainerKind:
    """How one class of container is walked: the values inside it in order, the
    container rebuilt from new values, and the matching values of a second container
    of the same structure (an error when its structure differs).  A network's kind
    overrides ``matching_children`` to accept its Learnables table too (its gradients
    and optimizer states come as tables)."""

    name = "container"

    def children(self, value: Any) -> list:
        raise NotImplementedError

    def rebuild(self, value: Any, children: list) -> Any:
        raise NotImplementedError

    def matching_children(self, template: Any, other: Any) -> list:
        if type(other) is not type(template):
            raise mismatch(f"expected a {self.name}, not {class_of(other)}.")
        mine, theirs = self.children(template), self.children(other)
        if len(mine) != len(theirs):
            raise mismatch(f"{self.name}s of different sizes.")
        return theirs

    def owned_children(self, value: Any) -> list | None:
        """The children, when every object between ``value`` and them is held by ``value``
        alone (so a child held once more, by the list, is reached through ``value`` only);
        None when that is not known (a child's array is then never written in place)."""
        return None


class CellKind(ContainerKind):
    name = "cell array"

    def children(self, value: Cell) -> list:
        return value.data.ravel().tolist()  # (an object array's tolist gives its elements themselves)

    def owned_children(self, value: Cell) -> list | None:
        data = value.data
        # references: the cell's, `data`, getrefcount's argument
        if getrefcount(data) > 3 or data.base is not None:
            return None
        return list(data.reshape(-1))

    def rebuild(self, value: Cell, children: list) -> Cell:
        data = np.empty(value.data.shape, dtype=object)
        data.reshape(-1)[:] = children
        return Cell(data)

    def matching_children(self, template: Cell, other: Any) -> list:
        if type(other) is Cell and other.data.shape != template.data.shape:
            raise mismatch("cell arrays of different sizes.")
        return super().matching_children(template, other)


class StructKind(ContainerKind):
    name = "structure"

    def children(self, value: Struct) -> list:
        elems = value.elems
        if elems.size == 1:  # a scalar struct (a training loop's parameters), quickly
            return list(map(elems.item().__getitem__, value.fields))
        return [elem[name] for elem in elems.reshape(-1) for name in value.fields]

    def owned_children(self, value: Struct) -> list | None:
        elems = value.elems
        # references: the struct's, `elems`, getrefcount's argument
        if getrefcount(elems) > 3 or elems.base is not None:
            return None
        out = []
        for elem in elems.reshape(-1):  # (the view adds a reference to elems, not to elem)
            if getrefcount(elem) > 3:  # elems' slot, `elem`, getrefcount's argument
                return None
            out.extend(map(elem.__getitem__, value.fields))
        return out

    def rebuild(self, value: Struct, children: list) -> Struct:
        fields = list(value.fields)
        elems = np.empty(value.elems.shape, dtype=object)
        if elems.size == 1:
            elems.reshape(-1)[0] = dict(zip(fields, children, strict=True))
            return Struct(fields, elems)
        flat = elems.reshape(-1)
        width = len(fields)
        for k in range(flat.size):
            flat[k] = dict(zip(fields, children[k * width:(k + 1) * width], strict=True))
        return Struct(fields, elems)

    def matching_children(self, template: Struct, other: Any) -> list:
        if type(other) is not Struct:
            raise mismatch(f"expected a structure, not {class_of(other)}.")
        if other.fields != template.fields and sorted(other.fields) != sorted(template.fields):
            raise mismatch("structures with different fields.")
        elems = other.elems
        if elems.shape != template.elems.shape:
            raise mismatch("structure arrays of different sizes.")
        # fields are matched by name, in the first structure's order
        if elems.size == 1:
            return list(map(elems.item().__getitem__, template.fields))
        return [elem[name] for elem in elems.reshape(-1) for name in template.fields]


class TableKind(ContainerKind):
    """A Learnables-style table: its parameters are the cells of the Value variable."""

    name = "table"

    def _values(self, table: Table) -> Cell:
        names = table.names
        if "Value" in names:
            cells = table.variables[names.index("Value")]
            if type(cells) is Cell:
                return cells
        raise error("deep:optimizers:InvalidTable",
                    "Table must have a variable named 'Value' holding a cell array of parameters.")

    def children(self, value: Table) -> list:
        return self._values(value).data.ravel().tolist()

    def owned_children(self, value: Table) -> list | None:
        variables = value.variables
        # references: the table's, `variables`, getrefcount's argument
        if type(variables) is not list or getrefcount(variables) > 3 or "Value" not in value.names:
            return None
        cells = variables[value.names.index("Value")]
        if type(cells) is not Cell or getrefcount(cells) > 3:  # the list's, `cells`, the argument
            return None
        return CONTAINER_KINDS[Cell].owned_children(cells)

    def rebuild(self, value: Table, children: list) -> Table:
        cells = self._values(value)
        data = np.empty(cells.data.shape, dtype=object)
        data.reshape(-1)[:] = children
        variables = list(value.variables)
        variables[value.names.index("Value")] = Cell(data)  # the same height: only Value changes
        return value.copy(variables=variables)

    def matching_children(self, template: Table, other: Any) -> list:
        if type(other) is Table and other.height != template.height:
            raise mismatch("tables of different heights.")
        return super().matching_children(template, other)


# Python type of a container -> how it is walked.  Later value classes (networks) add
# themselves here when their module loads.
CONTAINER_KINDS: dict[type, ContainerKind] = {Cell: CellKind(), Struct: StructKind(),
                                             Table: TableKind()}


getrefcount = sys.getrefcount


def owned_buffers(value: Any) -> set[int]:
    """The ids of the arrays inside ``value`` (itself held by nothing else: a donated input)
    that nothing but ``value`` reaches: a floating-point array that owns its memory, held
    by an untraced dlarray (or directly by a container), each object on the way held once."""
    owned: set[int] = set()
    if type(value) is DlArray:
        if value.node is None:
            data = value.data
            if getrefcount(data) <= 3 and _writable(data):  # the dlarray's, `data`, the argument
                owned.add(id(data))
    elif type(value) is np.ndarray:
        if _writable(value):
            owned.add(id(value))
    else:
        _collect_owned(value, owned)
    return owned


def _writable(data: np.ndarray) -> bool:
    return data.base is None and data.dtype.kind == "f" and data.flags.writeable


def _collect_owned(container: Any, owned: set[int]) -> None:
    kind = CONTAINER_KINDS.get(type(container))
    children = None if kind is None else kind.owned_children(container)
    if children is None:
        return
    for child in children:
        # references: the container's, the list's, `child`, getrefcount's argument
        if getrefcount(child) > 4:
            continue
        if type(child) is DlArray:
            if child.node is None:
                data = child.data
                if getrefcount(data) <= 3 and _writable(data):  # the dlarray's, `data`, the argument
                    owned.add(id(data))
        elif type(child) is np.ndarray:
            if _writable(child):
                owned.add(id(child))
        elif type(child) in CONTAINER_KINDS:
            _collect_owned(child, owned)


def parameters_of(value: Any) -> list:
    """The parameters inside a container, in walking order (a lone array is one)."""
    kind = CONTAINER_KINDS.get(type(value))
    if kind is None:
        return [value]
    out: list = []
    for child in kind.children(value):
        out.extend(parameters_of(child))
    return out


def matching_parameters(template: Any, other: Any) -> list:
    """The parameters of ``other`` that match those of ``template`` one by one (an error
    when the two structures differ)."""
    kind = CONTAINER_KINDS.get(type(template))
    if kind is None:
        if type(other) in CONTAINER_KINDS:
            raise mismatch(f"expected an array, not {class_of(other)}.")
        return [other]
    out: list = []
    for mine, theirs in zip(kind.children(template), kind.matching_children(template, other),
                            strict=True):
        out.extend(matching_parameters(mine, theirs))
    return out


def _any_container(values: list) -> bool:
    """Whether a container is among ``values`` (the loop in C: optimizers call this per step)."""
    return any(map(CONTAINER_KINDS.__contains__, map(type, values)))


def with_parameters(template: Any, values: list) -> Any:
    """``template`` rebuilt with ``values`` in place of its parameters (walking order)."""
    kind = CONTAINER_KINDS.get(type(template))
    if kind is not None:
        children = kind.children(template)
        if len(children) == len(values) and not _any_container(children):
            return kind.rebuild(template, list(values))  # one level: no walk
    return _rebuild(template, iter(values))


def _rebuild(template: Any, stream: Any) -> Any:
    kind = CONTAINER_KINDS.get(type(template))
    if kind is None:
        return next(stream)
    return kind.rebuild(template, [_rebuild(child, stream) for child in kind.children(template)])


def is_missing(value: Any) -> bool:
    """``[]``: an optimizer state not yet made (the first iteration)."""
    return type(value) is np.ndarray and value.shape == (0, 0) and value.dtype == np.float64


def map_parameters(fn: Callable[..., tuple], first: Any, *others: Any, nout: int = 1,
                   missing_allowed: bool = False, shaped_like: tuple[int, ...] = ()) -> list:
    """Call ``fn(p, o1, ..., on)`` on each parameter ``p`` of ``first`` with the matching
    parameters of ``others`` and return ``nout`` containers holding the ``nout`` values
    ``fn`` returns each time.  Output ``j`` is shaped like ``first``, or like input
    ``shaped_like[j]`` (0 is ``first``, 1 the first of ``others``...): an optimizer's
    states take the gradients' structure, which for a network is its Learnables table.
    With ``missing_allowed``, an other given as ``[]`` passes None for its parameters."""
    return map_parameter_rows(lambda rows: [fn(*row) for row in rows], first, *others, nout=nout,
                              missing_allowed=missing_allowed, shaped_like=shaped_like)


def map_parameter_rows(fn: Callable[[list[tuple]], list[tuple]], first: Any, *others: Any,
                       nout: int = 1, missing_allowed: bool = False,
                       shaped_like: tuple[int, ...] = ()) -> list:
    """``map_parameters`` with ``fn`` called once on all the rows ``(p, o1, ..., on)`` (one
    per parameter), returning one tuple of ``nout`` values per row: for updates that
    compute all the parameters at once."""
    flat = _flat_columns(first, others, missing_allowed)
    if flat is not None:  # one level of containers (a training loop's usual case)
        params, columns = flat
    else:
        params = parameters_of(first)
        columns = [None if missing_allowed and is_missing(o) else matching_parameters(first, o)
                   for o in others]
    nothing = [None] * len(params)
    rows = list(zip(params, *[nothing if col is None else col for col in columns], strict=True))
    got = fn(rows)
    outs = list(zip(*got, strict=True)) if got else [() for _ in range(nout)]
    inputs = (first, *others)
    templates = [_template(first, inputs[shaped_like[j]]) if j < len(shaped_like) else first
                 for j in range(len(outs))]
    if flat is not None:
        # every template is ``first`` or an other walked above: containers of as many arrays
        # as there are rows, rebuilt with no second look at their children
        return [CONTAINER_KINDS[type(template)].rebuild(template, list(out))
                for template, out in zip(templates, outs, strict=True)]
    return [with_parameters(template, list(out)) for template, out in zip(templates, outs, strict=True)]


def _flat_columns(first: Any, others: tuple, missing_allowed: bool) -> tuple[list, list] | None:
    """The parameters of ``first`` and the matching parameters of each of ``others`` (None
    for a missing one) when ``first`` is a container holding only arrays and so are the
    others; None otherwise (the general walk then also reports any mismatch)."""
    kind = CONTAINER_KINDS.get(type(first))
    if kind is None:
        return None
    params = kind.children(first)
    if _any_container(params):
        return None
    columns: list[list | None] = []
    for o in others:
        if missing_allowed and is_missing(o):
            columns.append(None)
            continue
        theirs = kind.matching_children(first, o)
        if _any_container(theirs):
            return None
        columns.append(theirs)
    return params, columns


def _template(first: Any, other: Any) -> Any:
    """The structure an output shaped like ``other`` takes: ``first``'s when both are the
    same kind of container (their parameters are in ``first``'s order: struct fields are
    matched by name), ``other``'s when it is another kind (a network's Learnables table)."""
    if type(other) in CONTAINER_KINDS and type(other) is not type(first):
        return other
    return first
