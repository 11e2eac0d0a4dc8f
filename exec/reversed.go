package exec

// The reversed access kind (accReversed, access.go): an operand whose rows
// are walked backwards, stride -1 along the row (a flip, a[::-1]). Each
// row of the block is one contiguous run of storage read from its end:
// one loop per row copies it into the slot's buffer in logical order,
// over a slice the compiler checks the bounds of once, where the strided
// gather steps an index by the stride per element.

// reversedKind turns the reversed kind on; off, such operands are
// strided (the benchmark of the two, BenchmarkFlipAdd, sets it).
var reversedKind = true

func (s *slot[T]) gatherReversed(g *geom, off int) {
	s.v = s.buf[:g.r*g.c]
	gatherReversed(s.v, s.data, off, g)
}

// gatherReversed copies the r×c block g at off (stC == -1: row i's
// elements at off+i*stR, off+i*stR-1, …) into dst row by row.
func gatherReversed[T any](dst, src []T, off int, g *geom) {
	c := g.c
	if c == 0 {
		return
	}
	for i := 0; i < g.r; i++ {
		o := off + i*g.stR
		reverseCopy(dst[i*c:(i+1)*c], src[o-c+1:o+1])
	}
}

// reverseCopy sets dst[j] = src[len(src)-1-j]; len(dst) == len(src).
func reverseCopy[T any](dst, src []T) {
	src = src[:len(dst)]
	n := len(src) - 1
	for j := range dst {
		dst[j] = src[n-j]
	}
}
