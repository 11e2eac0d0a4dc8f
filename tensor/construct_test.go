package tensor_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestFromSlice(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5, 6}
	x, err := tensor.FromSlice(data, 2, 3)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 3}, x.Shape())
	assert.Equal(t, []int{3, 1}, x.Strides())
	data[4] = 50
	v, err := x.At(1, 1)
	require.NoError(t, err)
	assert.Equal(t, 50.0, v, "FromSlice does not copy")

	s, err := tensor.FromSlice([]int32{7})
	require.NoError(t, err)
	assert.Equal(t, 0, s.Rank())
	assert.Equal(t, 1, s.Numel())

	e, err := tensor.FromSlice([]int8{}, 3, 0, 2)
	require.NoError(t, err)
	assert.Equal(t, 0, e.Numel())
	assert.True(t, e.IsContiguous())
	assert.Empty(t, e.Values())
}

func TestConstructorErrors(t *testing.T) {
	var se *tensor.ShapeError
	var ae *tensor.ArgError
	// big*big overflows int: 1<<40 on 64-bit, 1<<24 on 32-bit. wide*wide
	// fits int but is more float64s than one allocation may hold: 1<<30 on
	// 64-bit (2^63 bytes, the limit at most 2^46), 1<<14 on 32-bit (2^31
	// bytes, the limit at most half the address space).
	const big, wide = 1 << (strconv.IntSize/2 + 8), 1 << (strconv.IntSize/2 - 2)
	var allocErr *tensor.AllocError
	wideBytes := "more than 9223372036854775807" // 2^63 does not fit int64
	if strconv.IntSize == 32 {
		wideBytes = "2147483648"
	}
	tests := []struct {
		name   string
		call   func() error
		target any
		msg    string
	}{
		{"FromSlice wrong length", func() error { _, err := tensor.FromSlice([]float32{1, 2, 3}, 2, 2); return err },
			&se, "invalid shape [2, 2]: needs 4 elements, data has 3"},
		{"FromSlice negative", func() error { _, err := tensor.FromSlice([]float32{}, 2, -1); return err },
			&se, "invalid shape [2, -1] at dimension 1: negative extent -1"},
		{"New overflow", func() error { _, err := tensor.New[int8](big, big); return err },
			&se, fmt.Sprintf("invalid shape [%d, %d] at dimension 1: number of elements overflows int", big, big)},
		{"New too large to allocate", func() error { _, err := tensor.New[float64](wide, wide); return err },
			&allocErr, fmt.Sprintf("tensor: allocating [%d, %d] float64 needs %s bytes, more than the memory limit of %d bytes (tensor.SetMemoryLimit)",
				wide, wide, wideBytes, tensor.MemoryLimit())},
		{"Zeros negative", func() error { _, err := tensor.Zeros[float64](-2); return err },
			&se, "invalid shape [-2] at dimension 0: negative extent -2"},
		{"Ones negative", func() error { _, err := tensor.Ones[float64](3, -2); return err },
			&se, "invalid shape [3, -2] at dimension 1: negative extent -2"},
		{"Full negative", func() error { _, err := tensor.Full(true, -1); return err },
			&se, "invalid shape [-1] at dimension 0: negative extent -1"},
		{"Eye negative", func() error { _, err := tensor.Eye[int](-3); return err },
			&se, "invalid shape [-3, -3] at dimension 0: negative extent -3"},
		{"Arange zero step", func() error { _, err := tensor.Arange(0, 10, 0); return err },
			&ae, "Arange: step must not be zero"},
		{"Arange NaN", func() error { _, err := tensor.Arange(0, math.NaN(), 1); return err },
			&ae, "Arange: start, stop and step must be finite, got 0, NaN, 1"},
		{"Arange infinite", func() error { _, err := tensor.Arange(0, math.Inf(1), 1); return err },
			&ae, "Arange: start, stop and step must be finite, got 0, +Inf, 1"},
		{"Arange huge", func() error { _, err := tensor.Arange(0, 1e300, 1); return err },
			&ae, "Arange: a range of 1e+300 elements is too large"},
		{"Arange int64 count past MaxInt", func() error { _, err := tensor.Arange[int64](math.MinInt64, math.MaxInt64, 1); return err },
			&ae, fmt.Sprintf("Arange: the range from -9223372036854775808 to 9223372036854775807 by 1 has more than %d elements", math.MaxInt)},
		{"Arange uint64 count past MaxInt", func() error { _, err := tensor.Arange[uint64](0, math.MaxUint64, 1); return err },
			&ae, fmt.Sprintf("Arange: the range from 0 to 18446744073709551615 by 1 has more than %d elements", math.MaxInt)},
		{"Linspace negative", func() error { _, err := tensor.Linspace(0.0, 1.0, -1); return err },
			&ae, "Linspace: number of samples -1 must be non-negative"},
		{"Rand negative", func() error { _, err := tensor.Rand[float32](1, -1); return err },
			&se, "invalid shape [-1] at dimension 0: negative extent -1"},
		{"RandN negative", func() error { _, err := tensor.RandN[float64](1, 2, -5); return err },
			&se, "invalid shape [2, -5] at dimension 1: negative extent -5"},
		{"FromNested2 ragged", func() error { _, err := tensor.FromNested2([][]int{{1, 2}, {3, 4}, {5}}); return err },
			&ae, "FromNested2: row 2 has 1 elements, want 2 (the length of row 0)"},
		{"FromNested3 ragged block", func() error {
			_, err := tensor.FromNested3([][][]int{{{1}, {2}}, {{3}}})
			return err
		}, &ae, "FromNested3: block [1] has 1 rows, want 2 (the length of [0])"},
		{"FromNested3 ragged row", func() error {
			_, err := tensor.FromNested3([][][]int{{{1, 2}, {3, 4}}, {{5, 6}, {7}}})
			return err
		}, &ae, "FromNested3: row [1][1] has 1 elements, want 2 (the length of [0][0])"},
		{"AsStrided negative stride before storage", func() error {
			_, err := tensor.AsStrided(make([]int, 6), tensor.Shape{2, 3}, []int{3, -1}, 1)
			return err
		}, &se, "invalid shape [2, 3] at dimension 1: strides [3 -1] at offset 1 reach outside storage of length 6"},
		{"AsStrided out of storage", func() error {
			_, err := tensor.AsStrided(make([]int, 6), tensor.Shape{2, 3}, []int{3, 1}, 1)
			return err
		}, &se, "invalid shape [2, 3] at dimension 1: strides [3 1] at offset 1 reach outside storage of length 6"},
		{"AsStrided huge stride", func() error {
			_, err := tensor.AsStrided(make([]int, 6), tensor.Shape{3}, []int{math.MaxInt / 2}, 0)
			return err
		}, &se, fmt.Sprintf("invalid shape [3] at dimension 0: strides [%d] at offset 0 reach outside storage of length 6", math.MaxInt/2)},
		{"AsStrided offset", func() error {
			_, err := tensor.AsStrided(make([]int, 6), tensor.Shape{0}, []int{1}, 7)
			return err
		}, &se, "invalid shape [0]: offset 7 is outside storage of length 6"},
		{"AsStrided strides length", func() error {
			_, err := tensor.AsStrided(make([]int, 6), tensor.Shape{6}, []int{1, 1}, 0)
			return err
		}, &se, "invalid shape [6]: 2 strides for 1 dimensions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.True(t, errors.As(err, tt.target), "error type %T", err)
			assert.EqualError(t, err, tt.msg)
		})
	}
}

