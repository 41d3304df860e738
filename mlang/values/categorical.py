"""MATLAB's categorical arrays: values from a finite list of named categories.

A categorical array holds one code an element (``codes``, unsigned integers,
0 for ``<undefined>``, k for the k-th category) and the list of category
names; ``ordinal`` arrays have a mathematical order of their categories (and
are always protected), ``protected`` arrays never gain categories by
assignment or concatenation.

Indexing, deletion and growth reuse the plain-array machinery on the codes
(a grown array's gaps are undefined).  Text assigned, concatenated or compared
names a category; a new name becomes a new category unless the array is
protected.  The library functions that have a categorical form (categories,
countcats, unique, ismember, double...) live in
``mlang.builtins.data.categoricals``, which registers them in ``FORMS``; the
functions that only move elements (reshape, repmat, permute...) run here on
the codes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mlang.errors import error
from mlang.values.cell import Cell
from mlang.values.concat import cat
from mlang.values.core import char_rows, class_of
from mlang.values.indexing import assign, index
from mlang.values.layout import column_blocks, paged_lines
from mlang.values.objects import MatlabObject
from mlang.values.operators import binary
from mlang.values.string import StringArray

TIMES = "\u00d7"
UNDEFINED = "<undefined>"
ELEMENT_LEAD = "     "  # five blanks before each element, one after, as MATLAB shows them
COMPARISONS = ("==", "~=", "<", "<=", ">", ">=")
ORDERINGS = ("<", "<=", ">", ">=")
OPERATOR_NAMES = {"+": "plus", "-": "minus", ".*": "times", "*": "mtimes", "./": "rdivide",
                  "/": "mrdivide", ".\\": "ldivide", "\\": "mldivide", ".^": "power",
                  "^": "mpower", "&": "and", "|": "or"}

# Builtin name -> its categorical form ``form(interp, args, nargout) -> outputs``: filled by
# the library module of categorical functions when it loads (the builtins sit above this layer).
FORMS: dict[str, Callable[[Any, list, int], list]] = {}

# Functions that only move elements: run on the codes, the result is categorical again.
MOVES_ELEMENTS = frozenset({
    "reshape", "repmat", "permute", "ipermute", "squeeze", "flip", "fliplr", "flipud",
    "circshift", "rot90", "transpose", "ctranspose", "diag", "tril", "triu",
})


def as_codes(values: object) -> np.ndarray:
    """Float codes (what ``index``/``assign`` return) as the stored unsigned integers."""
    a = np.asarray(values, dtype=np.float64)
    a = a.reshape(1, 1) if a.ndim == 0 else a
    return a.astype(np.uint32)


def is_plain_empty(v: object) -> bool:
    """``[]`` (or any empty numeric array): deletion on assignment, ignored in concatenation."""
    return type(v) is np.ndarray and v.size == 0 and v.dtype.kind in "fiub"


def clean_name(text: str | None) -> str | None:
    """A category name from text: blanks at either end removed; None for missing or empty."""
    if text is None:
        return None
    text = text.strip()
    return text or None


def is_char(v: object) -> bool:
    return type(v) is np.ndarray and v.dtype.kind == "V"


def text_values(v: object) -> tuple[list[str | None], tuple[int, ...]] | None:
    """The names a text value gives (column-major, None: undefined) and the shape they take:
    a char row is one element, a char matrix one element a row; None when ``v`` is not text."""
    if is_char(v):
        if v.ndim == 2 and v.shape[0] == 1 or v.size == 0:  # type: ignore[union-attr]
            return [clean_name("".join(char_rows(v)) if v.size else "")], (1, 1)  # type: ignore[arg-type]
        rows = char_rows(v)  # type: ignore[arg-type]
        return [clean_name(r) for r in rows], (len(rows), 1)
    if type(v) is StringArray:
        return [clean_name(s) for s in v.data.ravel(order="F")], v.data.shape
    if type(v) is Cell and all(is_char(x) and x.shape[0] <= 1 for x in v.data.ravel()):
        items = [clean_name("".join(char_rows(x)) if x.size else "") for x in v.data.ravel(order="F")]
        return items, v.data.shape
    return None


class CategoricalArray(MatlabObject):
    """A categorical array: ``codes`` (uint32, 0 = undefined) index ``names`` from 1."""

    matlab_class = "categorical"
    __slots__ = ("codes", "names", "ordinal", "protected")

    def __init__(self, codes: np.ndarray, names: list[str], ordinal: bool = False,
                 protected: bool = False) -> None:
        self.codes = codes
        self.names = list(names)
        self.ordinal = bool(ordinal)
        self.protected = bool(protected) or self.ordinal

    @property
    def shape(self) -> tuple[int, ...]:
        return self.codes.shape

    def like(self, codes: np.ndarray, names: list[str] | None = None) -> CategoricalArray:
        """An array with this one's categories and flags holding ``codes``."""
        return CategoricalArray(codes, self.names if names is None else names, self.ordinal,
                                self.protected)

    def element_names(self) -> np.ndarray:
        """Each element's category name (None: undefined), as an object array of its shape."""
        table = np.array([None, *self.names], dtype=object)
        return table[self.codes.astype(np.intp)]

    def element_texts(self) -> list[str]:
        """Each element's display text, column-major (``<undefined>`` for undefined)."""
        table = [UNDEFINED, *self.names]
        return [table[c] for c in self.codes.ravel(order="F")]

    def float_codes(self) -> np.ndarray:
        """The codes as float64 with NaN for undefined (comparisons then leave them false)."""
        out = self.codes.astype(np.float64)
        out[self.codes == 0] = np.nan
        return out

    # --------------------------------------------------- converting values

    def codes_for(self, value: object, what: str) -> tuple[np.ndarray, list[str]]:
        """``value`` (categorical or text) as codes into this array's categories, and the
        categories after adding its new names (an error for a protected array)."""
        if type(value) is CategoricalArray:
            if what == "assign" and self.ordinal != value.ordinal:
                raise error("MATLAB:categorical:OrdinalMismatchAssign",
                            "Unable to assign between ordinal and non-ordinal categorical arrays.")
            if self.ordinal and value.ordinal and value.names != self.names:
                raise error("MATLAB:categorical:OrdinalCategoriesMismatch",
                            "Ordinal categorical arrays must have the same sets of categories, "
                            "including their order.")
            names = list(self.names)
            lookup = {n: k + 1 for k, n in enumerate(names)}
            extra = [n for n in value.names if n not in lookup]
            if extra and self.protected and what != "compare":
                self._refuse_new(extra[0], what)
            for n in extra:
                names.append(n)
                lookup[n] = len(names)
            # one table lookup an element: the value's codes renumbered into these categories
            table = np.array([0, *(lookup[n] for n in value.names)], dtype=np.uint32)
            return table[value.codes.astype(np.intp)], names
        texts = text_values(value)
        if texts is None:
            if what == "assign":
                raise error("MATLAB:categorical:InvalidRHS",
                            f"Unable to assign {class_of(value)} values into a categorical "
                            f"array. Assign text or categorical values instead.")
            if what == "compare":
                raise error("MATLAB:categorical:InvalidComparisonTypes",
                            f"Unable to compare a categorical array with a value of class "
                            f"'{class_of(value)}'.")
            raise error("MATLAB:categorical:cat:TypeMismatch",
                        f"Unable to concatenate a categorical array and a value of class "
                        f"'{class_of(value)}'.")
        flat, shape = texts
        names = list(self.names)
        lookup = {n: k + 1 for k, n in enumerate(names)}
        for n in flat:
            if n is None:
                continue
            if n not in lookup:
                if n == UNDEFINED:
                    raise error("MATLAB:categorical:UndefinedLabel",
                                f"Unable to use '{UNDEFINED}' as a category name.")
                if self.protected and what != "compare":
                    self._refuse_new(n, what)
                names.append(n)
                lookup[n] = len(names)
        codes = np.array([0 if n is None else lookup[n] for n in flat], dtype=np.uint32)
        return codes.reshape(shape, order="F"), names

    @staticmethod
    def _refuse_new(name: str, what: str) -> None:
        """The error for a new category ``name`` reaching a protected array."""
        if what == "assign":
            raise error("MATLAB:categorical:ProtectedForAssign",
                        f"Unable to add a new category '{name}' to a protected categorical "
                        f"array. Use ADDCATS to add it first.")
        raise error("MATLAB:categorical:ProtectedForCombination",
                    "Unable to combine a protected categorical array with values whose "
                    "categories it does not have.")

    @staticmethod
    def call_builtin(builtin: Any, interp: Any, args: list, nargout: int) -> Any:
        name = builtin.name
        form = FORMS.get(name)
        if form is not None:
            return form(interp, args, nargout)
        if name == "cat" and _higher_dimension(args):  # [A, B] and [A; B]: concatenate
            return [_stacked(args)]
        first = args[0] if args else None
        if name in MOVES_ELEMENTS and type(first) is CategoricalArray:
            outputs = builtin.invoke(interp, [first.codes.astype(np.float64), *args[1:]], nargout)
            outputs[0] = first.like(as_codes(outputs[0]))
            return outputs
        return NotImplemented

    # ------------------------------------------------------------ indexing

    def subsref_paren(self, args: list) -> CategoricalArray:
        return self.like(as_codes(index(self.codes.astype(np.float64), args)))

    def subsasgn_paren(self, args: list, rhs: Any) -> CategoricalArray:
        data = self.codes.astype(np.float64)
        if is_plain_empty(rhs):
            return self.like(as_codes(assign(data, args, np.zeros((0, 0)))))
        codes, names = self.codes_for(rhs, "assign")
        values = codes.astype(np.float64)
        grown = assign(data, args, float(values[0, 0]) if values.size == 1 else values)
        return self.like(as_codes(grown), names)

    @classmethod
    def assign_into(cls, target: Any, args: list, rhs: Any) -> Any:
        if target is None or is_plain_empty(target):
            empty = rhs.like(np.zeros((0, 0), dtype=np.uint32))
            return empty.subsasgn_paren(args, rhs)
        raise error("MATLAB:invalidConversion",
                    f"Conversion to {class_of(target)} from categorical is not possible.")

    @classmethod
    def concatenate(cls, rows: list[list]) -> Any:
        if not any(type(v) is cls for row in rows for v in row):
            return NotImplemented
        merged = merged_categories([v for row in rows for v in row])
        joined = []
        for row in rows:
            parts = [merged.codes_for(v, "concatenate")[0].astype(np.float64) for v in row
                     if not is_plain_empty(v)]
            if parts:
                joined.append(cat(parts, 1))
        codes = cat(joined, 0) if len(joined) > 1 else joined[0] if joined else np.zeros((0, 0))
        return merged.like(as_codes(codes))

    # ------------------------------------------------------------ operators

    @staticmethod
    def binary_operator(symbol: str, a: Any, b: Any) -> Any:
        ta, tb = type(a), type(b)
        if ta is not CategoricalArray and tb is not CategoricalArray:
            return NotImplemented
        if symbol not in COMPARISONS:
            name = OPERATOR_NAMES.get(symbol, symbol)
            raise error("MATLAB:UndefinedFunction",
                        f"Undefined function '{name}' for input arguments of type 'categorical'.")
        ref = a if ta is CategoricalArray else b
        if symbol in ORDERINGS:
            return _ordering(symbol, a, b, ref)
        # == and ~=: by name, over the union of both operands' categories
        if ta is CategoricalArray and tb is CategoricalArray and (a.ordinal or b.ordinal):
            if a.ordinal != b.ordinal:
                raise error("MATLAB:categorical:OrdinalMismatchComparison",
                            "Unable to compare ordinal and non-ordinal categorical arrays.")
            if a.names != b.names:
                raise error("MATLAB:categorical:OrdinalCategoriesMismatch",
                            "Ordinal categorical arrays must have the same sets of categories, "
                            "including their order.")
        probe = ref.like(ref.codes)
        probe.protected = False
        x_codes, names = probe.codes_for(a, "compare")
        probe.names = names
        y_codes, _ = probe.codes_for(b, "compare")
        x = x_codes.astype(np.float64)
        y = y_codes.astype(np.float64)
        x[x_codes == 0] = np.nan
        y[y_codes == 0] = np.nan
        return binary(symbol, x, y)

    def unary_operator(self, symbol: str) -> Any:
        if symbol in (".'", "'"):
            if self.codes.ndim > 2:
                raise error("MATLAB:transpose:NDArray",
                            "Transpose on ND array is not defined. Use PERMUTE instead.")
            return self.like(self.codes.T.copy())
        name = {"-": "uminus", "+": "uplus", "~": "not"}.get(symbol, symbol)
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{name}' for input arguments of type 'categorical'.")

    def truth(self) -> bool:
        raise error("MATLAB:invalidConversion",
                    "Conversion to logical from categorical is not possible.")

    # ------------------------------------------------------------ text

    def text_elements(self) -> np.ndarray:
        """The elements' texts for ``char``, ``cellstr`` and displays inside cells (an undefined
        element reads ``<undefined>``; ``string`` makes it missing, by its own form)."""
        return np.array(self.element_texts(), dtype=object).reshape(self.codes.shape, order="F")

    # ------------------------------------------------------------ display

    def display_body(self, style: Any, array_lines: Callable[[Any], list]) -> list:
        """``  1×3 categorical array``, a blank line, then the elements."""
        dims = TIMES.join(str(n) for n in self.codes.shape)
        if self.codes.size == 0:
            return [f"  {dims} empty categorical array"]
        head = "  categorical" if self.codes.size == 1 else f"  {dims} categorical array"
        return [head, None, *self.grid_lines(getattr(style, "width", 80))]

    def disp_body(self, style: Any, array_lines: Callable[[Any], list]) -> list:
        return self.grid_lines(getattr(style, "width", 80)) if self.codes.size else []

    def grid_lines(self, width: int = 80) -> list:
        """The elements in columns each as wide as its widest name; an N-D array page by page."""
        texts = np.array(self.element_texts(), dtype=object).reshape(self.codes.shape, order="F")
        return paged_lines(texts, lambda page: _grid(page, width))

    def __repr__(self) -> str:
        return f"CategoricalArray({self.element_texts()}, {self.names})"


