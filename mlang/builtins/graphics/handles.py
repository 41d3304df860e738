"""Graphics handle objects: the base class, arrays of handles, placeholders, texts.

(Root, Figure, Axes and Legend are in ``figure_axes.py``, Line in ``lines.py``.)

A graphics object is a handle (``GraphicsHandle``): every variable holding it sees the
same object, so ``h.LineWidth = 2`` changes it in place, as ``set(h, 'LineWidth', 2)``
does.  Each class has a property table, ``properties``: MATLAB's property name ->
``Prop(get, set, default, read_only)``.  A property with a ``get`` is read from the
matplotlib artist (``XData`` of a line); any other is kept in the handle's ``stored``
values (``default`` until set).  A ``set`` checks the MATLAB value, applies it to the
artist and returns the value to keep (None: keep nothing, the ``get`` reads it back).
Names are matched ignoring case.  A class made by another module adds its properties
with ``add_properties(cls, {...})`` or defines them in its ``own_properties``.

Several handles (``h = plot(x, [y1 y2])``) are a ``GraphicsArray``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mlang.builtins.graphics import props as pv
from mlang.errors import error
from mlang.values.core import char_row, class_of, numel
from mlang.values.indexing import assign, index
from mlang.values.objects import DisplayText, MatlabObject, read_only_property


@dataclass(frozen=True, slots=True)
class Prop:
    """How one property is read and written.  ``get(h)`` gives the MATLAB value (None:
    the stored one, else ``default``, called when it is a function of the handle);
    ``set(h, value)`` checks and applies a new value and returns what to store (None:
    store nothing); ``read_only`` properties refuse set."""

    get: Callable[[Any], Any] | None = None
    set: Callable[[Any, Any], Any] | None = None
    default: Any = None
    read_only: bool = False


def _discarded_on_failure(init: Callable[..., None]) -> Callable[..., None]:
    """A constructor that, when it fails (bad data found after the object joined its
    parent), takes the half-made object out again: no invalid child is left behind for
    later calls (caxis, legend, drawing) to trip over."""

    @functools.wraps(init)
    def constructor(self: GraphicsHandle, *args: Any, **kwargs: Any) -> None:
        try:
            init(self, *args, **kwargs)
        except BaseException:
            parent = getattr(self, "parent", None)
            if parent is not None and any(child is self for child in parent.children):
                parent.children[:] = [child for child in parent.children if child is not self]
            try:
                self.remove_artist()
            except Exception:  # noqa: BLE001 - whatever was made so far goes, if it can
                pass
            self.valid = False
            raise

    return constructor


def invalid_handle() -> Exception:
    return error("MATLAB:class:InvalidHandle", "Invalid or deleted object.")


def unknown_property(h: GraphicsHandle, name: str, reading: bool) -> Exception:
    """MATLAB's error for a property a class does not have (get names the full class)."""
    return error("MATLAB:hg:InvalidProperty",
                 f"Unrecognized property {name} for class "
                 f"{h.matlab_class if reading else h.short_class}.")


