"""attention against a direct NumPy loop over heads and observations: values, formats,
masks, scale, dropout and errors."""

from __future__ import annotations

import numpy as np
import pytest


def np_attention(q, k, v, heads, scale=None, mask=None):
    """q (C, B, Nq), k (C, B, Nk), v (Cv, B, Nk); mask (Nk, Nq, B) of booleans (True: attend).
    Returns Y (Cv, B, Nq) and the weights (Nk, Nq, heads, B)."""
    C, B, nq = q.shape
    cv, nk = v.shape[0], k.shape[2]
    dq, dv = C // heads, cv // heads
    scale = 1 / np.sqrt(dq) if scale is None else scale
    y = np.zeros((cv, B, nq))
    weights = np.zeros((nk, nq, heads, B))
    for b in range(B):
        for h in range(heads):
            Q = q[h * dq:(h + 1) * dq, b, :]
            K = k[h * dq:(h + 1) * dq, b, :]
            V = v[h * dv:(h + 1) * dv, b, :]
            s = scale * K.T @ Q
            if mask is not None:
                s = np.where(mask[:, :, b], s, -np.inf)
            e = np.exp(s - s.max(axis=0))
            a = e / e.sum(axis=0)
            weights[:, :, h, b] = a
            y[h * dv:(h + 1) * dv, b, :] = V @ a
    return y, weights


@pytest.fixture
def qkv():
    rng = np.random.default_rng(7)
    return dict(Q=rng.standard_normal((4, 2, 3)), K=rng.standard_normal((4, 2, 5)),
                V=rng.standard_normal((6, 2, 5)))


