package matmul

import "unsafe"

// gemmComplex64 and gemmComplex128 are gemmRowMajor for complex products
// off BLAS: the product is computed as a real one on the packed GEMM, with
// the float32 and float64 micro-kernels.
func gemmComplex64(dst, a, b Matrix[complex64], r Runner) {
	gemmComplex(dst, a, b, r, kernel32, blockingOf(kernel32))
}

func gemmComplex128(dst, a, b Matrix[complex128], r Runner) {
	gemmComplex(dst, a, b, r, kernel64, blockingOf(kernel64))
}

// gemmComplex computes the complex product dst = a @ b (m×k times k×n, dst
// row-major, k > 0) as the real product dst' = a' @ b' of an m×2k a' and a
// 2k×2n b', where dst' and a' are dst and a with each complex element read
// as its real and imaginary parts side by side, and
//
//	b'(2p, 2j)   = re b(p, j)    b'(2p, 2j+1)   = im b(p, j)
//	b'(2p+1, 2j) = -im b(p, j)   b'(2p+1, 2j+1) = re b(p, j)
//
// so that dst'(i, 2j) = Σ_p re a·re b - im a·im b and dst'(i, 2j+1) =
// Σ_p re a·im b + im a·re b. It is the 4M method (four real products) with
// the parts interleaved: dst' is dst's own memory, a' is a's when a has unit
// column stride (read in place or packed as any real a), and b' exists only
// in the packed panels of b. The blocking is the real kernel's, whose kc and
// nc are even (and kcFor's blocks multiples of 8), so no block splits a
// complex element.
//
// Each part of dst is then summed by fused multiply-adds in order of p (the
// real part of term p, then its imaginary part), cut into blocks of half
// the real product's (kcFor of 2k), as a real product sums: bit-identical for any worker count and
// exact for integer-valued inputs whose sums are exact.
func gemmComplex[C complex64 | complex128, F float](dst, a, b Matrix[C], r Runner, kern microKernel[F], bl blocking) {
	d := Matrix[F]{Data: realParts[C, F](dst.Data), Offset: 2 * dst.Offset, Rows: dst.Rows, Cols: 2 * dst.Cols,
		RowStride: 2 * dst.RowStride, ColStride: 1}
	ops := complexOperands[F]{a: pairsOf[C, F](a), b: pairsOf[C, F](b)}
	packedProduct(d, ops, 2*a.Cols, r, kern, bl, nil)
}

// realParts returns the elements of d as real and imaginary parts: element
// i of d is elements 2i and 2i+1 of the result, the same memory. F must be
// the type of C's parts (float32 for complex64, float64 for complex128),
// which Go lays out as two consecutive Fs.
func realParts[C complex64 | complex128, F float](d []C) []F {
	if len(d) == 0 {
		return nil
	}
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(d))), 2*len(d))
}

// pairs is a complex matrix seen through its real parts: element (i, j) is
// complex(data[2e], data[2e+1]) with e = off + i·rs + j·cs.
type pairs[F float] struct {
	data                    []F
	off, rows, cols, rs, cs int
}

func pairsOf[C complex64 | complex128, F float](m Matrix[C]) pairs[F] {
	return pairs[F]{realParts[C, F](m.Data), m.Offset, m.Rows, m.Cols, m.RowStride, m.ColStride}
}

// real returns the m×2k real matrix of x's parts, and whether it is a
// strided Matrix: it is when x has unit column stride (or one column).
func (x pairs[F]) real() (Matrix[F], bool) {
	if x.cs != 1 && x.cols > 1 {
		return Matrix[F]{}, false
	}
	return Matrix[F]{Data: x.data, Offset: 2 * x.off, Rows: x.rows, Cols: 2 * x.cols, RowStride: 2 * x.rs, ColStride: 1}, true
}

// complexOperands are a' and b' of gemmComplex, made from the complex a and b.
type complexOperands[F float] struct{ a, b pairs[F] }

func (o complexOperands[F]) bInPlace() (Matrix[F], bool) { return Matrix[F]{}, false }

func (o complexOperands[F]) inPlace(n, nr int) (Matrix[F], bool) {
	a, ok := o.a.real()
	return a, ok && readInPlace(a, n, nr)
}

// packA packs rows [i0, i1) and columns [p0, p1) of a' as packA does: as a
// real matrix when it is one, else element by element.
func (o complexOperands[F]) packA(buf []F, i0, i1, p0, p1, mr int) {
	if a, ok := o.a.real(); ok {
		packA(buf, a.Slice(i0, i1, p0, p1), mr)
		return
	}
	a, k := o.a, p1-p0
	for r0 := i0; r0 < i1; r0 += mr {
		panel := buf[(r0-i0)*k : (r0-i0+mr)*k]
		rows := min(mr, i1-r0)
		for i := range mr {
			if i >= rows {
				for p := range k {
					panel[p*mr+i] = 0
				}
				continue
			}
			row := a.off + (r0+i)*a.rs
			for p := range k {
				q := p0 + p
				panel[p*mr+i] = a.data[2*(row+q/2*a.cs)+q%2]
			}
		}
	}
}

// packB packs rows [p0, p1) and columns [j0, j1) of b' as packB does; p0,
// p1, j0 and j1 are even. Each complex row of b makes two rows of b'.
func (o complexOperands[F]) packB(buf []F, p0, p1, j0, j1, nr int) {
	b, k, n := o.b, p1-p0, j1-j0
	for p := p0 / 2; p < p1/2; p++ {
		row := b.off + p*b.rs
		pp := 2*p - p0 // the first of the two rows in the block
		for c0 := 0; c0 < n; c0 += nr {
			panel := buf[c0*k:]
			d0, d1 := panel[pp*nr:pp*nr+nr], panel[(pp+1)*nr:(pp+1)*nr+nr]
			cols := min(nr, n-c0)
			e := row + (j0+c0)/2*b.cs
			for q := 0; q < cols; q += 2 {
				re, im := b.data[2*e], b.data[2*e+1]
				d0[q], d0[q+1] = re, im
				d1[q], d1[q+1] = -im, re
				e += b.cs
			}
			clear(d0[cols:])
			clear(d1[cols:])
		}
	}
}
