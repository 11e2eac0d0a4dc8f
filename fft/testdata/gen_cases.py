#!/usr/bin/env python3
"""Writes cases.json: inputs and numpy.fft results for fft's tests.

Run from this directory with NumPy 1.24 (Debian's python3-numpy):
    /usr/bin/python3 gen_cases.py
The Go tests read only cases.json; they never need Python.
"""
import json

import numpy as np

rng = np.random.default_rng(20261201)


def enc(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        data = [[float(v.real), float(v.imag)] for v in a.ravel()]
    else:
        data = [float(v) for v in a.ravel()]
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": data}


def real(*shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


def cplx(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


cases = []


def case(name, fn, x, **params):
    out = getattr(np.fft, fn)(x, **params)
    cases.append({"name": name, "fn": fn, "params": params, "input": enc(x), "expected": enc(out)})


for n in (1, 2, 5, 8, 12, 17, 64, 97):
    case(f"fft complex n={n}", "fft", cplx(n))
    case(f"ifft complex n={n}", "ifft", cplx(n))
    case(f"fft real n={n}", "fft", real(n))
    case(f"rfft n={n}", "rfft", real(n))
case("fft crop", "fft", cplx(10), n=7)
case("fft pad", "fft", cplx(5), n=9)
case("fft float32 input", "fft", real(12, dtype=np.float32))
case("fft complex64 input", "fft", cplx(6).astype(np.complex64))
case("fft batched axis 0", "fft", cplx(4, 6, 3), axis=0)
case("fft batched axis 1", "fft", cplx(4, 6, 3), axis=1)
case("ifft batched axis -1 ortho", "ifft", cplx(3, 5), norm="ortho")
case("fft forward norm", "fft", cplx(3, 8), norm="forward")
case("ifft forward norm", "ifft", cplx(8), norm="forward")
case("rfft axis 0 odd", "rfft", real(7, 3), axis=0)
case("rfft pad ortho", "rfft", real(6), n=11, norm="ortho")
case("irfft default n", "irfft", cplx(5))
case("irfft odd n", "irfft", cplx(5), n=9)
case("irfft crop n", "irfft", cplx(8), n=6)
case("irfft batched axis 0 forward", "irfft", cplx(4, 3), axis=0, norm="forward")
case("fft2", "fft2", cplx(4, 6))
case("fft2 batched", "fft2", cplx(2, 3, 5))
case("ifft2 ortho", "ifft2", cplx(5, 4), norm="ortho")
case("fftn all axes", "fftn", cplx(3, 4, 5))
case("fftn axes", "fftn", cplx(3, 4, 5), axes=(0, 2))
case("fftn s", "fftn", cplx(3, 4, 5), s=(6, 3))
case("fftn s and axes", "fftn", cplx(3, 4, 5), s=(2, 7), axes=(2, 0))
case("ifftn", "ifftn", cplx(4, 3, 2))
case("fftn real input", "fftn", real(4, 5))

freqs = []
for n, d in ((1, 1.0), (8, 1.0), (9, 0.1), (10, 2.5)):
    freqs.append({"n": n, "d": d, "fftfreq": enc(np.fft.fftfreq(n, d)), "rfftfreq": enc(np.fft.rfftfreq(n, d))})

with open("cases.json", "w") as f:
    json.dump({"numpy": np.__version__, "cases": cases, "freqs": freqs}, f, indent=None)
    f.write("\n")
print(len(cases), "cases")
