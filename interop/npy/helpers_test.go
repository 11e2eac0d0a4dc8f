package npy_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// sample returns the six values testdata/gen.py's sample(name) writes for
// T's dtype; fixtures hold them as shape (2, 3).
func sample[T dtype.Elem]() []T {
	var v any
	switch any(*new(T)).(type) {
	case bool:
		v = []bool{true, false, true, true, false, false}
	case int8:
		v = []int8{0, 1, -1, 42, math.MaxInt8, math.MinInt8}
	case int16:
		v = []int16{0, 1, -1, 42, math.MaxInt16, math.MinInt16}
	case int32:
		v = []int32{0, 1, -1, 42, math.MaxInt32, math.MinInt32}
	case int64:
		v = []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64}
	case int:
		v = []int{0, 1, -1, 42, math.MaxInt, math.MinInt}
	case uint8:
		v = []uint8{0, 1, 2, 42, math.MaxUint8 - 1, math.MaxUint8}
	case uint16:
		v = []uint16{0, 1, 2, 42, math.MaxUint16 - 1, math.MaxUint16}
	case uint32:
		v = []uint32{0, 1, 2, 42, math.MaxUint32 - 1, math.MaxUint32}
	case uint64:
		v = []uint64{0, 1, 2, 42, math.MaxUint64 - 1, math.MaxUint64}
	case uint:
		v = []uint{0, 1, 2, 42, math.MaxUint - 1, math.MaxUint}
	case float32:
		v = []float32{0, 1.5, -2.25, 0.125, 1024, float32(math.Inf(1))}
	case float64:
		v = []float64{0, 1.5, -2.25, 0.125, 1024, math.Inf(1)}
	case complex64:
		v = []complex64{0, 1 + 2i, -1.5 - 0.5i, 0.25i, 3, -4i}
	case complex128:
		v = []complex128{0, 1 + 2i, -1.5 - 0.5i, 0.25i, 3, -4i}
	}
	return v.([]T)
}

// sampleTensor returns sample[T] as a row-major (2, 3) tensor.
func sampleTensor[T dtype.Elem](t *testing.T) *tensor.Tensor[T] {
	x, err := tensor.FromSlice(sample[T](), 2, 3)
	require.NoError(t, err)
	return x
}

// columnMajor returns sample[T] as a (2, 3) column-major view: the layout a
// Fortran-ordered file has.
func columnMajor[T dtype.Elem](t *testing.T) *tensor.Tensor[T] {
	v := sample[T]()
	data := []T{v[0], v[3], v[1], v[4], v[2], v[5]}
	x, err := tensor.AsStrided(data, tensor.Shape{2, 3}, []int{1, 2}, 0)
	require.NoError(t, err)
	return x
}

// suite holds the per-dtype test bodies instantiated for one element type;
// suites lists one per dtype, since Go has no generic function values.
type suite struct {
	name      string
	fixtures  func(t *testing.T) // NumPy's fixtures load
	roundTrip func(t *testing.T) // Go -> bytes -> Go in every layout
	writeAll  func(t *testing.T, dir string)
}

func suiteFor[T dtype.Elem]() suite {
	return suite{
		name:      dtype.Of[T]().String(),
		fixtures:  testFixtures[T],
		roundTrip: testRoundTrip[T],
		writeAll:  writeNumPyChecks[T],
	}
}

var suites = []suite{
	suiteFor[bool](), suiteFor[int8](), suiteFor[int16](), suiteFor[int32](), suiteFor[int64](),
	suiteFor[uint8](), suiteFor[uint16](), suiteFor[uint32](), suiteFor[uint64](),
	suiteFor[float32](), suiteFor[float64](), suiteFor[complex64](), suiteFor[complex128](),
}

// tensorOf wraps data as a 1-d tensor.
func tensorOf[T dtype.Elem](t *testing.T, data []T) *tensor.Tensor[T] {
	x, err := tensor.FromSlice(data, len(data))
	require.NoError(t, err)
	return x
}
