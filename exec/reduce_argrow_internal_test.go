package exec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// naiveArg is the first index a scan with better (> or <) keeps, or the
// first NaN's: the definition argmaxRow and argminRow keep.
func naiveArg(row []float64, better func(x, best float64) bool) int64 {
	if len(row) == 0 {
		return 0
	}
	at := 0
	for j, x := range row {
		if x != x {
			return int64(j)
		}
		if better(x, row[at]) {
			at = j
		}
	}
	return int64(at)
}

// TestArgRows checks argmaxRow and argminRow against the scan that
// defines them, on rows of every length to 40 drawn from few values (so
// that the extreme repeats), with NaN and both zeros among them.
func TestArgRows(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	values := []float64{-1, 0, math.Copysign(0, -1), 2, 2, math.Inf(1), math.Inf(-1), 3.5, math.NaN()}
	for n := range 41 {
		for range 200 {
			row := make([]float64, n)
			for j := range row {
				row[j] = values[r.IntN(len(values)-1)]
				if r.IntN(40) == 0 {
					row[j] = math.NaN()
				}
			}
			assert.Equal(t, naiveArg(row, func(x, b float64) bool { return x > b }), argmaxRow(row), "argmax %v", row)
			assert.Equal(t, naiveArg(row, func(x, b float64) bool { return x < b }), argminRow(row), "argmin %v", row)
			ints := make([]int32, n)
			for j := range ints {
				ints[j] = int32(r.IntN(5))
			}
			f := make([]float64, n)
			for j, v := range ints {
				f[j] = float64(v)
			}
			assert.Equal(t, naiveArg(f, func(x, b float64) bool { return x > b }), argmaxRow(ints), "argmax %v", ints)
			assert.Equal(t, naiveArg(f, func(x, b float64) bool { return x < b }), argminRow(ints), "argmin %v", ints)
		}
	}
}

var sinkArg int64

// BenchmarkArgminShortRows times argminRow over 100000 rows of 16
// float64, k-means' assignment step at k = 16.
func BenchmarkArgminShortRows(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 16*100000)
	for i := range xs {
		xs[i] = r.Float64()
	}
	for b.Loop() {
		for o := 0; o < len(xs); o += 16 {
			sinkArg += argminRow(xs[o : o+16])
		}
	}
}
