package exec_test

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// chnormOf is per-channel normalization of an NCHW batch, NumPy's way:
// (x - mean) / sqrt(var + eps) over the batch and pixels, permuted to
// NHWC.
func chnormOf(x *tensor.Tensor[float32]) expr.Expr[float32] {
	xs := expr.Of(x)
	xc := xs.Sub(xs.MeanKeepDims(0, 2, 3))
	y := xc.Div(xc.Square().MeanKeepDims(0, 2, 3).AddScalar(1e-5).Sqrt())
	return y.Permute(0, 2, 3, 1)
}

// chnormWant is chnormOf element by element in float64, NHWC.
func chnormWant(x *tensor.Tensor[float32]) []float64 {
	s := x.Shape()
	n, c, hw := s[0], s[1], s[2]*s[3]
	v := x.Values()
	out := make([]float64, len(v))
	for ch := range c {
		var sum, sq float64
		for b := range n {
			for p := range hw {
				sum += float64(v[(b*c+ch)*hw+p])
			}
		}
		mean := sum / float64(n*hw)
		for b := range n {
			for p := range hw {
				d := float64(v[(b*c+ch)*hw+p]) - mean
				sq += d * d
			}
		}
		sd := math.Sqrt(sq/float64(n*hw) + 1e-5)
		for b := range n {
			for p := range hw {
				out[(b*hw+p)*c+ch] = (float64(v[(b*c+ch)*hw+p]) - mean) / sd
			}
		}
	}
	return out
}

// TestChannelNormPasses checks the plan of chnormOf into an NHWC
// destination: the two reductions read x, the centred x - mean is not
// stored but computed again by each reader (recomputable), sqrt(var +
// eps) is computed once per channel (hoistRatio), and the normalized batch
// is computed straight into the destination through its NCHW view
// (permutedDsts), the per-channel statistics read as repeated rows: three
// passes over x, no full-size temporary, no copy. The values are the
// definition's, into a destination with an offset and padded rows too.
func TestChannelNormPasses(t *testing.T) {
	x := tensor.Must(tensor.RandN[float32](3, 8, 3, 32, 32))
	want := chnormWant(x)
	out := tensor.Must(tensor.New[float32](8, 32, 32, 3))
	p := planWith(t, []tensor.Any{out}, nil, chnormOf(x).Node())
	assert.Equal(t, 2, strings.Count(p.text, "\n  reduce"), p.text)
	assert.NotRegexp(t, `f32\[8, (3, 32, 32|32, 32, 3)\]\(temp\)`, p.text, "a full-size temporary")
	var full []regionInfo
	for _, g := range p.regions {
		if g.shape == "[8, 3, 32, 32]" || g.shape == "[8, 32, 32, 3]" {
			full = append(full, g)
		}
	}
	require.Len(t, full, 1, "one pass writes the result:\n%s", p.text)
	assert.Equal(t, "[8, 3, 32, 32]", full[0].shape, "computed at x's shape, into the destination's view")
	assert.Regexp(t, `fused \[1, 3, 1, 1\]`, p.text, "the statistics' sqrt at their own shape")
	assert.Regexp(t, `out v\d+:f32\[8, 3, 32, 32\]\(view\)`, p.text)
	assert.Regexp(t, `\(repeated\)`, p.text)

	for _, workers := range []int{1, 2, 3} {
		x2 := exec.New(exec.Workers(workers), exec.Grain(64))
		require.NoError(t, exec.EvalToWith(x2, out, chnormOf(x)))
		assertNear(t, want, out.Values(), 1e-5, "NHWC", workers)
		// A destination with an offset and padded rows.
		big := tensor.Must(tensor.Zeros[float32](8, 32, 33, 3))
		dst := tensor.Must(big.Slice(2, 1, 33, 1))
		require.NoError(t, exec.EvalToWith(x2, dst, chnormOf(x)))
		assertNear(t, want, dst.Values(), 1e-5, "padded NHWC", workers)
		assert.Equal(t, float32(0), big.Values()[0], "nothing written outside the destination")
		x2.Close()
	}
}

// TestPermutedDstSharedWithLeaf checks that a permute written into a
// tensor the graph reads (x = (2x)ᵀ, in place) keeps its copy, which
// stages what overlaps, and gives the right values.
func TestPermutedDstSharedWithLeaf(t *testing.T) {
	x := tensor.Must(tensor.Arange(0.0, 16, 1))
	sq := tensor.Must(x.Reshape(4, 4))
	want := make([]float64, 16)
	for i := range 4 {
		for j := range 4 {
			want[i*4+j] = 2 * float64(j*4+i)
		}
	}
	require.NoError(t, exec.EvalTo(sq, expr.Of(sq).MulScalar(2).T()))
	assert.Equal(t, want, sq.Values())
	p := planWith(t, []tensor.Any{sq}, nil, expr.Of(sq).MulScalar(2).T().Node())
	assert.NotRegexp(t, regexp.MustCompile(`out v\d+:f64\[4, 4\]\(view\)`), p.text, p.text)
}

// assertNear asserts that got is want within tol relative to
// max(1, |want|), naming the case and its worker count.
func assertNear(t *testing.T, want []float64, got []float32, tol float64, name string, workers int) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if !assert.InDelta(t, want[i], float64(got[i]), tol*max(1, math.Abs(want[i])), "%s on %d workers, element %d", name, workers, i) {
			return
		}
	}
}