def merged_categories(items: list) -> CategoricalArray:
    """An empty array with the categories and flags of the concatenation of ``items``: the
    first categorical's categories, then each new name in the order met."""
    items = [v for v in items if not is_plain_empty(v)]
    first = next(v for v in items if type(v) is CategoricalArray)
    merged = CategoricalArray(np.zeros((0, 0), dtype=np.uint32), first.names, first.ordinal)
    for v in items:
        if v is first:
            continue
        if type(v) is CategoricalArray:
            if v.ordinal != first.ordinal:
                raise error("MATLAB:categorical:OrdinalMismatchConcatenate",
                            "Unable to concatenate ordinal and non-ordinal categorical arrays.")
            if (first.protected and set(v.names) - set(first.names)) or \
                    (v.protected and set(merged.names) - set(v.names)):
                raise error("MATLAB:categorical:ProtectedForCombination",
                            "Unable to combine protected categorical arrays that have different "
                            "categories.")
        else:
            merged.protected = first.protected
        _, names = merged.codes_for(v, "concatenate")
        merged.names = names
        merged.protected = first.ordinal
    merged.protected = first.protected
    return merged


def _grid(texts: np.ndarray, width: int) -> list:
    widths = [max(len(t) for t in texts[:, j]) for j in range(texts.shape[1])]
    cells = [[ELEMENT_LEAD + texts[i, j].ljust(widths[j]) + " " for j in range(texts.shape[1])]
             for i in range(texts.shape[0])]
    return column_blocks(cells, width)


