package exec_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// naiveSoftmax is softmax along axis of the row-major vals by its
// definition, in float64: exp(x - max) / sum(exp(x - max)), NaN throughout
// a line whose maximum is NaN or infinite.
func naiveSoftmax(vals []float64, shape tensor.Shape, axis int) []float64 {
	out := make([]float64, len(vals))
	outer, n, inner := linesOf(shape, axis)
	for o := range outer {
		for i := range inner {
			at := func(k int) int { return o*n*inner + k*inner + i }
			m := math.Inf(-1)
			for k := range n {
				if v := vals[at(k)]; math.IsNaN(v) || v > m {
					m = v
					if math.IsNaN(v) {
						break
					}
				}
			}
			s := 0.0
			for k := range n {
				out[at(k)] = math.Exp(vals[at(k)] - m)
				s += out[at(k)]
			}
			for k := range n {
				out[at(k)] /= s
			}
		}
	}
	return out
}

// softmaxInputs are layouts the softmax line op reads: in place, through
// strides (one element or a whole row apart), and after a copy.
var softmaxInputs = []scanInput{
	{"contiguous [3,4,5]", func(t *testing.T) expr.Expr[float64] { return expr.Of(randN(t, 3, 4, 5)) }},
	{"transposed [6,7]", func(t *testing.T) expr.Expr[float64] { return expr.Of(randN(t, 7, 6)).Transpose(0, 1) }},
	{"stepped slice [4,3000] (strided lines of two pieces)", func(t *testing.T) expr.Expr[float64] {
		return expr.Of(randN(t, 4, 6000)).Slice(1, 0, 6000, 2)
	}},
	{"permuted [2,4,3] (inner axes that do not merge)", func(t *testing.T) expr.Expr[float64] {
		return expr.Of(randN(t, 2, 3, 4)).Permute(0, 2, 1)
	}},
	{"computed [5,9]", func(t *testing.T) expr.Expr[float64] {
		x := expr.Of(randN(t, 5, 9))
		return x.Mul(x).AddScalar(-0.5)
	}},
	{"long rows [3,4500] (three pieces)", func(t *testing.T) expr.Expr[float64] { return expr.Of(randN(t, 3, 4500)) }},
	{"one column [40,1]", func(t *testing.T) expr.Expr[float64] { return expr.Of(randN(t, 40, 1)) }},
}

func randN(t *testing.T, shape ...int) *tensor.Tensor[float64] {
	x, err := tensor.RandN[float64](11, shape...)
	require.NoError(t, err)
	for i, v := range x.Data() {
		x.Data()[i] = 4 * v // a spread of exponents, so the maximum matters
	}
	return x
}

// TestSoftmaxLineOp checks softmax against its definition along every axis
// of inputs of every layout, and that its bits are the same on 1, 2, 3
// and 8 workers with tiny tasks.
func TestSoftmaxLineOp(t *testing.T) {
	xs := []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(2)),
		exec.New(exec.Workers(3), exec.Grain(1)), exec.New(exec.Workers(8), exec.Grain(1))}
	for _, in := range softmaxInputs {
		t.Run(in.name, func(t *testing.T) {
			x := in.make(t)
			require.NoError(t, x.Err())
			ref, err := exec.Eval(x)
			require.NoError(t, err)
			for axis := -1; axis < len(x.Shape()); axis++ {
				ax := (axis + len(x.Shape())) % len(x.Shape())
				want := naiveSoftmax(ref.Values(), ref.Shape(), ax)
				var first []float64
				for _, ex := range xs {
					got, err := exec.EvalWith(ex, expr.Softmax(x, axis))
					require.NoError(t, err)
					require.Equal(t, ref.Shape(), got.Shape())
					for i, w := range want {
						require.InDelta(t, w, got.Values()[i], 1e-15+1e-13*w, "axis %d element %d", axis, i)
					}
					if first == nil {
						first = got.Values()
					} else {
						requireScanBits(t, first, got.Values(), "axis %d: workers", axis)
					}
				}
			}
		})
	}
}

// TestSoftmaxFloat32 checks the float32 loops (AVX-512, AVX2 or Go, as the
// machine has them) against the float64 definition, rows and columns.
func TestSoftmaxFloat32(t *testing.T) {
	for _, shape := range [][]int{{3, 4500}, {5, 17}, {33, 6}, {1, 1}} {
		x64 := randN(t, shape...)
		x32 := tensor.Must(tensor.New[float32](shape...))
		for i, v := range x64.Data() {
			x32.Data()[i] = float32(v)
			x64.Data()[i] = float64(float32(v))
		}
		for axis := range 2 {
			want := naiveSoftmax(x64.Data(), x64.Shape(), axis)
			got, err := exec.Eval(expr.Softmax(expr.Of(x32), axis))
			require.NoError(t, err)
			for i, w := range want {
				require.InDelta(t, w, float64(got.Data()[i]), 1e-9+3e-6*w, "%v axis %d element %d", shape, axis, i)
			}
		}
	}
}

