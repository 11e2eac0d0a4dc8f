package tensor

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// The tiles in which copyStrided copies a transposed view: gatherRun bytes
// of each of gatherCols source runs (along the source's unit stride) make
// a tile, written as gatherRun/size result rows of gatherCols elements.
// Measured single-threaded on transposed float64 and float32 squares
// (1000², 2048², 3162²) against tiles of 8–128 by 16–256: this shape was
// the fastest or within 10% of it on each, and 2–2.7x faster than rows
// walked element by element (the previous Values); wider tiles lose most
// on 2048², whose source runs all fall in the same cache sets.
const (
	gatherRun  = 256
	gatherCols = 16
)

// bandCols is the width of the strips in which copyStrided copies a
// transposed view with simd.Transpose, a cache line of each source run at
// a time (64 bytes: 8 float64 or 16 float32 result rows): each call reads
// one line from each of bandCols source runs. Measured single-threaded on
// transposed 1000² and 3162² float64, allocation included: 512 was
// 1.0–1.15x faster than 256 or 1024 and 1.2x faster than whole rows;
// against the tiles, 1.8–2x faster in float64 and 2.3–2.5x in float32.
const bandCols = 512

// copyStrided copies the elements of the view (data, off, shape, strides)
// into dst, whose length is their number, in row-major order. The view's
// dims are first merged where it allows (see mergeView), then copied
//   - a row at a time when the last dim has unit stride (copy's memmove);
//   - when another dim has unit stride (a transposed view), in bands of a
//     cache line of each source run where simd.Transpose has loops for T
//     (see copyBands), else, and for the rows left over, in tiles, so that
//     each cache line read serves a tile's rows;
//   - otherwise a row at a time with a strided inner loop.
//
// Every path walks the outer dims with an index carry per row, never per
// element.
func copyStrided[T dtype.Elem](dst, data []T, off int, shape Shape, strides []int) {
	sizes, st := mergeView(shape, strides)
	d := len(sizes)
	if d == 0 {
		if len(dst) > 0 {
			dst[0] = data[off]
		}
		return
	}
	n, last := sizes[d-1], st[d-1]
	unit := -1 // a dim other than the last with unit stride
	for i := range d - 1 {
		if st[i] == 1 && last != 1 {
			unit = i
		}
	}
	if unit < 0 {
		o := 0
		eachRow(sizes[:d-1], st[:d-1], off, func(p int) {
			row := dst[o : o+n]
			o += n
			if last == 1 {
				copy(row, data[p:p+n])
				return
			}
			for j := range row {
				row[j] = data[p]
				p += last
			}
		})
		return
	}
	// Tiles over (unit, last), in each plane of the dims outside unit; the
	// dims between unit and last are walked inside each tile row.
	rows, inner := sizes[unit], 1
	tileRows := max(gatherCols, gatherRun/dtype.Of[T]().Size())
	for _, s := range sizes[unit+1:] {
		inner *= s
	}
	mid, midSt := sizes[unit+1:d-1], st[unit+1:d-1]
	transpose, k := simd.TransposeOf[T]()
	o := 0
	eachRow(sizes[:unit], st[:unit], off, func(base int) {
		plane := dst[o : o+rows*inner]
		o += rows * inner
		first := 0 // the first row the tiles copy
		if transpose != nil && last > 1 {
			first = rows - rows%k
			copyBands(plane, data, base, first, inner, mid, midSt, n, last, transpose, k)
		}
		for i0 := first; i0 < rows; i0 += tileRows {
			i1 := min(i0+tileRows, rows)
			k := 0 // the index of the mid dims' row
			eachRow(mid, midSt, base, func(p int) {
				for j0 := 0; j0 < n; j0 += gatherCols {
					j1 := min(j0+gatherCols, n)
					for i := i0; i < i1; i++ {
						row := plane[i*inner+k*n+j0 : i*inner+k*n+j1]
						q := p + i + j0*last
						for j := range row {
							row[j] = data[q]
							q += last
						}
					}
				}
				k++
			})
		}
	})
}

// copyBands copies rows [0, bands) of a transposed plane (see copyStrided),
// bands a multiple of k, k rows at a time with transpose (simd.Transpose),
// in strips of bandCols result columns: each call reads 64 bytes of each
// of up to bandCols source runs and writes them as k result rows.
func copyBands[T any](plane, data []T, base, bands, inner int, mid, midSt []int, n, last int,
	transpose func(d []T, dStride int, s []T, sStride, n int), k int) {
	for j0 := 0; j0 < n; j0 += bandCols {
		j1 := min(j0+bandCols, n)
		for i0 := 0; i0 < bands; i0 += k {
			m := 0 // the index of the mid dims' row
			eachRow(mid, midSt, base, func(p int) {
				transpose(plane[i0*inner+m*n+j0:], inner, data[p+i0+j0*last:], last, j1-j0)
				m++
			})
		}
	}
}

// eachRow calls f with the storage offset of every index of the dims
// (sizes, strides) in row-major order, starting from off: once, with off,
// when there are no dims.
func eachRow(sizes, strides []int, off int, f func(p int)) {
	idx := make([]int, len(sizes))
	for {
		f(off)
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			off += strides[i]
			if idx[i] < sizes[i] {
				break
			}
			off -= idx[i] * strides[i]
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// mergeView drops the size-1 dims of a view and merges each dim into the
// next where its stride is the next's stride times the next's extent,
// which leaves its row-major order unchanged.
func mergeView(shape Shape, strides []int) (sizes, st []int) {
	for i, s := range shape {
		if s == 1 {
			continue
		}
		if k := len(sizes) - 1; k >= 0 && st[k] == strides[i]*s {
			sizes[k] *= s
			st[k] = strides[i]
			continue
		}
		sizes = append(sizes, s)
		st = append(st, strides[i])
	}
	return sizes, st
}
