"""Text markup: MATLAB's tex, latex and none interpreters as matplotlib mathtext."""

from __future__ import annotations

import io

import pytest

from mlang.builtins.graphics.text_markup import mpl_text, parses

TEX = [
    ("plain words", "plain words"),
    ("x^2", r"x$^{\text{2}}$"),
    ("x^23", r"x$^{\text{2}}$3"),
    ("y_{max} value", r"y$_{\text{max}}$ value"),
    (r"\alpha + \beta", r"$\alpha$ + $\beta$"),
    (r"\Delta t \leq \infty", r"$\Delta$ t $\leq$ $\infty$"),
    (r"e^{-\alpha t}", r"e$^{\text{-}\alpha\text{ t}}$"),
    (r"x_\alpha", r"x$_{\alpha}$"),
    (r"\bf Bold", r"$\mathbf{Bold}$"),
    (r"{\it slanted} plain", r"$\mathit{slanted}$ plain"),
    (r"\color{red}red \fontsize{14}big", "red big"),
    (r"\color[rgb]{0 .5 .5}teal", "teal"),
    (r"\{x\} a\_b c\^d", "{x} a_b c^d"),
    ("cost: 5$ (50%)", r"cost: 5\$ (50%)"),
    (r"\sqrt{x}", r"\sqrtx"),
    ("trailing_", "trailing_"),
    ("a^2\nb_1", "a$^{\\text{2}}$\nb$_{\\text{1}}$"),
    (r"loss_{train} & \theta", r"loss$_{\text{train}}$ & $\theta$"),
]


@pytest.mark.parametrize(("source", "expected"), TEX)
def test_tex_markup(source, expected):
    assert mpl_text(source, "tex") == expected


LATEX = [
    ("Re$(f(x)) = $ Re$((2+3i)x)$", "Re$(f(x)) = $ Re$((2+3i)x)$"),
    (r"$\frac{a}{b}$", r"$\frac{a}{b}$"),
    (r"$$\sum_{k=1}^n x_k$$", r"$\sum_{k=1}^n x_k$"),
    (r"\textbf{Loss} at $t$", r"$\mathbf{Loss}$ at $t$"),
    (r"\textit{a b}", r"$\mathit{a\ b}$"),
    (r"cost 5\% \& more", "cost 5% & more"),
    (r"$\dfrac{1}{2}\displaystyle$", r"$\frac{1}{2}$"),
    ("unmatched $x", r"unmatched \$x"),
    ("no math at all", "no math at all"),
    (r"$\notacommand{x}$", r"\$\notacommand{x}\$"),
]


@pytest.mark.parametrize(("source", "expected"), LATEX)
def test_latex_markup(source, expected):
    assert mpl_text(source, "latex") == expected


def test_none_shows_the_text_as_written():
    assert mpl_text("$x$ x^2 \\alpha", "none") == r"\$x\$ x^2 \alpha"


def test_every_conversion_parses_and_draws():
    from matplotlib.figure import Figure

    figure = Figure()
    ax = figure.add_subplot()
    for k, (source, _) in enumerate(TEX + LATEX):
        for interpreter in ("tex", "latex", "none"):
            converted = mpl_text(source, interpreter)
            assert parses(converted)
            ax.text(0.1, k / 40, converted)
    figure.savefig(io.BytesIO(), format="png")


def test_interpreter_property_redraws_the_text(g):
    g.run("plot(1:3); t = title('$x^2$'); ax = gca;")
    assert g.get("ax").artist.title.get_text() == r"\$x$^{\text{2}}$\$"
    g.run("t.Interpreter = 'latex';")
    assert g.get("ax").artist.title.get_text() == "$x^2$"
    g.run("t.Interpreter = 'none'; t.String = 'a_b';")
    assert g.get("ax").artist.title.get_text() == "a_b"


def test_labels_with_tex_and_latex_options(g):
    g.run("plot(1:3); xlabel('\\omega_0 (rad/s)'); ylabel('$\\|u\\|_2$', 'Interpreter', 'latex');"
          "legend('\\beta_1');")
    ax = g.value("ax = gca;", "ax").artist
    assert ax.xaxis.label.get_text() == r"$\omega$$_{\text{0}}$ (rad/s)"
    assert ax.yaxis.label.get_text() == r"$\|u\|_2$"
    assert ax.get_legend().get_texts()[0].get_text() == r"$\beta$$_{\text{1}}$"
