package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// The vector tests' one dispatch on an op case's dtype: a test lists its
// generic runner's instantiations, forInputDType runs the one for the
// case's input dtype.

// forInputDType runs, of runs (each a func(*testing.T, opCase,
// *tensor.Tensor[T]), one generic runner instantiated for the element
// types its cases use), the one whose T is the dtype of input i of c,
// with that input. A case of a dtype no runner takes fails, as does a run
// of another type.
func forInputDType(t *testing.T, c opCase, i int, runs ...any) {
	t.Helper()
	dt := inputDType(t, c, i)
	for _, f := range runs {
		typed := false
		for _, try := range typedRunners {
			ok, ran := try(t, c, i, dt, f)
			if ran {
				return
			}
			typed = typed || ok
		}
		if !typed {
			t.Fatalf("%s: %T is not a case runner", c.ID, f)
		}
	}
	t.Fatalf("%s: no runner for dtype %s", c.ID, dt)
}

// typedRunners try a run as the runner of each element type.
var typedRunners = []func(t *testing.T, c opCase, i int, dt string, f any) (typed, ran bool){
	runTyped[bool], runTyped[int8], runTyped[int16], runTyped[int32], runTyped[int64],
	runTyped[uint8], runTyped[uint16], runTyped[uint32], runTyped[uint64],
	runTyped[float32], runTyped[float64], runTyped[complex64], runTyped[complex128],
}

// runTyped runs f on input i of c if f is the runner of T (typed) and T is
// dtype dt (ran).
func runTyped[T dtype.Elem](t *testing.T, c opCase, i int, dt string, f any) (typed, ran bool) {
	g, ok := f.(func(*testing.T, opCase, *tensor.Tensor[T]))
	if !ok {
		return false, false
	}
	if dtype.Of[T]().String() != dt {
		return true, false
	}
	g(t, c, opInput[T](t, c, i))
	return true, true
}
