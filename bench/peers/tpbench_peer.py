"""tpbench's peer driver: times tensorplay's benchmark cases in NumPy or PyTorch.

tpbench (package bench, peer_run.go) starts this script once per peer:

    python3 tpbench_peer.py --peer numpy --warmup 3 --warmup-min 0.1 --reps 30 --threads 2 --budget 10

and sends it the cases on stdin, one JSON object a line, {"id", "dir",
"pipeline", "params", "inputs", "outputs", "max_reps"}, each right after it
has timed the case itself; the script answers each line before it reads
the next, and ends at the end of its input. Each job's directory holds its inputs as
<name>.npy, written by tpbench from the very tensors tensorplay computes on.
For each job the script builds the pipeline (peer_numpy.py or peer_torch.py)
on a copy of the inputs, runs it once and saves its outputs as
out_<peer>_<i>.npy (tpbench compares them with tensorplay's), then builds it
again from the inputs, runs it --warmup times (and more until --warmup-min
seconds have passed) and times up to --reps runs
(max_reps if the job sets it) with time.perf_counter, stopping early once the
timed runs have taken --budget seconds (after at least three).

Protocol, on stdout, every line starting with "TPBENCH " and a JSON object:
first {"peer", "version", "blas", "threads"} (or {"peer", "error"} when the
library cannot be imported, after which the script ends), then one
{"job", "times_ns"} or {"job", "error"} per job. Other output is ignored.
"""

import argparse
import json
import os
import sys
import time
import traceback


def emit(obj):
    sys.stdout.write("TPBENCH " + json.dumps(obj) + "\n")
    sys.stdout.flush()


def blas_libraries():
    """The BLAS/LAPACK shared libraries this process has mapped, resolved."""
    found = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 6:
                    continue
                path = parts[5]
                base = os.path.basename(path).lower()
                if ("blas" in base or "mkl" in base) and path not in found:
                    found.append(path)
    except OSError:
        return []
    # An OpenBLAS or MKL that stands in for libblas.so.3 names itself; list it first.
    found.sort(key=lambda p: 0 if ("openblas" in p.lower() or "mkl" in p.lower()) else 1)
    return [os.path.realpath(p) for p in found]


def load_inputs(np, job):
    return {n: np.load(os.path.join(job["dir"], n + ".npy")) for n in job["inputs"]}


def run_job(np, lib, peer, job, args):
    cls = lib.PIPELINES.get(job["pipeline"])
    if cls is None:
        raise KeyError("no %s pipeline %r in peer_%s.py" % (peer, job["pipeline"], peer))
    inputs = load_inputs(np, job)
    params = job.get("params") or {}
    case = cls(lib.convert({k: v.copy() for k, v in inputs.items()}), params)
    case.step()
    lib.sync()
    outs = case.outputs()
    if len(outs) != job["outputs"]:
        raise ValueError("%d outputs, tensorplay has %d" % (len(outs), job["outputs"]))
    for i, o in enumerate(outs):
        np.save(os.path.join(job["dir"], "out_%s_%d.npy" % (peer, i)), np.asarray(o))

    case = cls(lib.convert({k: v.copy() for k, v in inputs.items()}), params)
    start = time.perf_counter()
    i = 0
    # At least --warmup runs, and more until --warmup-min seconds have
    # passed, as tpbench warms its own side up (warmupMin in runner.go):
    # the cores come to each job from an idle pause.
    while i < args.warmup or (args.warmup > 0 and time.perf_counter() - start < args.warmup_min):
        case.step()
        lib.sync()
        if i == 0 and time.perf_counter() - start > args.budget / 3:
            break
        i += 1
    reps = args.reps
    if job.get("max_reps"):
        reps = min(reps, job["max_reps"])
    times = []
    start = time.perf_counter()
    for i in range(reps):
        t0 = time.perf_counter()
        case.step()
        lib.sync()
        t1 = time.perf_counter()
        times.append((t1 - t0) * 1e9)
        if i >= 2 and t1 - start > args.budget:
            break
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", required=True, choices=["numpy", "torch"])
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--warmup-min", type=float, default=0.0)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--budget", type=float, default=10.0)
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import numpy as np
        if args.peer == "numpy":
            import peer_numpy as lib
        else:
            import peer_torch as lib
        lib.init(args.threads)
        version = lib.version()
    except Exception as e:  # the peer is not installed: say so, skip it
        emit({"peer": args.peer, "error": "cannot import %s with %s: %s" % (args.peer, sys.executable, e)})
        return
    libs = blas_libraries()
    emit({"peer": args.peer, "version": version, "threads": args.threads,
          "blas": libs[0] if libs else lib.blas_config()})
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        try:
            emit({"job": job["id"], "times_ns": run_job(np, lib, args.peer, job, args)})
        except Exception as e:
            tb = traceback.extract_tb(e.__traceback__)
            where = "%s:%d" % (os.path.basename(tb[-1].filename), tb[-1].lineno) if tb else ""
            emit({"job": job["id"], "error": "%s: %s (%s)" % (type(e).__name__, e, where)})


if __name__ == "__main__":
    main()
