"""Gradient checks for the recurrent operations and attention (lstm, gru, attention).

These functions take dlarrays themselves (their time loops are made of differentiable
operations), so they are EXTRAS: checked first and second order, and in single
precision, but not registered builtins with a gradient rule."""

from __future__ import annotations

from tests.autodiff.gradcheck import HELPERS, Case, fixed, uniform

SMALL = uniform(-1.0, 1.0)

# X (C=2, B=2, T=2), H0 and C0 (H=2), weights 4H-by-C, recurrent weights 4H-by-H, bias 4H
_LSTM = fixed((2, 2, 2), (2, 1), (2, 1), (8, 2), (8, 2), (8, 1))
# X, H0 (H=2, B=2), weights 3H-by-C, recurrent weights 3H-by-H, bias 3H (6H)
_GRU = fixed((2, 2, 2), (2, 2), (6, 2), (6, 2), (6, 1))
_GRU_RECURRENT_BIAS = fixed((2, 2, 2), (2, 2), (6, 2), (6, 2), (12, 1))
# queries (C=4, B=2, Nq=2), keys (C=4, B=2, Nk=3), values (Cv=2, B=2, Nk=3)
_QKV = fixed((4, 2, 2), (4, 2, 3), (2, 2, 3))
_SELF = fixed((2, 2, 3))

CASES: list[Case] = []

EXTRAS: list[Case] = [
    Case("lstm", "stripdims(lstm(dlarray(x1, 'CBT'), x2, x3, x4, x5, x6))", _LSTM, SMALL,
         label="lstm CBT"),
    Case("lstm", "lstm_states(x1, x2, x3, x4, x5, x6)", _LSTM, SMALL, label="lstm states"),
    Case("lstm", "lstm(dlarray(x1), x2, x3, x4, x5, x6, 'DataFormat', 'CBT', 'StateActivationFunction', "
         "'softsign', 'GateActivationFunction', 'hard-sigmoid')", _LSTM, SMALL, label="lstm softsign"),
    Case("gru", "stripdims(gru(dlarray(x1, 'CBT'), x2, x3, x4, x5))", _GRU, SMALL, label="gru after"),
    Case("gru", "gru(dlarray(x1), x2, x3, x4, x5, 'DataFormat', 'CBT', 'ResetGateMode', 'before-multiplication')",
         _GRU, SMALL, label="gru before"),
    Case("gru", "gru(dlarray(x1), x2, x3, x4, x5, 'DataFormat', 'CBT', 'ResetGateMode', "
         "'recurrent-bias-after-multiplication', 'StateActivationFunction', 'softsign')",
         _GRU_RECURRENT_BIAS, SMALL, label="gru recurrent bias"),
    Case("attention", "stripdims(attention(dlarray(x1, 'CBT'), x2, x3, 2))", _QKV, SMALL,
         label="attention 2 heads"),
    Case("attention", "attention(dlarray(x1), x1, x1, 1, 'DataFormat', 'CBT', 'AttentionMask', 'causal', "
         "'Scale', 0.7)", _SELF, SMALL, label="attention causal self"),
    Case("attention", "attention_weights(x1, x2)", fixed((4, 2, 2), (4, 2, 3)), SMALL, label="attention weights"),
]

SINGLE_CASES = ["lstm", "gru", "attention"]

# MATLAB helpers for the outputs after the first: the checker writes every entry of
# gradcheck.HELPERS to its folder on the path when it starts.
HELPERS.update({
    "lstm_states.m": """function s = lstm_states(x, h0, c0, w, r, b)
[~, h, c] = lstm(dlarray(x, 'CBT'), h0, c0, w, r, b);
s = [stripdims(h); stripdims(c)];
end
""",
    "attention_weights.m": """function w = attention_weights(q, k)
[~, w] = attention(dlarray(q, 'CBT'), k, ones(2, 2, 3), 2, 'PaddingMask', permute([1 1 0; 1 1 1], [3 1 2]));
end
""",
})
