// Package gradcheck checks gradients against central finite differences,
// in float64, as torch.autograd.gradcheck does: for every element v of
// every input, (f(v+eps) - f(v-eps)) / 2eps must match the gradient that
// autograd.Grad builds and exec evaluates, within atol + rtol*|numeric|.
//
// The inputs are tensor leaves (expr.Of or expr.Param): the check writes
// each element of their tensors in turn and restores it, so the tensors
// must be writable (no expanded views) and must not be read by another
// goroutine meanwhile. The check evaluates the graph twice per element: it
// is meant for small tensors.
package gradcheck

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Options tune a check. The zero value of a field selects its default.
type Options struct {
	Eps      float64                 // the step (default 1e-6)
	Atol     float64                 // absolute tolerance (default 1e-5)
	Rtol     float64                 // relative tolerance (default 1e-3)
	Executor *exec.Executor          // evaluates the graphs (default exec.Default)
	Binds    []exec.Binding          // tensors of the graph's placeholders
	Upstream *tensor.Tensor[float64] // for an output with several elements: checks sum(y*upstream)
}

// MismatchError reports the first element whose gradient does not match.
type MismatchError struct {
	Input    int   // index in wrt
	Index    []int // the element
	Analytic float64
	Numeric  float64
}

// Error names the input, the element and the two values.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("gradcheck: input %d at %v: gradient %g, finite differences %g", e.Input, e.Index, e.Analytic, e.Numeric)
}

// Check compares the gradients of y with respect to wrt with central finite
// differences. y must have one element unless opts.Upstream is set. It
// returns a *MismatchError for the first element out of tolerance, or the
// error building or evaluating the graphs.
func Check(y expr.Expr[float64], wrt []expr.Expr[float64], opts *Options) error {
	o := Options{Eps: 1e-6, Atol: 1e-5, Rtol: 1e-3, Executor: exec.Default}
	if opts != nil {
		o.Binds, o.Upstream = opts.Binds, opts.Upstream
		if opts.Eps != 0 {
			o.Eps = opts.Eps
		}
		if opts.Atol != 0 {
			o.Atol = opts.Atol
		}
		if opts.Rtol != 0 {
			o.Rtol = opts.Rtol
		}
		if opts.Executor != nil {
			o.Executor = opts.Executor
		}
	}
	f := y
	var grads []expr.Expr[float64]
	var err error
	if o.Upstream != nil {
		u := expr.Of(o.Upstream)
		f = y.Mul(u).Sum()
		grads, err = autograd.VJPOf(y, u, wrt...)
	} else {
		grads, err = autograd.GradOf(y, wrt...)
	}
	if err != nil {
		return err
	}
	eval := func(e expr.Expr[float64]) (*tensor.Tensor[float64], error) {
		return exec.EvalWith(o.Executor, e, o.Binds...)
	}
	for i, w := range wrt {
		t, ok := w.Node().Tensor().(*tensor.Tensor[float64])
		if w.Node().Op() != expr.OpTensor || !ok {
			return fmt.Errorf("gradcheck: input %d is a %s, not a tensor leaf", i, w.Node().Op())
		}
		analytic, err := eval(grads[i])
		if err != nil {
			return err
		}
		if err := checkInput(i, t, analytic, f, eval, o); err != nil {
			return err
		}
	}
	return nil
}

// checkInput perturbs every element of t in row-major order.
func checkInput(i int, t, analytic *tensor.Tensor[float64], f expr.Expr[float64],
	eval func(expr.Expr[float64]) (*tensor.Tensor[float64], error), o Options) error {
	value := func() (float64, error) {
		v, err := eval(f)
		if err != nil {
			return 0, err
		}
		return v.Item()
	}
	idx := make([]int, t.Rank())
	for range t.Numel() {
		orig, err := t.At(idx...)
		if err != nil {
			return err
		}
		var fs [2]float64
		for k, d := range [2]float64{o.Eps, -o.Eps} {
			if err := t.Set(orig+d, idx...); err != nil {
				return err
			}
			if fs[k], err = value(); err != nil {
				return err
			}
		}
		if err := t.Set(orig, idx...); err != nil {
			return err
		}
		num := (fs[0] - fs[1]) / (2 * o.Eps)
		got, _ := analytic.At(idx...)
		if !within(got, num, o) {
			return &MismatchError{Input: i, Index: append([]int(nil), idx...), Analytic: got, Numeric: num}
		}
		next(idx, t.Shape())
	}
	return nil
}

func within(got, want float64, o Options) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= o.Atol+o.Rtol*math.Abs(want)
}

// next advances a row-major multi-index.
func next(idx []int, shape tensor.Shape) {
	for k := len(idx) - 1; k >= 0; k-- {
		idx[k]++
		if idx[k] < shape[k] {
			return
		}
		idx[k] = 0
	}
}