def _ordering(symbol: str, a: Any, b: Any, ref: CategoricalArray) -> Any:
    """``<``, ``<=``, ``>``, ``>=``: only for ordinal arrays, by the order of the categories."""
    for v in (a, b):
        if type(v) is CategoricalArray and not v.ordinal:
            raise error("MATLAB:categorical:NotOrdinal",
                        "Relational comparisons are not allowed for categorical arrays that are "
                        "not ordinal.")
    sides = []
    for v in (a, b):
        if type(v) is CategoricalArray:
            if v.names != ref.names:
                raise error("MATLAB:categorical:OrdinalCategoriesMismatch",
                            "Ordinal categorical arrays must have the same sets of categories, "
                            "including their order.")
            sides.append(v.float_codes())
            continue
        texts = text_values(v)
        if texts is None:
            raise error("MATLAB:categorical:InvalidComparisonTypes",
                        f"Unable to compare a categorical array with a value of class "
                        f"'{class_of(v)}'.")
        flat, shape = texts
        unknown = [n for n in flat if n is not None and n not in ref.names]
        if unknown:
            raise error("MATLAB:categorical:InvalidComparisonCategory",
                        f"Unable to compare: '{unknown[0]}' is not a category of the ordinal "
                        f"categorical array.")
        codes = np.array([np.nan if n is None else ref.names.index(n) + 1 for n in flat])
        sides.append(codes.reshape(shape, order="F"))
    return binary(symbol, sides[0], sides[1])


def _higher_dimension(args: list) -> bool:
    """Whether ``cat(args...)`` joins along a valid dimension beyond the second."""
    dim = args[0] if args else None
    if type(dim) not in (float, np.ndarray) or np.size(dim) != 1 or len(args) < 2:
        return False
    d = np.asarray(dim).reshape(-1)[0]
    return bool(np.isreal(d) and np.isfinite(d) and d == np.floor(d) and 3 <= d <= 64)


def _stacked(args: list) -> Any:
    """``cat(dim, ...)`` along a dimension beyond the second with a categorical among the
    arrays: the codes stacked after giving every array the merged categories."""
    d = int(np.asarray(args[0]).reshape(-1)[0].real)
    arrays = args[1:]
    merged = merged_categories(list(arrays))
    pieces = [merged.codes_for(v, "concatenate")[0].astype(np.float64) for v in arrays
              if not is_plain_empty(v)]
    return merged.like(as_codes(cat(pieces, d - 1)))
