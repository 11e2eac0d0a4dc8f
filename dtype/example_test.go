package dtype_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func ExampleOf() {
	fmt.Println(dtype.Of[float32](), dtype.Of[int](), dtype.Of[uint](), dtype.Of[complex128](), dtype.Of[bool]())
	// Output: float32 int64 uint64 complex128 bool
}

func ExampleDType() {
	fmt.Printf("%-10s %-5s %4s  %-8s %s\n", "dtype", "short", "size", "kind", "restricted")
	for _, d := range dtype.All {
		fmt.Printf("%-10s %-5s %4d  %-8s %v\n", d, d.Short(), d.Size(), d.Kind(), d.Restricted())
	}
	// Output:
	// dtype      short size  kind     restricted
	// bool       bool     1  bool     false
	// int8       i8       1  signed   false
	// int16      i16      2  signed   true
	// int32      i32      4  signed   false
	// int64      i64      8  signed   false
	// uint8      u8       1  unsigned false
	// uint16     u16      2  unsigned true
	// uint32     u32      4  unsigned false
	// uint64     u64      8  unsigned true
	// float32    f32      4  float    false
	// float64    f64      8  float    true
	// complex64  c64      8  complex  true
	// complex128 c128    16  complex  true
}

func ExampleParse() {
	for _, name := range []string{"float64", "int", "float", "double", "long", "complex64", "float16"} {
		d, err := dtype.Parse(name)
		fmt.Println(name, "->", d, err)
	}
	// Output:
	// float64 -> float64 <nil>
	// int -> int64 <nil>
	// float -> float32 <nil>
	// double -> float64 <nil>
	// long -> int64 <nil>
	// complex64 -> complex64 <nil>
	// float16 -> invalid dtype: unknown dtype "float16"
}

func ExamplePromote() {
	fmt.Println(dtype.Promote(dtype.Int8, dtype.Uint8))        // the smallest signed type that holds both
	fmt.Println(dtype.Promote(dtype.Int64, dtype.Uint64))      // none holds both: float64, as NumPy
	fmt.Println(dtype.Promote(dtype.Float32, dtype.Int64))     // a float meets an integer: the float wins
	fmt.Println(dtype.Promote(dtype.Float64, dtype.Complex64)) // complex wide enough for float64
	fmt.Println(dtype.Promote(dtype.Bool, dtype.Uint16))
	// Output:
	// int16
	// float64
	// float32
	// complex128
	// uint16
}

// The whole promotion table, printed with the short names.
func ExamplePromote_table() {
	fmt.Printf("%-5s", "a\\b")
	for _, b := range dtype.All {
		fmt.Printf("%5s", b.Short())
	}
	fmt.Println()
	for _, a := range dtype.All {
		fmt.Printf("%-5s", a.Short())
		for _, b := range dtype.All {
			fmt.Printf("%5s", dtype.Promote(a, b).Short())
		}
		fmt.Println()
	}
	// Output:
	// a\b   bool   i8  i16  i32  i64   u8  u16  u32  u64  f32  f64  c64 c128
	// bool  bool   i8  i16  i32  i64   u8  u16  u32  u64  f32  f64  c64 c128
	// i8      i8   i8  i16  i32  i64  i16  i32  i64  f64  f32  f64  c64 c128
	// i16    i16  i16  i16  i32  i64  i16  i32  i64  f64  f32  f64  c64 c128
	// i32    i32  i32  i32  i32  i64  i32  i32  i64  f64  f32  f64  c64 c128
	// i64    i64  i64  i64  i64  i64  i64  i64  i64  f64  f32  f64  c64 c128
	// u8      u8  i16  i16  i32  i64   u8  u16  u32  u64  f32  f64  c64 c128
	// u16    u16  i32  i32  i32  i64  u16  u16  u32  u64  f32  f64  c64 c128
	// u32    u32  i64  i64  i64  i64  u32  u32  u32  u64  f32  f64  c64 c128
	// u64    u64  f64  f64  f64  f64  u64  u64  u64  u64  f32  f64  c64 c128
	// f32    f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64  c64 c128
	// f64    f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
	// c64    c64  c64  c64  c64  c64  c64  c64  c64  c64  c64 c128  c64 c128
	// c128  c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
}

func ExampleDType_Restricted() {
	fmt.Println(dtype.RestrictedDTypes)
	fmt.Println(dtype.Float64.Restricted(), dtype.Float32.Restricted())
	// Output:
	// [complex64 complex128 float64 int16 uint16 uint64]
	// true false
}

// The merged rank of a broadcast, which the restricted dtypes must keep
// below 6: runs of axes that broadcast the same way count as one.
func ExampleDType_Restricted_mergedRank() {
	full := tensor.Shape{5, 5, 5, 5, 5, 5}
	for _, a := range []tensor.Shape{
		{5, 1, 5, 1, 5, 1}, // S X S X S X: nothing merges
		{5, 1, 5, 5, 1, 1}, // S X S S X X: two runs merge
		{5, 5, 5, 5, 5, 5}, // identical shapes: one axis
		{1, 1, 1, 5, 5, 5}, // X X X S S S
	} {
		m, _ := tensor.MergedBroadcastShape(a, full)
		fmt.Println(a, "->", m, "rank", m.Rank())
	}

	x := expr.From(tensor.New[complex64](5, 1, 5, 1, 5, 1))
	y := expr.From(tensor.New[complex64](5, 5, 5, 5, 5, 5))
	fmt.Println(x.Add(y).Err())
	// Output:
	// [5, 1, 5, 1, 5, 1] -> [5, 5, 5, 5, 5, 5] rank 6
	// [5, 1, 5, 5, 1, 1] -> [5, 5, 25, 25] rank 4
	// [5, 5, 5, 5, 5, 5] -> [15625] rank 1
	// [1, 1, 1, 5, 5, 5] -> [125, 125] rank 2
	// expr: broadcasting complex64 tensors of shapes [5, 1, 5, 1, 5, 1] and [5, 5, 5, 5, 5, 5] merges to rank 6 ([5, 5, 5, 5, 5, 5]); complex64 broadcasts must merge to fewer than 6 dimensions
}
