"""Text markup of graphics text: MATLAB's 'tex', 'latex' and 'none' interpreters, as
matplotlib's mathtext draws them (no LaTeX installation: ``text.usetex`` stays off).

* 'tex' (MATLAB's default): ``^`` and ``_`` raise or lower the next character or
  ``{group}``; ``\\alpha``-style names give Greek letters and symbols; ``\\bf``, ``\\it``,
  ``\\sl`` and ``\\rm`` change the font to the end of the group; ``\\color``,
  ``\\fontname`` and ``\\fontsize`` are accepted and ignored; ``\\{``, ``\\}``, ``\\_``,
  ``\\^`` and ``\\\\`` are the characters themselves.  Plain text stays plain text.
* 'latex': the ``$...$`` (and ``$$...$$``) parts are mathematics; ``\\textbf{}``,
  ``\\textit{}`` and ``\\mathrm{}``-like commands outside them are kept as fonts.
* 'none': the text as written.

Anything mathtext cannot parse is shown as written, never an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# MATLAB's TeX names drawn as mathtext symbols (the Greek letters and the symbol table
# of the Text Interpreter property); a name outside this set is shown as written.
TEX_SYMBOLS = frozenset("""
alpha beta gamma delta epsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi
rho sigma varsigma tau upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma
Upsilon Phi Psi Omega varpi
forall exists ni cong approx Re Im wp otimes oplus oslash cap cup supseteq supset
subseteq subset int in o rfloor lceil nabla lfloor cdot ldots perp neg prime wedge
times 0 rceil surd mid vee varpi copyright langle rangle sim leq infty clubsuit
diamondsuit heartsuit spadesuit leftrightarrow leftarrow Leftarrow uparrow rightarrow
Rightarrow downarrow circ pm geq propto partial bullet div neq equiv aleph emptyset
Leftrightarrow
""".split())

# Names mathtext spells differently (or lacks): their mathtext form.
_MATHTEXT_NAMES = {"surd": "\u221a", "0": r"\emptyset", "o": r"\o", "copyright": r"\copyright"}
_FONT_SWITCHES = {"bf": "bold", "it": "italic", "sl": "italic", "rm": "normal"}
_IGNORED_WITH_ARGUMENT = ("fontname", "fontsize", "color")


@dataclass
class _Run:
    """A piece of TeX text: plain characters, a symbol, or a raised/lowered group."""

    kind: str  # 'text', 'symbol', 'sup', 'sub'
    text: str = ""
    font: str = "normal"
    parts: list[_Run] = field(default_factory=list)


def mpl_text(text: str, interpreter: str) -> str:
    """A MATLAB text with its Interpreter ('tex', 'latex', 'none') as matplotlib draws it."""
    if interpreter == "none":
        return _escape_plain(text)
    converted = latex_to_mathtext(text) if interpreter == "latex" else tex_to_mathtext(text)
    return converted if parses(converted) else _escape_plain(text)


def _escape_plain(text: str) -> str:
    return text.replace("$", r"\$")


# ---------------------------------------------------------------- tex


def tex_to_mathtext(text: str) -> str:
    """MATLAB's TeX markup as mathtext (each line on its own: a title of several lines)."""
    return "\n".join(_tex_line(line) for line in text.split("\n"))


def _tex_line(text: str) -> str:
    if not any(ch in text for ch in "^_\\{}"):
        return _escape_plain(text)
    runs, _ = _parse_tex(text, 0, "normal", closing=False)
    return _render_runs(runs)


def _parse_tex(text: str, start: int, font: str, closing: bool) -> tuple[list[_Run], int]:
    """The runs of ``text`` from ``start`` to its end, or to the ``}`` closing a group
    (``closing``); the font switches hold to the end of their group."""
    runs: list[_Run] = []
    k = start
    while k < len(text):
        ch = text[k]
        if ch == "}" and closing:
            return runs, k + 1
        if ch == "{":
            inner, k = _parse_tex(text, k + 1, font, closing=True)
            runs += inner
            continue
        if ch in "^_" and k + 1 < len(text):
            inner, k = _script_argument(text, k + 1, font)
            runs.append(_Run("sup" if ch == "^" else "sub", font=font, parts=inner))
            continue
        if ch == "\\" and k + 1 < len(text):
            k, font = _backslash(text, k + 1, font, runs)
            continue
        _add_text(runs, ch, font)
        k += 1
    return runs, k


def _script_argument(text: str, k: int, font: str) -> tuple[list[_Run], int]:
    """What ``^``/``_`` applies to: a ``{group}``, a ``\\name``, or one character."""
    if text[k] == "{":
        return _parse_tex(text, k + 1, font, closing=True)
    if text[k] == "\\" and k + 1 < len(text):
        runs: list[_Run] = []
        k, _ = _backslash(text, k + 1, font, runs)
        return runs, k
    return [_Run("text", text[k], font)], k + 1


