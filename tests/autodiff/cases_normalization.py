"""Gradient checks of the normalisation operations (batchnorm, layernorm, groupnorm,
instancenorm, crosschannelnorm) and embed: first and second order, formatted inputs and
the DataFormat option, every argument differentiable.

These operations handle dlarrays themselves (they read the data format), so their cases
are EXTRAS.  dropout draws a new mask at every call, so finite differences cannot check
it here: its gradient (the mask, scaled) is checked in
tests/builtins/deeplearning/test_normalization.py.
"""

from __future__ import annotations

from tests.autodiff.gradcheck import Case, fixed, generic, positive, uniform

CASES: list[Case] = []

DATA = generic()  # normal values: no ties, so no variance close to 0
SCALE = positive(0.5, 1.5)
OFFSET = uniform(-1.0, 1.0)
AFFINE = (DATA, OFFSET, SCALE)

SCB = fixed((2, 3, 2), (3, 1), (3, 1))  # 2(S) x 3(C) x 2(B)
CB = fixed((3, 4), (3, 1), (3, 1))
CBT = fixed((3, 2, 3), (3, 1), (3, 1))
GROUPS = fixed((2, 4, 2), (4, 1), (4, 1))  # 4 channels

EXTRAS: list[Case] = [
    # batchnorm: statistics of the data, then the inference form with given statistics
    Case("batchnorm", "batchnorm(x1, x2, x3, 'DataFormat', 'SCB')", SCB, AFFINE, label="SCB"),
    Case("batchnorm", "stripdims(batchnorm(dlarray(x1, 'CB'), x2, x3))", CB, AFFINE, label="CB"),
    Case("batchnorm", "batchnorm(x1, x2, x3, 'DataFormat', 'BC', 'Epsilon', 0.01)",
         fixed((4, 3), (3, 1), (3, 1)), AFFINE, label="BC epsilon"),
    Case("batchnorm", "batchnorm(x1, x2, x3, x4, x5, 'DataFormat', 'SCB')",
         fixed((2, 3, 2), (3, 1), (3, 1), (3, 1), (3, 1)), (DATA, OFFSET, SCALE, OFFSET, SCALE),
         label="inference"),
    # layernorm over each operation dimension
    Case("layernorm", "layernorm(x1, x2, x3, 'DataFormat', 'CB')", CB, AFFINE, label="CB"),
    Case("layernorm", "layernorm(x1, x2, x3, 'DataFormat', 'SCB')", SCB, AFFINE, label="SCB"),
    Case("layernorm", "layernorm(x1, x2, x3, 'DataFormat', 'CBT')", CBT, AFFINE, label="CBT auto"),
    Case("layernorm", "layernorm(x1, x2, x3, 'DataFormat', 'CBT', 'OperationDimension', "
         "'batch-excluded')", CBT, AFFINE, label="CBT batch-excluded"),
    # groupnorm: groups of channels, all channels, one channel a group
    Case("groupnorm", "groupnorm(x1, 2, x2, x3, 'DataFormat', 'SCB')", GROUPS, AFFINE, label="2 groups"),
    Case("groupnorm", "stripdims(groupnorm(dlarray(x1, 'SCB'), 'all-channels', x2, x3))", GROUPS,
         AFFINE, label="all-channels"),
    Case("groupnorm", "groupnorm(x1, 'channel-wise', x2, x3, 'DataFormat', 'SCB')", GROUPS, AFFINE,
         label="channel-wise"),
    Case("instancenorm", "instancenorm(x1, x2, x3, 'DataFormat', 'SCB')", SCB, AFFINE, label="SCB"),
    Case("instancenorm", "instancenorm(x1, x2, x3, 'DataFormat', 'CBT')", CBT, AFFINE, label="CBT"),
    # crosschannelnorm: odd and even windows, a strong response so every term matters
    Case("crosschannelnorm", "crosschannelnorm(x1, 3, 'DataFormat', 'SCB')", fixed((2, 4, 2)), DATA,
         label="window 3"),
    Case("crosschannelnorm", "crosschannelnorm(x1, 2, 'Alpha', 0.5, 'Beta', 0.6, 'K', 1, "
         "'DataFormat', 'SCB')", fixed((2, 4, 2)), DATA, label="window 2"),
    # embed: gradient with respect to the weights (gathered back to the words used)
    Case("embed", "stripdims(embed(dlarray([2 1 4 1 2], 'CB'), x1))", fixed((3, 4)), DATA, label="CU"),
    Case("embed", "embed([2 3; 1 2], x1, 'DataFormat', 'BT', 'WeightsFormat', 'UC')", fixed((4, 2)),
         DATA, label="UC"),
]

SINGLE_CASES = ["batchnorm", "layernorm", "groupnorm", "instancenorm", "crosschannelnorm", "embed"]
