package exec_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// assertNaNEqual compares float64 slices with NaN equal to NaN.
func assertNaNEqual(t *testing.T, want, got []float64, msg string) {
	t.Helper()
	require.Len(t, got, len(want), msg)
	for i := range want {
		if math.IsNaN(want[i]) {
			assert.True(t, math.IsNaN(got[i]), "%s: element %d is %v, want NaN", msg, i, got[i])
			continue
		}
		assert.InDelta(t, want[i], got[i], 1e-12, "%s: element %d", msg, i)
	}
}

// TestQuantileMethods: each of NumPy's methods on two rows, the values
// NumPy 1.24 printed for np.quantile(x, qs, axis=1, method=m).
func TestQuantileMethods(t *testing.T) {
	x, err := tensor.FromSlice([]float64{3, 1, 4, 1, 5, 9, 2, 6, 2, 7, 1, 8, 2, 8, 1, 8.5}, 2, 8)
	require.NoError(t, err)
	qs := []float64{0, 0.1, 0.25, 0.5, 0.7, 1}
	for _, c := range []struct {
		m    exec.QuantileMethod
		want []float64
	}{
		{exec.Linear, []float64{1.0, 1.0, 1.0, 1.0, 1.75, 1.75, 3.5, 4.5, 4.8999999999999995, 7.8999999999999995, 9.0, 8.5}},
		{exec.Lower, []float64{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0, 2.0, 4.0, 7.0, 9.0, 8.5}},
		{exec.Higher, []float64{1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 4.0, 7.0, 5.0, 8.0, 9.0, 8.5}},
		{exec.Nearest, []float64{1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 4.0, 7.0, 5.0, 8.0, 9.0, 8.5}},
		{exec.Midpoint, []float64{1.0, 1.0, 1.0, 1.0, 1.5, 1.5, 3.5, 4.5, 4.5, 7.5, 9.0, 8.5}},
	} {
		t.Run(c.m.String(), func(t *testing.T) {
			got, err := exec.Quantiles[float64](expr.Of(x), qs, exec.OverAxis(1), exec.Method(c.m))
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{6, 2}, got.Shape())
			assertNaNEqual(t, c.want, got.Values(), c.m.String())
		})
	}
}

// TestNanQuantiles: NaNs left out, all-NaN lines NaN (np.nanquantile,
// np.nanmedian, np.nanpercentile), and percentiles over the flattened input.
func TestNanQuantiles(t *testing.T) {
	y, err := tensor.FromSlice([]float64{1, nan, 3, 2, nan, nan, nan, nan, 4, nan, 0.5, nan}, 3, 4)
	require.NoError(t, err)
	e := expr.Of(y)
	q, err := exec.NanQuantiles[float64](e, []float64{0.3, 0.5}, exec.OverAxis(1))
	require.NoError(t, err)
	assertNaNEqual(t, []float64{1.6, nan, 1.55, 2.0, nan, 2.25}, q.Values(), "nanquantile")
	m, err := exec.NanMedian[float64](e, exec.OverAxis(-1))
	require.NoError(t, err)
	assertNaNEqual(t, []float64{2, nan, 2.25}, m.Values(), "nanmedian")
	p, err := exec.NanPercentile[float64](e, 40, exec.OverAxis(0))
	require.NoError(t, err)
	assertNaNEqual(t, []float64{2.2, nan, 1.5, 2.0}, p.Values(), "nanpercentile")
	plain, err := exec.Median[float64](e, exec.OverAxis(1))
	require.NoError(t, err)
	assertNaNEqual(t, []float64{nan, nan, nan}, plain.Values(), "median of lines with NaN")

	x, err := tensor.FromSlice([]float64{3, 1, 4, 1, 5, 9, 2, 6, 2, 7, 1, 8, 2, 8, 1, 8.5}, 2, 8)
	require.NoError(t, err)
	ps, err := exec.Percentiles[float64](expr.Of(x), []float64{10, 90})
	require.NoError(t, err)
	assertNaNEqual(t, []float64{1, 8.25}, ps.Values(), "percentile")
	kept, err := exec.Percentiles[float64](expr.Of(x), []float64{10, 90}, exec.OverAxis(0), exec.KeepDims())
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 1, 8}, kept.Shape())
	all, err := exec.Median[float64](expr.Of(x), exec.KeepDims())
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{1, 1}, all.Shape())
}