def test_matches_numpy(m, qkv):
    y, w = m.values("[y, w] = attention(dlarray(Q, 'CBT'), K, dlarray(V), 2);", "y", "w", **qkv)
    want_y, want_w = np_attention(qkv["Q"], qkv["K"], qkv["V"], 2)
    assert y.fmt == "CBT" and w.fmt == ""
    np.testing.assert_allclose(y.data, want_y, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(w.data, want_w, rtol=1e-12, atol=1e-14)


def test_documented_sizes(m):
    out = m.run("""
    queries = dlarray(rand(100, 32, 64), "CBT");
    keys = dlarray(rand(100, 32, 80));
    values = dlarray(rand(120, 32, 80));
    [Y, weights] = attention(queries, keys, values, 5);
    disp(size(Y)), disp(dims(Y)), disp(size(weights)), disp(isempty(dims(weights)))
    """)
    assert out == "   120    32    64\n\nCBT\n    80    64     5    32\n\n   1\n\n"


def test_scale(m, qkv):
    y = m.value("y = attention(dlarray(Q, 'CBT'), K, V, 1, 'Scale', 0.3);", "y", **qkv)
    np.testing.assert_allclose(y.data, np_attention(qkv["Q"], qkv["K"], qkv["V"], 1, scale=0.3)[0],
                               rtol=1e-12)
    y = m.value("y = attention(dlarray(Q, 'CBT'), K, V, 1, Scale='auto');", "y", **qkv)
    np.testing.assert_allclose(y.data, np_attention(qkv["Q"], qkv["K"], qkv["V"], 1)[0], rtol=1e-12)


def test_causal_mask(m):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((4, 2, 4))
    y, w = m.values("[y, w] = attention(dlarray(X, 'CBT'), X, X, 2, AttentionMask='causal');", "y", "w", X=x)
    causal = np.arange(4)[:, None] <= np.arange(4)[None, :]
    want_y, want_w = np_attention(x, x, x, 2, mask=np.repeat(causal[:, :, None], 2, axis=2))
    np.testing.assert_allclose(w.data, want_w, rtol=1e-12, atol=1e-15)
    assert np.all(w.data[~np.broadcast_to(causal[:, :, None, None], w.data.shape)] == 0)
    np.testing.assert_allclose(y.data, want_y, rtol=1e-12, atol=1e-14)


def test_numeric_attention_mask_per_observation(m, qkv):
    rng = np.random.default_rng(9)
    mask = rng.random((5, 3, 2)) > 0.4
    mask[0] = True  # every query attends to something
    y, w = m.values("[y, w] = attention(dlarray(Q, 'CBT'), K, V, 2, 'AttentionMask', double(M));",
                    "y", "w", M=mask, **qkv)
    want_y, want_w = np_attention(qkv["Q"], qkv["K"], qkv["V"], 2, mask=mask)
    np.testing.assert_allclose(w.data, want_w, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(y.data, want_y, rtol=1e-12, atol=1e-14)


def test_padding_mask(m, qkv):
    pad = np.ones((1, 2, 5), dtype=bool)
    pad[0, 0, 3:] = False  # the first observation's last two keys are padding
    pad[0, 1, 4:] = False
    y, w = m.values("[y, w] = attention(dlarray(Q, 'CBT'), K, V, 2, PaddingMask=dlarray(P, 'CBT'));",
                    "y", "w", P=pad, **qkv)
    mask = np.broadcast_to(pad[0].T[:, None, :], (5, 3, 2))
    want_y, want_w = np_attention(qkv["Q"], qkv["K"], qkv["V"], 2, mask=mask)
    np.testing.assert_allclose(w.data, want_w, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(y.data, want_y, rtol=1e-12, atol=1e-14)
    # an unformatted mask laid out like the keys, several channels (the first one counts)
    y2 = m.value("y2 = attention(dlarray(Q, 'CBT'), K, V, 2, PaddingMask=[P; true(1, 2, 5)]);", "y2",
                 P=pad, **qkv)
    np.testing.assert_allclose(y2.data, want_y, rtol=1e-12, atol=1e-14)


def test_data_format_unformatted_order(m, qkv):
    q = np.transpose(qkv["Q"], (0, 2, 1)).copy()
    k = np.transpose(qkv["K"], (0, 2, 1)).copy()
    v = np.transpose(qkv["V"], (0, 2, 1)).copy()
    y = m.value("y = attention(dlarray(Q), K, V, 2, 'DataFormat', 'CTB');", "y", Q=q, K=k, V=v)
    assert y.fmt == ""
    want, _ = np_attention(qkv["Q"], qkv["K"], qkv["V"], 2)
    np.testing.assert_allclose(y.data, np.transpose(want, (0, 2, 1)), rtol=1e-12)


def test_spatial_sequence_keeps_format(m, qkv):
    q = np.transpose(qkv["Q"], (2, 0, 1)).copy()  # S C B
    y = m.value("y = attention(dlarray(Qs, 'SCB'), dlarray(permute(K, [3 1 2]), 'SCB'), "
                "permute(V, [3 1 2]), 2);", "y", Qs=q, **qkv)
    want, _ = np_attention(qkv["Q"], qkv["K"], qkv["V"], 2)
    assert y.fmt == "SCB"
    np.testing.assert_allclose(y.data, np.transpose(want, (2, 0, 1)), rtol=1e-12)


def test_no_batch_or_time(m, qkv):
    y = m.value("y = attention(dlarray(Q(:, 1, 1), 'CB'), K(:, 1, 1), V(:, 1, 1), 2);", "y", **qkv)
    assert y.fmt == "CB" and y.data.shape == (6, 1)
    np.testing.assert_allclose(y.data[:, 0], qkv["V"][:, 0, 0], rtol=1e-12)  # one key: weight 1


def test_dropout(m, qkv):
    w0, w1 = m.values("""
    [~, w0] = attention(dlarray(Q, 'CBT'), K, V, 2);
    rng(3); [~, w1] = attention(dlarray(Q, 'CBT'), K, V, 2, DropoutProbability=0.5);
    rng(3); keep = rand(numel(w1), 1) >= 0.5;
    """, "w0", "w1", **qkv)
    keep = m.interp.base.vars["keep"].reshape(w1.data.shape, order="F")
    np.testing.assert_allclose(w1.data, np.where(keep, 2 * w0.data, 0), rtol=1e-12)


def test_single(m, qkv):
    y = m.value("y = attention(dlarray(single(Q), 'CBT'), K, V, 2);", "y", **qkv)
    assert y.data.dtype == np.float32
    np.testing.assert_allclose(y.data, np_attention(qkv["Q"], qkv["K"], qkv["V"], 2)[0], rtol=1e-5, atol=1e-6)


def test_gradient_matches_finite_differences(m, qkv):
    g = m.value("""
    g = dlfeval(@(q) dlgradient(sum(attention(q, K, V, 2, AttentionMask='causal') .^ 2, 'all'), q), ...
                dlarray(Q(:, :, 1:3), 'CBT'));
    """, "g", Q=qkv["Q"], K=qkv["K"][:, :, :3], V=qkv["V"][:, :, :3])
    causal = np.repeat((np.arange(3)[:, None] <= np.arange(3)[None, :])[:, :, None], 2, axis=2)

    def loss(q):
        return (np_attention(q, qkv["K"][:, :, :3], qkv["V"][:, :, :3], 2, mask=causal)[0] ** 2).sum()

    want = np.zeros_like(qkv["Q"])
    for idx in np.ndindex(*qkv["Q"].shape):
        up, down = qkv["Q"].copy(), qkv["Q"].copy()
        up[idx] += 1e-6
        down[idx] -= 1e-6
        want[idx] = (loss(up) - loss(down)) / 2e-6
    np.testing.assert_allclose(g.data, want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("code, identifier", [
    ("attention(rand(4, 2), rand(4, 2), rand(4, 2), 2)", "MATLAB:UndefinedFunction"),
    ("attention(dlarray(rand(4, 2)), rand(4, 2), rand(4, 2), 2)", "deep:dlarray:UnformattedInput"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 3)",
     "deep:attention:InvalidNumHeads"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 1.5)",
     "deep:attention:InvalidNumHeads"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(6, 2, 3), rand(4, 2, 3), 2)",
     "deep:attention:InvalidKeysSize"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 5), 2)",
     "deep:attention:InvalidValuesSize"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'AttentionMask', ones(2))",
     "deep:attention:InvalidAttentionMaskSize"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'AttentionMask', 'upper')",
     "deep:attention:InvalidAttentionMask"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'Scale', [1 2])",
     "deep:attention:InvalidScale"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'DropoutProbability', 1)",
     "deep:attention:InvalidDropoutProbability"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'PaddingMask', ones(1, 2, 4))",
     "deep:attention:InvalidPaddingMaskSize"),
    ("attention(dlarray(rand(4, 2, 3), 'CBT'), rand(4, 2, 3), rand(4, 2, 3), 2, 'Bogus', 1)",
     "MATLAB:InputParser:UnmatchedParameter"),
])
def test_errors(m, code, identifier):
    assert m.fails(code).identifier == identifier
