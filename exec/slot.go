package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// slot holds one node's values for the current block of one worker: a
// vector v (len n: a slice of storage, or of buf) or, when the node is
// constant over every block (scalar), the single value s.
type slot[T dtype.Elem] struct {
	buf    []T
	v      []T
	s      T
	one    [1]T // scratch for computing scalars with the vector kernels
	scalar bool

	bv      []T // the block handed out by block and out
	bvp, vp any // &bv and &v, boxed once

	data []T // storage of a bound input or output tensor

	// transpose copies transposeRows rows of a transposed operand at a
	// time (see copyTransposed); nil without the AVX2 loops.
	transpose     func(d []T, dStride int, s []T, sStride, n int)
	transposeRows int

	// copyStream, when set (see streamStores), copies contiguous blocks
	// into an output's storage with non-temporal stores.
	copyStream func(d, x []T)
}

// slotAny is a slot of any element type.
type slotAny interface {
	// prepare points v at the slot's own buffer for an n-element block.
	prepare(n int)
	// bind sets the storage the slot loads from or stores to, and reports
	// whether it is mapped (has a tensor.Backing, see RangeReleaser);
	// release forgets it, so a pooled slot keeps no tensor alive.
	bind(t tensor.Any) (mapped bool)
	release()
	// The presentations of the access kinds (see region.present): value
	// loads the one value at off (a constant), view points the slot at n
	// elements of its storage from off (direct), gather copies the block g
	// at off into the buffer by strides (strided), and part points the slot
	// at n elements of its buffer from start (transposed, after
	// copyTransposed).
	value(off int)
	view(off, n int)
	gather(g *geom, off int)
	// gatherReversed copies the block g at off, whose rows are walked
	// backwards (stC == -1), into the buffer (reversed, see reversed.go).
	gatherReversed(g *geom, off int)
	part(start, n int)
	// gatherIndexed gathers the block g at off through the index in slot
	// idx (indexed, see index.go).
	gatherIndexed(g *geom, off int, idx slotAny, idxStC, stride, n int)
	// copyTransposed fills the buffer with the r×c block g at off of a
	// transposed operand (stR == 1), its rows stride elements apart, runs
	// of the operand at a time per call of the type's transpose loop; with
	// ahead > 0 it prefetches the runs ahead runs later.
	copyTransposed(g *geom, off, stride, runs, ahead int)
	// copyRepeated fills the buffer's first rows rows with the row of c
	// elements at off (see slot.copyRepeated).
	copyRepeated(off, c, rows int)
	// prefetch asks for n elements of the slot's storage from off,
	// prefetchUpTo for as many of them as the storage holds, and
	// prefetchStrided for count elements stride apart from off, in L2 (see
	// region.prefetch and region.prefetchNext).
	prefetch(off, n int)
	prefetchUpTo(off, n int)
	prefetchStrided(off, stride, count int)
	// redirect, copyFrom and scatterFrom are called on output slots, whose storage is
	// a destination tensor, with the slot of the node that produces it.
	redirect(src slotAny, off, n int)
	copyFrom(src slotAny, off, n int)
	scatterFrom(src slotAny, g *geom, off int)
	// copyBlock copies a block from another slot's storage (a swept
	// region's shadow, see sweep.go) into this one's.
	copyBlock(from slotAny, g *geom, off, fromOff int)
	// streamStores makes copyFrom copy contiguous blocks with
	// non-temporal stores where T has such a loop (see streamCopyOf).
	streamStores()
	// block returns the current values as a *[]T of length n (a scalar as
	// one element), boxed once when the slot was made: no allocation.
	block(n int) any
	// out returns a *[]T for writing the current block (a scalar's one
	// element), likewise boxed once.
	out(n int) any
}

// geom is the shape of the current block or piece: r rows of c columns,
// with the operand's strides along the tile's row and column axes.
type geom struct {
	r, c     int
	stR, stC int
}

func newSlot[T dtype.Elem](block int, scalar bool) *slot[T] {
	s := &slot[T]{scalar: scalar}
	if !scalar {
		s.buf = make([]T, block)
		s.transpose, s.transposeRows = simd.TransposeOf[T]()
	}
	s.bvp, s.vp = &s.bv, &s.v
	return s
}

