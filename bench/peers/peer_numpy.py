"""The tpbench cases in NumPy, written as a NumPy user writes them.

Each class is built from the job's inputs (a dict of arrays, already copies)
and its params; step() runs the case once, updating its state in place for
the training steps and the stencil, and outputs() returns the arrays that
tensorplay's outputs are compared with, in the same order.
"""

import math

import numpy as np


def init(threads):
    pass  # BLAS threads come from OPENBLAS_NUM_THREADS / OMP_NUM_THREADS


def version():
    return "numpy " + np.__version__


def blas_config():
    try:
        info = np.__config__.blas_opt_info
        return "numpy.show_config: " + ", ".join(info.get("libraries", [])) or "unknown"
    except Exception:
        return "unknown"


def convert(inputs):
    return inputs


def sync():
    pass


class Conv2d:
    """conv2d as a NumPy user writes it: windows of the padded input
    (sliding_window_view) contracted with the kernels (tensordot; einsum per
    channel for a depthwise convolution)."""

    def __init__(self, t, p):
        self.x, self.w = t["x"], t["w"]
        self.padding, self.groups = int(p["padding"]), int(p["groups"])

    def step(self):
        q = self.padding
        x = np.pad(self.x, ((0, 0), (0, 0), (q, q), (q, q)))
        win = np.lib.stride_tricks.sliding_window_view(x, self.w.shape[2:], axis=(2, 3))
        if self.groups == 1:
            self.out = np.tensordot(win, self.w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)
        else:  # depthwise, one kernel per channel
            self.out = np.einsum("nchwij,cij->nchw", win, self.w[:, 0])

    def outputs(self):
        return [self.out]


class MatMul:
    """c = a @ b into a preallocated c."""

    def __init__(self, t, p):
        self.a, self.b = t["a"], t["b"]
        self.c = np.empty((self.a.shape[0], self.b.shape[1]), dtype=self.a.dtype)

    def step(self):
        np.matmul(self.a, self.b, out=self.c)

    def outputs(self):
        return [self.c]


class SoftmaxXent:
    """mean cross-entropy of softmax(logits) at integer labels."""

    def __init__(self, t, p):
        self.x, self.y = t["logits"], t["labels"]
        self.rows = np.arange(len(self.y))

    def step(self):
        x = self.x
        z = x - x.max(axis=1, keepdims=True)
        lse = np.log(np.exp(z).sum(axis=1, keepdims=True))
        self.loss = -(z[self.rows, self.y] - lse[:, 0]).mean()

    def outputs(self):
        return [np.asarray(self.loss, dtype=self.x.dtype)]


class LinReg:
    """one gradient-descent step of mean((X@w + b - y)**2), gradient by hand."""

    def __init__(self, t, p):
        self.X, self.y, self.w, self.b = t["X"], t["y"], t["w"], t["b"]
        self.lr = p["lr"]

    def step(self):
        n = self.X.shape[0]
        r = self.X @ self.w + self.b - self.y
        gw = (2.0 / n) * (self.X.T @ r)
        gb = (2.0 / n) * r.sum(axis=0)
        self.w -= self.lr * gw
        self.b -= self.lr * gb

    def outputs(self):
        return [self.w, self.b]


class KMeans:
    """one Lloyd iteration: assign by |c|^2 - 2 x.c, means by one-hot matmul."""

    def __init__(self, t, p):
        self.X, self.C = t["X"], t["C"]
        self.k = np.arange(self.C.shape[0])

    def step(self):
        X, C = self.X, self.C
        d = (C * C).sum(axis=1)[None, :] - 2 * (X @ C.T)
        a = d.argmin(axis=1)
        onehot = (a[:, None] == self.k[None, :]).astype(X.dtype)
        counts = onehot.sum(axis=0)[:, None]
        C[...] = (onehot.T @ X) / np.maximum(counts, 1)

    def outputs(self):
        return [self.C]


