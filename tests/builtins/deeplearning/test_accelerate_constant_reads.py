"""Arguments a deep learning builtin reads as constant data (loss weights, masks and
targets, options, indices, the positions of maxima...) given as dlarrays that change from
call to call: an accelerated function (dlaccelerate) and a dlfeval plan give what running
the code gives at every call, at the outermost level, inside dlfeval (traced inputs) and
inside dlfeval with the argument an untraced dlarray, never the values of the call they
recorded (trace.read_as_constant marks such results as not replayable)."""

from __future__ import annotations

import numpy as np
import pytest

from mlang.autodiff import trace
from mlang.builtins.deeplearning import losses, step_plans
from tests.builtins.deeplearning.test_step_plans import Session, both_ways, same

LOSSGRAD = """function [y, g] = lossgrad(f, x, w)
y = f(x, w);
g = dlgradient(sum(y, 'all') + sum(x, 'all'), x);
end
"""

# the argument an untraced dlarray made inside dlfeval (from plain data)
LOSSGRAD_UNTRACED = """function [y, g] = lossgrad_untraced(f, x, data, fmt)
if isempty(fmt)
    w = dlarray(data);
else
    w = dlarray(data, fmt);
end
y = f(x, w);
g = dlgradient(sum(y, 'all') + sum(x, 'all'), x);
end
"""

ROWS = "rng(7); x = dlarray(rand(3, 4), 'CB'); t = dlarray(double(rand(3, 4) > 0.5), 'CB');"
IMAGE = "rng(7); x = dlarray(rand(4, 4, 1, 1), 'SSCB');"
SEQUENCE = "rng(7); x = dlarray(rand(4, 2, 3), 'CBT');"
CLASS_WEIGHTS = "{dlarray([1; 2; 3]), dlarray([5; 7; 1]), dlarray([0.5; 0; 2])}"
MASKS = "{dlarray([1 0 1 1; 1 1 0 1; 0 1 1 1]), dlarray([0 1 1 0; 1 0 1 1; 1 1 0 0]), dlarray(ones(3, 4))}"
TARGETS = "{dlarray([1 0 0 1; 0 1 0 0; 0 0 1 0], 'CB'), dlarray([0 0 1 0; 1 0 0 0; 0 1 0 1], 'CB'), " \
          "dlarray([0.2 0.5 0.1 0; 0.3 0.5 0.9 1; 0.5 0 0 0], 'CB')}"
NUMBERS = "{dlarray([1.5 -2 0.25 4; 0 1 2 3; -1 -1 0.5 0.75], 'CB'), dlarray(zeros(3, 4), 'CB'), " \
          "dlarray([9 8 7 6; 5 4 3 2; 1 0 -1 -2], 'CB')}"
SCALARS = "{dlarray(1e-5), dlarray(0.5), dlarray(3)}"