func TestOnesFullEye(t *testing.T) {
	o, err := tensor.Ones[complex64](2, 2)
	require.NoError(t, err)
	assert.Equal(t, []complex64{1, 1, 1, 1}, o.Values())

	b, err := tensor.Ones[bool](3)
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true}, b.Values())

	f, err := tensor.Full[int16](-7, 2, 1)
	require.NoError(t, err)
	assert.Equal(t, []int16{-7, -7}, f.Values())
	assert.Equal(t, tensor.Shape{2, 1}, f.Shape())

	s, err := tensor.Full(2.5)
	require.NoError(t, err)
	assert.Equal(t, 0, s.Rank())
	assert.Equal(t, []float64{2.5}, s.Values())

	e, err := tensor.Eye[uint8](3)
	require.NoError(t, err)
	assert.Equal(t, []uint8{1, 0, 0, 0, 1, 0, 0, 0, 1}, e.Values())
	e0, err := tensor.Eye[float32](0)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{0, 0}, e0.Shape())

	type celsius float64
	_, err = tensor.Ones[celsius](2)
	var ae *tensor.ArgError
	assert.ErrorAs(t, err, &ae, "a named element type has no constant 1")
	c, err := tensor.Full[celsius](36.6, 2)
	require.NoError(t, err)
	assert.Equal(t, []celsius{36.6, 36.6}, c.Values())
}

