package matmul

import "math"

// float is an element type with packed micro-kernels.
type float interface {
	float32 | float64
}

// microKernel computes an mr×nr block of C from a packed panel of A (mr rows,
// stored column after column: a[p*mr+i] is A(i, p)) and a packed panel of B
// (nr columns, row after row: b[p*nr+j] is B(p, j)). It is:
//
//	for i := range mr {
//		for j := range nr {
//			var s F // +0
//			for p := range k {
//				s = fma(a[p*mr+i], b[p*nr+j], s)
//			}
//			if add {
//				c[i*ldc+j] += s
//			} else {
//				c[i*ldc+j] = s
//			}
//		}
//	}
//
// with fma rounding once. rows is the same loop for A read in place, row
// after row: a[i*lda+p] in place of a[p*mr+i]. Every variant of a type
// computes exactly these operations in this order, so all, packed or not,
// give the same bits.
type microKernel[F float] struct {
	name   string
	mr, nr int
	run    func(k int, a, b, c []F, ldc int, add bool)
	rows   func(k int, a []F, lda int, b, c []F, ldc int, add bool)
	// gemv is y[i*incy] = Σ_p a[i*lda+p]·x[p] for i < m, p < k, each sum
	// in the order of goDot64 and goDot32.
	gemv func(m, k int, a []F, lda int, x, y []F, incy int)
	// gemvColumns is y[i] = Σ_p a[i+p*lda]·x[p*incx] for i < m, 0 < k, each
	// sum fused in order of p from zero.
	gemvColumns func(m, k int, a []F, lda int, x []F, incx int, y []F)
	// packRows is packB's copy of k rows of b into its whole packed
	// panels: dst[j/nr*step + p*nr:][:nr] = src[p*lds+j:][:nr] for p < k
	// and each whole nr-piece j of a row of n elements.
	packRows func(dst []F, k, step int, src []F, lds, n int)
	// packColumns is packA's copy of a column-major a into panels of mr
	// rows: dst[q*k*mr + p*mr + i] = a[p*lda + q*mr + i] for p < k,
	// q < panels, i < mr.
	packColumns func(dst []F, k, panels int, a []F, lda int)
	// packTail is packB's copy of the last, partial panel of a row-major
	// b: dst[p*nr + j] = src[p*lds + j] for j < cols and 0 for cols <= j < nr,
	// p < k, with 0 < cols < nr. The vector forms mask-load whole panel
	// rows, whose masked-off lanes may reach past src's last element:
	// packB gives them all rows but the last (see there).
	packTail func(dst []F, k int, src []F, lds, cols int)
	// runHalf and rowsHalf are run and rows on the first nr/2 columns of
	// b's panel only (still nr wide), writing nr/2 columns of each row of
	// c: for a last panel of b at most half full, half the work.
	runHalf  func(k int, a, b, c []F, ldc int, add bool)
	rowsHalf func(k int, a []F, lda int, b, c []F, ldc int, add bool)
	// rowsHalf12, when set, is rowsHalf on two blocks of rows at once (2·mr
	// rows of a in place, c 2·mr rows), each element summed as rowsHalf
	// sums it: twice the chains of multiply-adds side by side.
	rowsHalf12 func(k int, a []F, lda int, b, c []F, ldc int, add bool)
	// rowsCols, when set, is rows on the first cols columns only
	// (nr/2 <= cols <= nr), with b's rows ldb apart: only the first cols
	// elements of each row of b are read and only the first cols columns
	// of c read and written, each element summed as rows sums it. It lets
	// a partial block at the right edge be written in place rather than
	// through the tile, and b be read in place rather than packed.
	rowsCols func(k int, a []F, lda int, b []F, ldb int, c []F, ldc int, add bool, cols int)
}

