"""Values of numeric literals: decimal, imaginary, hexadecimal and binary."""

from __future__ import annotations


def integer_literal(text: str) -> tuple[int, str]:
    """Value and integer class of a ``0x``/``0b`` literal such as ``0xFFs16``.

    Without a suffix the class is the smallest unsigned type that holds the
    digits; ``sN`` reads the bits as two's complement.
    """
    base = 16 if text[1] in "xX" else 2
    digits = text[2:]
    cls = None
    for suffix in ("s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"):
        if digits.endswith(suffix):
            digits = digits[: -len(suffix)]
            cls = ("int" if suffix[0] == "s" else "uint") + suffix[1:]
            break
    bits_needed = len(digits) * (4 if base == 16 else 1)
    value = int(digits, base)
    if cls is None:
        for width in (8, 16, 32, 64):
            if value < 2 ** width:
                cls = f"uint{width}"
                break
        else:
            raise ValueError("Hexadecimal and binary literals must fit in 64 bits.")
        return value, cls
    width = int(cls.lstrip("uint"))
    if bits_needed > width and value >= 2 ** width:
        raise ValueError(f"Too many digits for the literal's type {cls}.")
    if cls.startswith("int") and value >= 2 ** (width - 1):
        value -= 2 ** width
    return value, cls


def number_value(text: str) -> tuple[int | float | complex, str]:
    """Value and class ('double' or an integer class) of a numeric literal."""
    if text[:2] in ("0x", "0X", "0b", "0B"):
        return integer_literal(text)
    if text[-1] in "ijIJ":
        return complex(0.0, float(text[:-1])), "double"
    return float(text), "double"
