package fft_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/fft"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestShifts checks FFTShift and IFFTShift against numpy.fft.fftshift and
// ifftshift of arange(15).reshape(3, 5) (values from NumPy 1.24), and that
// each undoes the other on odd extents.
func TestShifts(t *testing.T) {
	a := tensor.Must(tensor.Arange(0.0, 15, 1))
	x := expr.Of(tensor.Must(a.Reshape(3, 5)))
	cases := []struct {
		name string
		e    expr.Expr[float64]
		want []float64
	}{
		{"fftshift", fft.FFTShift(x), []float64{13, 14, 10, 11, 12, 3, 4, 0, 1, 2, 8, 9, 5, 6, 7}},
		{"ifftshift", fft.IFFTShift(x), []float64{7, 8, 9, 5, 6, 12, 13, 14, 10, 11, 2, 3, 4, 0, 1}},
		{"fftshift axes=1", fft.FFTShift(x, 1), []float64{3, 4, 0, 1, 2, 8, 9, 5, 6, 7, 13, 14, 10, 11, 12}},
		{"ifftshift axes=(0,)", fft.IFFTShift(x, -2), []float64{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 1, 2, 3, 4}},
		{"round trip", fft.IFFTShift(fft.FFTShift(x)), a.Values()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := exec.Eval(c.e)
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{3, 5}, got.Shape())
			assert.Equal(t, c.want, got.Values())
		})
	}

	freq, err := fft.FFTFreq(5, 1)
	require.NoError(t, err)
	got, err := exec.Eval(fft.FFTShift(expr.Of(freq)))
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{-0.4, -0.2, 0, 0.2, 0.4}, got.Values(), 1e-15)

	var ae *tensor.AxisError
	assert.ErrorAs(t, fft.FFTShift(x, 2).Err(), &ae)
}

func ExampleFFTShift() {
	freq, _ := fft.FFTFreq(6, 1)
	centred, _ := exec.Eval(fft.FFTShift(expr.Of(freq)))
	fmt.Println(freq)
	fmt.Println(centred)
	// Output:
	// [ 0.          0.16666667  0.33333333 -0.5        -0.33333333 -0.16666667]
	// [-0.5        -0.33333333 -0.16666667  0.          0.16666667  0.33333333]
}
