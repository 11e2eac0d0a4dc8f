package fft_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/fft"
	"github.com/tensorplay/tensorplay/tensor"
)

// npTensor is a tensor of testdata/cases.json: complex data as [re, im].
type npTensor struct {
	Shape []int             `json:"shape"`
	DType string            `json:"dtype"`
	Data  []json.RawMessage `json:"data"`
}

func (t npTensor) values(tb testing.TB) []complex128 {
	out := make([]complex128, len(t.Data))
	for i, raw := range t.Data {
		var pair [2]float64
		if json.Unmarshal(raw, &pair) == nil {
			out[i] = complex(pair[0], pair[1])
			continue
		}
		var f float64
		require.NoError(tb, json.Unmarshal(raw, &f))
		out[i] = complex(f, 0)
	}
	return out
}

type npCase struct {
	Name     string         `json:"name"`
	Fn       string         `json:"fn"`
	Params   map[string]any `json:"params"`
	Input    npTensor       `json:"input"`
	Expected npTensor       `json:"expected"`
}

type npFile struct {
	NumPy string   `json:"numpy"`
	Cases []npCase `json:"cases"`
	Freqs []struct {
		N        int      `json:"n"`
		D        float64  `json:"d"`
		FFTFreq  npTensor `json:"fftfreq"`
		RFFTFreq npTensor `json:"rfftfreq"`
	} `json:"freqs"`
}

func load(t *testing.T) npFile {
	raw, err := os.ReadFile("testdata/cases.json")
	require.NoError(t, err)
	var f npFile
	require.NoError(t, json.Unmarshal(raw, &f))
	require.NotEmpty(t, f.Cases)
	return f
}

// options turns a case's NumPy keyword arguments into fft options.
func options(t *testing.T, p map[string]any) []fft.Option {
	var opts []fft.Option
	ints := func(v any) []int {
		var out []int
		for _, e := range v.([]any) {
			out = append(out, int(e.(float64)))
		}
		return out
	}
	for k, v := range p {
		switch k {
		case "n":
			opts = append(opts, fft.Len(int(v.(float64))))
		case "axis":
			opts = append(opts, fft.Axis(int(v.(float64))))
		case "axes":
			opts = append(opts, fft.Axes(ints(v)...))
		case "s":
			opts = append(opts, fft.Shape(ints(v)...))
		case "norm":
			opts = append(opts, fft.Normalize(map[string]fft.Norm{"backward": fft.Backward, "ortho": fft.Ortho, "forward": fft.Forward}[v.(string)]))
		default:
			t.Fatalf("no option for %s", k)
		}
	}
	return opts
}

// input builds the case's input tensor in its own dtype.
func input[T dtype.Elem](t *testing.T, c npCase, conv func(complex128) T) expr.Expr[T] {
	vals := c.Input.values(t)
	data := make([]T, len(vals))
	for i, v := range vals {
		data[i] = conv(v)
	}
	return expr.Of(tensor.Must(tensor.FromSlice(data, c.Input.Shape...)))
}

// TestAgainstNumPy runs every case of testdata/cases.json (written by
// testdata/gen_cases.py with NumPy 1.24) and requires agreement to 1e-12
// relative to the largest magnitude of the expected result.
func TestAgainstNumPy(t *testing.T) {
	f := load(t)
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			opts := options(t, c.Params)
			var got []complex128
			var shape tensor.Shape
			var err error
			keep := func(r *tensor.Tensor[complex128], e error) {
				if err = e; e == nil {
					got, shape = r.Values(), r.Shape()
				}
			}
			keepReal := func(r *tensor.Tensor[float64], e error) {
				if err = e; e == nil {
					shape = r.Shape()
					for _, v := range r.Values() {
						got = append(got, complex(v, 0))
					}
				}
			}
			switch c.Input.DType {
			case "float64":
				x := input(t, c, func(v complex128) float64 { return real(v) })
				switch c.Fn {
				case "rfft":
					keep(fft.RFFT(x, opts...))
				default:
					keep(complexFn[float64](t, c.Fn)(x, opts...))
				}
			case "float32":
				keep(complexFn[float32](t, c.Fn)(input(t, c, func(v complex128) float32 { return float32(real(v)) }), opts...))
			case "complex64":
				keep(complexFn[complex64](t, c.Fn)(input(t, c, func(v complex128) complex64 { return complex64(v) }), opts...))
			case "complex128":
				x := input(t, c, func(v complex128) complex128 { return v })
				if c.Fn == "irfft" {
					keepReal(fft.IRFFT(x, opts...))
				} else {
					keep(complexFn[complex128](t, c.Fn)(x, opts...))
				}
			default:
				t.Fatalf("no input of dtype %s", c.Input.DType)
			}
			require.NoError(t, err)
			require.Equal(t, tensor.Shape(c.Expected.Shape), shape)
			assertClose(t, c.Expected.values(t), got)
		})
	}
}

// complexFn returns the complex transform named fn for inputs of type T.
func complexFn[T fft.Input](t *testing.T, fn string) func(expr.Expr[T], ...fft.Option) (*tensor.Tensor[complex128], error) {
	switch fn {
	case "fft":
		return fft.FFT[T]
	case "ifft":
		return fft.IFFT[T]
	case "fft2":
		return fft.FFT2[T]
	case "ifft2":
		return fft.IFFT2[T]
	case "fftn":
		return fft.FFTN[T]
	case "ifftn":
		return fft.IFFTN[T]
	}
	t.Fatalf("no transform %s", fn)
	return nil
}

