#!/usr/bin/env python3
"""Writes conv_cases.json: inputs, PyTorch results and gradients for exec's
convolution and pooling tests.

Run from this directory with PyTorch 1.13 (installed for /usr/bin/python3):
    /usr/bin/python3 gen_conv_cases.py
The Go tests read only conv_cases.json; they never need Python.

Each case has the op, its parameters, the inputs, the output, an upstream
gradient "gy" and the gradients of sum(out * gy) with respect to every
input (float64 cases; float32 cases have the forward only).
"""
import json

import torch
import torch.nn.functional as F

torch.manual_seed(20261201)


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1).tolist()]}


cases = []


def run(name, op, fn, inputs, params, dtype=torch.float64, grads=True):
    ins = {k: v.to(dtype).requires_grad_(grads) for k, v in inputs.items()}
    out = fn(**ins)
    c = {"name": name, "op": op, "dtype": str(dtype).replace("torch.", ""), "params": params,
         "inputs": {k: enc(v) for k, v in ins.items()}, "out": enc(out)}
    if grads:
        gy = torch.randn(out.shape, dtype=dtype)
        (out * gy).sum().backward()
        c["gy"] = enc(gy)
        c["grads"] = {k: enc(v.grad) for k, v in ins.items()}
    cases.append(c)


