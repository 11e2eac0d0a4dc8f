package exec_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

type inplaceCase struct {
	ID               string            `json:"id"`
	Source           string            `json:"source"`
	Note             string            `json:"note"`
	Op               string            `json:"op"`
	DType            string            `json:"dtype"`
	Self             vectors.View      `json:"self"`
	Other            vectors.View      `json:"other"`
	OtherAliasesSelf bool              `json:"other_aliases_self_base"`
	Expect           string            `json:"expect"`
	Result           *vectors.Tensor   `json:"result"`
	BaseAfter        *vectors.Tensor   `json:"base_after"`
	ErrorKind        string            `json:"error_kind"`
	TorchError       string            `json:"torch_error"`
	LegacyExpand     string            `json:"legacy_expand_error"`
	Tolerance        vectors.Tolerance `json:"tolerance"`
}

// TestInplaceVectors runs every case of inplace.json through the in-place
// short forms: results and the whole storage after the op match PyTorch;
// errors have PyTorch's type and text and leave the storage bit-identical;
// partially overlapping inputs, which PyTorch refuses, give the result of
// the same op on a clone of the input.
func TestInplaceVectors(t *testing.T) {
	f := vectors.Load[inplaceCase](t, "inplace.json")
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op+"_"+c.DType, func(t *testing.T) {
			switch c.DType {
			case "float32":
				runInplace[float32](t, c)
			case "float64":
				runInplace[float64](t, c)
			case "int16":
				runInplace[int16](t, c)
			case "int32":
				runInplace[int32](t, c)
			case "int64":
				runInplace[int64](t, c)
			case "uint8":
				runInplace[uint8](t, c)
			case "complex64":
				runInplace[complex64](t, c)
			case "complex128":
				runInplace[complex128](t, c)
			default:
				t.Fatalf("no runner for %s", c.DType)
			}
		})
	}
}

func inplaceOp[T dtype.Numeric](op string) func(dst, y *tensor.Tensor[T]) error {
	switch op {
	case "add_":
		return exec.AddTo[T]
	case "sub_":
		return exec.SubTo[T]
	case "mul_":
		return exec.MulTo[T]
	case "div_":
		return exec.DivTo[T]
	case "pow_":
		return exec.PowTo[T]
	case "copy_":
		return exec.CopyTo[T]
	}
	return nil
}

func runInplace[T dtype.Numeric](t *testing.T, c inplaceCase) {
	self, base, err := vectors.BuildView[T](c.Self)
	require.NoError(t, err)
	var other *tensor.Tensor[T]
	if c.OtherAliasesSelf {
		other, err = tensor.AsStrided(base.Data(), c.Other.Shape, c.Other.Strides, c.Other.Offset)
	} else {
		other, _, err = vectors.BuildView[T](c.Other)
	}
	require.NoError(t, err)
	op := inplaceOp[T](c.Op)
	require.NotNil(t, op, "op %s", c.Op)
	before := base.Clone().Values()

	if c.ErrorKind == "partial_overlap" {
		// PyTorch refuses; we compute as if other had been cloned first.
		refBase := base.Clone()
		refSelf, err := tensor.AsStrided(refBase.Data(), self.Shape(), self.Strides(), self.Offset())
		require.NoError(t, err)
		require.NoError(t, op(refSelf, other.Clone()))
		require.NoError(t, op(self, other), "a partial overlap is staged, not refused")
		assert.Equal(t, refBase.Values(), base.Values(), "same as the op on a clone of the input")
		return
	}
	err = op(self, other)
	if c.Expect == "error" {
		require.Error(t, err)
		assert.Equal(t, before, base.Values(), "a failed in-place op leaves the storage untouched")
		switch c.ErrorKind {
		case "not_broadcastable":
			var be *tensor.BroadcastError
			assert.True(t, errors.As(err, &be), "%T", err)
			assert.Equal(t, c.TorchError, err.Error())
		case "internal_overlap":
			var oe *exec.OverlapError
			assert.True(t, errors.As(err, &oe), "%T", err)
			assert.Equal(t, c.TorchError, err.Error())
		case "shape":
			if strings.HasPrefix(c.LegacyExpand, "The expanded size") {
				var ee *tensor.ExpandError
				assert.True(t, errors.As(err, &ee), "%T", err)
				assert.Equal(t, c.LegacyExpand, err.Error())
			} else {
				var ie *exec.InplaceError
				assert.True(t, errors.As(err, &ie), "%T", err)
				assert.Equal(t, c.TorchError, err.Error())
			}
		default:
			t.Fatalf("unknown error kind %q", c.ErrorKind)
		}
		return
	}
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape(c.Self.Shape), self.Shape(), "in-place never changes shape")
	want, err := vectors.Values[T](c.Result.Data)
	require.NoError(t, err)
	vectors.AssertClose(t, self.Values(), want, c.Tolerance, "result")
	wantBase, err := vectors.Values[T](c.BaseAfter.Data)
	require.NoError(t, err)
	vectors.AssertClose(t, base.Values(), wantBase, c.Tolerance, "base after")
}

