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

// TestKcFor checks the inner blocking: k itself up to kc, then as many
// blocks as kc needs, of equal size rounded up to 8, none over kc.
func TestKcFor(t *testing.T) {
	bl := blocking{kc: 256, mc: 72, nc: 512}
	for _, c := range [][2]int{{1, 1}, {255, 255}, {256, 256}, {257, 136}, {512, 256}, {513, 176}, {784, 200}, {1024, 256}, {1025, 208}} {
		assert.Equal(t, c[1], bl.kcFor(c[0]), "k=%d", c[0])
	}
	for k := 1; k <= 2000; k++ {
		kc := bl.kcFor(k)
		steps := (k + kc - 1) / kc
		assert.LessOrEqual(t, kc, 256)
		assert.Equal(t, (k+255)/256, steps, "k=%d: %d steps of %d", k, steps, kc)
		if k > 256 {
			assert.Zero(t, kc%8, "k=%d", k)
		}
	}
}