# (name, setup: x and what the expression captures, expression of x and w, the values of w)
CASES = [
    ("crossentropy class weights", ROWS, "crossentropy(softmax(x), t, w)", CLASS_WEIGHTS),
    ("crossentropy observation weights", ROWS, "crossentropy(softmax(x), t, w)",
     "{dlarray([1 2 3 4]), dlarray([4 0 1 1]), dlarray([0.5 0.5 2 9])}"),
    ("crossentropy element weights", ROWS, "crossentropy(softmax(x), t, w)", NUMBERS),
    ("crossentropy Mask", ROWS, "crossentropy(softmax(x), t, 'Mask', w)", MASKS),
    ("crossentropy targets", ROWS, "crossentropy(softmax(x), w)", TARGETS),
    ("crossentropy multilabel weights", ROWS,
     "crossentropy(sigmoid(x), t, w, 'ClassificationMode', 'multilabel')", CLASS_WEIGHTS),
    ("indexcrossentropy targets", ROWS, "indexcrossentropy(softmax(x), w)",
     "{dlarray([1 2 3 1], 'CB'), dlarray([3 3 1 2], 'CB'), dlarray([2 1 1 3], 'CB')}"),
    ("indexcrossentropy weights", ROWS, "indexcrossentropy(softmax(x), dlarray([1 2 3 1], 'CB'), w)",
     CLASS_WEIGHTS),
    ("mse targets", ROWS, "mse(x, w)", NUMBERS),
    ("mse unformatted targets", ROWS, "mse(x, w)",
     "{dlarray([1 2 3 4; 0 1 0 1; 2 2 2 2]), dlarray(zeros(3, 4)), dlarray(-ones(3, 4))}"),
    ("mse targets DataFormat", ROWS, "mse(stripdims(x), w, 'DataFormat', 'CB')",
     "{dlarray([1 2 3 4; 0 1 0 1; 2 2 2 2]), dlarray(zeros(3, 4)), dlarray(-ones(3, 4))}"),
    ("l1loss targets", ROWS, "l1loss(x, w)", NUMBERS),
    ("l2loss targets", ROWS, "l2loss(x, w)", NUMBERS),
    ("huber targets", ROWS, "huber(x, w)", NUMBERS),
    ("l1loss weights", ROWS, "l1loss(x, t, w)", CLASS_WEIGHTS),
    ("l2loss weights", ROWS, "l2loss(x, t, w)", CLASS_WEIGHTS),
    ("huber weights", ROWS, "huber(x, t, w)", CLASS_WEIGHTS),
    ("l1loss Mask", ROWS, "l1loss(x, t, 'Mask', w)", MASKS),
    ("l2loss Mask", ROWS, "l2loss(x, t, 'Mask', w, 'NormalizationFactor', 'mask-included')", MASKS),
    ("huber Mask", ROWS, "huber(x, t, 'Mask', w)", MASKS),
    ("huber TransitionPoint", ROWS, "huber(3 * x, t, 'TransitionPoint', w)",
     "{dlarray(0.1), dlarray(0.5), dlarray(2)}"),
    ("embed indices", ROWS, "embed(w, stripdims(x))",
     "{dlarray([1 4 2], 'CB'), dlarray([2 2 1], 'CB'), dlarray([3 1 4], 'CB')}"),
    ("attention heads", "rng(7); x = dlarray(rand(6, 2, 3), 'CBT');", "attention(x, x, x, w)",
     "{dlarray(1), dlarray(2), dlarray(3)}"),
    ("attention AttentionMask", SEQUENCE, "attention(x, x, x, 1, 'AttentionMask', w)",
     "{dlarray([1 0 1; 1 1 0; 0 1 1]), dlarray(eye(3)), dlarray(ones(3))}"),
    ("batchnorm Epsilon", ROWS, "batchnorm(x, zeros(3, 1), ones(3, 1), 'Epsilon', w)",
     SCALARS),
    ("layernorm Epsilon", ROWS, "layernorm(x, zeros(3, 1), ones(3, 1), 'Epsilon', w)",
     SCALARS),
    ("instancenorm Epsilon", IMAGE, "instancenorm(x, 0, 1, 'Epsilon', w)", SCALARS),
    ("groupnorm Epsilon", ROWS, "groupnorm(x, 1, zeros(3, 1), ones(3, 1), 'Epsilon', w)",
     SCALARS),
    ("crosschannelnorm Alpha", ROWS, "crosschannelnorm(x, 3, 'Alpha', w)", SCALARS),
    ("crosschannelnorm K", ROWS, "crosschannelnorm(x, 3, 'K', w)", SCALARS),
    ("avgpool pool size", IMAGE, "avgpool(x, w)", "{dlarray(1), dlarray(2), dlarray(4)}"),
    ("avgpool Stride", IMAGE, "avgpool(x, 2, 'Stride', w)", "{dlarray(1), dlarray(2), dlarray(1)}"),
    ("maxpool data", IMAGE, "maxpool(x .* w, 2)",
     "{dlarray(rand(4, 4)), dlarray(rand(4, 4)), dlarray(magic(4))}"),
    ("maxpool Stride", IMAGE, "maxpool(x, 2, 'Stride', w)", "{dlarray(1), dlarray(2), dlarray(1)}"),
    ("maxunpool indices", "rng(7); x = dlarray(rand(2, 2, 1, 1), 'SSCB');",
     "maxunpool(x, w, [4 4 1 1])", "{dlarray([1 3; 9 11]), dlarray([6 8; 14 16]), dlarray([2 4; 5 7])}"),
    ("dlresize Scale", IMAGE, "dlresize(x, 'Scale', w)", "{dlarray(1), dlarray(2), dlarray(3)}"),
    ("dlresize OutputSize", IMAGE, "dlresize(x, 'OutputSize', w)",
     "{dlarray([2 2]), dlarray([8 3]), dlarray([4 4])}"),
    ("dlconv Stride", IMAGE + " K = rand(2, 2, 1, 1);", "dlconv(x, K, 0, 'Stride', w)",
     "{dlarray(1), dlarray(2), dlarray([1 2])}"),
    ("dlconv Padding", IMAGE + " K = rand(2, 2, 1, 1);", "dlconv(x, K, 0, 'Padding', w)",
     "{dlarray(0), dlarray(1), dlarray(2)}"),
    ("dltranspconv Stride", IMAGE + " K = rand(2, 2, 1, 1);",
     "dltranspconv(x, K, 0, 'Stride', w)", "{dlarray(1), dlarray(2), dlarray(3)}"),
    ("dlode45 tspan", "x = dlarray([1; 2], 'CB');", "dlode45(@(t, y, p) -p .* y, w, x, 2)",
     "{dlarray([0 1]), dlarray([0 2]), dlarray([0 0.5])}"),
    ("dropout probability", ROWS, "dropout(x, w)", "{dlarray(0.1), dlarray(0.5), dlarray(0.9)}"),
]


