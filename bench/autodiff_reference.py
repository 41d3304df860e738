"""The computations of the autodiff benchmark outside mlang.

The problems of ``bench/autodiff.py`` (their data, made with a seeded NumPy
generator, in MATLAB's layout: features down the rows, samples across the
columns) and the same computations

* in plain NumPy with hand-written gradients: the reference every other
  engine, mlang included, is checked against and compared with;
* with HIPS autograd and with PyTorch on the CPU, when they are installed
  (neither is a dependency of mlang).

Each implementation is a function ``fn(data) -> result`` doing one call: the
loss (or value) and, for gradient benchmarks, a dict of gradients named like
the parameters (None for a forward pass alone).  ``engines()[engine][kind]``
holds them; a kind an engine does not offer is missing from its dict.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Result = tuple[Any, dict[str, np.ndarray] | None]


# ----------------------------------------------------------------- problems


@dataclass(frozen=True, slots=True)
class Sizes:
    """Layer widths of the two networks and their numbers of samples."""

    mlp: tuple[int, int, int] = (784, 256, 10)  # inputs, hidden units, classes
    batch: int = 128
    pinn: tuple[int, ...] = (2, 20, 20, 1)  # inputs (x, t), hidden layers, output
    points: int = 1000
    tanh_mlp: tuple[int, ...] = (8, 64, 64, 64, 1)  # inputs, three tanh layers, output
    tanh_batch: int = 512


FULL = Sizes()
SMALL = Sizes(mlp=(12, 9, 4), batch=6, pinn=(2, 5, 4, 1), points=7, tanh_mlp=(3, 5, 4, 4, 1),
              tanh_batch=6)

ROSENBROCK_START = np.array([[-1.0, 2.0]])


def rosenbrock_data() -> dict[str, np.ndarray]:
    return {"x": ROSENBROCK_START.copy()}


def mlp_data(sizes: Sizes, dtype: type = np.float64, seed: int = 1) -> dict[str, Any]:
    """Weights (He-scaled), a batch of inputs and one-hot targets."""
    rng = np.random.default_rng(seed)
    d, h, k = sizes.mlp
    b = sizes.batch
    params = {
        "W1": rng.standard_normal((h, d)) * np.sqrt(2 / d),
        "b1": 0.1 * rng.standard_normal((h, 1)),
        "W2": rng.standard_normal((k, h)) * np.sqrt(1 / h),
        "b2": 0.1 * rng.standard_normal((k, 1)),
    }
    x = rng.standard_normal((d, b))
    t = np.zeros((k, b))
    t[rng.integers(0, k, size=b), np.arange(b)] = 1
    cast = {name: np.asfortranarray(v, dtype=dtype) for name, v in params.items()}
    return {"params": cast, "X": np.asfortranarray(x, dtype=dtype),
            "T": np.asfortranarray(t, dtype=dtype)}


def pinn_data(sizes: Sizes, seed: int = 2) -> dict[str, Any]:
    """A tanh MLP u(x, t), collocation points in [-1, 1] x [0, 1] and targets f, g."""
    rng = np.random.default_rng(seed)
    widths = sizes.pinn
    params: dict[str, np.ndarray] = {}
    for layer, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:], strict=True), 1):
        params[f"W{layer}"] = rng.standard_normal((fan_out, fan_in)) * np.sqrt(1 / fan_in)
        params[f"b{layer}"] = 0.1 * rng.standard_normal((fan_out, 1))
    n = sizes.points
    x = np.vstack([rng.uniform(-1, 1, n), rng.uniform(0, 1, n)])
    f = (-np.pi**2 * np.sin(np.pi * x[0]) * np.exp(-x[1])).reshape(1, n)
    g = (np.sin(np.pi * x[0]) * np.exp(-x[1])).reshape(1, n)
    return {"params": {k: np.asfortranarray(v) for k, v in params.items()},
            "X": np.asfortranarray(x), "f": f, "g": g}


def tanh_data(sizes: Sizes, seed: int = 3) -> dict[str, Any]:
    """A tanh MLP regression in single precision (a dlnetwork's learnables are single):
    parameters W1, b1, ..., inputs X (features x batch) and targets T (1 x batch)."""
    rng = np.random.default_rng(seed)
    widths = sizes.tanh_mlp
    params: dict[str, np.ndarray] = {}
    for layer, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:], strict=True), 1):
        bound = np.sqrt(6 / (fan_in + fan_out))  # glorot, as fullyConnectedLayer makes them
        params[f"W{layer}"] = rng.uniform(-bound, bound, (fan_out, fan_in))
        params[f"b{layer}"] = 0.1 * rng.standard_normal((fan_out, 1))
    x = rng.uniform(-1, 1, (widths[0], sizes.tanh_batch))
    t = np.sin(x.sum(axis=0, keepdims=True))
    single = np.float32
    return {"params": {k: np.asfortranarray(v, dtype=single) for k, v in params.items()},
            "X": np.asfortranarray(x, dtype=single), "T": np.asfortranarray(t, dtype=single)}


# --------------------------------------------------- NumPy, hand-written


def rosenbrock_numpy(data: dict[str, Any]) -> Result:
    x = data["x"]
    x1, x2 = x[0, 0], x[0, 1]
    r = x2 - x1 * x1
    y = 100 * r * r + (1 - x1) ** 2
    g = np.array([[-400 * x1 * r - 2 * (1 - x1), 200 * r]])
    return y, {"x": g}


def _mlp_forward(p: dict[str, np.ndarray], x: np.ndarray, t: np.ndarray) -> tuple:
    h = np.maximum(p["W1"] @ x + p["b1"], 0)
    z = p["W2"] @ h + p["b2"]
    e = np.exp(z)
    prob = e / e.sum(axis=0, keepdims=True)
    loss = -(t * np.log(prob)).sum() / x.shape[1]
    return loss, h, prob


def mlp_loss_numpy(data: dict[str, Any]) -> Result:
    loss, _, _ = _mlp_forward(data["params"], data["X"], data["T"])
    return loss, None


def mlp_gradient_numpy(data: dict[str, Any]) -> Result:
    p, x, t = data["params"], data["X"], data["T"]
    loss, h, prob = _mlp_forward(p, x, t)
    dz = (prob - t) * (1 / x.shape[1])  # the targets are one-hot: each column sums to 1
    dh = p["W2"].T @ dz
    dh *= h > 0
    grads = {"W1": dh @ x.T, "b1": dh.sum(axis=1, keepdims=True),
             "W2": dz @ h.T, "b2": dz.sum(axis=1, keepdims=True)}
    return loss, grads


def _tanh_jet(w: np.ndarray, b: np.ndarray, h: np.ndarray, hx: np.ndarray | None,
              hxx: np.ndarray | None) -> tuple:
    """A tanh layer on a second-order jet in x: (z, zx, zxx) -> (a, ax, axx) and the
    intermediates its reverse pass needs.  hx/hxx None: the layer's input is [x; t]."""
    z = w @ h + b
    if hx is None:
        zx = w[:, :1]  # d[x; t]/dx = [1; 0], broadcast over the points
        zxx = None
    else:
        zx = w @ hx
        zxx = w @ hxx
    a = np.tanh(z)
    s = 1 - a * a  # tanh'
    ax = s * zx
    axx = -2 * a * s * zx * zx
    if zxx is not None:
        axx = axx + s * zxx
    return (z, zx, zxx, a, s), (a, ax, axx)


def _tanh_jet_back(cache: tuple, la: np.ndarray, lax: np.ndarray, laxx: np.ndarray) -> tuple:
    """Reverse pass of ``_tanh_jet``: the adjoints of (a, ax, axx) -> those of (z, zx, zxx)."""
    _, zx, zxx, a, s = cache
    # axx = s*zxx - 2*a*s*zx^2;  ax = s*zx;  s = 1 - a^2;  a = tanh(z)
    zx2 = zx * zx
    ls = laxx * (-2 * a * zx2) + lax * zx
    la = la + laxx * (-2 * s * zx2)
    lzx = laxx * (-4 * a * s * zx) + lax * s
    lzxx = None
    if zxx is not None:
        ls = ls + laxx * zxx
        lzxx = laxx * s
    la = la + ls * (-2 * a)
    return la * s, lzx, lzxx


def pinn_gradient_numpy(data: dict[str, Any]) -> Result:
    """Forward mode for u_x and u_xx (jets through each layer), then the reverse pass
    for the gradient of the loss with respect to every weight and bias."""
    p, x, f, g = data["params"], data["X"], data["f"], data["g"]
    layers = len(p) // 2
    n = x.shape[1]
    caches = []
    h, hx, hxx = x, None, None
    inputs = []
    for k in range(1, layers):
        inputs.append((h, hx, hxx))
        cache, (h, hx, hxx) = _tanh_jet(p[f"W{k}"], p[f"b{k}"], h, hx, hxx)
        caches.append(cache)
    w_out, b_out = p[f"W{layers}"], p[f"b{layers}"]
    u = w_out @ h + b_out
    uxx = w_out @ hxx
    ru, rxx = u - g, uxx - f
    loss = (rxx * rxx).sum() / n + (ru * ru).sum() / n
    lu, luxx = (2 / n) * ru, (2 / n) * rxx
    grads = {f"W{layers}": lu @ h.T + luxx @ hxx.T, f"b{layers}": lu.sum(axis=1, keepdims=True)}
    la, lax, laxx = w_out.T @ lu, np.zeros_like(hx), w_out.T @ luxx
    for k in range(layers - 1, 0, -1):
        lz, lzx, lzxx = _tanh_jet_back(caches[k - 1], la, lax, laxx)
        h_in, hx_in, hxx_in = inputs[k - 1]
        w = p[f"W{k}"]
        gw = lz @ h_in.T
        if hx_in is None:
            gw[:, :1] += lzx.sum(axis=1, keepdims=True)
        else:
            gw += lzx @ hx_in.T + lzxx @ hxx_in.T
            la, lax, laxx = w.T @ lz, w.T @ lzx, w.T @ lzxx
        grads[f"W{k}"] = gw
        grads[f"b{k}"] = lz.sum(axis=1, keepdims=True)
    return loss, dict(sorted(grads.items()))


# ------------------------------------------------ training steps (Adam)

ADAM = {"learn_rate": 0.001, "grad_decay": 0.9, "sq_grad_decay": 0.999, "epsilon": 1e-8}


def _crossentropy_softmax_forward(p: dict[str, np.ndarray], x: np.ndarray, t: np.ndarray) -> tuple:
    """fullyconnect, relu, fullyconnect, softmax (stable: the largest logit subtracted)
    and crossentropy (predictions below eps count as eps, as MATLAB's does)."""
    h = p["W1"] @ x
    h += p["b1"]
    np.maximum(h, 0, out=h)
    z = p["W2"] @ h
    z += p["b2"]
    z -= z.max(axis=0, keepdims=True)
    prob = np.exp(z)
    prob /= prob.sum(axis=0, keepdims=True)
    tiny = np.finfo(prob.dtype).eps
    loss = -(t * np.log(np.maximum(prob, tiny))).sum() / x.shape[1]
    return loss, h, prob


def _mlp_train_gradient(p: dict[str, np.ndarray], x: np.ndarray, t: np.ndarray) -> tuple:
    loss, h, prob = _crossentropy_softmax_forward(p, x, t)
    dz = prob - t  # softmax and cross-entropy together (one-hot targets)
    dz *= 1 / x.shape[1]
    dh = p["W2"].T @ dz
    dh *= h > 0
    grads = {"W1": dh @ x.T, "b1": dh.sum(axis=1, keepdims=True),
             "W2": dz @ h.T, "b2": dz.sum(axis=1, keepdims=True)}
    return loss, grads


class _Adam:
    """Adam in NumPy, updating parameters and moving averages in place: one ``step``
    per iteration, as adamupdate computes it."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        # in NumPy's own row-major layout, the one of the gradients (products): element-wise
        # operations mixing row- and column-major operands are several times slower
        self.params = {k: np.array(v, order="C") for k, v in params.items()}
        self.avg = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.avg_sq = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.iteration = 0

    def step(self, grads: dict[str, np.ndarray]) -> None:
        self.iteration += 1
        lr, b1, b2, eps = (ADAM[k] for k in ("learn_rate", "grad_decay", "sq_grad_decay", "epsilon"))
        root_c2 = math.sqrt(1 - b2 ** self.iteration)  # a Python float: single stays single
        scale = lr * root_c2 / (1 - b1 ** self.iteration)
        for name, g in grads.items():
            m, v = self.avg[name], self.avg_sq[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            denominator = np.sqrt(v)
            denominator += eps * root_c2
            step = m * scale
            step /= denominator
            self.params[name] -= step

    def state(self) -> dict[str, np.ndarray]:
        """Copies of the parameters and the gradient moving averages (avg_<name>)."""
        out = {k: v.copy() for k, v in self.params.items()}
        out.update({f"avg_{k}": v.copy() for k, v in self.avg.items()})
        return dict(sorted(out.items()))


def trainer(make_state: Callable[[dict[str, Any]], Any],
            step: Callable[[Any, dict[str, Any]], Result]) -> Callable[[dict[str, Any]], Result]:
    """A training-step function ``fn(data)``: each call makes one step from where the
    previous call on the same data left off (the first from the data's parameters).
    The result (the loss and the state after the step) is copied on the first step
    only, the one checked, so the timed steps pay for no copies."""
    states: dict[int, tuple[dict[str, Any], Any]] = {}

    def fn(data: dict[str, Any]) -> Result:
        found = states.get(id(data))
        if found is None:
            found = states[id(data)] = (data, make_state(data))  # data kept: its id stays its own
        return step(found[1], data)

    return fn


def _numpy_train_step(gradient: Callable[[dict[str, Any]], Result]) -> Callable:
    def step(adam: _Adam, data: dict[str, Any]) -> Result:
        loss, grads = gradient({**data, "params": adam.params})
        adam.step(grads)
        return loss, (adam.state() if adam.iteration == 1 else None)

    return step


def _mlp_gradient_for_training(data: dict[str, Any]) -> Result:
    return _mlp_train_gradient(data["params"], data["X"], data["T"])


def _tanh_train_gradient(data: dict[str, Any]) -> Result:
    """The half mean squared error of the tanh MLP (mse) and its gradient."""
    p, x, t = data["params"], data["X"], data["T"]
    layers = len(p) // 2
    hs = [x]
    for k in range(1, layers):
        z = p[f"W{k}"] @ hs[-1]
        z += p[f"b{k}"]
        hs.append(np.tanh(z, out=z))
    r = p[f"W{layers}"] @ hs[-1]
    r += p[f"b{layers}"]
    r -= t
    n = x.shape[1]
    loss = float((r * r).sum()) / (2 * n)
    dz = r * np.float32(1 / n) if r.dtype == np.float32 else r / n
    grads = {}
    for k in range(layers, 0, -1):
        grads[f"W{k}"] = dz @ hs[k - 1].T
        grads[f"b{k}"] = dz.sum(axis=1, keepdims=True)
        if k > 1:
            dh = p[f"W{k}"].T @ dz
            h = hs[k - 1]
            dh *= 1 - h * h
            dz = dh
    return loss, dict(sorted(grads.items()))


def tanh_train_numpy() -> Callable[[dict[str, Any]], Result]:
    return trainer(lambda d: _Adam(d["params"]), _numpy_train_step(_tanh_train_gradient))


def mlp_train_numpy() -> Callable[[dict[str, Any]], Result]:
    return trainer(lambda d: _Adam(d["params"]), _numpy_train_step(_mlp_gradient_for_training))


def pinn_train_numpy() -> Callable[[dict[str, Any]], Result]:
    return trainer(lambda d: _Adam(d["params"]), _numpy_train_step(pinn_gradient_numpy))


# ------------------------------------------------------------ HIPS autograd


def have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _autograd() -> dict[str, Callable[[dict[str, Any]], Result]]:
    import autograd
    import autograd.numpy as anp

    def rosenbrock(x: Any) -> Any:
        return 100 * (x[0, 1] - x[0, 0] ** 2) ** 2 + (1 - x[0, 0]) ** 2

    rosenbrock_vg = autograd.value_and_grad(rosenbrock)

    def mlp_loss(p: dict, x: Any, t: Any) -> Any:
        h = anp.maximum(anp.dot(p["W1"], x) + p["b1"], 0)
        z = anp.dot(p["W2"], h) + p["b2"]
        e = anp.exp(z)
        prob = e / anp.sum(e, axis=0, keepdims=True)
        return -anp.sum(t * anp.log(prob)) / x.shape[1]

    mlp_vg = autograd.value_and_grad(mlp_loss)

    def model(p: dict, x: Any) -> Any:
        layers = len(p) // 2
        h = x
        for k in range(1, layers):
            h = anp.tanh(anp.dot(p[f"W{k}"], h) + p[f"b{k}"])
        return anp.dot(p[f"W{layers}"], h) + p[f"b{layers}"]

    def pinn_loss(p: dict, x: Any, f: Any, g: Any) -> Any:
        u_x = autograd.grad(lambda xx: anp.sum(model(p, xx)))
        u_xx = autograd.grad(lambda xx: anp.sum(u_x(xx)[0]))
        uxx = u_xx(x)[0]
        u = model(p, x)
        return anp.mean((uxx - f) ** 2) + anp.mean((u - g) ** 2)

    pinn_vg = autograd.value_and_grad(pinn_loss)

    def plain(result: tuple) -> Result:
        value, grads = result
        return value, {k: np.asarray(v) for k, v in grads.items()}

    return {
        "rosenbrock": lambda d: (lambda vg: (vg[0], {"x": vg[1]}))(rosenbrock_vg(d["x"])),
        "mlp_gradient": lambda d: plain(mlp_vg(d["params"], d["X"], d["T"])),
        "mlp_forward": lambda d: (mlp_loss(d["params"], d["X"], d["T"]), None),
        "pinn": lambda d: plain(pinn_vg(d["params"], d["X"], d["f"], d["g"])),
    }


# ------------------------------------------------------------- PyTorch CPU


def _torch() -> dict[str, Callable[[dict[str, Any]], Result]]:
    import torch

    torch.set_num_threads(1)
    tensors: dict[int, dict[str, Any]] = {}

    def as_torch(d: dict[str, Any]) -> dict[str, Any]:
        """The data as tensors, made once per data set (outside the timed calls)."""
        found = tensors.get(id(d))
        if found is None:
            found = {}
            for key, v in d.items():
                if isinstance(v, dict):
                    found[key] = {k: torch.from_numpy(np.ascontiguousarray(a)).requires_grad_()
                                  for k, a in v.items()}
                else:
                    found[key] = torch.from_numpy(np.ascontiguousarray(v))
            tensors[id(d)] = found
        return found

    def grads_of(loss: Any, params: dict[str, Any]) -> Result:
        gs = torch.autograd.grad(loss, list(params.values()))
        return loss.item(), {k: g.numpy() for k, g in zip(params, gs, strict=True)}

    def rosenbrock(d: dict[str, Any]) -> Result:
        x = as_torch(d)["x"].clone().requires_grad_()
        y = 100 * (x[0, 1] - x[0, 0] ** 2) ** 2 + (1 - x[0, 0]) ** 2
        (g,) = torch.autograd.grad(y, x)
        return y.item(), {"x": g.numpy()}

    def mlp_loss(t: dict[str, Any]) -> Any:
        p, x = t["params"], t["X"]
        h = torch.relu(p["W1"] @ x + p["b1"])
        z = p["W2"] @ h + p["b2"]
        e = torch.exp(z)
        prob = e / e.sum(dim=0, keepdim=True)
        return -(t["T"] * torch.log(prob)).sum() / x.shape[1]

    def mlp_gradient(d: dict[str, Any]) -> Result:
        t = as_torch(d)
        return grads_of(mlp_loss(t), t["params"])

    def mlp_forward(d: dict[str, Any]) -> Result:
        with torch.no_grad():
            return mlp_loss(as_torch(d)).item(), None

    def pinn_loss(p: dict[str, Any], t: dict[str, Any]) -> Any:
        x = t["X"].clone().requires_grad_()
        layers = len(p) // 2
        h = x
        for k in range(1, layers):
            h = torch.tanh(p[f"W{k}"] @ h + p[f"b{k}"])
        u = p[f"W{layers}"] @ h + p[f"b{layers}"]
        (du,) = torch.autograd.grad(u.sum(), x, create_graph=True)
        (d2u,) = torch.autograd.grad(du[0].sum(), x, create_graph=True)
        return ((d2u[0:1] - t["f"]) ** 2).mean() + ((u - t["g"]) ** 2).mean()

    def pinn(d: dict[str, Any]) -> Result:
        t = as_torch(d)
        return grads_of(pinn_loss(t["params"], t), t["params"])

    def classifier_loss(p: dict[str, Any], t: dict[str, Any]) -> Any:
        """fullyconnect, relu, fullyconnect, softmax, crossentropy (bounded at eps)."""
        x = t["X"]
        h = torch.relu(p["W1"] @ x + p["b1"])
        prob = torch.softmax(p["W2"] @ h + p["b2"], dim=0)
        tiny = torch.finfo(prob.dtype).eps
        return -(t["T"] * torch.log(prob.clamp_min(tiny))).sum() / x.shape[1]

    def adam_state(d: dict[str, Any]) -> tuple:
        """Trainable copies of the parameters and torch.optim.Adam over them."""
        params = {k: torch.from_numpy(np.ascontiguousarray(v)).clone().requires_grad_()
                  for k, v in d["params"].items()}
        optimizer = torch.optim.Adam(params.values(), lr=ADAM["learn_rate"],
                                     betas=(ADAM["grad_decay"], ADAM["sq_grad_decay"]),
                                     eps=ADAM["epsilon"])
        return params, optimizer, [0]

    def train_step(loss_fn: Callable) -> Callable:
        def step(state: tuple, d: dict[str, Any]) -> Result:
            params, optimizer, count = state
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(params, as_torch(d))
            loss.backward()
            optimizer.step()
            count[0] += 1
            if count[0] > 1:
                return loss.item(), None
            out = {k: v.detach().numpy().copy() for k, v in params.items()}
            out.update({f"avg_{k}": optimizer.state[v]["exp_avg"].numpy().copy()
                        for k, v in params.items()})
            return loss.item(), dict(sorted(out.items()))

        return step

    def tanh_loss(p: dict[str, Any], t: dict[str, Any]) -> Any:
        layers = len(p) // 2
        h = t["X"]
        for k in range(1, layers):
            h = torch.tanh(p[f"W{k}"] @ h + p[f"b{k}"])
        r = p[f"W{layers}"] @ h + p[f"b{layers}"] - t["T"]
        return (r * r).sum() / (2 * h.shape[1])

    return {"rosenbrock": rosenbrock, "mlp_gradient": mlp_gradient,
            "mlp_forward": mlp_forward, "pinn": pinn,
            "mlp_train": trainer(adam_state, train_step(classifier_loss)),
            "pinn_train": trainer(adam_state, train_step(pinn_loss)),
            "tanhnet_train": trainer(adam_state, train_step(tanh_loss)),
            "tanhfn_train": trainer(adam_state, train_step(tanh_loss))}


NUMPY = {"rosenbrock": rosenbrock_numpy, "mlp_gradient": mlp_gradient_numpy,
         "mlp_forward": mlp_loss_numpy, "pinn": pinn_gradient_numpy}
# fresh trainers; the tanh MLP is trained as a dlnetwork and as a model function
TRAINING = {"mlp_train": mlp_train_numpy, "pinn_train": pinn_train_numpy,
            "tanhnet_train": tanh_train_numpy, "tanhfn_train": tanh_train_numpy}


def expected(kind: str, data: dict[str, Any]) -> Result:
    """The NumPy reference result of one call (a training kind: the first step)."""
    if kind in TRAINING:
        return TRAINING[kind]()(data)
    return NUMPY[kind](data)


def engines() -> dict[str, dict[str, Callable[[dict[str, Any]], Result]] | None]:
    """Implementations by engine: NumPy always, autograd and torch when importable
    (None when not installed).  Training steps keep their state from call to call:
    call this again for fresh ones."""
    return {"NumPy": {**NUMPY, **{kind: make() for kind, make in TRAINING.items()}},
            "torch": _torch() if have("torch") else None,
            "autograd": _autograd() if have("autograd") else None}
