package exec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

// TestClassify checks every access kind's requirements, in runs of one row
// and of whole rows, and that negative strides are never direct or
// transposed.
func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		strides  []int
		row, all access // in runs of one row; of whole 700-element rows
	}{
		{"0-d", []int{0}, accInvariant, accInvariant},
		{"broadcast everywhere", []int{0, 0, 0}, accInvariant, accInvariant},
		{"per batch", []int{5, 0, 0}, accScalar, accScalar},
		{"column [R,1]", []int{1, 0}, accScalar, accStrided},
		{"row [1,C]", []int{0, 1}, accDirect, accStrided},
		{"contiguous", []int{700, 1}, accDirect, accDirect},
		{"padded rows", []int{704, 1}, accDirect, accStrided},
		{"one axis", []int{1}, accDirect, accDirect},
		{"stepped slice", []int{1400, 2}, accStrided, accStrided},
		{"transposed", []int{1, 500}, accTransposed, accTransposed},
		{"transposed, batched", []int{350000, 1, 500}, accTransposed, accTransposed},
		{"rows two apart", []int{2, 1000}, accStrided, accStrided},
		{"reversed row", []int{700, -1}, accReversed, accStrided},
		{"reversed block", []int{-700, -1}, accReversed, accReversed},
		{"reversed rows", []int{-700, 1}, accDirect, accStrided},
		{"reversed transposed", []int{-1, 500}, accStrided, accStrided},
		{"transposed, columns reversed", []int{1, -500}, accStrided, accStrided},
		{"negative broadcast column", []int{-1, 0}, accScalar, accStrided},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.row, classify(tt.strides, false, false, 700), "runs of one row")
			assert.Equal(t, tt.all, classify(tt.strides, false, true, 700), "runs of whole rows")
		})
	}
	assert.Equal(t, "transposed", accTransposed.String())
}

// TestTilePlans checks which row of tileTable plans a region and what it
// gives, slot lengths included: a + b.T (slots a, b.T, a + b.T) in panels,
// in bands when a is padded, and without kernels (a copy: bands); a
// stepped slice in strided tiles; short and long rows.
func TestTilePlans(t *testing.T) {
	band, loops := copyBand([]dtype.DType{dtype.Float64})
	tests := []struct {
		name     string
		sizes    []int
		strides  [][]int
		computes bool
		want     tilePlan
		kinds    []access
		lens     [3]int
	}{
		{"panels", []int{500, 700}, [][]int{{700, 1}, {700, 1}, {1, 500}}, true,
			tilePlan{name: "panels", r: 64, c: 700, copyRows: 64, copyRuns: panelRuns, piece: 512},
			[]access{accDirect, accDirect, accTransposed}, [3]int{0, 64 * 700, 512}},
		{"bands: a padded", []int{500, 700}, [][]int{{700, 1}, {704, 1}, {1, 500}}, true,
			tilePlan{name: "bands", r: 128, c: 700, rowwise: true, copyRows: band, copyRuns: 700, piece: 512},
			[]access{accDirect, accDirect, accTransposed}, [3]int{0, band * (700 + 8), 512}},
		{"bands: a copy", []int{500, 700}, [][]int{{700, 1}, {1, 500}, {1, 500}}, false,
			tilePlan{name: "bands", r: 128, c: 700, rowwise: true, copyRows: band, copyRuns: 700, piece: 512},
			[]access{accDirect, accTransposed, accTransposed}, [3]int{band * (700 + 8), band * (700 + 8), 512}},
		{"strided tiles", []int{500, 700}, [][]int{{700, 1}, {1400, 2}, {700, 1}}, true,
			tilePlan{name: "strided tiles", r: 128, c: 512, rowwise: true, piece: 512},
			[]access{accDirect, accStrided, accDirect}, [3]int{512, 0, 512}},
		{"interleave", []int{5000, 3}, [][]int{{3, 1}, {3, 1}, {1, 5000}}, true,
			tilePlan{name: "interleave", r: 1360, c: 3, copyRows: 1360, copyRuns: 3, piece: 512},
			[]access{accDirect, accDirect, accTransposed}, [3]int{0, 1360 * 3, 512}},
		{"short rows", []int{500, 100}, [][]int{{100, 1}, {0, 1}, {100, 1}}, true,
			tilePlan{name: "short rows", r: 5, c: 100, piece: 500},
			[]access{accDirect, accStrided, accDirect}, [3]int{500, 0, 500}},
		{"long rows", []int{500, 700}, [][]int{{700, 1}, {0, 1}, {1, 0}}, true,
			tilePlan{name: "long rows", r: 1, c: 512, piece: 512},
			[]access{accDirect, accDirect, accScalar}, [3]int{0, 0, 512}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !loops && tt.want.name == "panels" {
				t.Skip("no transpose loops: no panels")
			}
			g := &region{
				inputs:  []int{0, 1},
				outputs: make([]regionOutput, 1),
				slotDT:  []dtype.DType{dtype.Float64, dtype.Float64, dtype.Float64},
				lay:     layout{sizes: tt.sizes, strides: tt.strides},
			}
			dts := []dtype.DType{dtype.Float64, dtype.Float64}
			f := g.tileFacts(dts[:1], dts, tt.computes, 2)
			f.block = 512
			g.planTiles(f)
			assert.Equal(t, tt.want, g.tp)
			assert.Equal(t, tt.kinds, g.kinds)
			assert.Equal(t, tt.lens, [3]int{g.slotLen(0), g.slotLen(1), g.slotLen(2)}, "slot lengths")
		})
	}
}