def _session(tmp_path) -> Session:
    return Session(tmp_path, {"lossgrad": LOSSGRAD, "lossgrad_untraced": LOSSGRAD_UNTRACED})


def _outermost(tmp_path, setup: str, expression: str, values: str) -> tuple[list, list, float]:
    code = setup + f"""
    g = @(x, w) {expression};
    f = dlaccelerate(g);
    W = {values};
    a = cell(1, 3); b = cell(1, 3);
    for k = 1:3
        rng(k); a{{k}} = f(x, W{{k}});
        rng(k); b{{k}} = g(x, W{{k}});
    end
    hits = f.HitRate;
    """
    a, b, hits = _session(tmp_path).values(code, "a", "b", "hits")
    return list(a.data.reshape(-1)), list(b.data.reshape(-1)), hits


def _in_dlfeval(tmp_path, setup: str, expression: str, values: str, untraced: bool) -> tuple:
    call = "dlfeval(@lossgrad_untraced, {f}, x, extractdata(W{{k}}), dims(W{{k}}))" if untraced \
        else "dlfeval(@lossgrad, {f}, x, W{{k}})"
    code = setup + f"""
    g = @(x, w) {expression};
    f = dlaccelerate(g);
    W = {values};
    a = cell(2, 3); b = cell(2, 3);
    for k = 1:3
        rng(k); [a{{1, k}}, a{{2, k}}] = {call.format(f="f")};
        rng(k); [b{{1, k}}, b{{2, k}}] = {call.format(f="g")};
    end
    """
    a, b = _session(tmp_path).values(code, "a", "b")
    return list(a.data.reshape(-1)), list(b.data.reshape(-1))


def _changes(results: list) -> bool:
    """Whether the code's results differ between calls (the case tests something)."""
    first = results[0].data
    return any(r.data.shape != first.shape or not np.array_equal(r.data, first, equal_nan=True)
               for r in results[1:])


@pytest.mark.parametrize("name, setup, expression, values", CASES, ids=[c[0] for c in CASES])
def test_an_accelerated_call_reads_the_argument_at_each_call(tmp_path, name, setup, expression,
                                                             values) -> None:
    a, b, _ = _outermost(tmp_path, setup, expression, values)
    assert _changes(b)
    for x, y in zip(a, b, strict=True):
        same(x, y)


@pytest.mark.parametrize("untraced", [False, True], ids=["traced", "untraced"])
@pytest.mark.parametrize("name, setup, expression, values", CASES, ids=[c[0] for c in CASES])
def test_an_accelerated_call_in_dlfeval_reads_the_argument_at_each_call(
        tmp_path, name, setup, expression, values, untraced) -> None:
    a, b = _in_dlfeval(tmp_path, setup, expression, values, untraced)
    assert _changes(b[0::2])
    for x, y in zip(a, b, strict=True):
        same(x, y)


def test_arguments_read_as_data_leave_other_calls_replayed(tmp_path) -> None:
    # the same losses with no dlarray read as data replay their recorded calls
    for expression in ("crossentropy(softmax(x), w)", "mse(x, w)", "l2loss(x, w, [1; 2; 3])",
                       "crossentropy(softmax(x), w, [1; 2; 3], 'Mask', [1 0 1 1; 1 1 0 1; 0 1 1 1])"):
        values = NUMBERS if expression.startswith(("mse", "l2")) else TARGETS
        a, b, hits = _outermost(tmp_path, ROWS, expression, values)
        assert hits == pytest.approx(200 / 3), expression  # the second and third calls
        for x, y in zip(a, b, strict=True):
            same(x, y)


