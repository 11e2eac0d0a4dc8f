package bench

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// MismatchError reports a tensorplay output that disagrees with the hand
// loop's: the harness refuses to report such a workload.
type MismatchError struct {
	Index     int     // flat index of the first disagreeing element
	Got, Want float64 // tensorplay's value and the hand loop's
	Len       int     // number of elements compared
	Reason    string  // set instead of Index/Got/Want for a length mismatch
}

// Error says where the outputs first differ.
func (e *MismatchError) Error() string {
	if e.Reason != "" {
		return "output differs from the hand loop: " + e.Reason
	}
	return fmt.Sprintf("output differs from the hand loop at element %d of %d: tensorplay %g, hand loop %g",
		e.Index, e.Len, e.Got, e.Want)
}

// AllClose reports whether got and want have the same length and every pair
// satisfies |got-want| <= atol + rtol*|want|, with NaN equal only to NaN. The
// error is a *MismatchError naming the first element that differs. It is the
// check the standard workloads use, and the one to use for your own.
func AllClose[T dtype.Float](got, want []T, rtol, atol float64) error {
	if len(got) != len(want) {
		return &MismatchError{Len: len(want), Reason: fmt.Sprintf("%d elements, hand loop has %d", len(got), len(want))}
	}
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if g == w || (math.IsNaN(g) && math.IsNaN(w)) {
			continue
		}
		if math.IsNaN(g) || math.IsNaN(w) || !(math.Abs(g-w) <= atol+rtol*math.Abs(w)) {
			return &MismatchError{Index: i, Got: g, Want: w, Len: len(want)}
		}
	}
	return nil
}

// tolerance is the rtol a check allows for element type T: a few ulps of
// reordering for float64, float32's precision otherwise.
func tolerance[T dtype.Float](f64, f32 float64) float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return f32
	}
	return f64
}

// Side returns the side of the square matrix closest to size elements: 1000
// for 1e6, 3162 for 1e7.
func Side(size int) int {
	s := int(math.Round(math.Sqrt(float64(size))))
	return max(s, 1)
}