// TestSoftmaxSpecialLines pins the lines NumPy's and PyTorch's stable
// softmax give: -Inf elements are 0, a line with +Inf or NaN or of -Inf
// only is NaN throughout, huge values do not overflow, an empty line is
// empty; along rows (vector loops) and columns alike.
func TestSoftmaxSpecialLines(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name     string
		in, want []float64
	}{
		{"-inf is zero", []float64{-inf, 0, -inf}, []float64{0, 1, 0}},
		{"+inf", []float64{1, inf, 2}, []float64{nan, nan, nan}},
		{"nan", []float64{1, nan, 2}, []float64{nan, nan, nan}},
		{"all -inf", []float64{-inf, -inf}, []float64{nan, nan}},
		{"huge values", []float64{1000, 1000}, []float64{0.5, 0.5}},
		{"one element", []float64{-7}, []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.in)
			row := tensor.Must(tensor.FromSlice(append([]float64(nil), c.in...), 1, n))
			got, err := exec.Eval(expr.Softmax(expr.Of(row), 1))
			require.NoError(t, err)
			requireScanBits(t, c.want, got.Values(), "row")
			col := tensor.Must(tensor.FromSlice(append([]float64(nil), c.in...), n, 1))
			got, err = exec.Eval(expr.Softmax(expr.Of(col), 0))
			require.NoError(t, err)
			requireScanBits(t, c.want, got.Values(), "column")
		})
	}
	t.Run("empty lines", func(t *testing.T) {
		for _, shape := range [][]int{{0, 4}, {3, 0}} {
			for axis := range 2 {
				got, err := exec.Eval(expr.Softmax(expr.Of(tensor.Must(tensor.Zeros[float64](shape...))), axis))
				require.NoError(t, err)
				assert.Equal(t, tensor.Shape(shape), got.Shape())
			}
		}
	})
}

// TestSoftmaxInPlace checks softmax written over its own input, along
// rows and columns, and over a transposed view of it (which must not read
// elements it has already written).
func TestSoftmaxInPlace(t *testing.T) {
	for _, c := range []struct {
		name string
		e    func(a expr.Expr[float64]) expr.Expr[float64]
	}{
		{"rows", func(a expr.Expr[float64]) expr.Expr[float64] { return expr.Softmax(a, 1) }},
		{"columns", func(a expr.Expr[float64]) expr.Expr[float64] { return expr.Softmax(a, 0) }},
		{"transposed", func(a expr.Expr[float64]) expr.Expr[float64] { return expr.Softmax(a.Transpose(0, 1), 1) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := randN(t, 300, 300)
			want, err := exec.Eval(c.e(expr.Of(a.Clone())))
			require.NoError(t, err)
			require.NoError(t, exec.EvalTo(a, c.e(expr.Of(a))))
			requireScanBits(t, want.Values(), a.Values(), "in place")
		})
	}
}

// TestSoftmaxStreamedSameBits evaluates softmaxes whose output is at least
// streamBytes, so that each line's exponentials go to a buffer and the
// normalized line is streamed out, and requires the bits of the same
// softmax stored through the caches: float32 and float64, lines of the
// vector loops' length and odd ones, a strided input, on 1 and 2 workers.
func TestSoftmaxStreamedSameBits(t *testing.T) {
	for _, shape := range [][]int{{64, 1024}, {37, 333}, {5, 2048}} {
		x64 := randN(t, shape...)
		x32 := tensor.Must(tensor.New[float32](shape...))
		for i, v := range x64.Data() {
			x32.Data()[i] = float32(v)
		}
		xt := tensor.Must(tensor.Must(tensor.RandN[float64](3, shape[1], shape[0])).T())
		for _, workers := range []int{1, 2} {
			x := exec.New(exec.Workers(workers), exec.Grain(1))
			graphs := map[string]func() (tensor.Any, error){
				"float32": func() (tensor.Any, error) { return exec.EvalWith(x, expr.Softmax(expr.Of(x32), 1)) },
				"float64": func() (tensor.Any, error) { return exec.EvalWith(x, expr.Softmax(expr.Of(x64), -1)) },
				"strided": func() (tensor.Any, error) { return exec.EvalWith(x, expr.Softmax(expr.Of(xt), 1)) },
			}
			for name, eval := range graphs {
				t.Run(name, func(t *testing.T) {
					cached, err := eval()
					require.NoError(t, err)
					restore := exec.SetStreamBytes(1)
					streamed, err := eval()
					restore()
					require.NoError(t, err)
					assert.Equal(t, cached, streamed, "%v on %d workers", shape, workers)
				})
			}
			x.Close()
		}
	}
}