// TestMedianDTypes: integers give the mean of the middle pair in float64;
// float32's is computed in float32 as np.median's mean is.
func TestMedianDTypes(t *testing.T) {
	i8, err := tensor.FromSlice([]int8{5, 3, 1, 2, 2, 9}, 2, 3)
	require.NoError(t, err)
	m, err := exec.Median[float64](expr.Of(i8), exec.OverAxis(0))
	require.NoError(t, err)
	assert.Equal(t, []float64{3.5, 2.5, 5}, m.Values())
	f, err := tensor.FromSlice([]float32{1.1, 2.1}, 2)
	require.NoError(t, err)
	m32, err := exec.Median[float32](expr.Of(f))
	require.NoError(t, err)
	assert.Equal(t, float32(1.5999999046325684), m32.Values()[0])
}

// TestQuantileAgainstSort checks selection against a full sort on random
// lines with many ties, every method and several workers: the same values.
func TestQuantileAgainstSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(3), exec.Grain(1))}
	for _, n := range []int{1, 2, 3, 17, 100, 1001} {
		data := make([]int32, 5*n)
		for i := range data {
			data[i] = int32(r.IntN(n/3 + 2))
		}
		a, err := tensor.FromSlice(data, 5, n)
		require.NoError(t, err)
		qs := []float64{0, 0.01, 0.33, 0.5, 0.9, 0.999, 1}
		for m := exec.Linear; m <= exec.Midpoint; m++ {
			var first []float64
			for _, x := range xs {
				got, err := exec.Quantiles[float64](expr.Of(a), qs, exec.OverAxis(1), exec.Method(m), exec.Using(x))
				require.NoError(t, err)
				if first == nil {
					first = got.Values()
				}
				assert.Equal(t, first, got.Values(), "n %d %v: workers", n, m)
			}
			for row := range 5 {
				s := slices.Clone(data[row*n : (row+1)*n])
				slices.Sort(s)
				for qi, q := range qs {
					v := float64(n-1) * q
					lo, hi := int(math.Floor(v)), int(math.Ceil(v))
					var want float64
					switch m {
					case exec.Linear:
						g := v - math.Floor(v)
						want = float64(s[lo]) + (float64(s[hi])-float64(s[lo]))*g
					case exec.Lower:
						want = float64(s[lo])
					case exec.Higher:
						want = float64(s[hi])
					case exec.Nearest:
						want = float64(s[int(math.RoundToEven(v))])
					case exec.Midpoint:
						want = (float64(s[lo]) + float64(s[hi])) / 2
					}
					assert.InDelta(t, want, first[qi*5+row], 1e-9, "n %d %v q %v row %d", n, m, q, row)
				}
			}
		}
		med, err := exec.Median[float64](expr.Of(a), exec.OverAxis(1))
		require.NoError(t, err)
		for row := range 5 {
			s := slices.Clone(data[row*n : (row+1)*n])
			slices.Sort(s)
			want := float64(s[n/2])
			if n%2 == 0 {
				want = (float64(s[n/2-1]) + float64(s[n/2])) / 2
			}
			assert.Equal(t, want, med.Values()[row], "median n %d row %d", n, row)
		}
	}
}

// TestQuantileErrors: typed errors, nothing computed.
func TestQuantileErrors(t *testing.T) {
	a, err := tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	require.NoError(t, err)
	x := expr.Of(a)
	var ae *tensor.ArgError
	_, err = exec.Quantile[float64](x, 1.5)
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, err.Error(), "Quantiles must be in the range [0, 1], got 1.5")
	_, err = exec.Quantile[float64](x, nan)
	assert.ErrorAs(t, err, &ae)
	_, err = exec.Percentiles[float64](x, []float64{50, 101})
	require.ErrorAs(t, err, &ae)
	assert.Contains(t, err.Error(), "Percentiles must be in the range [0, 100], got 101")
	_, err = exec.Quantile[float64](x, 0.5, exec.Method(exec.QuantileMethod(9)))
	assert.ErrorAs(t, err, &ae)
	var axe *tensor.AxisError
	_, err = exec.Median[float64](x, exec.OverAxis(2))
	assert.ErrorAs(t, err, &axe)
	e, err := tensor.Zeros[float64](2, 0)
	require.NoError(t, err)
	var se *tensor.ShapeError
	_, err = exec.Quantile[float64](expr.Of(e), 0.5, exec.OverAxis(1))
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 1, se.Axis)
	m, err := exec.Median[float64](expr.Of(e), exec.OverAxis(1))
	require.NoError(t, err, "the median of an empty line is NaN, as NumPy's")
	assertNaNEqual(t, []float64{nan, nan}, m.Values(), "empty median")
	_, err = exec.Median[float64](expr.Of[float64](nil))
	assert.True(t, errors.As(err, &ae), "%v", err)
}
