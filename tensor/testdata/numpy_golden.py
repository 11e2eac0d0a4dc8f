#!/usr/bin/env python3
"""Check tensor/testdata/golden against NumPy (1.24, as the reference vectors).

The golden files hold what TestFormatGolden prints. This script prints the same
arrays with NumPy -- str() for %v, repr() with "array" read as "tensor" and the
dtype always shown for %+v, printoptions(precision=N) for %.Nv -- and reports
every difference. It is a maintainer's tool, not part of the test suite:

    python3 tensor/testdata/numpy_golden.py

Keep its case list in step with TestFormatGolden in format_test.go.
"""
import numpy as np, math, os, difflib

G = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'golden')

def repr_t(arr):
    prefix = "tensor("
    if arr.size > 0 or arr.shape == (0,):
        lst = np.array2string(arr, separator=', ', prefix=prefix, suffix=",")
    else:
        lst = "[], shape=[%s]" % ", ".join(str(d) for d in arr.shape)
    s = prefix + lst + ","
    dt = "dtype={})".format(arr.dtype.name)
    last = len(s) - (s.rfind('\n') + 1)
    return s + ("\n" + " "*len(prefix) if last + len(dt) + 1 > 75 else " ") + dt
def strp(a, p):
    if a.shape == ():
        return np.array2string(a, precision=p)
    with np.printoptions(precision=p):
        return str(a)
def printed(a, *precs):
    out = "%v:\n" + str(a) + "\n%+v:\n" + repr_t(a) + "\n"
    for p in precs:
        out += "%%.%dv:\n" % p + strp(a, p) + "\n"
    return out
def sines(dt, *shape):
    n = int(np.prod(shape))
    return np.array([math.sin(i+1) for i in range(n)]).astype(dt).reshape(shape)
nan, inf = np.nan, np.inf
f64 = lambda shape, *v: np.array(v, dtype=np.float64).reshape(shape)
x34 = np.arange(12.).reshape(3, 4)
re = sines(np.float64, 12); im = sines(np.float64, 24)[12:]
cases = {
 'float64_matrix': printed(np.arange(6.).reshape(2, 3), 3),
 'float64_fractions': printed((np.arange(24.)/7).reshape(2, 3, 4), 3, 0),
 'float32_matrix': printed(np.arange(12, dtype=np.float32).reshape(3, 4)),
 'float32_shortest': printed(np.array([3.3, 0.1, 1234.5677], dtype=np.float32)),
 'float32_exact_digits': printed(np.array([3.3, 1e-3, 100.5], dtype=np.float32)),
 'float_padding': printed(f64([3], 0.1, 0.25, 3)),
 'float_small_values_scientific': printed(f64([2], 1e-5, 1)),
 'float_wide_range_scientific': printed(f64([2], 1, 1001)),
 'float_large_scientific': printed(f64([2, 2], 1e10, 2, 3, 4)),
 'float_extremes': printed(f64([3], 5e-324, 1.7976931348623157e308, -1e-300)),
 'float_nonfinite': printed(f64([3], nan, 1, -inf)),
 'float_all_nonfinite': printed(f64([2], nan, inf)),
 'float_signed_zero': printed(f64([2], -0.0, 0)),
 'float_wrapped_row': printed(np.arange(30.)),
 'float_wrapped_rows': printed(sines(np.float64, 3, 15)),
 'float_4d_precision': printed(sines(np.float64, 2, 2, 2, 3), 2),
 'summarized_1d': printed(np.arange(2000)),
 'summarized_2d_float32': printed(sines(np.float32, 50, 50)),
 'summarized_3d': printed(sines(np.float64, 11, 10, 10), 3),
 'summarized_just_over': printed(np.arange(1001, dtype=np.int16)),
 'not_summarized_at_1000': printed(np.arange(1000, dtype=np.uint16).reshape(100, 10)),
 'int8_matrix': printed(np.arange(-5, 20, dtype=np.int8).reshape(5, 5)),
 'uint8': printed(np.arange(250, 255, dtype=np.uint8)),
 'int64_wrapped': printed(np.arange(-1000, 1040, 17, dtype=np.int64).reshape(4, 30)),
 'bool': printed(np.array([[True, False], [False, False]])),
 'complex128': printed(np.array([1+2j, 3.5-1j])),
 'complex128_nonfinite': printed(np.array([1+2j, complex(nan, 1), complex(1, -inf)])),
 'complex64_scientific': printed(np.array([1e-5+1j, 2.5-3e6j], dtype=np.complex64)),
 'complex128_matrix': printed((re + 1j*im).reshape(3, 4)),
 'scalars': printed(np.array(2.0)) + printed(np.array(1e20)) + printed(np.array(1e-5)) + printed(np.array(0.1, dtype=np.float32)) + printed(np.array(1/3), 3) + printed(np.array(7, dtype=np.int32)) + printed(np.array(True)) + printed(np.array(1+2j)) + printed(np.array(2j)) + printed(np.array(1.5-0.5j, dtype=np.complex64)),
 'empty': printed(np.zeros(0)) + printed(np.zeros((2, 0), dtype=np.float32)),
 'ones_1x1x1': printed(np.ones((1, 1, 1))),
 'strided_views': printed(x34.T) + printed(x34[:, 1:4:2]) + printed(np.broadcast_to(x34[1], (2, 4))),
}
bad = 0
for name, want in cases.items():
    got = open(os.path.join(G, name + '.golden')).read()
    if got != want:
        bad += 1
        print('DIFF', name)
        for l in difflib.unified_diff(want.splitlines(), got.splitlines(), 'numpy', 'go', lineterm='', n=1):
            print(l)
missing = set(f[:-7] for f in os.listdir(G)) - set(cases)
print('checked', len(cases), 'bad', bad, 'unchecked', missing)
raise SystemExit(1 if bad or missing else 0)