// The kernels gemmPacked uses; kernels64 and kernels32 list every variant
// this CPU can run, the Go kernel first. Tests set kernel64 and kernel32 to
// each in turn.
var (
	kernels64 = []microKernel[float64]{{"go", 6, 8, goKernel64, goKernelRows64, goGemv64, goGemvColumns64, goPackRows[float64](8), goPackColumns[float64], goPackTail[float64](8),
		goHalf(goKernel64, 8), goHalfRows(goKernelRows64, 8), nil, goKernelRowsCols64}}
	kernels32 = []microKernel[float32]{{"go", 6, 16, goKernel32, goKernelRows32, goGemv32, goGemvColumns32, goPackRows[float32](16), goPackColumns[float32], goPackTail[float32](16),
		goHalf(goKernel32, 16), goHalfRows(goKernelRows32, 16), nil, goKernelRowsCols32}}
	kernel64 = kernels64[0]
	kernel32 = kernels32[0]
)

// goKernel64 is the microKernel reference loop for float64 on 6×8 blocks.
func goKernel64(k int, a, b, c []float64, ldc int, add bool) {
	const mr, nr = 6, 8
	var acc [mr * nr]float64
	a, b = a[:k*mr], b[:k*nr]
	for p := range k {
		ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
		for i, ai := range ap {
			row := acc[i*nr : i*nr+nr]
			for j, bj := range bp {
				row[j] = math.FMA(ai, bj, row[j])
			}
		}
	}
	writeBlock(c, ldc, acc[:], nr, add)
}

// goKernel32 is the microKernel reference loop for float32 on 6×16 blocks.
func goKernel32(k int, a, b, c []float32, ldc int, add bool) {
	const mr, nr = 6, 16
	var acc [mr * nr]float32
	a, b = a[:k*mr], b[:k*nr]
	for p := range k {
		ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
		for i, ai := range ap {
			row := acc[i*nr : i*nr+nr]
			for j, bj := range bp {
				row[j] = fma32(ai, bj, row[j])
			}
		}
	}
	writeBlock(c, ldc, acc[:], nr, add)
}

// goKernelRows64 is goKernel64 with A read in place: a[i*lda+p].
func goKernelRows64(k int, a []float64, lda int, b, c []float64, ldc int, add bool) {
	const mr, nr = 6, 8
	var acc [mr * nr]float64
	b = b[:k*nr]
	for i := range mr {
		row := acc[i*nr : i*nr+nr]
		for p, ai := range a[i*lda : i*lda+k] {
			for j, bj := range b[p*nr : p*nr+nr] {
				row[j] = math.FMA(ai, bj, row[j])
			}
		}
	}
	writeBlock(c, ldc, acc[:], nr, add)
}

// goKernelRows32 is goKernel32 with A read in place: a[i*lda+p].
func goKernelRows32(k int, a []float32, lda int, b, c []float32, ldc int, add bool) {
	const mr, nr = 6, 16
	var acc [mr * nr]float32
	b = b[:k*nr]
	for i := range mr {
		row := acc[i*nr : i*nr+nr]
		for p, ai := range a[i*lda : i*lda+k] {
			for j, bj := range b[p*nr : p*nr+nr] {
				row[j] = fma32(ai, bj, row[j])
			}
		}
	}
	writeBlock(c, ldc, acc[:], nr, add)
}

// goKernelRowsCols64 is the rowsCols of the Go variant for float64:
// goKernelRows64 on the first cols columns (any 0 < cols <= nr), b's rows
// ldb apart, each row's sums in a row of accumulators as there.
func goKernelRowsCols64(k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, add bool, cols int) {
	const mr, nr = 6, 32
	var acc [nr]float64
	for i := range mr {
		row := acc[:cols]
		clear(row)
		for p, ai := range a[i*lda : i*lda+k] {
			for j, bj := range b[p*ldb : p*ldb+cols] {
				row[j] = math.FMA(ai, bj, row[j])
			}
		}
		writeBlock(c[i*ldc:], ldc, row, cols, add)
	}
}

