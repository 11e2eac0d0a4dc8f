package gonumx

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

// Dense returns the 2-D tensor t as a *mat.Dense. When t is row-major with
// unit column stride (rows may be spaced further apart, as in a slice of a
// wider matrix) the matrix shares t's storage, and writes through either are
// seen by the other; otherwise Dense copies t's elements, and the two are
// independent. gonum has no zero-length dimensions: a tensor with one is an
// error, as is any rank but 2.
func Dense(t *tensor.Tensor[float64]) (*mat.Dense, error) {
	r, c, err := checkMatrix("gonumx.Dense", t)
	if err != nil {
		return nil, err
	}
	g, ok := rowMajorView(t, r, c)
	if !ok {
		g = rowMajorCopy(t, r, c)
	}
	return denseOf(g), nil
}

// Matrix is Dense, but also shares the storage of a column-major t (a
// transpose, or a tensor read from a Fortran-ordered file): it returns the
// mat.Transpose of a *mat.Dense on t's storage. Other layouts are copied
// into a *mat.Dense.
func Matrix(t *tensor.Tensor[float64]) (mat.Matrix, error) {
	r, c, err := checkMatrix("gonumx.Matrix", t)
	if err != nil {
		return nil, err
	}
	if g, ok := rowMajorView(t, r, c); ok {
		return denseOf(g), nil
	}
	if g, ok := columnMajorView(t, r, c); ok {
		return mat.Transpose{Matrix: denseOf(g)}, nil
	}
	return denseOf(rowMajorCopy(t, r, c)), nil
}

func denseOf(g general[float64]) *mat.Dense {
	var d mat.Dense
	d.SetRawMatrix(blas64.General{Rows: g.rows, Cols: g.cols, Stride: g.stride, Data: g.data})
	return &d
}

// VecDense returns the 1-D tensor t as a *mat.VecDense that shares t's
// storage, with t's stride as its increment. A tensor with stride 0 (a
// broadcast) is copied. Empty tensors and other ranks are errors.
func VecDense(t *tensor.Tensor[float64]) (*mat.VecDense, error) {
	n, err := checkVector("gonumx.VecDense", t)
	if err != nil {
		return nil, err
	}
	inc, data, ok := vectorView(t, n)
	if !ok {
		inc, data = 1, t.Values()
	}
	var v mat.VecDense
	v.SetRawVector(blas64.Vector{N: n, Inc: inc, Data: data})
	return &v, nil
}

// FromMatrix returns m's elements as an r×c tensor. It shares m's storage,
// with no copy, when m is a *mat.Dense (or any mat.RawMatrixer), a
// *mat.VecDense (an n×1 matrix), or the transpose of either (m.T(), any
// mat.Untransposer), which gives a column-major view. Any other matrix
// (triangular, symmetric, diagonal, …) is copied element by element. A nil
// m, one holding a nil pointer, or the transpose of one, is a
// *tensor.ArgError.
func FromMatrix(m mat.Matrix) (*tensor.Tensor[float64], error) {
	if err := nilMatrixError("gonumx.FromMatrix", "m", m); err != nil {
		return nil, err
	}
	if t, ok := matrixView(m); ok {
		return t, nil
	}
	if u, ok := m.(mat.Untransposer); ok {
		if t, ok := matrixView(u.Untranspose()); ok {
			s, st := t.Shape(), t.Strides()
			return tensor.AsStrided(t.Data(), tensor.Shape{s[1], s[0]}, []int{st[1], st[0]}, t.Offset())
		}
	}
	r, c := m.Dims()
	t, err := tensor.New[float64](r, c)
	if err != nil {
		return nil, err
	}
	data := t.Data()
	for i := range r {
		for j := range c {
			data[i*c+j] = m.At(i, j)
		}
	}
	return t, nil
}

// matrixView views a raw gonum matrix or column vector as a tensor.
func matrixView(m mat.Matrix) (*tensor.Tensor[float64], bool) {
	r, c := m.Dims()
	switch m := m.(type) {
	case mat.RawMatrixer:
		g := m.RawMatrix()
		if g.Rows != r || g.Cols != c {
			return nil, false
		}
		t, err := fromGeneral(g.Rows, g.Cols, g.Stride, g.Data)
		return t, err == nil
	case mat.RawVectorer:
		v := m.RawVector()
		if v.N != r || c != 1 {
			return nil, false
		}
		t, err := fromGeneral(v.N, 1, v.Inc, v.Data)
		return t, err == nil
	}
	return nil, false
}

// FromVector returns v's elements as a 1-D tensor. It shares v's storage
// when v is a *mat.VecDense (any mat.RawVectorer), keeping its increment as
// the stride; other vectors are copied. A nil v, one holding a nil pointer,
// or the transpose of one, is a *tensor.ArgError.
func FromVector(v mat.Vector) (*tensor.Tensor[float64], error) {
	if err := nilMatrixError("gonumx.FromVector", "v", v); err != nil {
		return nil, err
	}
	if rv, ok := v.(mat.RawVectorer); ok {
		b := rv.RawVector()
		if b.N == v.Len() {
			if t, err := fromVector(b.N, b.Inc, b.Data); err == nil {
				return t, nil
			}
		}
	}
	t, err := tensor.New[float64](v.Len())
	if err != nil {
		return nil, err
	}
	data := t.Data()
	for i := range data {
		data[i] = v.AtVec(i)
	}
	return t, nil
}

// maxTransposes bounds the transposes of transposes nilMatrixError unwraps.
const maxTransposes = 16

// nilMatrixError returns a *tensor.ArgError when m is nil, holds a nil
// pointer, or is the transpose (a mat.Untransposer) of such a matrix: gonum's
// methods on them panic.
func nilMatrixError(fn, name string, m mat.Matrix) error {
	if nilarg.Is(m) {
		return &tensor.ArgError{Op: fn, Reason: name + " is nil"}
	}
	for range maxTransposes {
		u, ok := m.(mat.Untransposer)
		if !ok {
			return nil
		}
		if m = u.Untranspose(); nilarg.Is(m) {
			return &tensor.ArgError{Op: fn, Reason: name + " is the transpose of nil"}
		}
	}
	return nil
}
