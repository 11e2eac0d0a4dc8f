package dtype_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

func TestOf(t *testing.T) {
	type celsius float64
	tests := []struct {
		name string
		got  dtype.DType
		want dtype.DType
	}{
		{"bool", dtype.Of[bool](), dtype.Bool},
		{"int8", dtype.Of[int8](), dtype.Int8},
		{"int16", dtype.Of[int16](), dtype.Int16},
		{"int32", dtype.Of[int32](), dtype.Int32},
		{"int64", dtype.Of[int64](), dtype.Int64},
		{"int", dtype.Of[int](), dtype.Int64},
		{"uint8", dtype.Of[uint8](), dtype.Uint8},
		{"uint16", dtype.Of[uint16](), dtype.Uint16},
		{"uint32", dtype.Of[uint32](), dtype.Uint32},
		{"uint64", dtype.Of[uint64](), dtype.Uint64},
		{"uint", dtype.Of[uint](), dtype.Uint64},
		{"float32", dtype.Of[float32](), dtype.Float32},
		{"float64", dtype.Of[float64](), dtype.Float64},
		{"complex64", dtype.Of[complex64](), dtype.Complex64},
		{"complex128", dtype.Of[complex128](), dtype.Complex128},
		{"named type", dtype.Of[celsius](), dtype.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}
}

func TestTable(t *testing.T) {
	tests := []struct {
		d     dtype.DType
		name  string
		short string
		size  int
		kind  dtype.Kind
	}{
		{dtype.Bool, "bool", "bool", 1, dtype.KindBool},
		{dtype.Int8, "int8", "i8", 1, dtype.KindSigned},
		{dtype.Int16, "int16", "i16", 2, dtype.KindSigned},
		{dtype.Int32, "int32", "i32", 4, dtype.KindSigned},
		{dtype.Int64, "int64", "i64", 8, dtype.KindSigned},
		{dtype.Uint8, "uint8", "u8", 1, dtype.KindUnsigned},
		{dtype.Uint16, "uint16", "u16", 2, dtype.KindUnsigned},
		{dtype.Uint32, "uint32", "u32", 4, dtype.KindUnsigned},
		{dtype.Uint64, "uint64", "u64", 8, dtype.KindUnsigned},
		{dtype.Float32, "float32", "f32", 4, dtype.KindFloat},
		{dtype.Float64, "float64", "f64", 8, dtype.KindFloat},
		{dtype.Complex64, "complex64", "c64", 8, dtype.KindComplex},
		{dtype.Complex128, "complex128", "c128", 16, dtype.KindComplex},
	}
	require.Len(t, dtype.All, len(tests), "every dtype is in the table")
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.d, dtype.All[i])
			assert.True(t, tt.d.Valid())
			assert.Equal(t, tt.name, tt.d.String())
			assert.Equal(t, tt.short, tt.d.Short())
			assert.Equal(t, tt.size, tt.d.Size())
			assert.Equal(t, tt.kind, tt.d.Kind())
			assert.Equal(t, tt.kind == dtype.KindFloat, tt.d.IsFloat())
			assert.Equal(t, tt.kind == dtype.KindComplex, tt.d.IsComplex())
			assert.Equal(t, tt.kind == dtype.KindSigned || tt.kind == dtype.KindUnsigned, tt.d.IsInteger())
			p, err := dtype.Parse(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.d, p, "Parse inverts String")
		})
	}
	assert.False(t, dtype.Invalid.Valid())
	assert.Equal(t, "invalid", dtype.Invalid.String())
	assert.Equal(t, "DType(200)", dtype.DType(200).String())
	assert.Equal(t, 0, dtype.DType(200).Size())
	assert.Equal(t, "invalid", dtype.Invalid.Short())
	assert.Equal(t, "float", dtype.KindFloat.String())
	assert.Equal(t, "Kind(9)", dtype.Kind(9).String())
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want dtype.DType
	}{
		{"float64", dtype.Float64},
		{" Float32 ", dtype.Float32},
		{"int", dtype.Int64},
		{"uint", dtype.Uint64},
		{"float", dtype.Float32},
		{"double", dtype.Float64},
		{"long", dtype.Int64},
		{"COMPLEX128", dtype.Complex128},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := dtype.Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	for _, bad := range []string{"", "float16", "invalid", "int128"} {
		_, err := dtype.Parse(bad)
		assert.Error(t, err, "%q", bad)
	}
	_, err := dtype.Parse("half")
	assert.EqualError(t, err, `dtype: unknown dtype "half"`)
}