// goKernelRowsCols32 is goKernelRowsCols64 for float32.
func goKernelRowsCols32(k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, add bool, cols int) {
	const mr, nr = 6, 32
	var acc [nr]float32
	for i := range mr {
		row := acc[:cols]
		clear(row)
		for p, ai := range a[i*lda : i*lda+k] {
			for j, bj := range b[p*ldb : p*ldb+cols] {
				row[j] = fma32(ai, bj, row[j])
			}
		}
		writeBlock(c[i*ldc:], ldc, row, cols, add)
	}
}

// goHalf is the runHalf of the Go variant: full computes the whole mr×nr
// block (mr = 6) into a scratch block, of which the first nr/2 columns are
// written out.
func goHalf[F float](full func(k int, a, b, c []F, ldc int, add bool), nr int) func(k int, a, b, c []F, ldc int, add bool) {
	return func(k int, a, b, c []F, ldc int, add bool) {
		var t [6 * 32]F
		full(k, a, b, t[:], nr, false)
		writeHalf(c, ldc, t[:6*nr], nr, add)
	}
}

// goHalfRows is goHalf for the rowsHalf of the Go variant.
func goHalfRows[F float](full func(k int, a []F, lda int, b, c []F, ldc int, add bool), nr int) func(k int, a []F, lda int, b, c []F, ldc int, add bool) {
	return func(k int, a []F, lda int, b, c []F, ldc int, add bool) {
		var t [6 * 32]F
		full(k, a, lda, b, t[:], nr, false)
		writeHalf(c, ldc, t[:6*nr], nr, add)
	}
}

// writeHalf writes (or adds) the first nr/2 columns of each row of the
// block acc, nr wide, to c at stride ldc.
func writeHalf[F float](c []F, ldc int, acc []F, nr int, add bool) {
	for i := range len(acc) / nr {
		ci, ai := c[i*ldc:i*ldc+nr/2], acc[i*nr:i*nr+nr/2]
		if !add {
			copy(ci, ai)
			continue
		}
		for j := range ci {
			ci[j] += ai[j]
		}
	}
}

// goGemv64 is the gemv of the Go variant for float64.
func goGemv64(m, k int, a []float64, lda int, x, y []float64, incy int) {
	for i := range m {
		y[i*incy] = goDot64(a[i*lda:i*lda+k], x[:k])
	}
}

// goGemv32 is the gemv of the Go variant for float32.
func goGemv32(m, k int, a []float32, lda int, x, y []float32, incy int) {
	for i := range m {
		y[i*incy] = goDot32(a[i*lda:i*lda+k], x[:k])
	}
}

// goDot64 is Σ a[p]·x[p] in the order of two YMM registers of partial
// sums: s[p mod 8] by fused multiply-adds while 8 steps remain, then one
// step of 4 if 4 remain, the eight sums added in halves (s[l] + s[l+4],
// then l and l+2, then l and l+1), then the last steps fused one by one.
func goDot64(a, x []float64) float64 {
	x = x[:len(a)]
	var s [8]float64
	p := 0
	for ; p+8 <= len(a); p += 8 {
		for l := range s {
			s[l] = math.FMA(a[p+l], x[p+l], s[l])
		}
	}
	if p+4 <= len(a) {
		for l := range 4 {
			s[l] = math.FMA(a[p+l], x[p+l], s[l])
		}
		p += 4
	}
	r := halve(s[:])
	for ; p < len(a); p++ {
		r = math.FMA(a[p], x[p], r)
	}
	return r
}

// goDot32 is goDot64 for float32, in sixteen partial sums.
func goDot32(a, x []float32) float32 {
	x = x[:len(a)]
	var s [16]float32
	p := 0
	for ; p+16 <= len(a); p += 16 {
		for l := range s {
			s[l] = fma32(a[p+l], x[p+l], s[l])
		}
	}
	if p+8 <= len(a) {
		for l := range 8 {
			s[l] = fma32(a[p+l], x[p+l], s[l])
		}
		p += 8
	}
	r := halve(s[:])
	for ; p < len(a); p++ {
		r = fma32(a[p], x[p], r)
	}
	return r
}

