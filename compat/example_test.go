package compat_test

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tensorplay/tensorplay/compat"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// PyTorch's broadcast_warning: torch.add(torch.ones(4,1), torch.ones(4)) is
// [4, 4] by broadcasting, where the old 1-D rule gave [4, 1]. With the
// warning on, such an op warns when it is built; Capture records it.
func ExampleCapture() {
	rec, restoreSink := compat.Capture()
	defer restoreSink()
	defer compat.Apply(compat.Settings{BroadcastWarning: true})()

	a, _ := tensor.Ones[float64](4, 1)
	b, _ := tensor.Ones[float64](4)
	sum := expr.Of(a).Add(expr.Of(b))
	fmt.Println(sum.Shape())

	for _, w := range rec.Warnings() {
		fmt.Println(w.Kind)
		fmt.Println(w.Message)
		fmt.Println(strings.HasPrefix(filepath.Base(w.Caller), "example_test.go:"))
	}
	// Output:
	// [4, 4]
	// backcompat_broadcast
	// self and other do not have the same shape, but are broadcastable, and have the same number of elements.  Changing behavior in a backwards incompatible manner to broadcasting rather than viewing as 1-dimensional.
	// true
}

// Legacy 1-D mode: operands that do not broadcast but have as many
// elements are combined element by element in row-major order, the result
// taking the first operand's shape.
func ExampleSetLegacyPointwise() {
	rec, restoreSink := compat.Capture()
	defer restoreSink()
	prev := compat.SetLegacyPointwise(true)
	defer compat.SetLegacyPointwise(prev)

	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tensor.FromSlice([]float64{10, 20, 30, 40, 50, 60}, 3, 2)
	out, err := exec.Eval(expr.Of(a).Add(expr.Of(b)))
	fmt.Println(out, err)
	fmt.Println(rec.Kinds())
	fmt.Println(rec.Warnings()[0].Message)

	compat.SetLegacyPointwise(false)
	fmt.Println(expr.Of(a).Add(expr.Of(b)).Err())
	// Output:
	// [[11. 22. 33.]
	//  [44. 55. 66.]] <nil>
	// [deprecated_pointwise]
	// self and other not broadcastable, but have the same number of elements.  Falling back to deprecated pointwise behavior.
	// The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1
}

// Apply sets every switch at once and returns the function that restores
// the previous settings. Start from Current: a zero Settings also turns the
// merged-rank rule off.
func ExampleApply() {
	fmt.Printf("%+v\n", compat.Current())
	s := compat.Current()
	s.BroadcastWarning = true
	restore := compat.Apply(s)
	fmt.Printf("%+v\n", compat.Current())
	restore()
	fmt.Printf("%+v\n", compat.Current())
	// Output:
	// {Unrestricted:false BroadcastWarning:false LegacyPointwise:false}
	// {Unrestricted:false BroadcastWarning:true LegacyPointwise:false}
	// {Unrestricted:false BroadcastWarning:false LegacyPointwise:false}
}

// The merged-rank rule of the restricted dtypes is on by default; turning
// it off lets any broadcast through.
func ExampleSetRestrictedRank() {
	a := expr.From(tensor.New[float64](5, 1, 5, 1, 5, 1))
	b := expr.From(tensor.New[float64](5, 5, 5, 5, 5, 5))
	fmt.Println(compat.RestrictedRank(), a.Add(b).Err() != nil)

	prev := compat.SetRestrictedRank(false)
	defer compat.SetRestrictedRank(prev)
	fmt.Println(compat.RestrictedRank(), a.Add(b).Shape(), a.Add(b).Err())
	// Output:
	// true true
	// false [5, 5, 5, 5, 5, 5] <nil>
}

type stdoutSink struct{}

func (stdoutSink) Warn(w compat.Warning) { fmt.Println("warning:", w.Kind) }

// A Sink of your own receives every warning (the default one logs each
// distinct warning once per call site to stderr).
func ExampleSetSink() {
	prevSink := compat.SetSink(stdoutSink{})
	defer compat.SetSink(prevSink)
	defer compat.Apply(compat.Settings{BroadcastWarning: true})()

	a := expr.From(tensor.Ones[float32](4, 1))
	b := expr.From(tensor.Ones[float32](1, 4))
	c := expr.From(tensor.Ones[float32](4))
	_ = a.Add(c) // same element count, different shapes: warns
	_ = a.Mul(b) // 4 and 4 elements, broadcast to [4, 4]: warns
	_ = a.Add(a) // same shape: no warning
	// Output:
	// warning: backcompat_broadcast
	// warning: backcompat_broadcast
}
