//go:build amd64 && !purego

package simd

// intDiv32 holds the int32 division loops: truncating, then flooring.
var intDiv32 = [2]Binary[int32]{
	{VV: divTruncVVI32, VS: divTruncVSI32, SV: divTruncSVI32},
	{VV: divFloorVVI32, VS: divFloorVSI32, SV: divFloorSVI32},
}

// The assembly loops take whole vectors of four; x or y as a float64 is a
// scalar operand, converted once. A zero divisor gives 0 in VV and SV; VS
// never sees one.

//go:noescape
func divTruncVVI32AVX2(d, x, y []int32)

//go:noescape
func divFloorVVI32AVX2(d, x, y []int32)

//go:noescape
func divTruncVSI32AVX2(d, x []int32, y float64)

//go:noescape
func divFloorVSI32AVX2(d, x []int32, y float64)

//go:noescape
func divTruncSVI32AVX2(d []int32, x float64, y []int32)

//go:noescape
func divFloorSVI32AVX2(d []int32, x float64, y []int32)

func divTruncVVI32(d, x, y []int32)               { divVV(d, x, y, divTruncVVI32AVX2, divTrunc32) }
func divFloorVVI32(d, x, y []int32)               { divVV(d, x, y, divFloorVVI32AVX2, divFloor32) }
func divTruncVSI32(d, x []int32, y int32)         { divVS(d, x, y, divTruncVSI32AVX2, divTrunc32) }
func divFloorVSI32(d, x []int32, y int32)         { divVS(d, x, y, divFloorVSI32AVX2, divFloor32) }
func divTruncSVI32(d []int32, x int32, y []int32) { divSV(d, x, y, divTruncSVI32AVX2, divTrunc32) }
func divFloorSVI32(d []int32, x int32, y []int32) { divSV(d, x, y, divFloorSVI32AVX2, divFloor32) }

// divVV, divVS and divSV run a loop over the whole vectors of d and the
// scalar form over the rest.
func divVV(d, x, y []int32, loop func(d, x, y []int32), one func(x, y int32) int32) {
	x, y = x[:len(d)], y[:len(d)]
	n := len(d) &^ 3
	if n > 0 {
		loop(d[:n], x[:n], y[:n])
	}
	for i := n; i < len(d); i++ {
		d[i] = one(x[i], y[i])
	}
}

func divVS(d, x []int32, y int32, loop func(d, x []int32, y float64), one func(x, y int32) int32) {
	x = x[:len(d)]
	if y == 0 {
		clear(d)
		return
	}
	n := len(d) &^ 3
	if n > 0 {
		loop(d[:n], x[:n], float64(y))
	}
	for i := n; i < len(d); i++ {
		d[i] = one(x[i], y)
	}
}

func divSV(d []int32, x int32, y []int32, loop func(d []int32, x float64, y []int32), one func(x, y int32) int32) {
	y = y[:len(d)]
	n := len(d) &^ 3
	if n > 0 {
		loop(d[:n], float64(x), y[:n])
	}
	for i := n; i < len(d); i++ {
		d[i] = one(x, y[i])
	}
}