def conv(name, n, c, spatial, o, kernel, stride=1, padding=0, dilation=1, groups=1, bias=True, dtype=torch.float64, grads=True):
    d = len(spatial)
    kernel = kernel if isinstance(kernel, (tuple, list)) else (kernel,) * d
    inputs = {"x": torch.randn(n, c, *spatial), "w": torch.randn(o, c // groups, *kernel)}
    if bias:
        inputs["b"] = torch.randn(o)
    fn = getattr(F, f"conv{d}d")
    pad = padding
    if isinstance(padding, (tuple, list)) and isinstance(padding[0], (tuple, list)):
        # (before, after) pairs: torch pads explicitly, then a valid conv.
        flat = [v for pair in reversed(padding) for v in pair]

        def f(x, w, b=None):
            return fn(F.pad(x, flat), w, b, stride=stride, dilation=dilation, groups=groups)
    else:
        def f(x, w, b=None):
            return fn(x, w, b, stride=stride, padding=pad, dilation=dilation, groups=groups)
    params = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    run(name, "conv", f, inputs, params, dtype, grads)


def pool(name, op, n, c, spatial, dtype=torch.float64, **params):
    d = len(spatial)
    x = torch.randn(n, c, *spatial)
    if params.pop("ties", False):
        x = torch.round(x * 2) / 2  # equal maxima in windows
    if op == "max_pool":
        def f(x):
            return getattr(F, f"max_pool{d}d")(x, params["kernel"], params.get("stride"), params.get("padding", 0),
                                                params.get("dilation", 1), ceil_mode=params.get("ceil_mode", False))
    elif op == "avg_pool":
        def f(x):
            return getattr(F, f"avg_pool{d}d")(x, params["kernel"], params.get("stride"), params.get("padding", 0),
                                                ceil_mode=params.get("ceil_mode", False),
                                                count_include_pad=params.get("count_include_pad", True))
    elif op == "adaptive_avg_pool":
        def f(x):
            return getattr(F, f"adaptive_avg_pool{d}d")(x, params["output"])
    else:
        def f(x):
            return getattr(F, f"adaptive_max_pool{d}d")(x, params["output"])
    run(name, op, f, {"x": x}, params, dtype)


# Convolutions: every option, odd sizes, 1x1 and large kernels, batches of 1 and many.
conv("conv2d 3x3", 2, 3, (7, 6), 4, 3)
conv("conv2d 3x3 pad 1 no bias", 1, 3, (8, 8), 8, 3, padding=1, bias=False)
conv("conv2d 1x1", 3, 5, (4, 5), 6, 1)
conv("conv2d 7x7 stride 2 pad 3", 2, 3, (11, 13), 4, 7, stride=2, padding=3)
conv("conv2d large kernel = input", 1, 2, (5, 5), 3, 5)
conv("conv2d rect kernel stride pair", 2, 3, (9, 10), 2, (2, 3), stride=(2, 1), padding=(1, 0))
conv("conv2d dilation 2", 1, 2, (9, 9), 3, 3, dilation=2, padding=2)
conv("conv2d dilation pair", 2, 2, (8, 11), 2, 3, dilation=(1, 3), padding=(1, 2))
conv("conv2d groups 2", 2, 4, (6, 6), 6, 3, groups=2, padding=1)
conv("conv2d depthwise", 3, 5, (7, 7), 5, 3, groups=5, padding=1)
conv("conv2d depthwise multiplier 2", 1, 3, (6, 5), 6, 3, groups=3)
conv("conv2d same odd kernel", 2, 3, (6, 7), 2, 3, padding="same")
conv("conv2d same even kernel", 1, 2, (6, 6), 3, 4, padding="same")
conv("conv2d same dilated", 1, 2, (7, 7), 2, 3, padding="same", dilation=2)
conv("conv2d valid", 2, 2, (5, 6), 3, 3, padding="valid")
conv("conv2d asymmetric pad pairs", 1, 2, (5, 5), 2, 3, padding=((0, 2), (1, 0)))
conv("conv2d stride 3 odd", 4, 3, (10, 7), 5, 3, stride=3, padding=1)
conv("conv2d batch 8", 8, 2, (5, 5), 3, 3, padding=1)
conv("conv1d", 2, 3, (11,), 4, 3, padding=1)
conv("conv1d stride dilation groups", 3, 4, (15,), 6, 3, stride=2, dilation=2, groups=2)
conv("conv1d same", 1, 2, (8,), 3, 5, padding="same")
conv("conv3d", 1, 2, (4, 5, 4), 3, 3, padding=1)
conv("conv3d stride groups", 2, 4, (5, 4, 6), 2, (2, 3, 2), stride=(1, 2, 2), groups=2)
conv("conv2d float32", 2, 3, (9, 9), 4, 3, padding=1, dtype=torch.float32, grads=False)
conv("conv2d float32 wide", 1, 16, (12, 12), 24, 3, padding=1, dtype=torch.float32, grads=False)
conv("conv2d many channels", 2, 17, (6, 6), 13, 3, padding=1)

# Poolings.
pool("max_pool2d 2", "max_pool", 2, 3, (6, 6), kernel=2)
pool("max_pool2d 3 stride 2 pad 1", "max_pool", 1, 2, (7, 8), kernel=3, stride=2, padding=1)
pool("max_pool2d ceil", "max_pool", 2, 2, (7, 7), kernel=2, stride=2, ceil_mode=True)
pool("max_pool2d ceil pad", "max_pool", 1, 2, (6, 9), kernel=3, stride=2, padding=1, ceil_mode=True)
pool("max_pool2d ties", "max_pool", 2, 2, (6, 6), kernel=3, stride=1, ties=True)
pool("max_pool2d dilation", "max_pool", 1, 2, (9, 9), kernel=3, stride=1, dilation=2)
pool("max_pool2d rect", "max_pool", 1, 3, (8, 9), kernel=(2, 3), stride=(2, 1))
pool("max_pool1d", "max_pool", 2, 3, (11,), kernel=3, stride=2, padding=1)
pool("max_pool1d ceil", "max_pool", 1, 2, (10,), kernel=3, stride=3, ceil_mode=True)
pool("avg_pool2d 2", "avg_pool", 2, 3, (6, 6), kernel=2)
pool("avg_pool2d 3 stride 2 pad 1", "avg_pool", 1, 2, (7, 8), kernel=3, stride=2, padding=1)
pool("avg_pool2d ceil pad", "avg_pool", 1, 2, (6, 9), kernel=3, stride=2, padding=1, ceil_mode=True)
pool("avg_pool2d ceil", "avg_pool", 2, 2, (7, 7), kernel=2, stride=2, ceil_mode=True)
pool("avg_pool2d exclude pad", "avg_pool", 1, 2, (7, 7), kernel=3, stride=2, padding=1, count_include_pad=False)
pool("avg_pool2d overlapping", "avg_pool", 2, 2, (6, 5), kernel=3, stride=1)
pool("avg_pool1d", "avg_pool", 2, 3, (11,), kernel=3, stride=2, padding=1)
pool("avg_pool1d ceil", "avg_pool", 1, 2, (10,), kernel=4, stride=3, padding=2, ceil_mode=True)
pool("adaptive_avg_pool2d 1", "adaptive_avg_pool", 2, 3, (8, 8), output=1)
pool("adaptive_avg_pool2d 3x2 of 7x5", "adaptive_avg_pool", 2, 2, (7, 5), output=(3, 2))
pool("adaptive_avg_pool2d up 5 of 3", "adaptive_avg_pool", 1, 2, (3, 4), output=5)
pool("adaptive_avg_pool1d 4 of 10", "adaptive_avg_pool", 2, 3, (10,), output=4)
pool("adaptive_max_pool2d 3x2 of 7x5", "adaptive_max_pool", 2, 2, (7, 5), output=(3, 2))
pool("adaptive_max_pool2d 1", "adaptive_max_pool", 1, 3, (6, 6), output=1)
pool("adaptive_max_pool1d 4 of 10", "adaptive_max_pool", 2, 3, (10,), output=4)
pool("max_pool2d float32", "max_pool", 2, 3, (8, 8), dtype=torch.float32, kernel=3, stride=2, padding=1)
pool("avg_pool2d float32", "avg_pool", 2, 3, (8, 8), dtype=torch.float32, kernel=3, stride=2, padding=1)

with open("conv_cases.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases}, f, indent=None)
    f.write("\n")
print(len(cases), "cases")