class ChannelNorm:
    """per-channel normalization of an NCHW batch, written out as NHWC."""

    def __init__(self, t, p):
        self.x, self.eps = t["x"], p["eps"]
        n, c, h, w = self.x.shape
        self.out = np.empty((n, h, w, c), dtype=self.x.dtype)

    def step(self):
        x = self.x
        mu = x.mean(axis=(0, 2, 3), keepdims=True)
        xc = x - mu
        var = (xc * xc).mean(axis=(0, 2, 3), keepdims=True)
        np.copyto(self.out, (xc / np.sqrt(var + self.x.dtype.type(self.eps))).transpose(0, 2, 3, 1))

    def outputs(self):
        return [self.out]


class Jacobi:
    """one Jacobi sweep in NumPy's in-place slice form."""

    def __init__(self, t, p):
        self.u = t["u"]

    def step(self):
        u = self.u
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])

    def outputs(self):
        return [self.u]


class MLP:
    """one SGD step of a relu MLP with softmax cross-entropy, backward by hand."""

    def __init__(self, t, p):
        self.X, self.y = t["X"], t["labels"]
        self.W1, self.b1, self.W2, self.b2 = t["W1"], t["b1"], t["W2"], t["b2"]
        self.lr = self.X.dtype.type(p["lr"])
        self.rows = np.arange(len(self.y))

    def step(self):
        X, n = self.X, self.X.shape[0]
        pre = X @ self.W1 + self.b1
        h = np.maximum(pre, 0)
        logits = h @ self.W2 + self.b2
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        g = e / e.sum(axis=1, keepdims=True)
        g[self.rows, self.y] -= 1
        g /= n
        gW2, gb2 = h.T @ g, g.sum(axis=0)
        gh = g @ self.W2.T
        gh[pre <= 0] = 0
        gW1, gb1 = X.T @ gh, gh.sum(axis=0)
        self.W1 -= self.lr * gW1
        self.b1 -= self.lr * gb1
        self.W2 -= self.lr * gW2
        self.b2 -= self.lr * gb2

    def outputs(self):
        return [self.W1, self.b1, self.W2, self.b2]


class Attention:
    """softmax(Q K^T / sqrt(d)) V over a batch of heads."""

    def __init__(self, t, p):
        self.Q, self.K, self.V = t["Q"], t["K"], t["V"]
        self.scale = self.Q.dtype.type(1 / math.sqrt(self.Q.shape[-1]))
        self.out = np.empty_like(self.Q)

    def step(self):
        s = (self.Q @ self.K.transpose(0, 2, 1)) * self.scale
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        np.matmul(s, self.V, out=self.out)

    def outputs(self):
        return [self.out]


class LayerNormGELU:
    """layer norm over the last axis, then GELU in its tanh form."""

    def __init__(self, t, p):
        self.x, self.gamma, self.beta = t["x"], t["gamma"], t["beta"]
        self.eps = self.x.dtype.type(p["eps"])

    def step(self):
        x = self.x
        mu = x.mean(axis=-1, keepdims=True)
        xc = x - mu
        var = (xc * xc).mean(axis=-1, keepdims=True)
        y = xc / np.sqrt(var + self.eps) * self.gamma + self.beta
        c = self.x.dtype.type(math.sqrt(2 / math.pi))
        self.out = 0.5 * y * (1 + np.tanh(c * (y + 0.044715 * y * y * y)))

    def outputs(self):
        return [self.out]


class LinearReLU:
    """relu(x @ W + b)."""

    def __init__(self, t, p):
        self.x, self.W, self.b = t["x"], t["W"], t["b"]

    def step(self):
        self.out = np.maximum(self.x @ self.W + self.b, 0)

    def outputs(self):
        return [self.out]


