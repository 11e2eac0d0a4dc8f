//go:build linux

package npy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// A mapped output is written by the executor in tile order and reaches the
// file; a mapped input is read in place, without loading the file.
func ExampleOpenMapped() {
	dir, _ := os.MkdirTemp("", "mapped")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.npy")

	// np.lib.format.open_memmap(path, mode="w+", dtype="f8", shape=(2, 3))
	out, err := npy.CreateMapped[float64](path, 2, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	if err := exec.EvalTo(out.Tensor(), expr.Of(a).MulScalar(10)); err != nil {
		fmt.Println(err)
		return
	}
	if err := out.Close(); err != nil { // msync, fsync, munmap: errors are reported
		fmt.Println(err)
		return
	}

	// np.load(path, mmap_mode="r")
	in, err := npy.OpenMapped[float64](path, npy.ReadOnly)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Close()
	x := in.Tensor()
	sum, _ := exec.Eval(expr.Of(x).Sum(1))
	fmt.Println(x.Shape(), sum)
	fmt.Println(x.Set(0, 0, 0))
	// Output:
	// [2, 3] [ 60. 150.]
	// Set: the tensor of shape [2, 3] is read-only (a file mapped for reading; map it writable to write it)
}
