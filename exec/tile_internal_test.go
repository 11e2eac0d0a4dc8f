package exec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestRowModeSlotLengths checks the buffers of a transposing region: in
// tall 512-column tiles every slot holds a piece of a row, no longer than a
// block, however many kernels the region has; in aliased 32×128 tiles the
// transposed input holds the whole tile and the other slots a row; with
// bands, the transposed input holds a band of 8 rows of the tile (here the
// whole 700-column row, under two 512-column tiles), each padded by a cache
// line, whether its rows are aliased or not; in panels (512 bytes of rows
// of whole rows) it holds the whole panel and the other slots a block.
func TestRowModeSlotLengths(t *testing.T) {
	// One output and two inputs, the second a transposed view, then a
	// computed node: slots 0 (a), 1 (b.T), 2 (a + b.T).
	newRegion := func() *region {
		return &region{
			inputs:  []int{0, 1},
			outputs: make([]regionOutput, 1),
			slotDT:  []dtype.DType{dtype.Float64, dtype.Float64, dtype.Float64},
			lay:     layout{sizes: []int{500, 700}, strides: [][]int{{700, 1}, {700, 1}, {1, 500}}},
		}
	}
	tests := []struct {
		name          string
		aliased       bool
		band          int
		r, c, piece   int
		lens          [3]int
		rowMode, tile bool
		banded        []bool
		panels, panel bool
	}{
		{"rows gathered one at a time", false, 0, 128, 512, 128, [3]int{128, 128, 128}, true, false, nil, true, false},
		{"aliased: whole tiles gathered", true, 0, 32, 128, 128, [3]int{128, 32 * 128, 128}, true, true, nil, true, false},
		{"bands", false, 8, 128, 700, 128, [3]int{128, 8 * (700 + 8), 128}, true, false, []bool{false, true}, false, false},
		{"aliased bands", true, 8, 128, 700, 128, [3]int{128, 8 * (700 + 8), 128}, true, false, []bool{false, true}, false, false},
		{"panels", false, 8, 64, 700, 128, [3]int{128, 64 * 700, 128}, true, false, []bool{false, true}, true, true},
		{"aliased panels", true, 8, 64, 700, 128, [3]int{128, 64 * 700, 128}, true, false, []bool{false, true}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.band > 0 && !simd.Enabled {
				t.Skip("no transpose loops: no bands")
			}
			g := newRegion()
			g.tile(128, 8, tt.aliased, tt.band, 2, tt.panels)
			g.markBands(1)
			assert.Equal(t, tt.rowMode, g.rowMode, "row mode")
			assert.Equal(t, tt.tile, g.tileGather, "tileGather")
			assert.Equal(t, tt.band, g.band, "band")
			assert.Equal(t, tt.panel, g.panel, "panel")
			assert.Equal(t, tt.banded, g.banded, "banded inputs")
			assert.Equal(t, [3]int{tt.r, tt.c, tt.piece}, [3]int{g.r, g.c, g.piece}, "r, c, piece")
			assert.Equal(t, tt.lens, [3]int{g.slotLen(0), g.slotLen(1), g.slotLen(2)}, "slot lengths")
		})
	}
}

// TestTransposedBand checks which regions copy their transposed inputs in
// bands (with the AVX2 loops, every element type has transpose loops), and
// of how many rows: the most any transposed input (rows one element apart)
// copies at once.
func TestTransposedBand(t *testing.T) {
	if !simd.Enabled {
		assert.Zero(t, transposedBand([][]int{{1, 500}}, []dtype.DType{dtype.Float64}))
		return
	}
	tests := []struct {
		name    string
		strides [][]int
		dts     []dtype.DType
		want    int
	}{
		{"float64 b.T", [][]int{{700, 1}, {1, 500}}, []dtype.DType{dtype.Float64, dtype.Float64}, 8},
		{"float32 b.T", [][]int{{1, 500}}, []dtype.DType{dtype.Float32}, 16},
		{"complex128 b.T", [][]int{{1, 500}}, []dtype.DType{dtype.Complex128}, 4},
		{"the most rows of two", [][]int{{1, 500}, {1, 300}}, []dtype.DType{dtype.Float64, dtype.Int32}, 16},
		{"int16", [][]int{{1, 500}}, []dtype.DType{dtype.Int16}, 8},
		{"bool", [][]int{{1, 500}}, []dtype.DType{dtype.Bool}, 8},
		{"uint8 beside complex128", [][]int{{1, 500}, {1, 700}}, []dtype.DType{dtype.Uint8, dtype.Complex128}, 8},
		{"rows two elements apart", [][]int{{2, 1000}}, []dtype.DType{dtype.Float64}, 0},
		{"contiguous", [][]int{{500, 1}}, []dtype.DType{dtype.Float64}, 0},
		{"one axis", [][]int{{3}}, []dtype.DType{dtype.Float64}, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, transposedBand(tt.strides, tt.dts), tt.name)
	}
}

// TestAliasedRows checks which strides make a transposed operand aliased.
func TestAliasedRows(t *testing.T) {
	tests := []struct {
		strides []int
		size    int
		want    bool
	}{
		{[]int{1, 512}, 8, true},     // 4 KiB
		{[]int{1, 3072}, 8, true},    // 24 KiB
		{[]int{1, 1024}, 4, true},    // float32, 4 KiB
		{[]int{1, 256}, 8, false},    // 2 KiB
		{[]int{1, 3162}, 8, false},   // 25296 bytes
		{[]int{512, 1}, 8, false},    // contiguous rows
		{[]int{4096, 0}, 8, false},   // broadcast along the rows
		{[]int{2, 1, 4096}, 1, true}, // int8, innermost axis last
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, aliasedRows(tt.strides, tt.size), "strides %v, %d-byte elements", tt.strides, tt.size)
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
		outputs: []regionOutput{{src: 2, direct: true}},
		slotDT:  []dtype.DType{dtype.Float64, dtype.Float64, dtype.Float64},
		scalar:  []bool{false, false, false},
		lay:     layout{sizes: []int{1 << 20}, strides: [][]int{{1}, {1}, {1}}},
	}
	g.tile(1024, 8, false, 0, 2, true)
	g.bufferless = true
	st, err := g.newState()
	require.NoError(t, err)
	for s, sl := range st.slots {
		assert.Empty(t, sl.(*slot[float64]).buf, "slot %d", s)
	}
}