// TestInplaceAliasing runs every binary op in math/big's style with the
// destination aliased to the first operand, the second, both, a transposed
// view of itself and overlapping slices, against a clone-first reference.
func TestInplaceAliasing(t *testing.T) {
	type binop struct {
		name string
		f    func(x, y expr.Expr[float64]) expr.Expr[float64]
	}
	ops := []binop{
		{"add", expr.Expr[float64].Add}, {"sub", expr.Expr[float64].Sub}, {"mul", expr.Expr[float64].Mul},
		{"div", expr.Expr[float64].Div}, {"pow", expr.Expr[float64].Pow}, {"maximum", expr.Expr[float64].Maximum},
	}
	newBase := func() *tensor.Tensor[float64] {
		d := make([]float64, 36)
		for i := range d {
			d[i] = 1 + float64(i%7)/4
		}
		b, _ := tensor.FromSlice(d, 6, 6)
		return b
	}
	type alias struct {
		name string
		// views returns dst, a, b on base.
		views func(base *tensor.Tensor[float64]) (dst, a, b *tensor.Tensor[float64])
	}
	slice := func(x *tensor.Tensor[float64], axis, lo, hi int) *tensor.Tensor[float64] {
		v, err := x.Slice(axis, lo, hi, 1)
		require.NoError(t, err)
		return v
	}
	tr := func(x *tensor.Tensor[float64]) *tensor.Tensor[float64] {
		v, err := x.T()
		require.NoError(t, err)
		return v
	}
	aliases := []alias{
		{"dst=a", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) { return x, x, tr(x) }},
		{"dst=b", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) { return x, tr(x), x }},
		{"dst=a=b", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) { return x, x, x }},
		{"dst=a.T", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) { return tr(x), x, x }},
		{"x[1:]=x[:-1]op x[1:]", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) {
			return slice(x, 0, 1, 6), slice(x, 0, 0, 5), slice(x, 0, 1, 6)
		}},
		{"x[:-1]=x[1:]op x[:-1]", func(x *tensor.Tensor[float64]) (_, _, _ *tensor.Tensor[float64]) {
			return slice(x, 1, 0, 5), slice(x, 1, 1, 6), slice(x, 1, 0, 5)
		}},
	}
	for _, op := range ops {
		for _, al := range aliases {
			for _, workers := range []int{1, 2} {
				t.Run(op.name+"/"+al.name, func(t *testing.T) {
					x := exec.New(exec.Workers(workers), exec.Grain(1), exec.BlockSize(16))
					refBase := newBase()
					rd, ra, rb := al.views(refBase)
					want, err := exec.EvalWith(x, op.f(expr.Of(ra.Clone()), expr.Of(rb.Clone())))
					require.NoError(t, err)
					require.NoError(t, exec.CopyTo(rd, want))

					base := newBase()
					d, a, b := al.views(base)
					require.NoError(t, exec.EvalToWith(x, d, op.f(expr.Of(a), expr.Of(b))))
					assert.Equal(t, refBase.Values(), base.Values())
				})
			}
		}
	}
}

// TestInplaceExpression checks x = x*2 + y in place, and an expression that
// reads the destination several times.
func TestInplaceExpression(t *testing.T) {
	xd := []float64{1, 2, 3, 4, 5, 6}
	x, _ := tensor.FromSlice(append([]float64(nil), xd...), 2, 3)
	y, _ := tensor.FromSlice([]float64{10, 20, 30}, 3)
	e := expr.Of(x).MulScalar(2).Add(expr.Of(y)).Mul(expr.Of(x).Exp().Log())
	require.NoError(t, exec.EvalTo(x, e))
	for i, v := range x.Values() {
		want := (xd[i]*2 + []float64{10, 20, 30}[i%3]) * xd[i]
		assert.InDelta(t, want, v, 1e-9)
	}
}

// TestInplaceZeroAllocs checks that a repeated in-place update allocates
// nothing after the first call.
func TestInplaceZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	a, _ := tensor.New[float64](1000)
	b, _ := tensor.New[float64](1000)
	require.NoError(t, exec.AddTo(a, b))
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = exec.AddTo(a, b) }), "AddTo")
	e := expr.Of(a).MulScalar(2).Add(expr.Of(b))
	require.NoError(t, exec.EvalTo(a, e))
	assert.Zero(t, testing.AllocsPerRun(20, func() { _ = exec.EvalTo(a, e) }), "EvalTo")
}

// TestInplaceLargeNotKept checks that an in-place update of large tensors
// keeps neither alive once the caller drops them. (The graph cache of the
// *To helpers once held every recent pair: ten dropped pairs of 32 MiB
// tensors stayed alive.)
func TestInplaceLargeNotKept(t *testing.T) {
	a := tensor.Must(tensor.Zeros[float64](128, 128)) // 128 KiB
	b := tensor.Must(tensor.Ones[float64](128, 128))
	require.NoError(t, exec.AddTo(a, b))
	assert.Equal(t, 1.0, a.Values()[0])
	wa, wb := weak.Make(a), weak.Make(b)
	a, b = nil, nil
	for range 3 {
		runtime.GC()
	}
	assert.Nil(t, wa.Value(), "dst kept alive")
	assert.Nil(t, wb.Value(), "y kept alive")
}