def _backslash(text: str, k: int, font: str, runs: list[_Run]) -> tuple[int, str]:
    """A backslash command at ``text[k:]``: a symbol, a font switch, an escaped character
    or an ignored \\color{...}; returns where reading goes on and the font after it."""
    if not text[k].isalnum():
        _add_text(runs, text[k], font)  # \{ \} \_ \^ \\
        return k + 1, font
    match = re.compile(r"[A-Za-z]+|0").match(text, k)
    name = match.group(0) if match else text[k]
    end = k + len(name)
    if name in _FONT_SWITCHES:  # the space ending the command word is not shown
        return end + (1 if text.startswith(" ", end) else 0), _FONT_SWITCHES[name]
    if name in _IGNORED_WITH_ARGUMENT:
        rest = re.compile(r"(\[[^\]]*\])?\{[^}]*\}").match(text, end)
        return (rest.end() if rest else end), font
    if name in TEX_SYMBOLS:
        runs.append(_Run("symbol", _MATHTEXT_NAMES.get(name, "\\" + name), font))
        return end, font
    _add_text(runs, "\\" + name, font)  # not a TeX name: shown as written
    return end, font


def _add_text(runs: list[_Run], text: str, font: str) -> None:
    if runs and runs[-1].kind == "text" and runs[-1].font == font:
        runs[-1].text += text
    else:
        runs.append(_Run("text", text, font))


def _render_runs(runs: list[_Run]) -> str:
    """Plain runs as text (bold and italic ones as math fonts), the others as math."""
    out = []
    for run in runs:
        if run.kind == "text" and run.font == "normal":
            out.append(_escape_plain(run.text))
        else:
            out.append("$" + _math(run) + "$")
    return "".join(out)


_TEXT_ESCAPES = {"{": r"\{", "}": r"\}", "\\": r"\backslash ", "$": r"\$", "%": r"\%", "#": r"\#",
                 "_": r"\_", "^": r"\^{}"}


def _math(run: _Run) -> str:
    """One run in math mode."""
    if run.kind == "symbol":
        return run.text
    if run.kind in ("sup", "sub"):
        inner = "".join(_math(part) for part in run.parts) or r"\;"
        return ("^{" if run.kind == "sup" else "_{") + inner + "}"
    if run.font == "normal":
        escaped = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in run.text)
        return r"\text{" + escaped + "}"
    command = r"\mathbf" if run.font == "bold" else r"\mathit"
    escaped = "".join(r"\ " if ch == " " else _TEXT_ESCAPES.get(ch, ch) for ch in run.text)
    return command + "{" + escaped + "}"


# ---------------------------------------------------------------- latex

_LATEX_FONTS = {r"\textbf": r"\mathbf", r"\textit": r"\mathit", r"\textrm": r"\mathrm",
                r"\texttt": r"\mathtt", r"\emph": r"\mathit"}
# LaTeX commands mathtext lacks, and what it draws instead.
_LATEX_SPELLINGS = [(r"\displaystyle", ""), (r"\textstyle", ""), (r"\dfrac", r"\frac"),
                    (r"\tfrac", r"\frac"), (r"\mbox", r"\text"), (r"\bigl", ""), (r"\bigr", ""),
                    (r"\Bigl", ""), (r"\Bigr", ""), (r"\limits", ""), (r"\nolimits", "")]


def latex_to_mathtext(text: str) -> str:
    """LaTeX markup as mathtext: the ``$...$`` parts as they are (``$$`` as ``$``), font
    commands outside them as math fonts, other text as text."""
    text = text.replace("$$", "$")
    for name, replacement in _LATEX_SPELLINGS:
        text = re.sub(re.escape(name) + r"(?![A-Za-z])", lambda _m, r=replacement: r, text)
    pieces = re.split(r"(?<!\\)\$", text)
    if len(pieces) % 2 == 0:  # an unmatched $: shown as written
        return _escape_plain(text)
    out = []
    for k, piece in enumerate(pieces):
        if k % 2:
            out.append("$" + piece + "$" if piece.strip() else "")
        else:
            out.append(_latex_text(piece))
    return "".join(out)


def _latex_text(piece: str) -> str:
    """Text outside mathematics: \\textbf{...}-like commands become math fonts, the
    escaped characters themselves."""
    pattern = "(" + "|".join(re.escape(k) for k in _LATEX_FONTS) + r")\{([^{}$]*)\}"
    out = []
    last = 0
    for match in re.finditer(pattern, piece):
        out.append(_latex_plain(piece[last:match.start()]))
        inner = "".join(r"\ " if ch == " " else _TEXT_ESCAPES.get(ch, ch) for ch in match.group(2))
        out.append("$" + _LATEX_FONTS[match.group(1)] + "{" + inner + "}$")
        last = match.end()
    out.append(_latex_plain(piece[last:]))
    return "".join(out)


def _latex_plain(text: str) -> str:
    for escaped, plain in ((r"\%", "%"), (r"\&", "&"), (r"\#", "#"), (r"\_", "_"), ("\\\\", "\n")):
        text = text.replace(escaped, plain)
    return text


# ---------------------------------------------------------------- checking


@lru_cache(maxsize=512)
def parses(text: str) -> bool:
    """Whether mathtext can draw ``text`` (plain text always can)."""
    if "$" not in text.replace(r"\$", ""):
        return True
    from matplotlib.mathtext import MathTextParser  # matplotlib on first use: keeps start-up fast

    try:
        MathTextParser("path").parse(text)
        return True
    except ValueError:
        return False
