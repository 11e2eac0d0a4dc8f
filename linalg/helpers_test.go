package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

// randomData returns n values uniform in [-1, 1) from a fixed seed.
func randomData(seed uint64, n int) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	d := make([]float64, n)
	for i := range d {
		d[i] = 2*r.Float64() - 1
	}
	return d
}

// leaf makes an expression of data of the given shape, as T.
func leaf[T linalg.Float](data []float64, shape ...int) expr.Expr[T] {
	v := make([]T, len(data))
	for i, x := range data {
		v[i] = T(x)
	}
	return expr.Of(tensor.Must(tensor.FromSlice(v, shape...)))
}

// f64 returns t's values as float64.
func f64[T linalg.Float](t *tensor.Tensor[T]) []float64 {
	v := t.Values()
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// mul is the m×k by k×n product of row-major matrices.
func mul(a, b []float64, m, k, n int) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				s += a[i*k+p] * b[p*n+j]
			}
			c[i*n+j] = s
		}
	}
	return c
}

// transpose returns the n×m transpose of the m×n matrix a.
func transpose(a []float64, m, n int) []float64 {
	t := make([]float64, m*n)
	for i := range m {
		for j := range n {
			t[j*m+i] = a[i*n+j]
		}
	}
	return t
}

// eye is the n×n identity.
func eye(n int) []float64 {
	d := make([]float64, n*n)
	for i := range n {
		d[i*n+i] = 1
	}
	return d
}

// assertNear checks |got-want| <= tol elementwise.
func assertNear(t *testing.T, got, want []float64, tol float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			assert.Failf(t, what, "element %d: got %v, want %v (tol %g)", i, got[i], want[i], tol)
			return
		}
	}
}

// tolOf is the tolerance of the property tests for T.
func tolOf[T linalg.Float]() float64 {
	if _, ok := any(T(0)).(float32); ok {
		return 1e-4
	}
	return 1e-10
}
