#!/usr/bin/env python3
"""Checks that NumPy loads the files the Go tests wrote: python3 check.py DIR.

Every NAME.npy in DIR must equal gen.expected(NAME.npy) in dtype (byte order
included), shape, values and memory order; every .npz must hold
gen.npz_arrays(). Prints "ok N" and exits 0, or lists the mismatches and
exits 1.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402


def same(got, want):
    """A description of how got differs from want, or None."""
    if got.dtype != want.dtype:
        return "dtype %s, want %s" % (got.dtype.str, want.dtype.str)
    if got.shape != want.shape:
        return "shape %s, want %s" % (got.shape, want.shape)
    fortran = lambda a: a.flags.f_contiguous and not a.flags.c_contiguous
    if fortran(got) != fortran(want):
        return "fortran order %s, want %s" % (fortran(got), fortran(want))
    if not np.array_equal(got, want):
        return "values %r, want %r" % (got.tolist(), want.tolist())
    return None


def main(d):
    bad, n = [], 0
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        if f.endswith(".npy"):
            checks = [(f, np.load(path), gen.expected(f))]
        elif f.endswith(".npz"):
            with np.load(path) as z:
                if sorted(z.files) != sorted(gen.npz_arrays()):
                    bad.append("%s: entries %s" % (f, z.files))
                    continue
                checks = [(f + ":" + k, z[k], v) for k, v in gen.npz_arrays().items()]
        else:
            continue
        for name, got, want in checks:
            n += 1
            why = same(got, want)
            if why:
                bad.append("%s: %s" % (name, why))
    for b in bad:
        print(b)
    if bad or n == 0:
        sys.exit(1)
    print("ok", n)


if __name__ == "__main__":
    main(sys.argv[1])