// TestBandAheadCoversLines simulates the reads of a transposed operand's
// tile, its rows one element apart and its columns pitch apart, and checks
// that after the first band every cache line a row reads was read by an
// earlier row or prefetched (bandAhead) by one, wherever the operand starts
// within a line, for partial tiles and bands too.
func TestBandAheadCoversLines(t *testing.T) {
	for _, band := range []int{8, 16, 64} { // float64, float32, int8
		for _, tile := range [][2]int{{128, 512}, {44, 76}, {13, 512}, {8, 7}} {
			r, c := tile[0], tile[1]
			for _, pitch := range []int{3162, 3000, band*40 + 1} {
				for start := range band {
					missed := 0
					known := map[int]bool{} // lines read or prefetched so far
					line := func(row, col int) int { return (start + col*pitch + row) / band }
					for i := range r {
						if i >= band {
							for j := range c {
								if !known[line(i, j)] {
									missed++
								}
							}
						}
						if row, lo, hi := bandAhead(i, r, c, band); hi > lo {
							assert.Less(t, row, r, "row %d prefetches outside the tile", i)
							for j := lo; j < hi; j++ {
								known[line(row, j)] = true
							}
						}
						for j := range c {
							known[line(i, j)] = true
						}
					}
					assert.Zero(t, missed, "band %d, %dx%d tile, pitch %d, starting %d elements into a line: lines not asked for ahead", band, r, c, pitch, start)
				}
			}
		}
	}
}

// TestBufferlessSlots: a region whose blocks are read and written in place
// gives its slots no buffers.
func TestBufferlessSlots(t *testing.T) {
	g := &region{
		inputs:  []int{0, 1},
		outputs: []regionOutput{{src: 2, store: storeDirect}},
		slotDT:  []dtype.DType{dtype.Float64, dtype.Float64, dtype.Float64},
		scalar:  []bool{false, false, false},
		lay:     layout{sizes: []int{1 << 20}, strides: [][]int{{1}, {1}, {1}}},
	}
	dts := []dtype.DType{dtype.Float64, dtype.Float64}
	f := g.tileFacts(dts[:1], dts, true, 2)
	f.block, f.bufferless = 1024, true
	g.planTiles(f)
	assert.Equal(t, "bufferless rows", g.tp.name)
	assert.Equal(t, 1<<20/32, g.tp.c, "a block per task")
	st, err := g.newState()
	require.NoError(t, err)
	for s, sl := range st.slots {
		assert.Empty(t, sl.(*slot[float64]).buf, "slot %d", s)
	}
}