// newSlots makes a slot per length, a scalar one where scalar says so.
// The vector slots' buffers are carved from one allocation, one after the
// other with a cache line between them, so that they are staggered across
// the cache sets. Separately allocated buffers can land at the same offset
// within a page (a 1 KiB buffer is 1 KiB-aligned), all in the same sets:
// forcing W3's three buffers to one page offset, beside its four
// page-aligned streams, made (a*b+c)*(a-b)/(c+1.5) on 1e7 float64 run at
// 0.85x the hand loop instead of 0.96–0.99x.
func newSlots[T dtype.Elem](lens []int, scalar []bool) []slotAny {
	pad := max(1, 64/dtype.Of[T]().Size())
	total := 0
	for i, n := range lens {
		if !scalar[i] {
			total += n + pad
		}
	}
	backing := make([]T, total)
	slots := make([]slotAny, len(lens))
	for i, n := range lens {
		s := newSlot[T](0, scalar[i])
		if !scalar[i] {
			s.buf, backing = backing[:n:n], backing[n+pad:]
		}
		slots[i] = s
	}
	return slots
}

func (s *slot[T]) prepare(n int) {
	if !s.scalar {
		s.v = s.buf[:n]
	}
}

func (s *slot[T]) bind(t tensor.Any) bool {
	tt := t.(*tensor.Tensor[T])
	s.data = tt.Data()
	return tt.Backing() != nil
}

func (s *slot[T]) release() { s.data, s.v, s.bv = nil, nil, nil }

func (s *slot[T]) value(off int) { s.s = s.data[off] }

func (s *slot[T]) view(off, n int) { s.v = s.data[off : off+n] }

func (s *slot[T]) gather(g *geom, off int) {
	s.v = s.buf[:g.r*g.c]
	gather(s.v, s.data, off, g)
}

func (s *slot[T]) copyTransposed(g *geom, off, stride, runs, ahead int) {
	k, r, c := s.transposeRows, g.r, g.c
	body := 0
	if k > 0 && simd.Enabled {
		body = r - r%k
	}
	runs = max(1, runs)
	for j0 := 0; j0 < c; j0 += runs {
		n := min(runs, c-j0)
		if ahead > 0 {
			for j := j0 + ahead; j < min(j0+ahead+n, c); j++ {
				o := off + j*g.stC
				simd.PrefetchL2(s.data[o : o+r])
			}
		}
		for i := 0; i < body; i += k {
			s.transpose(s.buf[i*stride+j0:], stride, s.data[off+j0*g.stC+i:], g.stC, n)
		}
		// Rows past the last whole k, or all of them without the loops (or
		// when they were turned off, simd.Enabled, after the slot was
		// made): a row at a time, strided reads into one run of the buffer
		// (a run of each column at a time measured 0.3–0.6x of this on W9
		// under -tags purego).
		for i := body; i < r; i++ {
			stridedRun(s.buf[i*stride+j0:i*stride+j0+n], s.data, off+j0*g.stC+i, g.stC)
		}
	}
}

// stridedRun copies len(d) elements of s, stride apart from o, into d: a
// loop of its own, so that its operands stay in registers. Written inline
// in copyTransposed's loops it reloaded s.data, the stride and the counters
// from memory every element: W9 under -tags purego took 1.13–1.17x as long
// at 1e7 (docs/executor.md).
//
//go:noinline
func stridedRun[T any](d, s []T, o, stride int) {
	for j := range d {
		d[j] = s[o]
		o += stride
	}
}

func (s *slot[T]) prefetch(off, n int) { simd.PrefetchL2(s.data[off : off+n]) }

func (s *slot[T]) prefetchUpTo(off, n int) {
	if off < len(s.data) {
		simd.PrefetchL2(s.data[off:min(off+n, len(s.data))])
	}
}

func (s *slot[T]) prefetchStrided(off, stride, count int) {
	simd.PrefetchL2Strided(s.data[off:], stride, count)
}

func (s *slot[T]) part(start, n int) {
	if !s.scalar {
		s.v = s.buf[start : start+n]
	}
}

func (s *slot[T]) block(n int) any {
	if s.scalar {
		s.one[0] = s.s
		s.bv = s.one[:1]
	} else {
		s.bv = s.v[:n]
	}
	return s.bvp
}

func (s *slot[T]) out(n int) any {
	if s.scalar {
		s.bv = s.one[:1]
		return s.bvp
	}
	s.v = s.v[:n]
	return s.vp
}