func assertClose(t *testing.T, want, got []complex128) {
	t.Helper()
	require.Len(t, got, len(want))
	scale := 0.0
	for _, w := range want {
		scale = max(scale, cmplx.Abs(w))
	}
	for i := range want {
		assert.LessOrEqual(t, cmplx.Abs(got[i]-want[i]), 1e-12*scale, "element %d: got %v want %v", i, got[i], want[i])
	}
}

func TestFrequencies(t *testing.T) {
	for _, fr := range load(t).Freqs {
		got := tensor.Must(fft.FFTFreq(fr.N, fr.D)).Values()
		for i, w := range fr.FFTFreq.values(t) {
			assert.InDelta(t, real(w), got[i], 1e-15, "fftfreq(%d, %v)[%d]", fr.N, fr.D, i)
		}
		got = tensor.Must(fft.RFFTFreq(fr.N, fr.D)).Values()
		require.Len(t, got, len(fr.RFFTFreq.Data))
		for i, w := range fr.RFFTFreq.values(t) {
			assert.InDelta(t, real(w), got[i], 1e-15, "rfftfreq(%d, %v)[%d]", fr.N, fr.D, i)
		}
	}
}

// TestRoundTripsAndWorkers checks that inverse transforms undo forward
// ones in every mode and that the worker count does not change the bits.
func TestRoundTripsAndWorkers(t *testing.T) {
	data := make([]complex128, 6*10*7)
	for i := range data {
		data[i] = complex(math.Sin(float64(i)), math.Cos(float64(3*i)))
	}
	x := expr.Of(tensor.Must(tensor.FromSlice(data, 6, 10, 7)))
	for _, norm := range []fft.Norm{fft.Backward, fft.Ortho, fft.Forward} {
		f, err := fft.FFTN(x, fft.Normalize(norm))
		require.NoError(t, err)
		back, err := fft.IFFTN(expr.Of(f), fft.Normalize(norm))
		require.NoError(t, err)
		assertClose(t, data, back.Values())
		one, err := fft.FFTN(x, fft.Normalize(norm), fft.Workers(1))
		require.NoError(t, err)
		eight, err := fft.FFTN(x, fft.Normalize(norm), fft.Workers(8))
		require.NoError(t, err)
		assert.Equal(t, one.Values(), eight.Values(), "norm %d", norm)
	}
	re := make([]float64, 3*9)
	for i := range re {
		re[i] = math.Sin(float64(i * i))
	}
	r := expr.Of(tensor.Must(tensor.FromSlice(re, 3, 9)))
	c, err := fft.RFFT(r, fft.Axis(1))
	require.NoError(t, err)
	back, err := fft.IRFFT(expr.Of(c), fft.Len(9))
	require.NoError(t, err)
	for i := range re {
		assert.InDelta(t, re[i], back.Values()[i], 1e-14)
	}
}

func TestErrors(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.New[complex128](3, 4)))
	var argErr *tensor.ArgError
	_, err := fft.FFT(x, fft.Len(0))
	require.ErrorAs(t, err, &argErr)
	assert.EqualError(t, err, "FFT: invalid number of data points (0): it must be at least 1")
	_, err = fft.FFT(expr.Of(tensor.Must(tensor.New[float64](0))))
	assert.ErrorAs(t, err, &argErr, "an empty axis")
	var axisErr *tensor.AxisError
	_, err = fft.FFT(x, fft.Axis(2))
	assert.ErrorAs(t, err, &axisErr)
	_, err = fft.FFTN(x, fft.Shape(2, 2, 2))
	assert.ErrorAs(t, err, &argErr)
	_, err = fft.FFTN(x, fft.Shape(2), fft.Axes(0, 1))
	assert.ErrorAs(t, err, &argErr)
	_, err = fft.IRFFT(expr.Of(tensor.Must(tensor.New[complex128](1))))
	assert.ErrorAs(t, err, &argErr, "one coefficient gives n = 0")
	_, err = fft.FFTFreq(0, 1)
	assert.ErrorAs(t, err, &argErr)
	bad := x.Add(expr.Of(tensor.Must(tensor.New[complex128](5))))
	_, err = fft.FFT(bad)
	assert.Same(t, bad.Err(), err)
}

// The spectrum of a cosine of frequency 2 over 8 samples, and its
// frequencies.
func ExampleRFFT() {
	x := make([]float64, 8)
	for i := range x {
		x[i] = math.Cos(2 * math.Pi * 2 * float64(i) / 8)
	}
	s, _ := fft.RFFT(expr.Of(tensor.Must(tensor.FromSlice(x, 8))))
	for _, v := range s.Values() {
		fmt.Printf(" %.1f", cmplx.Abs(v))
	}
	fmt.Println()
	f, _ := fft.RFFTFreq(8, 1)
	fmt.Println(f.Values())
	// Output:
	//  0.0 0.0 4.0 0.0 0.0
	// [0 0.125 0.25 0.375 0.5]
}
