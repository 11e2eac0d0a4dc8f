package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPackLayouts checks packA and packB, with every kernel variant's
// packing routines (packRows, packColumns, packTail), against their
// definitions, for every operand layout and sizes around mr and nr:
// whole and partial panels, padded with zeros.
func TestPackLayouts(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		t.Run("float64", testPackLayouts[float64](6, 8))
		t.Run("float32", testPackLayouts[float32](6, 16))
	})
}

func testPackLayouts[F float](mr, nr int) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(12, 12))
		fill := fillFloat[F](r)
		for _, rows := range []int{1, 5, 6, 7, 12, 13, 17} {
			for _, cols := range []int{1, 3, nr - 1, nr, nr + 1, 2*nr + 5} {
				for _, l := range operandLayouts {
					x := newMatrix(l, rows, cols, fill)
					// As a, rows×cols in panels of mr rows.
					bufA := make([]F, roundUp(rows, mr)*cols)
					fillSentinel(bufA)
					packA(bufA, x, mr)
					wantA := make([]F, len(bufA))
					for i := range rows {
						for p := range cols {
							wantA[i/mr*cols*mr+p*mr+i%mr] = x.At(i, p)
						}
					}
					assert.Equal(t, wantA, bufA, "packA %dx%d %s", rows, cols, l.name)
					// As b, rows×cols in panels of nr columns.
					bufB := make([]F, rows*roundUp(cols, nr))
					fillSentinel(bufB)
					packB(bufB, x, nr)
					wantB := make([]F, len(bufB))
					for p := range rows {
						for j := range cols {
							wantB[j/nr*rows*nr+p*nr+j%nr] = x.At(p, j)
						}
					}
					assert.Equal(t, wantB, bufB, fmt.Sprintf("packB %dx%d %s", rows, cols, l.name))
				}
			}
		}
	}
}
