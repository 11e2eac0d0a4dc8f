package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkTransposedAdd is a + b.T beyond W9's float64: at 3162² in
// float32, int8, int16 and complex128, and in float64 with a [1,C] row
// added (which keeps it out of panels) and at 1000×8000 (rows too wide
// for panels), the cases the tile table's panels and bands rows were
// measured on.
func BenchmarkTransposedAdd(b *testing.B) {
	b.Run("float32-3162", func(b *testing.B) { benchTransposedAdd[float32](b, 3162, 3162, false) })
	b.Run("int8-3162", func(b *testing.B) { benchTransposedAdd[int8](b, 3162, 3162, false) })
	b.Run("int16-3162", func(b *testing.B) { benchTransposedAdd[int16](b, 3162, 3162, false) })
	b.Run("complex128-3162", func(b *testing.B) { benchTransposedAdd[complex128](b, 3162, 3162, false) })
	b.Run("float64-row-3162", func(b *testing.B) { benchTransposedAdd[float64](b, 3162, 3162, true) })
	b.Run("float64-1000x8000", func(b *testing.B) { benchTransposedAdd[float64](b, 1000, 8000, false) })
}

func benchTransposedAdd[T dtype.Numeric](b *testing.B, R, C int, row bool) {
	x := tensor.Must(tensor.Ones[T](R, C))
	y := tensor.Must(tensor.Ones[T](C, R))
	e := expr.Of(x).Add(expr.Of(tensor.Must(y.T())))
	if row {
		e = e.Add(expr.Of(tensor.Must(tensor.Ones[T](1, C))))
	}
	benchInto(b, 3*int64(dtype.Of[T]().Size())*int64(R*C), e)
}