class GraphicsHandle(MatlabObject):
    """The base of graphics objects: a parent, children (in creation order), the
    matplotlib artist, the stored property values, and whether it still exists."""

    matlab_class = "matlab.graphics.Graphics"
    type_name: ClassVar[str] = ""  # the Type property ('line', 'axes', ...)
    own_properties: ClassVar[dict[str, Prop]] = {}
    properties: ClassVar[dict[str, Prop]] = {}  # own_properties merged with the bases'
    _by_lower: ClassVar[dict[str, str]] = {}
    # The properties a display lists (the rest: get(h)).
    display_order: ClassVar[tuple[str, ...]] = ()

    __slots__ = ("artist", "parent", "children", "stored", "valid", "__weakref__")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _merge_properties(cls)
        if "__init__" in cls.__dict__:
            cls.__init__ = _discarded_on_failure(cls.__dict__["__init__"])  # type: ignore[method-assign]

    def __init__(self, parent: GraphicsHandle | None, artist: Any = None) -> None:
        self.artist = artist
        self.parent = parent
        self.children: list[GraphicsHandle] = []
        self.stored: dict[str, Any] = {}
        self.valid = True
        if parent is not None:
            parent.children.append(self)

    # ------------------------------------------------------------ property access

    def property_name(self, name: str) -> str | None:
        """The property's MATLAB spelling (names match ignoring case); None: no such property."""
        return type(self)._by_lower.get(name.lower())

    def checked_name(self, name: str, reading: bool) -> str:
        """The property's MATLAB spelling, or MATLAB's error for an unknown property."""
        if not self.valid:
            raise invalid_handle()
        proper = self.property_name(name)
        if proper is None:
            raise unknown_property(self, name, reading)
        return proper

    def property_names(self) -> list[str]:
        return sorted(type(self).properties)

    def get_value(self, name: str) -> Any:
        """A property's MATLAB value (``name`` in its proper spelling)."""
        prop = type(self).properties[name]
        if prop.get is not None:
            return prop.get(self)
        if name in self.stored:
            return self.stored[name]
        return prop.default(self) if callable(prop.default) else prop.default

    def set_value(self, name: str, value: Any) -> None:
        """Set a property (``name`` in its proper spelling), applying it to the artist."""
        prop = type(self).properties[name]
        if prop.read_only or (prop.get is not None and prop.set is None):
            raise read_only_property(name, self.short_class)
        kept = prop.set(self, value) if prop.set is not None else value
        if kept is not None:
            self.stored[name] = kept
        self.changed()

    def apply_defaults(self) -> None:
        """Apply the root's Default<Type><Property> values (``set(groot,
        'DefaultLineLineWidth', 2)``) to a new object: its constructor calls this last."""
        node: GraphicsHandle | None = self
        while node is not None and node.parent is not None:
            node = node.parent
        defaults = getattr(node, "defaults", None)
        if not defaults:
            return
        prefix = self.type_name.lower()
        for key, value in list(defaults.items()):
            if key.startswith(prefix):
                proper = self.property_name(key[len(prefix):])
                if proper is not None:
                    self.set_value(proper, value)

    def changed(self) -> None:
        """Something about the object changed: its figure needs drawing again."""
        figure = self.figure()
        if figure is not None:
            figure.dirty = True

    @property
    def short_class(self) -> str:
        return self.matlab_class.rsplit(".", 1)[-1]

    def get_property(self, name: str) -> Any:
        if not self.valid:
            raise invalid_handle()
        proper = self.property_name(name)
        if proper is None:
            return super().get_property(name)
        return self.get_value(proper)

    def set_property(self, name: str, value: Any) -> GraphicsHandle:
        """``h.Name = value``: changes the object in place (a handle) and returns it."""
        if not self.valid:
            raise invalid_handle()
        proper = self.property_name(name)
        if proper is None:
            raise unknown_property(self, name, reading=False)
        if isinstance(value, (GraphicsHandle, GraphicsArray)) and value is self.get_value(proper):
            return self  # ax.Title.String = 'x' gives the axes its own title object back
        self.set_value(proper, value)
        return self

    # ------------------------------------------------------------ the tree

    def ancestor(self, type_name: str) -> Any:
        """The nearest object of that type from this one up the tree (None when there is none)."""
        node: GraphicsHandle | None = self
        while node is not None and node.type_name != type_name:
            node = node.parent
        return node

    def figure(self) -> Any:
        """The figure this object is in (None for the root)."""
        return self.ancestor("figure")

    def axes(self) -> Any:
        return self.ancestor("axes")

    def delete(self) -> None:
        """Delete the object and its children (the artist leaves its figure)."""
        if not self.valid:
            return
        for child in list(self.children):
            child.delete()
        self.remove_artist()
        self.valid = False
        if self.parent is not None and self in self.parent.children:
            self.parent.children.remove(self)
            self.parent.child_removed(self)
            self.parent.changed()

    def child_removed(self, child: GraphicsHandle) -> None:
        """A child was deleted (an axes drops its legend entry)."""

    def remove_artist(self) -> None:
        """Take the matplotlib artist away (a subclass with other artists overrides)."""
        if self.artist is not None:
            try:
                self.artist.remove()
            except (NotImplementedError, ValueError, AttributeError):
                pass

    # ------------------------------------------------------------ MATLAB behaviour

    def subsref_paren(self, args: list) -> Any:
        return GraphicsArray.of([self]).subsref_paren(args)

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        return GraphicsArray.of([self]).subsasgn_paren(args, rhs)

    @staticmethod
    def assign_into(target: Any, args: list, rhs: Any) -> Any:
        """``h(k) = plot(...)`` with ``h`` new or ``[]``: an array of handles starts."""
        if target is None or (class_of(target) == "double" and numel(target) == 0):
            return GraphicsArray([], (0, 0)).subsasgn_paren(args, rhs)
        return NotImplemented

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        return GraphicsArray.concatenate(rows)

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        """``delete(h)`` deletes graphics objects (the files function otherwise)."""
        if builtin.name == "delete" and len(args) == 1:
            for handle in handle_list(args[0]):
                handle.delete()
            return []
        return NotImplemented

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        if symbol in ("==", "~="):
            same = _same_handles(a, b)
            return same if symbol == "==" else _negate(same)
        return NotImplemented

    def unary_operator(self, symbol: str) -> Any:
        return self if symbol in ("'", ".'") else NotImplemented

    def display_properties(self) -> list[tuple[str, Any]]:
        if not self.valid:
            return []
        names = self.display_order or tuple(self.property_names())
        return [(name, _shown(self.get_value(name))) for name in names]

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        if not self.valid:
            return [f"  handle to deleted {self.short_class}", ""]
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({'valid' if self.valid else 'deleted'})"


