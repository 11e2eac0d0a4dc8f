"""The tpbench cases in PyTorch, written as a PyTorch user writes them.

The same classes as peer_numpy.py, over torch tensors made from the job's
arrays (torch.from_numpy: no copy); the training steps use autograd and
update the parameters under torch.no_grad().
"""

import math

import torch
import torch.nn.functional as F


def init(threads):
    torch.set_num_threads(threads)


def version():
    return "torch " + torch.__version__


def blas_config():
    for line in torch.__config__.show().splitlines():
        if "BLAS_INFO" in line:
            return "torch: " + line.strip()
    return "unknown"


def convert(inputs):
    return {k: torch.from_numpy(v) for k, v in inputs.items()}


def sync():
    pass  # CPU only


class MatMul:
    def __init__(self, t, p):
        self.a, self.b = t["a"], t["b"]
        self.c = torch.empty((self.a.shape[0], self.b.shape[1]), dtype=self.a.dtype)

    def step(self):
        torch.matmul(self.a, self.b, out=self.c)

    def outputs(self):
        return [self.c.numpy()]


class SoftmaxXent:
    def __init__(self, t, p):
        self.x, self.y = t["logits"], t["labels"]

    def step(self):
        self.loss = F.cross_entropy(self.x, self.y)

    def outputs(self):
        return [self.loss.numpy()]


class LinReg:
    def __init__(self, t, p):
        self.X, self.y = t["X"], t["y"]
        self.w = t["w"].requires_grad_()
        self.b = t["b"].requires_grad_()
        self.lr = p["lr"]

    def step(self):
        loss = ((self.X @ self.w + self.b - self.y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for q in (self.w, self.b):
                q -= self.lr * q.grad
                q.grad = None

    def outputs(self):
        return [self.w.detach().numpy(), self.b.detach().numpy()]


class KMeans:
    def __init__(self, t, p):
        self.X, self.C = t["X"], t["C"]
        self.k = torch.arange(self.C.shape[0])

    def step(self):
        X, C = self.X, self.C
        d = (C * C).sum(dim=1)[None, :] - 2 * (X @ C.T)
        a = d.argmin(dim=1)
        onehot = (a[:, None] == self.k[None, :]).to(X.dtype)
        counts = onehot.sum(dim=0)[:, None]
        C.copy_((onehot.T @ X) / counts.clamp(min=1))

    def outputs(self):
        return [self.C.numpy()]


class ChannelNorm:
    def __init__(self, t, p):
        self.x, self.eps = t["x"], p["eps"]
        n, c, h, w = self.x.shape
        self.out = torch.empty((n, h, w, c), dtype=self.x.dtype)

    def step(self):
        x = self.x
        mu = x.mean(dim=(0, 2, 3), keepdim=True)
        xc = x - mu
        var = (xc * xc).mean(dim=(0, 2, 3), keepdim=True)
        self.out.copy_((xc / torch.sqrt(var + self.eps)).permute(0, 2, 3, 1))

    def outputs(self):
        return [self.out.numpy()]


class Jacobi:
    def __init__(self, t, p):
        self.u = t["u"]

    def step(self):
        u = self.u
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])

    def outputs(self):
        return [self.u.numpy()]


class MLP:
    def __init__(self, t, p):
        self.X, self.y = t["X"], t["labels"]
        self.params = [t[k].requires_grad_() for k in ("W1", "b1", "W2", "b2")]
        self.lr = p["lr"]

    def step(self):
        W1, b1, W2, b2 = self.params
        logits = torch.relu(self.X @ W1 + b1) @ W2 + b2
        F.cross_entropy(logits, self.y).backward()
        with torch.no_grad():
            for q in self.params:
                q -= self.lr * q.grad
                q.grad = None

    def outputs(self):
        return [q.detach().numpy() for q in self.params]


class Attention:
    def __init__(self, t, p):
        self.Q, self.K, self.V = t["Q"], t["K"], t["V"]
        self.scale = 1 / math.sqrt(self.Q.shape[-1])
        self.out = torch.empty_like(self.Q)

    def step(self):
        s = torch.softmax((self.Q @ self.K.transpose(1, 2)) * self.scale, dim=-1)
        torch.matmul(s, self.V, out=self.out)

    def outputs(self):
        return [self.out.numpy()]