def test_breaking_the_mark_replays_stale_weights(tmp_path, monkeypatch) -> None:
    # (what the tests above catch: without the mark, the first call's weights come back)
    monkeypatch.setattr(losses, "read_as_constant", lambda result, *read: result)
    a, b, hits = _outermost(tmp_path, ROWS, "crossentropy(softmax(x), t, w)", CLASS_WEIGHTS)
    assert hits > 0
    assert not np.array_equal(a[1].data, b[1].data)
    np.testing.assert_array_equal(a[1].data, a[0].data)


def test_the_mark_leaves_the_result_and_its_gradient_alone() -> None:
    from mlang.autodiff.dlarray import DlArray

    x = trace.traced_input(DlArray(np.array([[1.0, 2.0]]), "CB"))
    y = losses.mse(x, np.array([[0.0, 1.0]]))
    assert y.node.op is losses.REGRESSION
    assert trace.read_as_constant(y, 1.0, "text", None) is y
    marked = trace.read_as_constant(y, DlArray(np.array([[1.0]])))
    assert marked.node.op is None and marked.node.parents == (y.node,)
    assert marked.data is y.data and marked.fmt == y.fmt and y.node.op is losses.REGRESSION
    untraced = DlArray(np.array([[1.0]]))
    assert trace.read_as_constant(untraced, untraced) is untraced


PLANNED = """function [loss, grads] = weighted(params, X, T, W)
Y = softmax(fullyconnect(X, params.W, params.b));
loss = crossentropy(Y, T, W);
grads = dlgradient(loss, params);
end
"""

PLANNED_MASK = PLANNED.replace("crossentropy(Y, T, W)", "crossentropy(Y, T, 'Mask', W)")

PLAN_LOOP = """
rng(2);
params.W = dlarray(randn(3, 4)); params.b = dlarray(randn(3, 1));
X = dlarray(randn(4, 5), 'CB');
T = dlarray([1 0 0 1 0; 0 1 0 0 1; 0 0 1 0 0], 'CB');
losses = zeros(1, 4); gs = cell(1, 4);
for k = 1:4
    [loss, gs{k}] = dlfeval(@weighted, params, X, T, Ws{k});
    losses(k) = extractdata(loss);
end
"""


@pytest.mark.parametrize("kind", ["weights", "plain weights", "mask"])
def test_a_plan_reads_weights_and_masks_at_each_call(tmp_path, monkeypatch, kind) -> None:
    values = {"weights": "{dlarray([1; 2; 3]), dlarray([5; 7; 1]), dlarray([1; 0; 0]), dlarray([1; 2; 3])}",
              "plain weights": "{[1; 2; 3], [5; 7; 1], [5; 7; 1], [1; 2; 3]}",
              "mask": "{dlarray(ones(3, 5)), dlarray([0 1 1 1 1; 1 0 1 1 0; 1 1 1 1 1]), "
                      "dlarray(eye(3, 5)), dlarray(ones(3, 5))}"}[kind]
    code = "Ws = " + values + ";" + PLAN_LOOP
    files = {"weighted": PLANNED_MASK if kind == "mask" else PLANNED}
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, files, code, ("losses", "gs"))
    for a, b in zip(fast, slow, strict=True):
        same(a, b)
    assert len(set(fast[0].reshape(-1).tolist())) > (1 if kind == "plain weights" else 2)
    # plain weights are part of the pattern: the third and fourth calls replay programs
    assert replays == (2 if kind == "plain weights" else 0)


def test_breaking_the_mark_makes_a_plan_reuse_stale_weights(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(losses, "read_as_constant", lambda result, *read: result)
    code = "Ws = {dlarray([1; 2; 3]), dlarray([5; 7; 1]), dlarray([1; 0; 0]), dlarray([1; 2; 3])};" \
        + PLAN_LOOP
    fast, slow, replays, _, _ = both_ways(tmp_path, monkeypatch, {"weighted": PLANNED}, code,
                                          ("losses", "gs"))
    assert replays == 3 and not np.array_equal(fast[0], slow[0])
    assert step_plans.PLANS  # (the module the plans live in)
