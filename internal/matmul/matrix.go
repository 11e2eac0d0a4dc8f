package matmul

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// Matrix is a strided 2-D view of a slice: element (i, j) is
// Data[Offset+i*RowStride+j*ColStride]. Strides are in elements and may be
// any non-negative value; a stride of 0 repeats a row or a column (a
// broadcast view). A Matrix does not own Data and copying one copies the view,
// not the elements.
type Matrix[T dtype.Numeric] struct {
	Data                 []T
	Offset               int
	Rows, Cols           int
	RowStride, ColStride int
}

// RowMajor returns the contiguous rows×cols view of data[:rows*cols].
func RowMajor[T dtype.Numeric](data []T, rows, cols int) Matrix[T] {
	return Matrix[T]{Data: data, Rows: rows, Cols: cols, RowStride: cols, ColStride: 1}
}

// At returns element (i, j). It does not check i and j against Rows and Cols.
func (m Matrix[T]) At(i, j int) T {
	return m.Data[m.Offset+i*m.RowStride+j*m.ColStride]
}

// T returns the transpose of m: the same elements with rows and columns
// swapped. No data is copied.
func (m Matrix[T]) T() Matrix[T] {
	m.Rows, m.Cols = m.Cols, m.Rows
	m.RowStride, m.ColStride = m.ColStride, m.RowStride
	return m
}

// Slice returns the view of rows [i0, i1) and columns [j0, j1) of m. It does
// not check the bounds.
func (m Matrix[T]) Slice(i0, i1, j0, j1 int) Matrix[T] {
	m.Offset += i0*m.RowStride + j0*m.ColStride
	m.Rows, m.Cols = i1-i0, j1-j0
	return m
}

// check panics unless m is a valid view: non-negative sizes and strides and
// every element inside Data.
func (m Matrix[T]) check(name string) {
	if m.Rows < 0 || m.Cols < 0 || m.RowStride < 0 || m.ColStride < 0 || m.Offset < 0 {
		panic(fmt.Sprintf("matmul: %s: negative size, stride or offset in %v", name, m))
	}
	if m.Rows == 0 || m.Cols == 0 {
		return
	}
	if last := m.Offset + (m.Rows-1)*m.RowStride + (m.Cols-1)*m.ColStride; last >= len(m.Data) {
		panic(fmt.Sprintf("matmul: %s: element %d out of range of %d in %v", name, last, len(m.Data), m))
	}
}

// String describes the view, not the elements.
func (m Matrix[T]) String() string {
	return fmt.Sprintf("{%dx%d offset %d strides (%d, %d) len %d}",
		m.Rows, m.Cols, m.Offset, m.RowStride, m.ColStride, len(m.Data))
}

// rowMajor reports whether m is laid out as BLAS wants a row-major matrix: unit
// column stride and rows that do not overlap. A single row or column meets
// either condition trivially.
func (m Matrix[T]) rowMajor() bool {
	return (m.ColStride == 1 || m.Cols <= 1) && (m.RowStride >= max(1, m.Cols) || m.Rows <= 1)
}

// leading returns the leading dimension of a rowMajor m as BLAS checks it:
// at least max(1, Cols), whatever RowStride a single row has.
func (m Matrix[T]) leading() int {
	if m.Rows <= 1 {
		return max(1, m.Cols)
	}
	return m.RowStride
}

// rowSlice returns the elements of m from (i, 0) onward; with unit column
// stride its first Cols elements are row i.
func (m Matrix[T]) rowSlice(i int) []T {
	return m.Data[m.Offset+i*m.RowStride:]
}

// zero sets every element of m to zero.
func (m Matrix[T]) zero() {
	for i := range m.Rows {
		if m.ColStride == 1 {
			clear(m.rowSlice(i)[:m.Cols])
			continue
		}
		for j := range m.Cols {
			m.Data[m.Offset+i*m.RowStride+j*m.ColStride] = 0
		}
	}
}

// copyTo is: for i, j { dst.At(i, j) = src.At(i, j) }.
//
// Unless both have unit column stride, it goes in square tiles, so that a
// transposing copy touches a few cache lines of each matrix at a time rather
// than a new line of src for every element.
func copyTo[T dtype.Numeric](dst, src Matrix[T]) {
	if dst.ColStride == 1 && src.ColStride == 1 {
		for i := range dst.Rows {
			copy(dst.rowSlice(i)[:dst.Cols], src.rowSlice(i)[:src.Cols])
		}
		return
	}
	const tile = 32
	for i0 := 0; i0 < dst.Rows; i0 += tile {
		i1 := min(i0+tile, dst.Rows)
		for j0 := 0; j0 < dst.Cols; j0 += tile {
			nj := min(j0+tile, dst.Cols) - j0
			for i := i0; i < i1; i++ {
				d := dst.Offset + i*dst.RowStride + j0*dst.ColStride
				s := src.Offset + i*src.RowStride + j0*src.ColStride
				for range nj {
					dst.Data[d] = src.Data[s]
					d += dst.ColStride
					s += src.ColStride
				}
			}
		}
	}
}

// contiguous returns a row-major copy of m.
func contiguous[T dtype.Numeric](m Matrix[T]) Matrix[T] {
	c := RowMajor(make([]T, m.Rows*m.Cols), m.Rows, m.Cols)
	copyTo(c, m)
	return c
}