def _shown(value: Any) -> Any:
    """A property value as a display lists it (handles by their class)."""
    if isinstance(value, GraphicsHandle):
        return DisplayText(f"[1×1 {value.short_class}]")
    if isinstance(value, GraphicsArray):
        rows, cols = value.shape
        return DisplayText(f"[{rows}×{cols} {value.matlab_class.rsplit('.', 1)[-1]}]")
    return value


def define_properties(cls: type[GraphicsHandle], table: dict[str, Prop]) -> None:
    """Set a handle class's own property table (its subclasses inherit it)."""
    cls.own_properties = table
    for klass in [cls, *_subclasses(cls)]:
        _merge_properties(klass)


def add_properties(cls: type[GraphicsHandle], table: dict[str, Prop]) -> None:
    """Give a handle class (and its subclasses) more properties, or new ways to handle some."""
    define_properties(cls, {**cls.__dict__.get("own_properties", {}), **table})


def _merge_properties(cls: type[GraphicsHandle]) -> None:
    merged: dict[str, Prop] = {}
    for klass in reversed(cls.__mro__):
        merged.update(klass.__dict__.get("own_properties", {}))
    cls.properties = merged
    cls._by_lower = {name.lower(): name for name in merged}


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


# ---------------------------------------------------------------- arrays of handles


