// Package axisrows sees a row-major array as the 1-D rows along one of its
// axes: the iteration that sorting, quantiles, top-k and scans in package
// exec and the transforms of package fft share.
package axisrows

// Rows sees a row-major array of shape [outer..., N, inner...] as
// Outer×Inner rows of N elements, Inner apart: row r starts at
// r/Inner*N*Inner + r%Inner.
type Rows struct {
	Outer, N, Inner int
}

// Along returns the rows along axis (in [0, len(shape))) of a row-major
// array of the given shape.
func Along(shape []int, axis int) Rows {
	r := Rows{Outer: 1, N: shape[axis], Inner: 1}
	for _, s := range shape[:axis] {
		r.Outer *= s
	}
	for _, s := range shape[axis+1:] {
		r.Inner *= s
	}
	return r
}

// Count is the number of rows.
func (r Rows) Count() int { return r.Outer * r.Inner }

// Start is the position of row's first element.
func (r Rows) Start(row int) int { return row/r.Inner*r.N*r.Inner + row%r.Inner }