// goGemvColumns64 is the gemvColumns of the Go variant for float64.
func goGemvColumns64(m, k int, a []float64, lda int, x []float64, incx int, y []float64) {
	y = y[:m]
	clear(y)
	for p := range k {
		xp, col := x[p*incx], a[p*lda:p*lda+m]
		for i, v := range col {
			y[i] = math.FMA(v, xp, y[i])
		}
	}
}

// goGemvColumns32 is the gemvColumns of the Go variant for float32.
func goGemvColumns32(m, k int, a []float32, lda int, x []float32, incx int, y []float32) {
	y = y[:m]
	clear(y)
	for p := range k {
		xp, col := x[p*incx], a[p*lda:p*lda+m]
		for i, v := range col {
			y[i] = fma32(v, xp, y[i])
		}
	}
}

// goPackRows returns the packRows of the Go variant for panels nr wide.
func goPackRows[F float](nr int) func(dst []F, k, step int, src []F, lds, n int) {
	return func(dst []F, k, step int, src []F, lds, n int) {
		for p := range k {
			row, d := src[p*lds:p*lds+n], dst[p*nr:]
			for j := 0; j+nr <= n; j += nr {
				copy(d[j/nr*step:][:nr], row[j:j+nr])
			}
		}
	}
}

// goPackColumns is the packColumns of the Go variant (mr = 6).
func goPackColumns[F float](dst []F, k, panels int, a []F, lda int) {
	const mr = 6
	for p := range k {
		col, d := a[p*lda:p*lda+panels*mr], dst[p*mr:]
		for q := range panels {
			c, t := col[q*mr:q*mr+mr], d[q*k*mr:q*k*mr+mr]
			t[0], t[1], t[2], t[3], t[4], t[5] = c[0], c[1], c[2], c[3], c[4], c[5]
		}
	}
}

// goPackTail returns the packTail of the Go variant for panels nr wide.
func goPackTail[F float](nr int) func(dst []F, k int, src []F, lds, cols int) {
	return func(dst []F, k int, src []F, lds, cols int) {
		for p := range k {
			d, s := dst[p*nr:p*nr+nr], src[p*lds:p*lds+cols]
			for j, v := range s {
				d[j] = v
			}
			clear(d[cols:])
		}
	}
}

// halve adds the upper half of s to the lower, lane by lane, until one
// element is left, and returns it; len(s) is a power of 2.
func halve[F float](s []F) F {
	for w := len(s) / 2; w >= 1; w /= 2 {
		for l := range w {
			s[l] += s[l+w]
		}
	}
	return s[0]
}

// writeBlock is: for each row i of acc (nr wide), c[i*ldc:][:nr] (+)= that row.
func writeBlock[F float](c []F, ldc int, acc []F, nr int, add bool) {
	for i := range len(acc) / nr {
		ci, ai := c[i*ldc:i*ldc+nr], acc[i*nr:i*nr+nr]
		if !add {
			copy(ci, ai)
			continue
		}
		for j := range ci {
			ci[j] += ai[j]
		}
	}
}

// fma32 returns x*y + z rounded once to float32, as VFMADD231PS does.
//
// The product is exact in float64 (24+24 bits), so only the sum rounds
// there. Rounding that sum to nearest and then to float32 is wrong only when
// the first rounding lands on a float32 halfway point (or the result is a
// float32 subnormal, with fewer bits); then the sum is redone with its error
// term and rounded to odd, which makes the second rounding correct
// (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums", 2008).
func fma32(x, y, z float32) float32 {
	p := float64(x) * float64(y)
	s := p + float64(z)
	bits := math.Float64bits(s)
	const tail = 1<<29 - 1 // the float64 bits below float32's last
	if bits&tail != 1<<28 && (math.Abs(s) >= 0x1p-126 || s == 0) {
		return float32(s)
	}
	// TwoSum: s + e == p + z exactly.
	zz := float64(z)
	pv := s - zz
	e := (p - pv) + (zz - (s - pv))
	if e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
	}
	return float32(math.Float64frombits(bits))
}
