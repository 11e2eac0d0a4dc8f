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
	assert.NotEmpty(t, p.Kernel)
	assert.Equal(t, 1, p.Goroutines)
	assert.Positive(t, p.GFLOPs64)
	assert.Positive(t, p.GFLOPs32)
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
