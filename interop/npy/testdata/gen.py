#!/usr/bin/env python3
"""Writes the .npy/.npz fixtures in this directory with NumPy itself.

Run from anywhere: python3 gen.py (Debian: apt-get install python3-numpy).
The values are the ones sample[T] in ../fixture_test.go expects; check.py
imports expected() from here to verify files written by the Go package.

Per dtype NAME (bool, int8 ... complex128):
  NAME.npy        shape (2, 3), C order, little-endian
  NAME_f.npy      the same values, Fortran order
  NAME_be.npy     the same values, big-endian (multi-byte dtypes only)
  NAME_0d.npy     0-d array holding SAMPLE[NAME][1]
  NAME_empty.npy  shape (0, 3)
and
  f8_3d_f.npy     arange(24.).reshape(2, 3, 4) in Fortran order
  f8_v2.npy       format version 2.0, f8_v3.npy version 3.0
  arrays.npz      np.savez: a (int32 2x3), b (float64 0-d), c (complex64 empty)
  arrays_z.npz    np.savez_compressed of the same
"""
import os
import sys

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float32", "float64", "complex64", "complex128"]


def sample(name):
    """Six values of dtype name that exercise its range."""
    dt = np.dtype(name)
    if dt.kind == "b":
        v = [True, False, True, True, False, False]
    elif dt.kind == "i":
        info = np.iinfo(dt)
        v = [0, 1, -1, 42, info.max, info.min]
    elif dt.kind == "u":
        info = np.iinfo(dt)
        v = [0, 1, 2, 42, info.max - 1, info.max]
    elif dt.kind == "f":
        v = [0.0, 1.5, -2.25, 0.125, 1024.0, np.inf]
    else:
        v = [0, 1 + 2j, -1.5 - 0.5j, 0.25j, 3, complex(0, -4)]
    return np.array(v, dtype=dt)


def expected(fname):
    """The array the fixture (or Go-written file) called fname must hold."""
    base = fname[:-len(".npy")]
    if base == "f8_3d_f":
        return np.asfortranarray(np.arange(24.0).reshape(2, 3, 4))
    if base in ("f8_v2", "f8_v3"):
        return sample("float64").reshape(2, 3)
    name, _, variant = base.partition("_")
    a = sample(name)
    if variant == "":
        return a.reshape(2, 3)
    if variant == "f":
        return np.asfortranarray(a.reshape(2, 3))
    if variant == "be":
        return a.reshape(2, 3).astype(a.dtype.newbyteorder(">"))
    if variant == "0d":
        return np.array(a[1], dtype=a.dtype)
    if variant == "empty":
        return np.zeros((0, 3), dtype=a.dtype)
    raise ValueError(fname)


def files():
    """Every .npy fixture name."""
    out = []
    for name in DTYPES:
        out += [name + ".npy", name + "_f.npy", name + "_0d.npy", name + "_empty.npy"]
        if np.dtype(name).itemsize > 1:
            out.append(name + "_be.npy")
    return out + ["f8_3d_f.npy"]


def npz_arrays():
    return {
        "a": sample("int32").reshape(2, 3),
        "b": np.array(1.5),
        "c": np.zeros((0,), dtype=np.complex64),
    }


def main():
    out = os.path.dirname(os.path.abspath(__file__))
    for f in files():
        np.save(os.path.join(out, f), expected(f))
    for v in (2, 3):
        with open(os.path.join(out, "f8_v%d.npy" % v), "wb") as fh:
            np.lib.format.write_array(fh, expected("f8_v%d.npy" % v), version=(v, 0))
    np.savez(os.path.join(out, "arrays.npz"), **npz_arrays())
    np.savez_compressed(os.path.join(out, "arrays_z.npz"), **npz_arrays())
    print("numpy", np.__version__, "wrote", len(files()) + 4, "files", file=sys.stderr)


if __name__ == "__main__":
    main()
