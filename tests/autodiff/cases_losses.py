"""Gradient checks of the loss functions (mse, l1loss, l2loss, huber, crossentropy,
indexcrossentropy): first and second order, formatted and unformatted inputs, weights,
masks, every normalisation and unreduced losses.

The losses handle dlarrays themselves (they read the data format), so their cases are
EXTRAS: operations checked without a registered gradient rule of their own.
"""

from __future__ import annotations

from tests.autodiff.gradcheck import Case, fixed, matrix_shape, same_pair, uniform

CASES: list[Case] = []

PAIR = same_pair(matrix_shape(min_size=1))
PAIR34 = fixed((3, 4), (3, 4))
PAIR_3D = fixed((2, 3, 2), (2, 3, 2))
ONE34 = fixed((3, 4))
ANY = uniform(-2.0, 2.0)
PROBABILITY = uniform(0.05, 0.95)

# Values for l1loss and huber: x1 - x2 away from the kinks (0, and +-TransitionPoint).
ABOVE = (uniform(0.6, 1.5), uniform(-1.5, -0.6))  # x1 - x2 in [1.2, 3]: huber's linear part
CLOSE = (uniform(0.05, 0.2), uniform(-0.2, -0.05))  # x1 - x2 in [0.1, 0.4]: huber's quadratic part

MASK = "logical([1 0 1 1; 1 1 0 1; 0 1 1 1])"
MASK_ROWS = "logical([1 1 0 0])"

EXTRAS: list[Case] = [
    # mse: half the summed squares over the number of observations
    Case("mse", "mse(x1, x2, 'DataFormat', 'CB')", PAIR, (ANY, ANY)),
    Case("mse", "mse(dlarray(x1, 'CB'), x2)", PAIR, (ANY, ANY)),
    Case("mse", "mse(dlarray(x1, 'SCB'), x2)", PAIR_3D, (ANY, ANY)),
    Case("mse", "mse(x1, x2, 'DataFormat', 'BC')", PAIR34, (ANY, ANY)),
    # l2loss: options
    Case("l2loss", "l2loss(x1, x2, 'DataFormat', 'CB')", PAIR, (ANY, ANY)),
    Case("l2loss", "l2loss(x1, x2, [1 2 3], 'DataFormat', 'CB', 'WeightsFormat', 'C')", PAIR34,
         (ANY, ANY)),
    Case("l2loss", "l2loss(x1, x2, [1 2 3 4], 'DataFormat', 'CB', 'WeightsFormat', 'B')", PAIR34,
         (ANY, ANY)),
    Case("l2loss", f"l2loss(x1, x2, 'DataFormat', 'CB', 'Mask', {MASK}, "
         "'NormalizationFactor', 'mask-included')", PAIR34, (ANY, ANY)),
    Case("l2loss", "l2loss(x1, x2, 'DataFormat', 'CB', 'NormalizationFactor', 'all-elements')",
         PAIR34, (ANY, ANY)),
    Case("l2loss", "l2loss(x1, x2, 'DataFormat', 'BC', 'Reduction', 'none')", PAIR34, (ANY, ANY)),
    Case("l2loss", "stripdims(l2loss(dlarray(x1, 'SCB'), x2, 'Reduction', 'none'))", PAIR_3D,
         (ANY, ANY)),
    # l1loss away from its kink
    Case("l1loss", "l1loss(x1, x2, 'DataFormat', 'CB')", PAIR, ABOVE),
    Case("l1loss", "l1loss(x1, x2, 'DataFormat', 'CB', 'NormalizationFactor', 'none')", PAIR, CLOSE),
    Case("l1loss", "l1loss(x1, x2, [2; 1; 3], 'DataFormat', 'CB', 'Reduction', 'none')", PAIR34,
         ABOVE),
    # huber on each side of the transition point
    Case("huber", "huber(x1, x2, 'DataFormat', 'CB', 'TransitionPoint', 0.5)", PAIR, ABOVE,
         label="huber linear part"),
    Case("huber", "huber(x1, x2, 'DataFormat', 'CB', 'TransitionPoint', 0.5)", PAIR, CLOSE,
         label="huber quadratic part"),
    Case("huber", f"huber(x1, x2, 'DataFormat', 'CB', 'Mask', {MASK}, 'Reduction', 'none')",
         PAIR34, CLOSE),
    # crossentropy: single-label (through softmax and directly), multilabel, weights, masks
    Case("crossentropy", "crossentropy(softmax(x1, 'DataFormat', 'CB'), x2, 'DataFormat', 'CB')",
         PAIR, (ANY, PROBABILITY)),
    Case("crossentropy", "crossentropy(x1, x2, 'DataFormat', 'CB')", PAIR, PROBABILITY),
    Case("crossentropy", "crossentropy(dlarray(x1, 'CB'), x2, 'ClassificationMode', 'multilabel')",
         PAIR, PROBABILITY),
    Case("crossentropy", "crossentropy(x1, x2, [1 2 3], 'DataFormat', 'CB', 'WeightsFormat', 'C')",
         PAIR34, PROBABILITY),
    Case("crossentropy", f"crossentropy(x1, x2, 'DataFormat', 'CB', 'Mask', {MASK}, "
         "'NormalizationFactor', 'mask-included')", PAIR34, PROBABILITY),
    Case("crossentropy", "crossentropy(x1, x2, 'DataFormat', 'BC', 'Reduction', 'none', "
         "'TargetCategories', 'independent')", PAIR34, PROBABILITY),
    Case("crossentropy", f"crossentropy(x1, x2, 'DataFormat', 'CB', 'Mask', {MASK_ROWS}, "
         "'NormalizationFactor', 'all-elements')", PAIR34, PROBABILITY),
    # indexcrossentropy: class indices
    Case("indexcrossentropy", "indexcrossentropy(x1, [1 3 2 1], 'DataFormat', 'CB')", ONE34,
         PROBABILITY),
    Case("indexcrossentropy", "indexcrossentropy(softmax(dlarray(x1, 'CB')), [3 1 2 2], "
         "[1 2 3 4], 'WeightsFormat', 'B')", ONE34, ANY),
    Case("indexcrossentropy", "indexcrossentropy(x1, [1 3 2 1], 'DataFormat', 'CB', "
         "'Reduction', 'none')", ONE34, PROBABILITY),
]

SINGLE_CASES = ["mse", "l1loss", "l2loss", "huber", "crossentropy", "indexcrossentropy"]