class GraphicsArray(MatlabObject):
    """Several graphics objects (or none): ``plot`` of a matrix gives one line a column."""

    __slots__ = ("items", "dims")

    @property  # type: ignore[override]
    def matlab_class(self) -> str:  # class(h): the class its elements share
        return self.element_class()

    def __init__(self, items: list[GraphicsHandle], shape: tuple[int, int]) -> None:
        self.items = items
        self.dims = shape

    @classmethod
    def of(cls, items: list[GraphicsHandle], column: bool = True) -> GraphicsArray:
        return cls(list(items), (len(items), 1) if column else (1, len(items)))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.dims

    def element_class(self) -> str:
        classes = {h.matlab_class for h in self.items}
        return classes.pop() if len(classes) == 1 else "matlab.graphics.Graphics"

    def subsref_paren(self, args: list) -> Any:
        positions = np.arange(1, len(self.items) + 1, dtype=float).reshape(self.dims, order="F")
        picked = index(positions, args)
        chosen = np.asarray(picked, dtype=float).reshape(np.shape(picked) or (1, 1))
        handles = [self.items[int(k) - 1] for k in chosen.ravel(order="F")]
        return simplify(handles, (chosen.shape[0], chosen.shape[1]) if chosen.ndim == 2 else (1, 1))

    def subsasgn_paren(self, args: list, rhs: Any) -> Any:
        """``h(k) = obj`` (grown with placeholders), ``h(k) = []`` (removed): done on the
        positions of the handles, then mapped back."""
        count = len(self.items)
        positions = np.arange(1, count + 1, dtype=float).reshape(self.dims, order="F")
        if class_of(rhs) == "double" and numel(rhs) == 0:
            new_items: list[GraphicsHandle] = []
            placed = assign(positions, args, np.zeros((0, 0)))
        else:
            new_items = handle_list(rhs)
            rhs_shape = rhs.dims if isinstance(rhs, GraphicsArray) else (1, 1)
            numbers = np.arange(count + 1, count + len(new_items) + 1, dtype=float)
            placed = assign(positions, args, numbers.reshape(rhs_shape, order="F")
                            if numbers.size != 1 else float(numbers[0]))
        every = self.items + new_items
        grid = np.asarray(placed, dtype=float).reshape(np.shape(placed) or (1, 1))
        if grid.ndim != 2:
            raise error("MATLAB:badsubscript",
                        "Graphics arrays have two dimensions.")
        handles = [every[int(k) - 1] if k >= 1 else GraphicsPlaceholder(None)
                   for k in grid.ravel(order="F")]
        return GraphicsArray(handles, (grid.shape[0], grid.shape[1])) if len(handles) != 1 \
            else handles[0]

    @staticmethod
    def concatenate(rows: list[list]) -> Any:
        row_items: list[list[GraphicsHandle]] = []
        for row in rows:
            items: list[GraphicsHandle] = []
            for value in row:
                if isinstance(value, GraphicsHandle):
                    items.append(value)
                elif isinstance(value, GraphicsArray):
                    items += value.items
                elif class_of(value) == "double" and numel(value) == 0:
                    continue
                else:
                    raise error("MATLAB:UnableToConvert",
                                f"Conversion to {GraphicsHandle.matlab_class} from "
                                f"{class_of(value)} is not possible.")
            if items:
                row_items.append(items)
        if not row_items:
            return GraphicsArray([], (0, 0))
        if len(row_items) == 1:
            return simplify(row_items[0], (1, len(row_items[0])))
        if all(len(r) == 1 for r in row_items):
            return simplify([r[0] for r in row_items], (len(row_items), 1))
        raise error("MATLAB:catenate:dimensionMismatch", "Dimensions of arrays being concatenated "
                                                         "are not consistent.")

    def get_property(self, name: str) -> Any:
        if len(self.items) == 1:
            return self.items[0].get_property(name)
        raise error("MATLAB:index:expected_one_output_from_expression",
                    f"Expected one output from a curly brace or dot indexing expression, but "
                    f"there were {len(self.items)} results.")

    def property_list(self, name: str) -> list:
        return [h.get_property(name) for h in self.items]

    def set_property(self, name: str, value: Any) -> Any:
        if len(self.items) == 1:
            self.items[0].set_property(name, value)
            return self
        raise error("MATLAB:index:expected_one_output_from_expression",
                    "Setting a property of several graphics objects needs set(h, Name, Value).")

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        return GraphicsHandle.call_builtin(builtin, interp, args, nargout)

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        return GraphicsHandle.binary_operator(symbol, a, b)

    def unary_operator(self, symbol: str) -> Any:
        if symbol not in ("'", ".'"):
            return NotImplemented
        rows, cols = self.dims
        order = [self.items[r + c * rows] for r in range(rows) for c in range(cols)]
        return GraphicsArray(order, (cols, rows))

    def columns(self) -> list | None:
        rows, cols = self.dims
        return [simplify(self.items[c * rows:(c + 1) * rows], (rows, 1)) for c in range(cols)]

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list | None:
        rows, cols = self.dims
        if not self.items:
            return [f"  {rows}×{cols} empty GraphicsPlaceholder array.", ""]
        lines = [f"  {rows}×{cols} {self.element_class().rsplit('.', 1)[-1]} array:", ""]
        for h in self.items:
            lines.append(f"  {h.short_class}" if h.valid else "  handle to deleted object")
        return lines

    def __repr__(self) -> str:
        return f"GraphicsArray({self.items!r})"


def simplify(handles: list[GraphicsHandle], shape: tuple[int, int]) -> Any:
    """One handle as itself, several (or none) as a GraphicsArray."""
    if len(handles) == 1:
        return handles[0]
    return GraphicsArray(handles, shape)


