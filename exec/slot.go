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

	line    int // elements per 64-byte cache line
	touched T   // sink of touchColumns

	// transpose copies transposeRows rows of a transposed operand at a
	// time (see loadBand); nil without the AVX2 loops.
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
	// bind sets the storage the slot loads from or stores to; release
	// forgets it, so a pooled slot keeps no tensor alive.
	bind(t tensor.Any)
	release()
	// load fills the slot from its storage for the block at off (see geom).
	load(g *geom, off int)
	// prefetch asks for n elements of the slot's storage from off, and
	// prefetchStrided for count elements stride apart from off, in L2 (see
	// region.prefetch).
	prefetch(off, n int)
	prefetchStrided(off, stride, count int)
	// loadBand fills the slot's buffer with the r×c tile at off of a
	// transposed operand (stR == 1, stC > 1), its rows stride elements
	// apart in the buffer, k rows at a time with the type's transpose loop.
	loadBand(g *geom, off, stride int)
	// loadPanel fills the slot's buffer with the r×c tile at off of a
	// transposed operand, rows c elements apart, reading the operand a run
	// (one of its rows) at a time, panelChunk runs per call of the
	// transpose loop; with ahead > 0 it prefetches the runs ahead runs
	// later (see runPanel).
	loadPanel(g *geom, off, ahead int)
	// part points a slot loaded with a whole tile at n of its elements from
	// the start'th.
	part(start, n int)
	// redirect and storeFrom are called on output slots, whose storage is
	// a destination tensor, with the slot of the node that produces it.
	redirect(src slotAny, g *geom, off int) bool
	storeFrom(src slotAny, g *geom, off int)
	// streamStores makes storeFrom copy contiguous blocks with
	// non-temporal stores where T has such a loop (see streamCopyOf).
	streamStores()
	// block returns the current values as a *[]T of length n (a scalar as
	// one element), boxed once when the slot was made: no allocation.
	block(n int) any
	// out returns a *[]T for writing the current block (a scalar's one
	// element), likewise boxed once.
	out(n int) any
}

// geom is the shape of the current block: r rows of c columns, with the
// operand's strides along the tile's row and column axes, and the extent of
// the whole column axis (to tell when a multi-row tile is contiguous).
type geom struct {
	r, c     int
	stR, stC int
	cols     int
}

func newSlot[T dtype.Elem](block int, scalar bool) *slot[T] {
	s := &slot[T]{scalar: scalar, line: max(1, 64/dtype.Of[T]().Size())}
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

func (s *slot[T]) bind(t tensor.Any) { s.data = t.(*tensor.Tensor[T]).Data() }

func (s *slot[T]) release() { s.data, s.v, s.bv = nil, nil, nil }

func contiguousTile(g *geom) bool {
	return g.stC == 1 && (g.r == 1 || (g.c == g.cols && g.stR == g.cols))
}

func (s *slot[T]) load(g *geom, off int) {
	if s.scalar {
		s.s = s.data[off]
		return
	}
	n := g.r * g.c
	if contiguousTile(g) {
		s.v = s.data[off : off+n]
		return
	}
	s.v = s.buf[:n]
	if g.r > 1 && g.stR == 1 && g.stC > 1 {
		s.touched = touchColumns(s.data, off, g, s.line)
	}
	gather(s.v, s.data, off, g)
}

// touchColumns reads one element of every cache line of a tile whose
// columns are contiguous runs (a transposed operand) and returns the last.
// The gather that follows reads each run in turn; this short loop, with
// nothing to do but loads, lets the core have many more of the tile's cache
// misses in flight at once (Go has no prefetch instruction). On 3162²
// float64 a + b.T with two workers it took the region from 27 ms to 19 ms.
func touchColumns[T dtype.Elem](src []T, off int, g *geom, line int) T {
	var v T
	for j := 0; j < g.c; j++ {
		o := off + j*g.stC
		run := src[o : o+g.r]
		for i := 0; i < len(run); i += line {
			v = run[i]
		}
	}
	return v
}

func (s *slot[T]) loadBand(g *geom, off, stride int) {
	k, c := s.transposeRows, g.c
	body := 0
	if k > 0 && simd.Enabled {
		body = g.r - g.r%k
	}
	for i := 0; i < body; i += k {
		s.transpose(s.buf[i*stride:], stride, s.data[off+i:], g.stC, c)
	}
	// A band cut short by the tile's end, or all of it when the loops were
	// turned off (simd.Enabled) after the slot was made.
	for i := body; i < g.r; i++ {
		row, o := s.buf[i*stride:i*stride+c], off+i
		for j := range row {
			row[j] = s.data[o]
			o += g.stC
		}
	}
}

func (s *slot[T]) prefetch(off, n int) { simd.PrefetchL2(s.data[off : off+n]) }

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
	case g.stC == 1:
		for i := 0; i < r; i++ {
			o := off + i*g.stR
			copy(dst[i*c:(i+1)*c], src[o:o+c])
		}
	case g.stC == 0:
		for i := 0; i < r; i++ {
			v := src[off+i*g.stR]
			row := dst[i*c : (i+1)*c]
			for j := range row {
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

// redirect points the node slot src at this output slot's storage for the
// block at off, so the node's kernel writes the output in place. It reports
// false when the block is not contiguous in the output.
func (s *slot[T]) redirect(src slotAny, g *geom, off int) bool {
	if !contiguousTile(g) {
		return false
	}
	src.(*slot[T]).v = s.data[off : off+g.r*g.c]
	return true
}

// storeFrom writes the block of node slot src to this output slot's storage.
func (s *slot[T]) storeFrom(src slotAny, g *geom, off int) {
	n := g.r * g.c
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
	if contiguousTile(g) {
		if s.copyStream != nil {
			s.copyStream(s.data[off:off+n], from.v[:n])
		} else {
			copy(s.data[off:off+n], from.v[:n])
		}
		return
	}
	scatter(s.data, from.v[:n], off, g)
}

func (s *slot[T]) streamStores() { s.copyStream = streamCopyOf[T]() }
