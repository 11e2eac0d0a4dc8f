package tensor

import "github.com/tensorplay/tensorplay/dtype"

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

// copyStrided copies the elements of the view (data, off, shape, strides)
// into dst, whose length is their number, in row-major order. The view's
// dims are first merged where it allows (see mergeView), then copied
//   - a row at a time when the last dim has unit stride (copy's memmove);
//   - in tiles when another dim has unit stride (a transposed view),
//     so that each cache line read serves a tile's rows;
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
	o := 0
	eachRow(sizes[:unit], st[:unit], off, func(base int) {
		plane := dst[o : o+rows*inner]
		o += rows * inner
		for i0 := 0; i0 < rows; i0 += tileRows {
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
