package matmul

import "github.com/tensorplay/tensorplay/dtype"

// Blocking of the Go loop: a panel of b (panelDepth rows by panelWidth
// columns, 256 KiB of int64) stays in L2 while every row of a streams past
// it; a dst row segment of panelWidth elements stays in L1.
const (
	panelDepth = 128
	panelWidth = 256
)

// parallelMin is the number of multiply-adds below which the Go loop runs on
// the caller's goroutine.
const parallelMin = 1 << 18

// gemmLoop is gemmRowMajor for the element types without packed kernels:
// the product is cut into up to r.Workers() bands of dst rows (or columns,
// when dst is wider than tall), each computed by gemmBlocked as a part of r.
func gemmLoop[T dtype.Numeric](dst, a, b Matrix[T], r Runner) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	workers := r.Workers()
	if workers <= 1 || m*n*k < parallelMin {
		gemmBlocked(dst, a, b)
		return
	}
	parts := min(workers, max(m, n))
	parallel(r, parts, loopTask[T]{dst, a, b, parts})
}

// loopTask is gemmLoop's split: bands of rows of dst (and a) when dst has
// at least as many rows as columns, else bands of columns (and of b's).
type loopTask[T dtype.Numeric] struct {
	dst, a, b Matrix[T]
	parts     int
}

func (t *loopTask[T]) RunTask(w int) {
	m, n, k := t.dst.Rows, t.dst.Cols, t.a.Cols
	if m >= n {
		i0, i1 := w*m/t.parts, (w+1)*m/t.parts
		gemmBlocked(t.dst.Slice(i0, i1, 0, n), t.a.Slice(i0, i1, 0, k), t.b)
		return
	}
	j0, j1 := w*n/t.parts, (w+1)*n/t.parts
	gemmBlocked(t.dst.Slice(0, m, j0, j1), t.a, t.b.Slice(0, k, j0, j1))
}

// gemmBlocked is gemm for a non-empty row-major dst, on the caller's
// goroutine, in i-k-j order over panels of b. A panel of b without unit column
// stride is packed into a contiguous buffer first, so the inner loop always
// runs over contiguous rows of dst and b.
func gemmBlocked[T dtype.Numeric](dst, a, b Matrix[T]) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	for i := range m {
		clear(dst.rowSlice(i)[:n])
	}
	var buf []T
	if b.ColStride != 1 && n > 1 {
		buf = make([]T, min(k, panelDepth)*min(n, panelWidth))
	}
	for j0 := 0; j0 < n; j0 += panelWidth {
		nb := min(panelWidth, n-j0)
		for p0 := 0; p0 < k; p0 += panelDepth {
			kb := min(panelDepth, k-p0)
			panel := b.Slice(p0, p0+kb, j0, j0+nb)
			if buf != nil {
				packed := RowMajor(buf[:kb*nb], kb, nb)
				copyTo(packed, panel)
				panel = packed
			}
			ab := a.Slice(0, m, p0, p0+kb)
			for i := range m {
				addRowTimesPanel(dst.rowSlice(i)[j0:j0+nb], ab, i, panel)
			}
		}
	}
}

// addRowTimesPanel is:
//
//	for p := range panel.Rows {
//		for j := range c {
//			c[j] += a.At(i, p) * panel.At(p, j)
//		}
//	}
//
// for a panel with contiguous rows of len(c) elements. Four rows of the panel
// are taken per pass over c, so c is loaded and stored a quarter as often.
func addRowTimesPanel[T dtype.Numeric](c []T, a Matrix[T], i int, panel Matrix[T]) {
	n := len(c)
	ai, as := a.Offset+i*a.RowStride, a.ColStride
	p := 0
	for ; p+4 <= panel.Rows; p += 4 {
		a0, a1, a2, a3 := a.Data[ai], a.Data[ai+as], a.Data[ai+2*as], a.Data[ai+3*as]
		ai += 4 * as
		b0 := panel.rowSlice(p)[:n]
		b1 := panel.rowSlice(p + 1)[:n]
		b2 := panel.rowSlice(p + 2)[:n]
		b3 := panel.rowSlice(p + 3)[:n]
		for j, cj := range c {
			c[j] = cj + a0*b0[j] + a1*b1[j] + a2*b2[j] + a3*b3[j]
		}
	}
	for ; p < panel.Rows; p++ {
		a0 := a.Data[ai]
		ai += as
		b0 := panel.rowSlice(p)[:n]
		for j, cj := range c {
			c[j] = cj + a0*b0[j]
		}
	}
}
