package tensor_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// sines returns sin(1), sin(2), … as a tensor of the given shape: data that
// needs every digit and both signs, without depending on a random generator.
func sines[T float32 | float64](t *testing.T, shape ...int) *tensor.Tensor[T] {
	t.Helper()
	n, err := tensor.Shape(shape).Numel()
	require.NoError(t, err)
	data := make([]T, n)
	for i := range data {
		data[i] = T(math.Sin(float64(i + 1)))
	}
	x, err := tensor.FromSlice(data, shape...)
	require.NoError(t, err)
	return x
}

// printed prints x with %v, %+v and any extra formats, one block each.
func printed(x fmt.Formatter, formats ...string) string {
	var b strings.Builder
	for _, f := range append([]string{"%v", "%+v"}, formats...) {
		fmt.Fprintf(&b, "%s:\n"+f+"\n", f, x)
	}
	return b.String()
}

// TestFormatGolden prints tensors of every dtype and layout and compares
// them with testdata/golden, whose contents were checked against NumPy
// 1.24's str() and repr() (with "array" read as "tensor" and the dtype
// always shown); testdata/numpy_golden.py redoes that check. Refresh with
// go test ./tensor -run TestFormatGolden -update.
func TestFormatGolden(t *testing.T) {
	f64 := func(shape []int, v ...float64) *tensor.Tensor[float64] {
		return tensor.Must(tensor.FromSlice(v, shape...))
	}
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		text func(t *testing.T) string
	}{
		{"float64_matrix", func(t *testing.T) string {
			x := tensor.Must(tensor.Arange(0.0, 6, 1))
			return printed(tensor.Must(x.Reshape(2, 3)), "%.3v")
		}},
		{"float64_fractions", func(t *testing.T) string {
			x := tensor.Must(tensor.Arange(0.0, 24, 1))
			d := x.Values()
			for i := range d {
				d[i] /= 7
			}
			return printed(tensor.Must(tensor.Must(tensor.FromSlice(d, 24)).Reshape(2, 3, 4)), "%.3v", "%.0v")
		}},
		{"float32_matrix", func(t *testing.T) string {
			return printed(tensor.Must(tensor.Must(tensor.Arange[float32](0, 12, 1)).Reshape(3, 4)))
		}},
		{"float32_shortest", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromSlice([]float32{3.3, 0.1, 1234.5677}, 3)))
		}},
		{"float32_exact_digits", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromSlice([]float32{3.3, 1e-3, 100.5}, 3)))
		}},
		{"float_padding", func(t *testing.T) string { return printed(f64([]int{3}, 0.1, 0.25, 3)) }},
		{"float_small_values_scientific", func(t *testing.T) string { return printed(f64([]int{2}, 1e-5, 1)) }},
		{"float_wide_range_scientific", func(t *testing.T) string { return printed(f64([]int{2}, 1, 1001)) }},
		{"float_large_scientific", func(t *testing.T) string { return printed(f64([]int{2, 2}, 1e10, 2, 3, 4)) }},
		{"float_extremes", func(t *testing.T) string {
			return printed(f64([]int{3}, 5e-324, 1.7976931348623157e308, -1e-300))
		}},
		{"float_nonfinite", func(t *testing.T) string { return printed(f64([]int{3}, nan, 1, -inf)) }},
		{"float_all_nonfinite", func(t *testing.T) string { return printed(f64([]int{2}, nan, inf)) }},
		{"float_signed_zero", func(t *testing.T) string { return printed(f64([]int{2}, math.Copysign(0, -1), 0)) }},
		{"float_wrapped_row", func(t *testing.T) string { return printed(tensor.Must(tensor.Arange(0.0, 30, 1))) }},
		{"float_wrapped_rows", func(t *testing.T) string { return printed(sines[float64](t, 3, 15)) }},
		{"float_4d_precision", func(t *testing.T) string { return printed(sines[float64](t, 2, 2, 2, 3), "%.2v") }},
		{"summarized_1d", func(t *testing.T) string { return printed(tensor.Must(tensor.Arange(0, 2000, 1))) }},
		{"summarized_2d_float32", func(t *testing.T) string { return printed(sines[float32](t, 50, 50)) }},
		{"summarized_3d", func(t *testing.T) string { return printed(sines[float64](t, 11, 10, 10), "%.3v") }},
		{"summarized_just_over", func(t *testing.T) string { return printed(tensor.Must(tensor.Arange[int16](0, 1001, 1))) }},
		{"not_summarized_at_1000", func(t *testing.T) string {
			return printed(tensor.Must(tensor.Must(tensor.Arange[uint16](0, 1000, 1)).Reshape(100, 10)))
		}},
		{"int8_matrix", func(t *testing.T) string {
			return printed(tensor.Must(tensor.Must(tensor.Arange[int8](-5, 20, 1)).Reshape(5, 5)))
		}},
		{"uint8", func(t *testing.T) string { return printed(tensor.Must(tensor.Arange[uint8](250, 255, 1))) }},
		{"int64_wrapped", func(t *testing.T) string {
			x := tensor.Must(tensor.Arange[int64](-1000, 1040, 17))
			return printed(tensor.Must(x.Reshape(4, 30)))
		}},
		{"bool", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromNested2([][]bool{{true, false}, {false, false}})))
		}},
		{"complex128", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromSlice([]complex128{1 + 2i, 3.5 - 1i}, 2)))
		}},
		{"complex128_nonfinite", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromSlice([]complex128{1 + 2i, complex(nan, 1), complex(1, -inf)}, 3)))
		}},
		{"complex64_scientific", func(t *testing.T) string {
			return printed(tensor.Must(tensor.FromSlice([]complex64{1e-5 + 1i, 2.5 - 3e6i}, 2)))
		}},
		{"complex128_matrix", func(t *testing.T) string {
			re, im := sines[float64](t, 12).Values(), sines[float64](t, 24).Values()[12:]
			c := make([]complex128, 12)
			for i := range c {
				c[i] = complex(re[i], im[i])
			}
			return printed(tensor.Must(tensor.FromSlice(c, 3, 4)))
		}},
		{"scalars", func(t *testing.T) string {
			return printed(tensor.Must(tensor.Full(2.0))) +
				printed(tensor.Must(tensor.Full(1e20))) +
				printed(tensor.Must(tensor.Full(1e-5))) +
				printed(tensor.Must(tensor.Full[float32](0.1))) +
				printed(tensor.Must(tensor.Full(1.0/3)), "%.3v") +
				printed(tensor.Must(tensor.Full[int32](7))) +
				printed(tensor.Must(tensor.Full(true))) +
				printed(tensor.Must(tensor.Full[complex128](1+2i))) +
				printed(tensor.Must(tensor.Full[complex128](2i))) +
				printed(tensor.Must(tensor.Full[complex64](1.5-0.5i)))
		}},
		{"empty", func(t *testing.T) string {
			return printed(tensor.Must(tensor.Zeros[float64](0))) + printed(tensor.Must(tensor.Zeros[float32](2, 0)))
		}},
		{"ones_1x1x1", func(t *testing.T) string { return printed(tensor.Must(tensor.Ones[float64](1, 1, 1))) }},
		{"strided_views", func(t *testing.T) string {
			x := tensor.Must(tensor.Must(tensor.Arange(0.0, 12, 1)).Reshape(3, 4))
			return printed(tensor.Must(x.T())) +
				printed(tensor.Must(x.Slice(1, 1, 4, 2))) +
				printed(tensor.Must(tensor.Must(x.Index(0, 1)).Expand(2, 4)))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.text(t)
			path := filepath.Join("testdata", "golden", tt.name+".golden")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create the golden file")
			assert.Equal(t, string(want), got)
		})
	}
}

func TestFormatVerbs(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2.5}, 2))
	assert.Equal(t, "[1.  2.5]", x.String())
	assert.Equal(t, "[1.  2.5]", fmt.Sprint(x))
	assert.Equal(t, "[1.  2.5]", fmt.Sprintf("%s", x))
	assert.Equal(t, "tensor([1. , 2.5], dtype=float64)", fmt.Sprintf("%#v", x))
	assert.Equal(t, "%!d(tensor.Tensor[float64])", fmt.Sprintf("%d", x))
	var nilT *tensor.Tensor[float64]
	assert.Equal(t, "<nil>", fmt.Sprint(nilT))
	assert.Equal(t, "<nil>", nilT.String())
	var zero tensor.Tensor[int]
	assert.Equal(t, "[]", fmt.Sprint(&zero), "a zero Tensor has no storage")

	type celsius float64
	c := tensor.Must(tensor.Full[celsius](36.6, 2))
	assert.Equal(t, "[36.6 36.6]", fmt.Sprint(c), "named element types print with fmt")
}