class LayerNormGELU:
    def __init__(self, t, p):
        self.x, self.gamma, self.beta = t["x"], t["gamma"], t["beta"]
        self.eps = p["eps"]

    def step(self):
        y = F.layer_norm(self.x, self.x.shape[-1:], self.gamma, self.beta, self.eps)
        self.out = F.gelu(y, approximate="tanh")

    def outputs(self):
        return [self.out.numpy()]


class LinearReLU:
    def __init__(self, t, p):
        self.x, self.W, self.b = t["x"], t["W"], t["b"]

    def step(self):
        self.out = torch.relu(self.x @ self.W + self.b)

    def outputs(self):
        return [self.out.numpy()]


class Conv2d:
    def __init__(self, t, p):
        self.x, self.w = t["x"], t["w"]
        self.padding, self.groups = int(p["padding"]), int(p["groups"])

    def step(self):
        self.out = F.conv2d(self.x, self.w, padding=self.padding, groups=self.groups)

    def outputs(self):
        return [self.out.numpy()]


class Standard:
    """The standard rows W1-W10 in PyTorch's out= forms (see peer_numpy.py)."""

    def __init__(self, t, p):
        self.t = t
        self.out = torch.empty(self.shape(t), dtype=t["a" if "a" in t else "x"].dtype)
        self.tmp = torch.empty_like(self.out)

    def outputs(self):
        return [self.out.numpy()]


def standard(shape, step):
    return type("W", (Standard,), {"shape": staticmethod(shape), "step": step})


def _same(t):
    return t["a"].shape


def _outer(t):
    return (t["a"].shape[0], t["b"].shape[1])


def _w2(s):
    torch.mul(s.t["a"], s.t["b"], out=s.out)
    s.out += s.t["c"]


def _w3(s):
    a, b, c, o, t = s.t["a"], s.t["b"], s.t["c"], s.out, s.tmp
    torch.mul(a, b, out=o)
    o += c
    torch.sub(a, b, out=t)
    o *= t
    torch.add(c, 1.5, out=t)
    o /= t


def _w4(s):
    a, b, c, o, t = s.t["a"], s.t["b"], s.t["c"], s.out, s.tmp
    torch.exp(a, out=o)
    torch.sin(b, out=t)
    o *= t
    torch.abs(c, out=t)
    torch.sqrt(t, out=t)
    o += t


class InPlaceAdd:
    def __init__(self, t, p):
        self.a, self.b = t["a"], t["b"]

    def step(self):
        self.a += self.b

    def outputs(self):
        return [self.a.numpy()]


STANDARD = {
    "w1": standard(_same, lambda s: torch.add(s.t["a"], s.t["b"], out=s.out)),
    "w2": standard(_same, _w2),
    "w3": standard(_same, _w3),
    "w4": standard(_same, _w4),
    "w5": standard(_same, lambda s: torch.add(s.t["a"], s.t["b"], out=s.out)),
    "w6": standard(_same, lambda s: torch.add(s.t["a"], s.t["b"], out=s.out)),
    "w7": standard(_outer, lambda s: torch.mul(s.t["a"], s.t["b"], out=s.out)),
    "w8": InPlaceAdd,
    "w9": standard(_same, lambda s: torch.add(s.t["a"], s.t["b"].T, out=s.out)),
    "w10_rows": standard(lambda t: t["x"].shape[:1], lambda s: torch.sum(s.t["x"], dim=-1, out=s.out)),
    "w10_cols": standard(lambda t: t["x"].shape[1:], lambda s: torch.sum(s.t["x"], dim=0, out=s.out)),
    "w10_all": standard(lambda t: (), lambda s: torch.sum(s.t["x"], dim=(0, 1), out=s.out)),
    "w15_softmax": standard(lambda t: t["x"].shape, lambda s: s.out.copy_(torch.softmax(s.t["x"], dim=-1))),
    "w15_logsumexp": standard(lambda t: t["x"].shape[:1], lambda s: torch.logsumexp(s.t["x"], dim=-1, out=s.out)),
    "w15_var": standard(lambda t: t["x"].shape[:1], lambda s: torch.var(s.t["x"], dim=-1, correction=0, out=s.out)),
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