// gather copies the r×c tile at off (strides stR, stC) into dst, row-major.
// It walks the source in its memory order: by rows when the column stride is
// the smaller, else by columns (a transposed operand), so each cache line of
// the source is read once per tile.
func gather[T any](dst, src []T, off int, g *geom) {
	r, c := g.r, g.c
	switch {
	case g.stC == 1 && g.stR == 0 && r > 1:
		repeatRow(dst[:r*c], src[off:off+c])
	case g.stC == 1 && c < shortCopy:
		for i := 0; i < r; i++ {
			o := off + i*g.stR
			d := dst[i*c : (i+1)*c]
			for j, v := range src[o : o+c] {
				d[j] = v
			}
		}
	case g.stC == 1:
		for i := 0; i < r; i++ {
			o := off + i*g.stR
			copy(dst[i*c:(i+1)*c], src[o:o+c])
		}
	case g.stC == 0: // a broadcast column: four stores an iteration
		for i := 0; i < r; i++ {
			v := src[off+i*g.stR]
			row := dst[i*c : (i+1)*c]
			j := 0
			for ; j+4 <= len(row); j += 4 {
				w := row[j : j+4 : j+4]
				w[0], w[1], w[2], w[3] = v, v, v, v
			}
			for ; j < len(row); j++ {
				row[j] = v
			}
		}
	case r > 1 && g.stR < g.stC:
		for j := 0; j < c; j++ {
			o := off + j*g.stC
			for i := 0; i < r; i++ {
				dst[i*c+j] = src[o+i*g.stR]
			}
		}
	default:
		for i := 0; i < r; i++ {
			o, row := off+i*g.stR, dst[i*c:(i+1)*c]
			for j := range row {
				row[j] = src[o]
				o += g.stC
			}
		}
	}
}

// shortCopy is the row length below which gather copies a row element by
// element: a call of copy (memmove) per row of 4 cost more than the row.
const shortCopy = 16

// copyRepeated fills the first rows rows of the buffer with the c
// elements at off: a repeated row's copy for a tile whose rows run
// together, c apart (a repeated input is only in such tiles, whose
// copyStride is their width).
func (s *slot[T]) copyRepeated(off, c, rows int) {
	repeatRow(s.buf[:rows*c], s.data[off:off+c])
}

// repeatRow fills dst (a whole number of rows of len(row)) with copies of
// row: the first copied, then the filled part doubled, so a broadcast row
// of a tile of r rows takes about log2(r) copies, not r.
func repeatRow[T any](dst, row []T) {
	c := len(row)
	if c == 0 {
		return
	}
	for j, v := range row {
		dst[j] = v
	}
	for n := c; n < len(dst); n *= 2 {
		copy(dst[n:], dst[:n])
	}
}

// scatter is gather's inverse: it writes the row-major tile src to dst.
func scatter[T any](dst, src []T, off int, g *geom) {
	r, c := g.r, g.c
	switch {
	case g.stC == 1:
		for i := 0; i < r; i++ {
			o := off + i*g.stR
			copy(dst[o:o+c], src[i*c:(i+1)*c])
		}
	default:
		for i := 0; i < r; i++ {
			o := off + i*g.stR
			row := src[i*c : (i+1)*c]
			for j, v := range row {
				dst[o+j*g.stC] = v
			}
		}
	}
}

// redirect points the node slot src at n elements of this output slot's
// storage from off, so the node's kernel writes the output in place (an
// output whose store is direct: its runs are contiguous in it).
func (s *slot[T]) redirect(src slotAny, off, n int) {
	src.(*slot[T]).v = s.data[off : off+n]
}

// copyFrom copies n elements of node slot src into this output slot's
// storage from off (a copied store), with the streaming copy where
// streamStores set one.
func (s *slot[T]) copyFrom(src slotAny, off, n int) {
	from := src.(*slot[T]).v[:n]
	if s.copyStream != nil {
		s.copyStream(s.data[off:off+n], from)
	} else {
		copy(s.data[off:off+n], from)
	}
}

// scatterFrom writes the block g of node slot src to this output slot's
// storage at off by its strides (a scattered store); a constant src fills it.
func (s *slot[T]) scatterFrom(src slotAny, g *geom, off int) {
	from := src.(*slot[T])
	if from.scalar {
		v := from.s
		for i := 0; i < g.r; i++ {
			row := off + i*g.stR
			for j := 0; j < g.c; j++ {
				s.data[row+j*g.stC] = v
			}
		}
		return
	}
	scatter(s.data, from.v[:g.r*g.c], off, g)
}

func (s *slot[T]) streamStores() { s.copyStream = streamCopyOf[T]() }