def handle_list(value: Any) -> list[GraphicsHandle]:
    """The graphics objects a value holds (a handle, an array of them; [] gives none)."""
    if isinstance(value, GraphicsHandle):
        return [value]
    if isinstance(value, GraphicsArray):
        return list(value.items)
    if class_of(value) == "double" and numel(value) == 0:
        return []
    raise invalid_handle()


def is_graphics(value: Any) -> bool:
    return isinstance(value, (GraphicsHandle, GraphicsArray))


def _same_handles(a: Any, b: Any) -> Any:
    left = handle_list(a) if is_graphics(a) else None
    right = handle_list(b) if is_graphics(b) else None
    if left is None or right is None:
        return False
    if len(left) == 1:
        left = left * len(right)
    if len(right) == 1:
        right = right * len(left)
    if len(left) != len(right):
        raise error("MATLAB:dimagree", "Matrix dimensions must agree.")
    flags = [x is y for x, y in zip(left, right, strict=True)]
    return flags[0] if len(flags) == 1 else np.array([flags], dtype=bool)


def _negate(flags: Any) -> Any:
    return (not flags) if isinstance(flags, bool) else ~flags


# ---------------------------------------------------------------- common properties


def _handles_value(items: list[GraphicsHandle]) -> Any:
    """A list of handles as a MATLAB value: a handle, a column array, or an empty one."""
    if not items:
        return GraphicsArray([], (0, 1))
    return simplify(items, (len(items), 1))


def _set_visible(h: GraphicsHandle, value: Any) -> Any:
    flag = pv.on_off(value, "Visible")
    if h.artist is not None and hasattr(h.artist, "set_visible"):
        h.artist.set_visible(flag)
    return pv.on_off_value(flag)


def set_display_name(h: GraphicsHandle, value: Any) -> Any:
    """DisplayName setter of plotted objects: a legend showing h takes the new name too."""
    name = char_row(pv.text_value(value, "DisplayName"))
    h.stored["DisplayName"] = name
    axes = h.axes()
    if axes is not None and axes.legend is not None and axes.legend.valid:
        axes.legend.rename(h, pv.text_value(name, "DisplayName"))
    return name


def _text_stored(name: str) -> Callable[[Any, Any], Any]:
    return lambda h, v: char_row(pv.text_value(v, name))


define_properties(GraphicsHandle, {
    "Type": Prop(get=lambda h: char_row(h.type_name)),
    "Parent": Prop(get=lambda h: h.parent if h.parent is not None else GraphicsArray([], (0, 0))),
    "Children": Prop(get=lambda h: _handles_value(list(reversed(h.children)))),
    "Tag": Prop(set=_text_stored("Tag"), default=char_row("")),
    "UserData": Prop(set=lambda h, v: v, default=np.zeros((0, 0))),
    "Visible": Prop(set=_set_visible, default=char_row("on")),
    "HandleVisibility": Prop(set=lambda h, v: char_row(pv.choice(v, "HandleVisibility",
                                                                  ("on", "off", "callback"))),
                             default=char_row("on")),
    "BeingDeleted": Prop(get=lambda h: char_row("off")),
})


# ---------------------------------------------------------------- text


def mpl_text(text: str, interpreter: str) -> str:
    """A MATLAB text as matplotlib draws it, with its Interpreter ('tex', 'latex',
    'none'): see ``text_markup``."""
    from mlang.builtins.graphics.text_markup import mpl_text as convert  # (a module of this package)

    return convert(text, interpreter)


class Text(GraphicsHandle):
    """A text object: a title, an axis label, or text placed in the axes (``text``)."""

    matlab_class = "matlab.graphics.primitive.Text"
    display_name = "Text"
    type_name = "text"
    display_order = ("String", "FontSize", "FontWeight", "FontName", "Color",
                     "HorizontalAlignment", "Position", "Units", "Interpreter")

    def apply_text(self) -> None:
        """Draw the String with the Interpreter (after either changes)."""
        text = pv.text_value(self.get_value("String"), "String")
        interpreter = pv.text_value(self.get_value("Interpreter"), "Interpreter")
        if self.artist is not None:
            self.artist.set_text(mpl_text(text, interpreter))


def _set_string(h: Text, value: Any) -> Any:
    pv.text_value(value, "String")  # checked
    h.stored["String"] = value
    h.apply_text()
    return value


