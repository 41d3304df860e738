"""Gradient checks for the basic deep learning operations (fullyconnect, softmax's forms)
and for element-wise operations on formatted dlarrays whose labels are lined up.

All of them handle dlarrays themselves (no registered rule), so they are EXTRAS."""

from __future__ import annotations

from tests.autodiff.gradcheck import STANDARD, Case, fixed, generic, uniform

CASES: list[Case] = []

EXTRAS: list[Case] = [
    # fullyconnect: formatted input, every layout of the features and observations
    Case("fullyconnect", "stripdims(fullyconnect(dlarray(x1, 'CB'), x2, x3))",
         fixed((3, 4), (2, 3), (2, 1)), label="CB"),
    Case("fullyconnect", "stripdims(fullyconnect(dlarray(x1, 'SSCB'), x2, x3))",
         fixed((2, 2, 2, 3), (3, 2, 2, 2), (3, 1)), label="SSCB 4-D weights"),
    Case("fullyconnect", "stripdims(fullyconnect(dlarray(x1, 'CBT'), x2, x3))",
         fixed((3, 2, 2), (2, 3), (1, 2)), label="CBT row bias"),
    Case("fullyconnect", "stripdims(fullyconnect(dlarray(x1, 'CBU'), x2, x3))",
         fixed((2, 3, 2), (2, 4), (2, 1)), label="CBU"),
    Case("fullyconnect", "stripdims(fullyconnect(dlarray(x1, 'TC'), x2, x3))",
         fixed((3, 2), (2, 2), (2, 1)), label="TC permuted"),
    # fullyconnect: the DataFormat option on unformatted data
    Case("fullyconnect", "fullyconnect(x1, x2, x3, 'DataFormat', 'CB')",
         fixed((3, 4), (2, 3), (2, 1)), label="DataFormat CB"),
    Case("fullyconnect", "fullyconnect(x1, x2, x3, 'DataFormat', 'BC')",
         fixed((4, 3), (2, 3), (2, 1)), label="DataFormat BC"),
    Case("fullyconnect", "fullyconnect(x1, x2, x3, 'DataFormat', 'SCB')",
         fixed((2, 2, 3), (2, 4), (2, 1)), label="DataFormat SCB"),
    # a two-layer network: the form public code uses
    Case("fullyconnect", "stripdims(fullyconnect(tanh(fullyconnect(dlarray(x1, 'CB'), x2, x3)), "
         "x4, 0.5))", fixed((2, 3), (3, 2), (3, 1), (1, 3)), uniform(-1.0, 1.0), label="two layers"),
    # softmax with a permuted DataFormat
    Case("softmax", "softmax(x1, 'DataFormat', 'BC')", fixed((3, 4)), STANDARD, label="DataFormat BC"),
    Case("softmax", "stripdims(softmax(dlarray(x1, 'SCB')))", fixed((2, 3, 2)), STANDARD,
         label="SCB"),
    # element-wise operations on formatted operands lined up by label
    Case("formats", "stripdims(dlarray(x1, 'CB') + dlarray(x2, 'C'))", fixed((3, 4), (3, 1)),
         label="CB + C"),
    Case("formats", "stripdims(dlarray(x1, 'CB') .* dlarray(x2, 'BC'))", fixed((3, 4), (4, 3)),
         label="CB .* BC"),
    Case("formats", "stripdims(dlarray(x1, 'SSCB') .* dlarray(x2, 'CB') - dlarray(x2, 'CB'))",
         fixed((2, 2, 3, 2), (3, 2)), label="SSCB .* CB"),
    Case("formats", "stripdims(dlarray(x1, 'CB') ./ dlarray(x2, 'CT'))", fixed((3, 2), (3, 2)),
         uniform(0.5, 2.0), label="CB ./ CT"),
    Case("formats", "stripdims(max(dlarray(x1, 'CB'), dlarray(x2, 'CT')))", fixed((2, 2), (2, 3)),
         (uniform(-2.0, 2.0), generic()), label="max CB CT"),
    Case("formats", "stripdims(dlarray(x1, 'CB'), 'BC')", fixed((3, 2)), label="stripdims BC"),
]

SINGLE_CASES = ["fullyconnect", "formats"]
