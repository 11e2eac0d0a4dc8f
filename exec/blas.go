package exec

import "github.com/tensorplay/tensorplay/internal/matmul"

// UseBLAS sets whether the float32, float64, complex64 and complex128
// matrix products of every executor go to the BLAS implementation
// registered with gonum's blas32, blas64, cblas64 and cblas128 packages
// (gonum's pure-Go one unless the program calls their Use, for instance
// with a cgo binding of OpenBLAS) rather than to tensorplay's packed GEMM,
// and returns the previous setting. It is off by default, and on at
// start-up when the environment has TENSORPLAY_MATMUL=blas. Products
// already running finish on the path they started on; a plan built before
// the switch follows it at its next run. See docs/matmul.md.
func UseBLAS(on bool) (was bool) { return matmul.UseBLAS(on) }
