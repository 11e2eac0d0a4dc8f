package gonumx

import (
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/tensorplay/tensorplay/tensor"
)

// General32 returns the 2-D float32 tensor t as a blas32.General for
// gonum's float32 BLAS (blas32.Gemm and friends), which gonum's mat package
// does not cover. Like Dense, it shares t's storage when t is row-major with
// unit column stride and copies it otherwise; other ranks and zero-length
// dimensions are errors.
func General32(t *tensor.Tensor[float32]) (blas32.General, error) {
	r, c, err := checkMatrix("gonumx.General32", t)
	if err != nil {
		return blas32.General{}, err
	}
	g, ok := rowMajorView(t, r, c)
	if !ok {
		g = rowMajorCopy(t, r, c)
	}
	return blas32.General{Rows: g.rows, Cols: g.cols, Stride: g.stride, Data: g.data}, nil
}

// FromGeneral32 returns a tensor that views g's storage: shape (Rows, Cols),
// strides (Stride, 1). g.Stride must be at least g.Cols (unless g has at most
// one row) and g.Data must hold every element.
func FromGeneral32(g blas32.General) (*tensor.Tensor[float32], error) {
	return fromGeneral(g.Rows, g.Cols, g.Stride, g.Data)
}

// Vector32 returns the 1-D float32 tensor t as a blas32.Vector sharing its
// storage, with t's stride as the increment; a stride-0 (broadcast) tensor
// is copied.
func Vector32(t *tensor.Tensor[float32]) (blas32.Vector, error) {
	n, err := checkVector("gonumx.Vector32", t)
	if err != nil {
		return blas32.Vector{}, err
	}
	inc, data, ok := vectorView(t, n)
	if !ok {
		inc, data = 1, t.Values()
	}
	return blas32.Vector{N: n, Inc: inc, Data: data}, nil
}

// FromVector32 returns a 1-D tensor that views v's storage with stride
// v.Inc, which must be positive.
func FromVector32(v blas32.Vector) (*tensor.Tensor[float32], error) {
	return fromVector(v.N, v.Inc, v.Data)
}