func TestArange(t *testing.T) {
	tests := []struct {
		name string
		got  func() (any, error)
		want any
	}{
		{"ints", func() (any, error) { return values(tensor.Arange(0, 5, 1)) }, []int{0, 1, 2, 3, 4}},
		{"int step", func() (any, error) { return values(tensor.Arange[int64](1, 10, 3)) }, []int64{1, 4, 7}},
		{"negative step", func() (any, error) { return values(tensor.Arange[int32](5, 0, -2)) }, []int32{5, 3, 1}},
		{"empty", func() (any, error) { return values(tensor.Arange(5, 0, 1)) }, []int{}},
		{"floats", func() (any, error) { return values(tensor.Arange(0.0, 1.0, 0.25)) }, []float64{0, 0.25, 0.5, 0.75}},
		{"float ceil", func() (any, error) { return values(tensor.Arange[float32](0, 1, 0.3)) }, []float32{0, 0.3, 0.6, 0.90000004}},
		{"uint8 to the top", func() (any, error) { return values(tensor.Arange[uint8](250, 255, 2)) }, []uint8{250, 252, 254}},
		{"int8 wraps consistently", func() (any, error) { return values(tensor.Arange[int8](-128, 127, 100)) }, []int8{-128, -28, 72}},
		// Integer ranges are counted in integer arithmetic: in float64 the
		// first has 4 elements and the next two none.
		{"int64 past 2^53", func() (any, error) { return values(tensor.Arange[int64](1<<53, 1<<53+3, 1)) },
			[]int64{1 << 53, 1<<53 + 1, 1<<53 + 2}},
		{"int64 past 2^62", func() (any, error) { return values(tensor.Arange[int64](1<<62+1, 1<<62+5, 1)) },
			[]int64{1<<62 + 1, 1<<62 + 2, 1<<62 + 3, 1<<62 + 4}},
		{"uint64 at the top", func() (any, error) { return values(tensor.Arange[uint64](math.MaxUint64-2, math.MaxUint64, 1)) },
			[]uint64{math.MaxUint64 - 2, math.MaxUint64 - 1}},
		{"uint64 across 2^63", func() (any, error) { return values(tensor.Arange[uint64](1<<63-1, 1<<63+2, 2)) },
			[]uint64{1<<63 - 1, 1<<63 + 1}},
		{"int64 whole range by MaxInt64", func() (any, error) { return values(tensor.Arange[int64](math.MinInt64, math.MaxInt64, math.MaxInt64)) },
			[]int64{math.MinInt64, -1, math.MaxInt64 - 1}},
		{"int64 down by MinInt64", func() (any, error) { return values(tensor.Arange[int64](math.MaxInt64, math.MinInt64, math.MinInt64)) },
			[]int64{math.MaxInt64, -1}},
		{"int8 down the whole range", func() (any, error) {
			x, err := tensor.Arange[int8](127, -128, -1)
			if err != nil {
				return nil, err
			}
			v := x.Values()
			return []any{len(v), v[0], v[127], v[254]}, nil
		}, []any{255, int8(127), int8(0), int8(-127)}},
		{"int16 negative start", func() (any, error) { return values(tensor.Arange[int16](-5, 5, 3)) }, []int16{-5, -2, 1, 4}},
		{"uint32 step 3", func() (any, error) { return values(tensor.Arange[uint32](0, 10, 3)) }, []uint32{0, 3, 6, 9}},
		{"uint8 empty", func() (any, error) { return values(tensor.Arange[uint8](250, 5, 1)) }, []uint8{}},
		{"int32 wrong direction", func() (any, error) { return values(tensor.Arange[int32](0, 10, -1)) }, []int32{}},
		{"int step past the range", func() (any, error) { return values(tensor.Arange(0, 3, math.MaxInt)) }, []int{0}},
		{"float64 tenths", func() (any, error) {
			x, err := tensor.Arange(0.0, 1.0, 0.1)
			return []any{x.Numel()}, err
		}, []any{10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.got()
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func values[T dtype.Elem](x *tensor.Tensor[T], err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return x.Values(), nil
}

func TestLinspace(t *testing.T) {
	x, err := tensor.Linspace(0.0, 1.0, 5)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0.25, 0.5, 0.75, 1}, x.Values())

	y, err := tensor.Linspace[float32](-1, 1, 3)
	require.NoError(t, err)
	assert.Equal(t, []float32{-1, 0, 1}, y.Values())

	z, err := tensor.Linspace(2.0, 3.0, 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{2}, z.Values())

	e, err := tensor.Linspace(2.0, 3.0, 0)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{0}, e.Shape())

	c, err := tensor.Linspace(4.0, 4.0, 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 4, 4}, c.Values(), "zero step")

	// NumPy: np.linspace(0, 1, 7)[3] == 0.5 exactly and the end is exact.
	s, err := tensor.Linspace(0.0, 0.3, 4)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0.09999999999999999, 0.19999999999999998, 0.3}, s.Values())
}