class Standard:
    """The standard rows W1-W10 in NumPy's out= forms: into preallocated
    arrays, one ufunc call per op, a scratch array where the chain needs
    one (the fastest NumPy a user writes without numexpr)."""

    def __init__(self, t, p):
        self.t = t
        self.out = np.empty(self.shape(t), dtype=t["a" if "a" in t else "x"].dtype)
        self.tmp = np.empty_like(self.out)

    def outputs(self):
        return [self.out]


def standard(shape, step):
    return type("W", (Standard,), {"shape": staticmethod(shape), "step": step})


def _same(t):
    return t["a"].shape


def _outer(t):
    return (t["a"].shape[0], t["b"].shape[1])


def _w3(s):
    a, b, c, o, t = s.t["a"], s.t["b"], s.t["c"], s.out, s.tmp
    np.multiply(a, b, out=o)
    o += c
    np.subtract(a, b, out=t)
    o *= t
    np.add(c, 1.5, out=t)
    o /= t


def _w4(s):
    a, b, c, o, t = s.t["a"], s.t["b"], s.t["c"], s.out, s.tmp
    np.exp(a, out=o)
    np.sin(b, out=t)
    o *= t
    np.abs(c, out=t)
    np.sqrt(t, out=t)
    o += t


def _w15_softmax(s):
    # scipy.special.softmax's steps, with out= where NumPy has it.
    x, o = s.t["x"], s.out
    np.subtract(x, x.max(axis=-1, keepdims=True), out=o)
    np.exp(o, out=o)
    o /= o.sum(axis=-1, keepdims=True)


def _w15_logsumexp(s):
    # scipy.special.logsumexp's steps.
    x = s.t["x"]
    m = x.max(axis=-1, keepdims=True)
    np.log(np.exp(x - m).sum(axis=-1), out=s.out)
    s.out += m[:, 0]


class InPlaceAdd:
    """W8: a += b."""

    def __init__(self, t, p):
        self.a, self.b = t["a"], t["b"]

    def step(self):
        self.a += self.b

    def outputs(self):
        return [self.a]


STANDARD = {
    "w1": standard(_same, lambda s: np.add(s.t["a"], s.t["b"], out=s.out)),
    "w2": standard(_same, lambda s: (np.multiply(s.t["a"], s.t["b"], out=s.out), np.add(s.out, s.t["c"], out=s.out))),
    "w3": standard(_same, _w3),
    "w4": standard(_same, _w4),
    "w5": standard(_same, lambda s: np.add(s.t["a"], s.t["b"], out=s.out)),
    "w6": standard(_same, lambda s: np.add(s.t["a"], s.t["b"], out=s.out)),
    "w7": standard(_outer, lambda s: np.multiply(s.t["a"], s.t["b"], out=s.out)),
    "w8": InPlaceAdd,
    "w9": standard(_same, lambda s: np.add(s.t["a"], s.t["b"].T, out=s.out)),
    "w10_rows": standard(lambda t: t["x"].shape[:1], lambda s: np.sum(s.t["x"], axis=-1, out=s.out)),
    "w10_cols": standard(lambda t: t["x"].shape[1:], lambda s: np.sum(s.t["x"], axis=0, out=s.out)),
    "w10_all": standard(lambda t: (), lambda s: np.sum(s.t["x"], out=s.out)),
    "w15_softmax": standard(lambda t: t["x"].shape, _w15_softmax),
    "w15_logsumexp": standard(lambda t: t["x"].shape[:1], _w15_logsumexp),
    "w15_var": standard(lambda t: t["x"].shape[:1], lambda s: np.var(s.t["x"], axis=-1, out=s.out)),
}


PIPELINES = {
    **STANDARD,
    "matmul": MatMul,
    "linear_relu": LinearReLU,
    "xent": SoftmaxXent,
    "linreg": LinReg,
    "kmeans": KMeans,
    "channelnorm": ChannelNorm,
    "jacobi": Jacobi,
    "mlp": MLP,
    "attention": Attention,
    "layernorm_gelu": LayerNormGELU,
    "conv2d": Conv2d,
}