def _set_interpreter(h: Text, value: Any) -> Any:
    h.stored["Interpreter"] = char_row(pv.choice(value, "Interpreter", ("tex", "latex", "none")))
    h.apply_text()
    return h.stored["Interpreter"]


def _artist_setter(name: str, read: Callable[[Any, str], Any], method: str,
                   shown: Callable[[Any], Any] = lambda v: v) -> Callable[[Any, Any], Any]:
    """A setter that reads the MATLAB value with ``read(value, name)``, calls
    ``artist.<method>(value)`` and keeps ``shown(value)``."""

    def set_value(h: GraphicsHandle, value: Any) -> Any:
        parsed = read(value, name)
        if h.artist is not None:
            getattr(h.artist, method)(parsed)
        return shown(parsed)

    return set_value


def _text_position(h: Text) -> Any:
    if h.artist is None:
        return np.zeros((1, 3))
    x, y = h.artist.get_position()
    return np.array([[float(x), float(y), 0.0]])


def _set_text_position(h: Text, value: Any) -> Any:
    data = pv.real_vector(value, "Position", finite=True)
    if data.size not in (2, 3):
        raise pv.bad_value("Position", "Value must be a 2- or 3-element vector.")
    if h.artist is not None:
        h.artist.set_position((data[0], data[1]))
    return None


def _set_color(h: GraphicsHandle, value: Any) -> Any:
    color = pv.parse_color(value, "Color")
    if h.artist is not None:
        h.artist.set_color(pv.mpl_color(color))
    return pv.color_value(color)


define_properties(Text, {
    "String": Prop(set=_set_string, default=char_row("")),
    "Interpreter": Prop(set=_set_interpreter, default=char_row("tex")),
    "FontSize": Prop(set=_artist_setter("FontSize", pv.positive_number, "set_fontsize"), default=10.0),
    "FontWeight": Prop(set=lambda h, v: _text_choice(h, v, "FontWeight", ("normal", "bold"),
                                                     "set_fontweight"), default=char_row("normal")),
    "FontAngle": Prop(set=lambda h, v: _text_choice(h, v, "FontAngle", ("normal", "italic"),
                                                    "set_fontstyle"), default=char_row("normal")),
    "FontName": Prop(set=lambda h, v: char_row(pv.text_value(v, "FontName")), default=char_row("Helvetica")),
    "Color": Prop(set=_set_color, default=lambda h: np.array([[0.0, 0.0, 0.0]])),
    "Position": Prop(get=_text_position, set=_set_text_position),
    "Units": Prop(set=lambda h, v: char_row(pv.choice(v, "Units", ("data", "normalized", "pixels",
                                                                   "points", "inches", "centimeters"))),
                  default=char_row("data")),
    "HorizontalAlignment": Prop(set=lambda h, v: _text_choice(h, v, "HorizontalAlignment",
                                                              ("left", "center", "right"), "set_ha"),
                                default=char_row("left")),
    "VerticalAlignment": Prop(set=lambda h, v: _text_choice(
        h, v, "VerticalAlignment", ("middle", "top", "bottom", "baseline", "cap"), "set_va"),
        default=char_row("middle")),
    "Rotation": Prop(set=_artist_setter("Rotation", pv.real_number, "set_rotation"), default=0.0),
})

_MPL_ALIGN = {"middle": "center", "cap": "top"}


def _text_choice(h: GraphicsHandle, value: Any, name: str, allowed: tuple[str, ...], method: str) -> Any:
    word = pv.choice(value, name, allowed)
    if h.artist is not None:
        getattr(h.artist, method)(_MPL_ALIGN.get(word, word) if name == "VerticalAlignment" else word)
    return char_row(word)


class GraphicsPlaceholder(GraphicsHandle):
    """An empty slot of a graphics array (``gobjects``, or a gap left by growing one)."""

    matlab_class = "matlab.graphics.GraphicsPlaceholder"
    display_name = "GraphicsPlaceholder"
    type_name = "placeholder"

    def __init__(self, parent: GraphicsHandle | None = None) -> None:
        super().__init__(None)

    def display_properties(self) -> list[tuple[str, Any]]:
        return []
