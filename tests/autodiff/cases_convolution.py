"""Gradient checks for convolution, pooling and resizing: dlconv, dltranspconv, maxpool,
maxunpool, avgpool, dlresize.

These builtins take dlarrays as they are (they read data formats), so they are not
registered with a gradient rule: their gradients come from the primitives of
mlang/builtins/deeplearning/convolution_kernels.py and ops.take/put.  Their cases are
EXTRAS (like softmax's in test_gradcheck.py); SINGLE_CASES names those also checked in
single precision (tests/builtins/deeplearning/test_convolution.py checks every form in single).
"""

from __future__ import annotations

from tests.autodiff.gradcheck import Case, distinct, fixed

DISTINCT = distinct()

CASES: list[Case] = []

EXTRAS: list[Case] = [
    # dlconv: bias per filter, stride and dilation, padding forms and values, groups,
    # channel-wise, 1-D, over 'T', 3-D
    Case("dlconv", "dlconv(x1, x2, x3, 'DataFormat', 'SSCB')",
         fixed((4, 3, 2, 2), (2, 2, 2, 3), (1, 3)), label="2-D bias"),
    Case("dlconv", "stripdims(dlconv(dlarray(x1, 'SSCB'), x2, 0.5, 'Stride', [2 1], "
                   "'DilationFactor', [1 2]))",
         fixed((5, 5, 2), (2, 2, 2, 2)), label="stride dilation"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SSC', 'Padding', 'same', 'PaddingValue', 0.5, "
                   "'Stride', 2)",
         fixed((3, 4, 2), (3, 2, 2, 2)), label="same"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SSC', 'Padding', [1 0; 2 1], "
                   "'PaddingValue', 'symmetric-exclude-edge')",
         fixed((3, 3, 2), (2, 2, 2)), label="symmetric-exclude-edge"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SSC', 'Padding', 2, "
                   "'PaddingValue', 'symmetric-include-edge')",
         fixed((2, 3), (2, 2)), label="symmetric-include-edge"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SCB', 'Padding', [2; 1], "
                   "'PaddingValue', 'replicate')",
         fixed((3, 2, 2), (2, 2, 2)), label="replicate 1-D"),
    Case("dlconv", "dlconv(x1, x2, x3, 'DataFormat', 'SSCB', 'Padding', 1)",
         fixed((3, 3, 4, 2), (2, 2, 2, 1, 2), (1, 2)), label="groups"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SSC')",
         fixed((3, 3, 3), (2, 2, 1, 2, 3)), label="channel-wise"),
    Case("dlconv", "dlconv(x1, x2, x3, 'DataFormat', 'SCB', 'Stride', 2, 'Padding', 'causal')",
         fixed((5, 2, 2), (2, 2, 2), (1, 1)), label="1-D causal"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'CBT', 'WeightsFormat', 'TCU')",
         fixed((2, 2, 5), (3, 2, 2)), label="over T"),
    Case("dlconv", "dlconv(x1, x2, 0, 'DataFormat', 'SSSC', 'Padding', [1 0 0; 0 0 1])",
         fixed((3, 2, 3, 2), (2, 2, 2, 2, 2)), label="3-D"),
    # dltranspconv
    Case("dltranspconv", "dltranspconv(x1, x2, x3, 'DataFormat', 'SSCB', 'Stride', 2)",
         fixed((2, 3, 2, 2), (3, 3, 3, 2), (1, 3)), label="stride bias"),
    Case("dltranspconv", "stripdims(dltranspconv(dlarray(x1, 'SSC'), x2, 0, 'Stride', [2 1], "
                         "'DilationFactor', [1 2], 'Cropping', 'same'))",
         fixed((2, 3, 2), (3, 2, 2, 2)), label="same dilation"),
    Case("dltranspconv", "dltranspconv(x1, x2, 0, 'DataFormat', 'SSC', 'Cropping', [1 0; 0 1])",
         fixed((2, 2, 4), (2, 2, 1, 2, 2)), label="groups cropping"),
    Case("dltranspconv", "dltranspconv(x1, x2, 0, 'DataFormat', 'SCB', 'Stride', 3)",
         fixed((3, 2, 2), (2, 1, 2)), label="1-D"),
    # pooling
    Case("maxpool", "maxpool(x1, 2, 'DataFormat', 'SSC')",
         fixed((3, 4, 2)), DISTINCT, label="overlapping"),
    Case("maxpool", "stripdims(maxpool(dlarray(x1, 'SSCB'), [2 3], 'Stride', 2, 'Padding', 'same'))",
         fixed((3, 5, 1, 2)), DISTINCT, label="same stride"),
    Case("maxpool", "maxpool(x1, 'global', 'DataFormat', 'SCB')",
         fixed((4, 2, 2)), DISTINCT, label="global"),
    Case("maxunpool", "maxunpool(x1, [2 8; 11 13], [4 4], 'DataFormat', 'SS')",
         fixed((2, 2)), label="unformatted"),
    Case("maxunpool", "stripdims(maxunpool(dlarray(x1, 'SSC'), reshape([1 4 5 8 9 12 13 16], 2, 2, 2), "
                      "[2 4 2]))",
         fixed((2, 2, 2)), label="formatted"),
    Case("avgpool", "avgpool(x1, 2, 'DataFormat', 'SSCB', 'Stride', 2, 'Padding', 1)",
         fixed((3, 4, 2, 2)), label="stride padding"),
    Case("avgpool", "avgpool(x1, [3 2], 'DataFormat', 'SSC', 'Padding', 'same', 'PaddingValue', 'mean')",
         fixed((3, 4, 2)), label="mean padding"),
    Case("avgpool", "stripdims(avgpool(dlarray(x1, 'SSCB'), 'global'))",
         fixed((3, 2, 2, 2)), label="global"),
    Case("avgpool", "avgpool(x1, 2, 'DataFormat', 'CBT', 'PoolFormat', 'T')",
         fixed((2, 2, 4)), label="over T"),
    # resizing
    Case("dlresize", "dlresize(x1, 'Scale', [2 1.5], 'DataFormat', 'SSC')",
         fixed((2, 2, 2)), label="nearest"),
    Case("dlresize", "stripdims(dlresize(dlarray(x1, 'SSCB'), 'OutputSize', [3 5], 'Method', 'linear'))",
         fixed((2, 3, 1, 2)), label="linear"),
]

SINGLE_CASES = ["dlconv", "dltranspconv", "maxpool", "maxunpool", "avgpool", "dlresize"]
