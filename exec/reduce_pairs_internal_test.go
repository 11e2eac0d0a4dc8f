package exec

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/vmath"
)

// TestPairBlockTree checks that a full block's pairs pushed as one tree
// (pushTree) leave the binary counter as pushing its leaves' pairs one by
// one does, to the bit: outputs of several blocks and a short tail, with
// a block holding -Inf, +Inf or NaN (which goes leaf by leaf).
func TestPairBlockTree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	lse, sq := lseOp[float32](), sqDevOp[float32]()
	// byLeaf is the block of pairs pushed leaf by leaf, as before pushTree.
	byLeaf := map[string]func(v []float32, ps *pstack[pair[float32]]){
		"logsumexp": func(v []float32, ps *pstack[pair[float32]]) {
			var ln [8]float32
			m := float32(math.Inf(-1))
			for _, x := range v {
				m = max(m, x)
			}
			if m-m != 0 {
				lse.block(v, nil, &ln, ps, lse.combine) // not a shared finite m: leaf by leaf
				return
			}
			vmath.ExpSumLeaves(ln[:], v, m)
			for j := 0; j*reduceLeaf < len(v); j++ {
				ps.push(pair[float32]{a: m, b: ln[j]}, lse.combine)
			}
		},
		"sumsqdev": func(v []float32, ps *pstack[pair[float32]]) {
			var ln [8]float32
			vmath.SumLeaves(ln[:], v)
			mean := lanesTotal(&ln) / float32(len(v))
			vmath.SqDevLeaves(ln[:], v, mean)
			for i, j := 0, 0; i < len(v); i, j = i+reduceLeaf, j+1 {
				ps.push(pair[float32]{n: float32(leafEnd(i, len(v)) - i), a: mean, b: ln[j]}, sq.combine)
			}
		},
	}
	ops := map[string]*pairOp[float32]{"logsumexp": lse, "sumsqdev": sq}
	for name, p := range ops {
		for _, n := range []int{pairBlock, 3*pairBlock + 300, 8 * pairBlock} {
			for _, special := range []float32{0, float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.NaN())} {
				xs := make([]float32, n)
				for i := range xs {
					xs[i] = float32(2*r.NormFloat64() + 1)
				}
				if special != 0 {
					xs[(pairBlock+5)%n] = special
				}
				var got pairAcc[float32]
				got.reset()
				got.feed(p, xs)
				g := got.total(p)
				var ps pstack[pair[float32]]
				for i := 0; i < n; i += pairBlock {
					byLeaf[name](xs[i:min(i+pairBlock, n)], &ps)
				}
				w := ps.total(p.identity, p.combine)
				for _, c := range [][2]float32{{w.n, g.n}, {w.a, g.a}, {w.b, g.b}} {
					if c[0] != c[0] && c[1] != c[1] {
						continue
					}
					require.Equal(t, math.Float32bits(c[0]), math.Float32bits(c[1]), "%s of %d elements, special %v: %v and %v", name, n, special, w, g)
				}
			}
		}
	}
}