func TestRestricted(t *testing.T) {
	restricted := map[dtype.DType]bool{
		dtype.Complex64: true, dtype.Complex128: true, dtype.Float64: true,
		dtype.Int16: true, dtype.Uint16: true, dtype.Uint64: true,
	}
	for _, d := range dtype.All {
		assert.Equal(t, restricted[d], d.Restricted(), "%v", d)
	}
	assert.False(t, dtype.Invalid.Restricted())
	assert.ElementsMatch(t, []dtype.DType{dtype.Complex64, dtype.Complex128, dtype.Float64, dtype.Int16, dtype.Uint16, dtype.Uint64}, dtype.RestrictedDTypes)
}

// TestPromoteTable is the table in the package documentation, row by row.
func TestPromoteTable(t *testing.T) {
	const (
		b    = dtype.Bool
		i8   = dtype.Int8
		i16  = dtype.Int16
		i32  = dtype.Int32
		i64  = dtype.Int64
		u8   = dtype.Uint8
		u16  = dtype.Uint16
		u32  = dtype.Uint32
		u64  = dtype.Uint64
		f32  = dtype.Float32
		f64  = dtype.Float64
		c64  = dtype.Complex64
		c128 = dtype.Complex128
	)
	cols := []dtype.DType{b, i8, u8, i16, i32, i64, f32, f64, c64, c128}
	rows := map[dtype.DType][]dtype.DType{
		b:    {b, i8, u8, i16, i32, i64, f32, f64, c64, c128},
		i8:   {i8, i8, i16, i16, i32, i64, f32, f64, c64, c128},
		u8:   {u8, i16, u8, i16, i32, i64, f32, f64, c64, c128},
		u16:  {u16, i32, u16, i32, i32, i64, f32, f64, c64, c128},
		u32:  {u32, i64, u32, i64, i64, i64, f32, f64, c64, c128},
		u64:  {u64, f64, u64, f64, f64, f64, f32, f64, c64, c128},
		f32:  {f32, f32, f32, f32, f32, f32, f32, f64, c64, c128},
		f64:  {f64, f64, f64, f64, f64, f64, f64, f64, c128, c128},
		c64:  {c64, c64, c64, c64, c64, c64, c64, c128, c64, c128},
		c128: {c128, c128, c128, c128, c128, c128, c128, c128, c128, c128},
	}
	for a, row := range rows {
		for j, want := range row {
			bb := cols[j]
			assert.Equal(t, want, dtype.Promote(a, bb), "Promote(%v, %v)", a, bb)
			assert.Equal(t, want, dtype.Promote(bb, a), "Promote(%v, %v)", bb, a)
		}
	}
	// Unsigned among themselves take the wider; u16+u32 = u32, u8+u64 = u64.
	assert.Equal(t, u32, dtype.Promote(u16, u32))
	assert.Equal(t, u64, dtype.Promote(u8, u64))
	assert.Equal(t, i64, dtype.Promote(i64, u32))
	assert.Equal(t, f64, dtype.Promote(i64, u64), "no integer holds both: NumPy gives float64")
}

func TestPromoteProperties(t *testing.T) {
	for _, a := range dtype.All {
		assert.Equal(t, a, dtype.Promote(a, a), "idempotent")
		assert.Equal(t, a, dtype.Promote(a, dtype.Bool), "bool promotes to anything")
		assert.Equal(t, dtype.Invalid, dtype.Promote(a, dtype.Invalid))
		assert.Equal(t, dtype.Invalid, dtype.Promote(dtype.DType(99), a))
		for _, b := range dtype.All {
			p := dtype.Promote(a, b)
			assert.Equal(t, p, dtype.Promote(b, a), "symmetric: %v %v", a, b)
			assert.GreaterOrEqual(t, p.Kind(), max(a.Kind(), b.Kind()), "never demotes the kind: %v %v", a, b)
		}
	}
}
