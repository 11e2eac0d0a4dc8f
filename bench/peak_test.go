package bench

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

func TestPeak(t *testing.T) {
	p := measurePeak(1, 3)
	require.NotNil(t, p)
	assert.Positive(t, p.FMAsPerSec)
	assert.Contains(t, []int{128, 256, 512}, p.VectorBits)
	assert.InDelta(t, p.FMAsPerSec*float64(p.VectorBits/64)*2/1e9, p.GFLOPs64, 1e-9)
	assert.InDelta(t, 2*p.GFLOPs64, p.GFLOPs32, 1e-9, "twice the lanes of float32")
	assert.Equal(t, p.GFLOPs64, p.GFLOPs(dtype.Float64))
	assert.Zero(t, p.GFLOPs(dtype.Int64), "integer products have no FMA peak")
	assert.Zero(t, (*Peak)(nil).GFLOPs(dtype.Float32))

	// A product at 10 GFLOP/s on a 40 GFLOP/s peak is at 25%.
	r := Row{Bound: ComputeBound, Flops: 10_000_000, Tensorplay: Stats{Median: time.Millisecond}, peakDType: dtype.Float32}
	r.derive(0, &Peak{GFLOPs32: 40})
	assert.InDelta(t, 25, r.PctPeak, 1e-9)
	r.peakDType = dtype.Invalid
	r.derive(0, &Peak{GFLOPs32: 40})
	assert.Zero(t, r.PctPeak, "rows without a PeakDType have no %peak")
}

func TestFMALoopComputes(t *testing.T) {
	// Each chain is a ← a·m + c from a = x+i: after one round, the sum.
	var want float64
	for i := range fmaChains {
		want += (1+float64(i))*0.999999 + 1e-7
	}
	assert.InDelta(t, want, fmaLoop(1, 1), 1e-12)
}
