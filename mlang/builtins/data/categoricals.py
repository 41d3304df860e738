"""Categorical arrays: the categorical constructor, the functions of categories
(categories, countcats, addcats, removecats, renamecats, reordercats, mergecats,
setcats, iscategory, isundefined...), and the categorical forms of library
functions (double, cellstr, unique, sort, ismember, isequal, min, max...), which
``mlang.values.categorical`` calls when an argument is categorical."""

from __future__ import annotations

from typing import Any

import numpy as np

from mlang.builtins.coerce import dim_argument, option_flag, split_options, text_option
from mlang.errors import error
from mlang.registry import BUILTINS, builtin
from mlang.values.categorical import (
    FORMS,
    UNDEFINED,
    CategoricalArray,
    merged_categories,
    text_values,
)
from mlang.values.cell import Cell
from mlang.values.core import char_matrix, char_row, class_of, result
from mlang.values.string import StringArray

NUMBER_CLASSES = ("double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                  "int64", "uint64", "logical")
OPTIONS = ("Ordinal", "Protected")


def _array(v: Any, function: str) -> CategoricalArray:
    """The categorical argument of a categorical method (MATLAB finds no such function for
    another class of value)."""
    if type(v) is not CategoricalArray:
        raise error("MATLAB:UndefinedFunction",
                    f"Undefined function '{function}' for input arguments of type '{class_of(v)}'.")
    return v


def _cellstr_column(names: list[str]) -> Cell:
    data = np.empty((len(names), 1), dtype=object)
    for k, n in enumerate(names):
        data[k, 0] = char_row(n)
    return Cell(data)


def _names_argument(v: Any, what: str = "Category names") -> list[str]:
    """Category names given as text (a char row, cellstr or string array) or a categorical."""
    if type(v) is CategoricalArray:
        return [n for n in v.element_names().ravel(order="F") if n is not None]
    texts = text_values(v)
    if texts is None:
        raise error("MATLAB:categorical:InvalidNames",
                    f"{what} must be a character vector, a string array, or a cell array of "
                    f"character vectors.")
    names = texts[0]
    if any(n is None for n in names):
        raise error("MATLAB:categorical:EmptyNames", f"{what} must not be empty or missing.")
    if UNDEFINED in names:
        raise error("MATLAB:categorical:UndefinedLabel",
                    f"Unable to use '{UNDEFINED}' as a category name.")
    return names  # type: ignore[return-value]


# ------------------------------------------------------------ the constructor


def number_name(x: float) -> str:
    """A numeric value's category name, in num2str's short form."""
    if not np.isfinite(x):
        return "NaN" if x != x else ("Inf" if x > 0 else "-Inf")
    if float(x).is_integer():
        return str(int(x))
    digits = max(int(np.floor(np.log10(abs(x)))) + 5, 5)
    return f"{x:.{digits}g}"


def _number_values(a: Any) -> tuple[np.ndarray, bool]:
    """The numbers of a numeric or logical input (NaN: undefined), and whether logical."""
    cls = class_of(a)
    if cls not in NUMBER_CLASSES:
        raise error("MATLAB:categorical:InvalidData",
                    "Input data must be a numeric, logical, string, or categorical array, or a "
                    "cell array of character vectors.")
    data = np.asarray(a)
    if data.dtype.kind == "c":
        raise error("MATLAB:categorical:ComplexData", "Complex input data is not supported.")
    values = np.atleast_2d(data.astype(np.float64))
    return values, cls == "logical"


def _number_codes(values: np.ndarray, keys: np.ndarray, key_codes: list[int]) -> np.ndarray:
    """The code of each number: that of the equal key, 0 for NaN or a number no key has."""
    codes = np.zeros(values.size, dtype=np.uint32)
    if keys.size == 0:
        return codes
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    spot = np.clip(np.searchsorted(ordered, values), 0, keys.size - 1)
    found = ordered[spot] == values  # NaN never equals a key
    codes[found] = np.array(key_codes, dtype=np.uint32)[order][spot[found]]
    return codes


@builtin()
def categorical(a: Any = None, *args: Any) -> CategoricalArray:
    """categorical  Array of values from a finite set of named categories.

    C = categorical(A) makes a categorical array from A (numbers, logical values,
    a char array, a cell array of character vectors or a string array): its
    categories are the sorted unique values of A. NaN, missing strings and empty
    text give <undefined> elements; blanks at either end of text are removed.
    C = categorical(A, valueset) has one category for each value of valueset, in
    that order; values of A not in valueset are undefined.
    C = categorical(A, valueset, catnames) names those categories catnames.
    C = categorical(..., 'Ordinal', true) makes the categories ordered (and
    protected); 'Protected', true keeps assignment from adding categories."""
    positional, given = split_options(list(args), OPTIONS)
    if len(positional) > 2:
        raise error("MATLAB:TooManyInputs", "Too many input arguments.")
    ordinal = option_flag(given["Ordinal"], "Ordinal") if "Ordinal" in given else None
    protected = option_flag(given["Protected"], "Protected") if "Protected" in given else None
    if a is None:
        return CategoricalArray(np.zeros((0, 0), dtype=np.uint32), [], bool(ordinal), bool(protected))
    if type(a) is CategoricalArray:
        ordinal = a.ordinal if ordinal is None else ordinal
        protected = (a.protected if "Ordinal" not in given else None) if protected is None else protected
        a_names: list[str | None] = list(a.element_names().ravel(order="F"))
        shape = a.codes.shape
        values: Any = a_names
        text_input = True
    else:
        texts = text_values(a)
        text_input = texts is not None
        if texts is not None:
            values, shape = texts
        else:
            numbers, is_logical = _number_values(a)
            shape = numbers.shape
            values = numbers.ravel(order="F")
    if ordinal and protected is False:
        raise error("MATLAB:categorical:UnprotectedOrdinal",
                    "Ordinal categorical arrays must be protected.")
    # the values that make categories, and their names
    if positional:
        valueset = positional[0]
        if text_input:
            keys = _names_argument(valueset, "VALUESET")
        else:
            if class_of(valueset) not in NUMBER_CLASSES:
                raise error("MATLAB:categorical:ValuesetClassMismatch",
                            "VALUESET must be of the same type as the input data.")
            keys = list(np.asarray(valueset, dtype=np.float64).ravel(order="F"))
        if len(set(keys)) != len(keys):
            raise error("MATLAB:categorical:DuplicatedValues", "VALUESET must contain unique values.")
    elif text_input:
        keys = sorted({n for n in values if n is not None})
    else:
        keys = np.unique(values[~np.isnan(values)]).tolist()
    if len(positional) == 2:
        catnames = _names_argument(positional[1], "CATEGORYNAMES")
        if len(catnames) != len(keys):
            raise error("MATLAB:categorical:WrongNumCategoryNames",
                        "CATEGORYNAMES must have the same number of elements as VALUESET.")
    elif text_input:
        catnames = list(keys)
    elif not positional and is_logical:  # type: ignore[possibly-undefined]
        catnames = ["true" if k else "false" for k in keys]
    else:
        catnames = [number_name(k) for k in keys]
    # equal names merge their values into one category
    names = list(dict.fromkeys(catnames))
    position = {n: k + 1 for k, n in enumerate(names)}
    key_codes = [position[n] for n in catnames]
    if text_input:
        code_of = dict(zip(keys, key_codes, strict=True))
        flat = np.array([0 if v is None else code_of.get(v, 0) for v in values], dtype=np.uint32)
    else:
        flat = _number_codes(values, np.array(keys, dtype=np.float64), key_codes)
    codes = flat.reshape(shape, order="F")
    return CategoricalArray(codes, names, bool(ordinal), bool(protected))


@builtin()
def iscategorical(x: Any) -> bool:
    """iscategorical  True for a categorical array.

    tf = iscategorical(A) is true when A is a categorical array."""
    return type(x) is CategoricalArray


@builtin()
def isordinal(x: Any) -> bool:
    """isordinal  True for an ordinal categorical array.

    tf = isordinal(A) is true when the categorical array A has ordered categories."""
    return _array(x, "isordinal").ordinal


@builtin()
def isprotected(x: Any) -> bool:
    """isprotected  True when the categories of a categorical array are protected.

    tf = isprotected(A) is true when assigning or concatenating values cannot add
    categories to A."""
    return _array(x, "isprotected").protected


@builtin()
def isundefined(x: Any) -> np.ndarray:
    """isundefined  Undefined elements of a categorical array.

    tf = isundefined(A) is a logical array of A's size, true where A is
    <undefined>."""
    return _array(x, "isundefined").codes == 0


@builtin()
def iscategory(x: Any, names: Any) -> Any:
    """iscategory  True for names of categories of a categorical array.

    tf = iscategory(A, catnames) is true for each name in catnames that is a
    category of A (whether or not an element of A has it); tf has catnames' size."""
    c = _array(x, "iscategory")
    texts = text_values(names)
    if texts is None:
        raise error("MATLAB:categorical:InvalidNames",
                    "CATEGORYNAMES must be a character vector, a string array, or a cell array "
                    "of character vectors.")
    flat, shape = texts
    known = set(c.names)
    return result(np.array([n in known for n in flat], dtype=bool).reshape(shape, order="F"))


@builtin()
def categories(x: Any, *options: Any) -> Any:
    """categories  Categories of a categorical array.

    C = categories(A) is a cell array column of A's category names, in A's
    order of categories (all of them, present in A's elements or not).
    C = categories(A, 'OutputType', type) gives them as 'cell' (the default),
    'string', 'char' or 'categorical'."""
    c = _array(x, "categories")
    _, given = split_options(list(options), ("OutputType",))
    kind = text_option(given.get("OutputType", char_row("cell"))) or ""
    if kind == "string":
        data = np.empty((len(c.names), 1), dtype=object)
        data[:, 0] = c.names
        return StringArray(data)
    if kind == "char":
        return char_matrix(c.names) if c.names else np.zeros((0, 0), dtype=char_row("").dtype)
    if kind == "categorical":
        codes = np.arange(1, len(c.names) + 1, dtype=np.uint32).reshape(-1, 1)
        return CategoricalArray(codes, c.names, c.ordinal, c.protected)
    if kind != "cell":
        raise error("MATLAB:categorical:categories:InvalidOutputType",
                    "OutputType must be 'cell', 'string', 'char' or 'categorical'.")
    return _cellstr_column(c.names)


def _first_dim(shape: tuple[int, ...]) -> int:
    return next((k for k, n in enumerate(shape) if n != 1), 0)


@builtin()
def countcats(x: Any, dim: Any = None) -> Any:
    """countcats  Number of elements in each category of a categorical array.

    N = countcats(A) counts the elements of each category along the first
    dimension of A whose size is not 1 (for a vector, one count a category).
    N = countcats(A, dim) counts along dimension dim. Undefined elements are not
    counted."""
    c = _array(x, "countcats")
    axis = _first_dim(c.codes.shape) if dim is None else dim_argument(dim)
    codes = c.codes
    if axis >= codes.ndim:
        codes = codes.reshape(codes.shape + (1,) * (axis + 1 - codes.ndim))
    counts = [np.sum(codes == k + 1, axis=axis, keepdims=True) for k in range(len(c.names))]
    if not counts:
        shape = list(codes.shape)
        shape[axis] = 0
        return np.zeros(shape)
    return result(np.concatenate(counts, axis=axis).astype(np.float64))


# ------------------------------------------------------------ changing categories


def _rebuilt(c: CategoricalArray, names: list[str], mapping: list[int]) -> CategoricalArray:
    """``c`` over new categories: mapping[k] is the new code of old code k (0: undefined)."""
    table = np.array(mapping, dtype=np.uint32)
    return CategoricalArray(table[c.codes.astype(np.intp)], names, c.ordinal, c.protected)


def _check_known(c: CategoricalArray, names: list[str], function: str) -> None:
    for n in names:
        if n not in c.names:
            raise error(f"MATLAB:categorical:{function}:InvalidCategoryName" if function else
                        "MATLAB:categorical:InvalidCategoryName",
                        f"'{n}' is not a category of the categorical array.")


@builtin()
def addcats(x: Any, newcats: Any, *options: Any) -> CategoricalArray:
    """addcats  Add categories to a categorical array.

    B = addcats(A, newcats) appends the names newcats to A's categories (no
    element changes). B = addcats(A, newcats, 'Before', where) or
    (..., 'After', where) puts them before or after the category where."""
    c = _array(x, "addcats")
    new = _names_argument(newcats, "NEWCATEGORIES")
    clash = [n for n in new if n in c.names]
    if clash or len(set(new)) != len(new):
        raise error("MATLAB:categorical:addcats:DuplicatedCatNames",
                    f"The category '{(clash or new)[0]}' is already a category of the categorical "
                    f"array, or is given twice.")
    _, given = split_options(list(options), ("Before", "After"))
    if len(given) > 1:
        raise error("MATLAB:categorical:addcats:BeforeAndAfter",
                    "Specify either 'Before' or 'After', not both.")
    if c.ordinal and not given:
        raise error("MATLAB:categorical:addcats:NoBeforeOrAfter",
                    "Specify where to add categories to an ordinal categorical array, with "
                    "'Before' or 'After'.")
    position = len(c.names)
    for side, where in given.items():
        anchor = _names_argument(where, side)
        if len(anchor) != 1:
            raise error("MATLAB:categorical:addcats:InvalidPosition",
                        f"'{side}' must name one category.")
        _check_known(c, anchor, "addcats")
        position = c.names.index(anchor[0]) + (side == "After")
    names = c.names[:position] + new + c.names[position:]
    mapping = [0] + [names.index(n) + 1 for n in c.names]
    return _rebuilt(c, names, mapping)


@builtin()
def removecats(x: Any, oldcats: Any = None) -> CategoricalArray:
    """removecats  Remove categories from a categorical array.

    B = removecats(A) removes the categories no element of A has.
    B = removecats(A, oldcats) removes the categories oldcats: elements of those
    categories become <undefined>."""
    c = _array(x, "removecats")
    if oldcats is None:
        used = set(np.unique(c.codes).tolist())
        drop = {n for k, n in enumerate(c.names) if k + 1 not in used}
    else:
        drop = set(_names_argument(oldcats, "OLDCATEGORIES"))
    names = [n for n in c.names if n not in drop]
    mapping = [0] + [0 if n in drop else names.index(n) + 1 for n in c.names]
    return _rebuilt(c, names, mapping)


@builtin()
def renamecats(x: Any, first: Any, second: Any = None) -> CategoricalArray:
    """renamecats  Rename categories of a categorical array.

    B = renamecats(A, newnames) renames all categories of A, in order.
    B = renamecats(A, oldnames, newnames) renames the categories oldnames."""
    c = _array(x, "renamecats")
    if second is None:
        old, new = list(c.names), _names_argument(first, "NEWNAMES")
    else:
        old, new = _names_argument(first, "OLDNAMES"), _names_argument(second, "NEWNAMES")
        _check_known(c, old, "renamecats")
    if len(old) != len(new):
        raise error("MATLAB:categorical:renamecats:IncorrectNumNames",
                    "The number of new category names must equal the number of categories to "
                    "rename.")
    rename = dict(zip(old, new, strict=True))
    names = [rename.get(n, n) for n in c.names]
    if len(set(names)) != len(names):
        raise error("MATLAB:categorical:renamecats:DuplicateNames",
                    "New category names must be unique and differ from the other categories.")
    return CategoricalArray(c.codes, names, c.ordinal, c.protected)


@builtin()
def reordercats(x: Any, neworder: Any = None) -> CategoricalArray:
    """reordercats  Reorder the categories of a categorical array.

    B = reordercats(A) puts A's categories in alphabetical order.
    B = reordercats(A, neworder) puts them in the order neworder gives: all the
    category names, or the numbers 1..N in a new order."""
    c = _array(x, "reordercats")
    if neworder is None:
        names = sorted(c.names)
    elif class_of(neworder) in NUMBER_CLASSES:
        picks = np.asarray(neworder, dtype=np.float64).ravel()
        if sorted(picks.tolist()) != list(range(1, len(c.names) + 1)):
            raise error("MATLAB:categorical:reordercats:InvalidNeworder",
                        "NEWORDER must be a permutation of the categories of the array.")
        names = [c.names[int(k) - 1] for k in picks]
    else:
        names = _names_argument(neworder, "NEWORDER")
        if sorted(names) != sorted(c.names):
            raise error("MATLAB:categorical:reordercats:InvalidNeworder",
                        "NEWORDER must be a permutation of the categories of the array.")
    mapping = [0] + [names.index(n) + 1 for n in c.names]
    return _rebuilt(c, names, mapping)


@builtin()
def mergecats(x: Any, oldcats: Any, newcat: Any = None) -> CategoricalArray:
    """mergecats  Merge categories of a categorical array.

    B = mergecats(A, oldcats) merges the categories oldcats into the first of
    them. B = mergecats(A, oldcats, newcat) merges them into one category named
    newcat."""
    c = _array(x, "mergecats")
    old = _names_argument(oldcats, "OLDCATEGORIES")
    _check_known(c, old, "mergecats")
    if newcat is not None and text_values(newcat) is not None and text_values(newcat)[0] == [UNDEFINED]:
        raise error("MATLAB:categorical:mergecats:UndefinedLabel",
                    f"Unable to use '{UNDEFINED}' as a category name.")
    target = old[0] if newcat is None else _names_argument(newcat, "NEWCATEGORY")[0]
    if c.ordinal:
        spots = sorted(c.names.index(n) for n in old)
        if spots != list(range(spots[0], spots[0] + len(spots))):
            raise error("MATLAB:categorical:mergecats:NonconsecutiveCategories",
                        "Categories of an ordinal categorical array must be consecutive to merge.")
    names: list[str] = []
    for n in c.names:
        name = target if n in old else n
        if name not in names:
            names.append(name)
        elif n not in old:
            raise error("MATLAB:categorical:mergecats:DuplicateName",
                        f"The new category name '{name}' is already a category.")
    mapping = [0] + [names.index(target if n in old else n) + 1 for n in c.names]
    return _rebuilt(c, names, mapping)


@builtin()
def setcats(x: Any, newcats: Any) -> CategoricalArray:
    """setcats  Set the categories of a categorical array.

    B = setcats(A, newcats) gives A the categories newcats: elements whose
    category is not among them become <undefined>."""
    c = _array(x, "setcats")
    names = _names_argument(newcats, "NEWCATEGORIES")
    if len(set(names)) != len(names):
        raise error("MATLAB:categorical:setcats:DuplicatedCatNames",
                    "NEWCATEGORIES must contain unique names.")
    mapping = [0] + [names.index(n) + 1 if n in names else 0 for n in c.names]
    return _rebuilt(c, names, mapping)


@builtin(interp=True)
def summary(interp: Any, x: Any) -> None:
    """summary  Print the number of elements in each category of a categorical array.

    summary(A) lists each category of the vector A with the number of its
    elements (and the number of undefined elements, when there are any)."""
    c = _array(x, "summary")
    rows = [(n, int(np.sum(c.codes == k + 1))) for k, n in enumerate(c.names)]
    undefined = int(np.sum(c.codes == 0))
    if undefined:
        rows.append((UNDEFINED, undefined))
    if not rows:
        return None
    is_row = c.codes.ndim == 2 and c.codes.shape[0] == 1 and c.codes.size > 1
    if is_row:
        widths = [max(len(n), len(str(k))) for n, k in rows]
        lines = ["".join("     " + n.ljust(w) + " " for (n, _), w in zip(rows, widths, strict=True)),
                 "".join("     " + str(k).ljust(w) + " " for (_, k), w in zip(rows, widths, strict=True))]
    else:
        w = max(len(n) for n, _ in rows)
        cw = max(len(str(k)) for _, k in rows)
        lines = [f"     {n.ljust(w)}      {str(k).rjust(cw)} " for n, k in rows]
    interp.write("".join(line + "\n" for line in lines))
    return None


# ------------------------------------------------------------ forms of library functions


def _codes_as(cls: str) -> Any:
    def form(interp: Any, args: list, nargout: int) -> list:
        if len(args) != 1:
            raise error("MATLAB:TooManyInputs", "Too many input arguments.")
        c = args[0]
        if cls in ("double", "single"):
            out = c.float_codes().astype(np.float32 if cls == "single" else np.float64)
            return [result(out)]
        return [result(BUILTINS[cls].invoke(interp, [c.codes.astype(np.float64)], 1)[0])]
    return form


for _cls in NUMBER_CLASSES[:-1]:
    FORMS[_cls] = _codes_as(_cls)


def _logical_form(interp: Any, args: list, nargout: int) -> list:
    raise error("MATLAB:invalidConversion", "Conversion to logical from categorical is not possible.")


def _texts(c: CategoricalArray) -> list[str]:
    return c.element_texts()


def _cellstr_form(interp: Any, args: list, nargout: int) -> list:
    c = args[0]
    data = np.empty(c.codes.shape, dtype=object)
    flat = [char_row(t) for t in _texts(c)]
    for k, idx in enumerate(np.ndindex(*c.codes.shape[::-1])):
        data[idx[::-1]] = flat[k]
    return [Cell(data)]


def _char_form(interp: Any, args: list, nargout: int) -> list:
    if len(args) != 1 or type(args[0]) is not CategoricalArray:
        return BUILTINS["char"].invoke(interp, [_as_text(a) for a in args], nargout)
    return [char_matrix(_texts(args[0])) if args[0].codes.size else np.zeros((0, 0), char_row("").dtype)]


def _as_text(v: Any) -> Any:
    """A categorical argument as a string array of its names (undefined: missing)."""
    return StringArray(v.element_names()) if type(v) is CategoricalArray else v


def _ismember_form(interp: Any, args: list, nargout: int) -> list:
    a, s = args[0], args[1]
    if type(a) is not CategoricalArray and text_values(a) is None or \
            type(s) is not CategoricalArray and text_values(s) is None:
        raise error("MATLAB:categorical:ismember:TypeMismatch",
                    "A categorical array can be compared only with another categorical array, "
                    "text, or a cell array of character vectors.")
    names = [_as_strings(a), _as_strings(s)]
    return BUILTINS["ismember"].invoke(interp, [*names, *args[2:]], nargout)


def _as_strings(v: Any) -> StringArray:
    if type(v) is CategoricalArray:
        return StringArray(v.element_names())
    flat, shape = text_values(v)  # type: ignore[misc]
    data = np.empty(len(flat), dtype=object)
    data[:] = flat
    return StringArray(data.reshape(shape, order="F"))


def _on_codes(name: str, ordered_only: bool = False) -> Any:
    """A form running the builtin on the codes (NaN: undefined) and giving categorical back."""
    def form(interp: Any, args: list, nargout: int) -> list:
        c = args[0]
        if type(c) is not CategoricalArray or any(type(a) is CategoricalArray for a in args[1:]):
            raise error("MATLAB:categorical:UnsupportedCall",
                        f"{name} takes one categorical array as its first argument.")
        if ordered_only and not c.ordinal:
            raise error("MATLAB:categorical:median:NotOrdinal" if name == "median" else
                        "MATLAB:categorical:NotOrdinal",
                        "Relational comparisons are not allowed for categorical arrays that are "
                        "not ordinal.")
        outputs = BUILTINS[name].invoke(interp, [c.float_codes(), *args[1:]], nargout)
        codes = np.nan_to_num(np.atleast_2d(np.asarray(outputs[0], dtype=np.float64)), nan=0.0)
        outputs[0] = c.like(codes.astype(np.uint32))
        return outputs
    return form


for _name in ("unique", "sort", "mode"):
    FORMS[_name] = _on_codes(_name)
for _name in ("min", "max", "median"):
    FORMS[_name] = _on_codes(_name, ordered_only=True)


def _set_operation(name: str) -> Any:
    """union, intersect, setdiff and setxor: on codes over the merged categories (so results
    follow the order of the categories), the result categorical again."""
    def form(interp: Any, args: list, nargout: int) -> list:
        a, b = args[0], args[1]
        if CategoricalArray not in (type(a), type(b)):
            return NotImplemented  # a categorical only among the options: the builtin decides
        for v in (a, b):
            if type(v) is not CategoricalArray and text_values(v) is None:
                raise error(f"MATLAB:categorical:{name}:TypeMismatch",
                            "A categorical array can be combined only with another categorical "
                            "array, text, or a cell array of character vectors.")
        merged = merged_categories([a, b])
        merged.protected = False
        codes = []
        for v in (a, b):
            raw = merged.codes_for(v, "concatenate")[0]
            x = raw.astype(np.float64)
            x[raw == 0] = np.nan
            codes.append(x)
        outputs = BUILTINS[name].invoke(interp, [*codes, *args[2:]], nargout)
        values = np.nan_to_num(np.atleast_2d(np.asarray(outputs[0], dtype=np.float64)), nan=0.0)
        first = a if type(a) is CategoricalArray else b
        outputs[0] = CategoricalArray(values.astype(np.uint32), merged.names, first.ordinal,
                                      first.protected)
        return outputs
    return form


for _name in ("union", "intersect", "setdiff", "setxor"):
    FORMS[_name] = _set_operation(_name)


def _equality(nan_equal: bool) -> Any:
    """isequal (isequaln with ``nan_equal``) of categoricals."""
    def form(interp: Any, args: list, nargout: int) -> list:
        first = args[0]
        for other in args[1:]:
            if not _equal(first, other, nan_equal):
                return [False]
        return [True]
    return form


def _equal(a: Any, b: Any, nan_equal: bool) -> bool:
    for v in (a, b):
        if type(v) is not CategoricalArray and text_values(v) is None:
            return False
    sa, sb = _as_strings(a).data, _as_strings(b).data
    if sa.shape != sb.shape:
        return False
    for x, y in zip(sa.ravel(), sb.ravel(), strict=True):
        if x is None or y is None:
            if not (nan_equal and x is None and y is None):
                return False
        elif x != y:
            return False
    return True


def _histcounts_form(interp: Any, args: list, nargout: int) -> list:
    c = args[0]
    if type(c) is not CategoricalArray:
        raise error("MATLAB:categorical:histcounts:NonCategoricalX",
                    "The first input must be a categorical array.")
    names = _names_argument(args[1], "Categories") if len(args) > 1 else c.names
    counts = np.array([[float(np.sum(c.codes == c.names.index(n) + 1)) if n in c.names else 0.0
                        for n in names]])
    data = np.empty((1, len(names)), dtype=object)
    for k, n in enumerate(names):
        data[0, k] = char_row(n)
    return [result(counts), Cell(data)][:max(nargout, 1)]


def _ismissing_form(interp: Any, args: list, nargout: int) -> list:
    if len(args) == 1 and type(args[0]) is CategoricalArray:
        return [args[0].codes == 0]
    return NotImplemented


def _string_form(interp: Any, args: list, nargout: int) -> list:
    if len(args) != 1:
        return NotImplemented
    return [StringArray(args[0].element_names())]


def _num2cell_form(interp: Any, args: list, nargout: int) -> list:
    if len(args) != 1:
        return NotImplemented
    c = args[0]
    data = np.empty(c.codes.shape, dtype=object)
    for where in np.ndindex(*c.codes.shape):
        data[where] = c.like(c.codes[where].reshape(1, 1))
    return [Cell(data)]


FORMS.update({
    "num2cell": _num2cell_form,
    "string": _string_form,
    "logical": _logical_form,
    "cellstr": _cellstr_form,
    "char": _char_form,
    "ismember": _ismember_form,
    "isequal": _equality(False),
    "isequaln": _equality(True),
    "histcounts": _histcounts_form,
    "ismissing": _ismissing_form,
})


def names_of(v: Any) -> list[str | None]:
    """The names of a categorical's elements, column-major (None: undefined); for other
    callers that need them (table tools, file writers)."""
    if type(v) is CategoricalArray:
        return list(v.element_names().ravel(order="F"))
    texts = text_values(v)
    return [] if texts is None else texts[0]

