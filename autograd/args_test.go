package autograd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/autograd/gradcheck"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// nilNode is an expr.Any whose Node is nil.
type nilNode struct{}

func (nilNode) Node() *expr.Node { return nil }

// TestMissingArguments calls every entry point with nil, zero-value and
// empty arguments: each is a *tensor.ArgError naming the function and the
// argument, never a panic.
func TestMissingArguments(t *testing.T) {
	x := of([]float64{1, 2, 3}, 3)
	y := x.Mul(x).Sum()
	v := x.Mul(x)
	var zero E
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"Grad nil y", func() error { _, err := autograd.Grad(nil, x); return err }, "autograd.Grad: y is nil"},
		{"Grad zero y", func() error { _, err := autograd.Grad(zero, x); return err }, "autograd.Grad: y is a zero expr.Expr"},
		{"Grad nil node y", func() error { _, err := autograd.Grad(nilNode{}, x); return err }, "autograd.Grad: y's Node is nil"},
		{"Grad nil wrt", func() error { _, err := autograd.Grad(y, nil); return err }, "autograd.Grad: wrt[0] is nil"},
		{"Grad zero wrt", func() error { _, err := autograd.Grad(y, x, zero); return err }, "autograd.Grad: wrt[1] is a zero expr.Expr"},
		{"Grad nil node wrt", func() error { _, err := autograd.Grad(y, nilNode{}); return err }, "autograd.Grad: wrt[0]'s Node is nil"},
		{"Grad no wrt", func() error { _, err := autograd.Grad(y); return err }, "autograd.Grad: no wrt expressions"},
		{"Grad nil wrt list", func() error { _, err := autograd.Grad(y, []expr.Any(nil)...); return err }, "autograd.Grad: no wrt expressions"},
		{"VJP nil y", func() error { _, err := autograd.VJP(nil, v, x); return err }, "autograd.VJP: y is nil"},
		{"VJP nil upstream", func() error { _, err := autograd.VJP(v, nil, x); return err }, "autograd.VJP: upstream is nil"},
		{"VJP zero upstream", func() error { _, err := autograd.VJP(v, zero, x); return err }, "autograd.VJP: upstream is a zero expr.Expr"},
		{"VJP nil wrt", func() error { _, err := autograd.VJP(v, v, nil); return err }, "autograd.VJP: wrt[0] is nil"},
		{"VJP no wrt", func() error { _, err := autograd.VJP(v, v); return err }, "autograd.VJP: no wrt expressions"},
		{"GradOf zero y", func() error { _, err := autograd.GradOf(zero, x); return err }, "autograd.Grad: y is a zero expr.Expr"},
		{"GradOf zero wrt", func() error { _, err := autograd.GradOf(y, zero); return err }, "autograd.Grad: wrt[0] is a zero expr.Expr"},
		{"GradOf no wrt", func() error { _, err := autograd.GradOf(y); return err }, "autograd.Grad: no wrt expressions"},
		{"VJPOf zero upstream", func() error { _, err := autograd.VJPOf(v, zero, x); return err }, "autograd.VJP: upstream is a zero expr.Expr"},
		{"gradcheck zero y", func() error { return gradcheck.Check(zero, []E{x}, nil) }, "autograd.Grad: y is a zero expr.Expr"},
		{"gradcheck nil wrt", func() error { return gradcheck.Check(y, nil, nil) }, "autograd.Grad: no wrt expressions"},
		{"gradcheck zero wrt", func() error { return gradcheck.Check(y, []E{zero}, nil) }, "autograd.Grad: wrt[0] is a zero expr.Expr"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			var ae *tensor.ArgError
			require.ErrorAs(t, err, &ae)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