func TestRandom(t *testing.T) {
	a, err := tensor.Rand[float64](42, 3, 4)
	require.NoError(t, err)
	b, err := tensor.Rand[float64](42, 3, 4)
	require.NoError(t, err)
	c, err := tensor.Rand[float64](43, 3, 4)
	require.NoError(t, err)
	assert.Equal(t, a.Values(), b.Values(), "same seed, same tensor")
	assert.NotEqual(t, a.Values(), c.Values(), "another seed, another tensor")
	for _, v := range a.Values() {
		assert.True(t, v >= 0 && v < 1, "uniform on [0, 1): %v", v)
	}

	f, err := tensor.Rand[float32](7, 10000)
	require.NoError(t, err)
	for _, v := range f.Values() {
		require.True(t, v >= 0 && v < 1)
	}

	n, err := tensor.RandN[float64](1, 20000)
	require.NoError(t, err)
	var sum, sq float64
	for _, v := range n.Values() {
		sum += v
		sq += v * v
	}
	mean := sum / 20000
	assert.InDelta(t, 0, mean, 0.05)
	assert.InDelta(t, 1, sq/20000-mean*mean, 0.05)
	n2, err := tensor.RandN[float64](1, 20000)
	require.NoError(t, err)
	assert.Equal(t, n.Values(), n2.Values())
}

func TestFromNested(t *testing.T) {
	m, err := tensor.FromNested2([][]float32{{1, 2, 3}, {4, 5, 6}})
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 3}, m.Shape())
	assert.Equal(t, []float32{1, 2, 3, 4, 5, 6}, m.Values())

	rows := [][]int{{1}}
	c, err := tensor.FromNested2(rows)
	require.NoError(t, err)
	rows[0][0] = 9
	v, _ := c.At(0, 0)
	assert.Equal(t, 1, v, "FromNested2 copies")

	e, err := tensor.FromNested2[int](nil)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{0, 0}, e.Shape())

	z, err := tensor.FromNested2([][]int{{}, {}})
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 0}, z.Shape())

	b, err := tensor.FromNested3([][][]bool{{{true, false}}, {{false, true}}})
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 1, 2}, b.Shape())
	assert.Equal(t, []bool{true, false, false, true}, b.Values())

	e3, err := tensor.FromNested3([][][]int{{}, {}})
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 0, 0}, e3.Shape())
}

func TestMust(t *testing.T) {
	assert.NotPanics(t, func() { tensor.Must(tensor.Zeros[int](2)) })
	assert.Panics(t, func() { tensor.Must(tensor.Zeros[int](-2)) })
}
