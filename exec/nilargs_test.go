package exec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestNilArguments checks nil and zero-value arguments of every entry
// point: each returns a typed error, never panics, and writes nothing.
func TestNilArguments(t *testing.T) {
	one := tensor.Must(tensor.FromSlice([]float64{1, 2}, 2))
	dst := tensor.Must(tensor.FromSlice([]float64{-1, -1}, 2))
	p := expr.Placeholder[float64]("p", 2)
	var nilT *tensor.Tensor[float64]
	var zeroE expr.Expr[float64]
	asBind := func(err error) error {
		var be *exec.BindError
		if !errors.As(err, &be) {
			return errors.New("not a *BindError")
		}
		return nil
	}
	asInplace := func(err error) error {
		var ie *exec.InplaceError
		if !errors.As(err, &ie) {
			return errors.New("not an *InplaceError")
		}
		return nil
	}
	is := func(target error) func(error) error {
		return func(err error) error {
			if !errors.Is(err, target) {
				return errors.New("not " + target.Error())
			}
			return nil
		}
	}
	// A zero Expr carries expr's error, which Eval returns unchanged.
	zeroText := zeroE.Err().Error()
	sameAsExpr := func(err error) error {
		if fmt.Sprintf("%T", err) != fmt.Sprintf("%T", zeroE.Err()) {
			return errors.New("not the zero Expr's error")
		}
		return nil
	}
	cases := []struct {
		name string
		run  func() error
		kind func(error) error
		text string
	}{
		{"Bind(p, nil)", func() error { _, err := exec.Eval(p.Sum(), exec.Bind(p, nil)); return err },
			asBind, `exec: placeholder "p": bound to a nil tensor`},
		{"Bind(p, typed nil)", func() error { _, err := exec.Eval(p.Sum(), exec.Bind(p, nilT)); return err },
			asBind, `exec: placeholder "p": bound to a nil tensor`},
		{"zero Binding", func() error { _, err := exec.Eval(p.Sum(), exec.Binding{}); return err },
			asBind, `exec: placeholder "": a zero Binding (make bindings with Bind)`},
		{"Bind(zero Expr, t)", func() error { _, err := exec.Eval(p.Sum(), exec.Bind(zeroE, one)); return err },
			asBind, "exec: cannot bind a tensor to invalid (an invalid expression: " + zeroText + "): it is not a placeholder; only placeholders can be bound"},
		{"Run typed-nil destination", func() error {
			_, err := exec.Default.Run([]*expr.Node{expr.Of(one).Node()}, []tensor.Any{nilT})
			return err
		}, asInplace, "exec: destination 0 is a nil tensor (give nil, not a nil *Tensor, for a new tensor)"},
		{"Run nil root", func() error { _, err := exec.Default.Run([]*expr.Node{nil}, nil); return err },
			is(exec.ErrNilExpr), "exec: nil expression"},
		{"Run nil root with a destination", func() error {
			_, err := exec.Default.Run([]*expr.Node{nil}, []tensor.Any{dst})
			return err
		}, is(exec.ErrNilExpr), "exec: nil expression"},
		{"EvalTo nil destination", func() error { return exec.EvalTo(nilT, expr.Of(one)) },
			asInplace, "exec: nil destination"},
		{"AddTo nil destination", func() error { return exec.AddTo(nilT, one) }, asInplace, "exec: nil tensor"},
		{"AddTo nil operand", func() error { return exec.AddTo(dst, nilT) }, asInplace, "exec: nil tensor"},
		{"Eval zero Expr", func() error { _, err := exec.Eval(zeroE); return err }, sameAsExpr, zeroText},
		{"EvalTo zero Expr", func() error { return exec.EvalTo(dst, zeroE) }, sameAsExpr, zeroText},
		{"EvalN zero Expr", func() error { _, err := exec.EvalN(expr.Of(one), zeroE); return err }, sameAsExpr, zeroText},
		{"Run zero Expr", func() error {
			_, err := exec.Default.Run([]*expr.Node{zeroE.Node()}, []tensor.Any{dst})
			return err
		}, sameAsExpr, zeroText},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.run() })
			require.Error(t, err)
			assert.NoError(t, c.kind(err), "%T", err)
			assert.Equal(t, c.text, err.Error())
			assert.Equal(t, []float64{-1, -1}, dst.Values(), "nothing written")
		})
	}
}

// TestZeroTensorArguments evaluates the zero Tensor, which tensor defines
// as the empty 1-D tensor, as an operand, a destination and a binding:
// correct (empty) results, no panic.
func TestZeroTensorArguments(t *testing.T) {
	zero := func() *tensor.Tensor[float64] { return &tensor.Tensor[float64]{} }
	for _, x := range testExecutors {
		t.Run(x.name, func(t *testing.T) {
			out, err := exec.EvalWith(x.x, expr.Of(zero()))
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{0}, out.Shape())
			out, err = exec.EvalWith(x.x, expr.Of(zero()).AddScalar(1).Sum())
			require.NoError(t, err)
			assert.Equal(t, []float64{0}, out.Values())
			require.NoError(t, exec.EvalToWith(x.x, zero(), expr.Of(zero()).MulScalar(2)))
			p := expr.Placeholder[float64]("p", 0)
			out, err = exec.EvalWith(x.x, p.AddScalar(1), exec.Bind(p, zero()))
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{0}, out.Shape())
		})
	}
}
