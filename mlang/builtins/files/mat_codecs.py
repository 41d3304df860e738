"""Text codecs for reading MAT-file char data one UTF-16 code unit a character.

SciPy decodes char data stored as 16-bit units with a codec named by the caller; these
keep each code unit as one character (surrogates as they are), so a char array read
keeps its size and its code units as MATLAB has them.  Registered with ``codecs`` on
import (the names are mlang's own, so nothing else is affected).
"""

from __future__ import annotations

import codecs

import numpy as np

# The byte order of a file's char data -> the codec reading it one code unit a character.
UNITS_CODECS = {"<": "mlang-utf16le-units", ">": "mlang-utf16be-units"}


def _search_codec(name: str) -> codecs.CodecInfo | None:
    """A codec reading UTF-16 code units one character each (surrogates kept as they are),
    so that a char array read keeps its size and its code units as MATLAB has them."""
    order = next((o for o, codec in UNITS_CODECS.items() if codec.replace("-", "_") == name), None)
    if order is None:
        return None
    unit = np.dtype(f"{order}u2")

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        units = np.frombuffer(bytes(data), dtype=unit)
        return "".join(map(chr, units.tolist())), len(data)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return np.array([ord(c) for c in text], dtype=unit).tobytes(), len(text)

    return codecs.CodecInfo(encode, decode, name=UNITS_CODECS[order])


codecs.register(_search_codec)
