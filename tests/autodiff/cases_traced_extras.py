"""Gradient checks for operations whose randomness or solver needs a fixed setting: dropout
with a fixed random stream, dlode45 on a linear ODE."""

from tests.autodiff.gradcheck import HELPERS, Case, fixed, uniform

HELPERS.update({
    "gc_dropout.m": """function y = gc_dropout(x)
rng(7);
y = dropout(x, 0.3);
end
""",
    "gc_dlode.m": """function y = gc_dlode(y0, p)
y = stripdims(dlode45(@(t, y, theta) -theta .* y + 0.1 * y.^2, [0 0.4], dlarray(y0, 'CB'), p));
end
""",
})

EXTRAS = [
    Case("dropout", "gc_dropout(x1)", fixed((3, 4)), uniform(-1.0, 1.0)),
    Case("dlode45", "gc_dlode(x1, x2)", fixed((2, 3), (2, 1)), uniform(0.3, 0.9), second=False,
         rtol=1e-4, atol=1e-6),
]
CASES: list = []
