package bench

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestXentReadsLogitsOnce checks the xent pipeline's plan: the logits are
// read whole once, by the paired log-sum-exp (the row max and the sum of
// exponentials in one pass), and the label pick reads them only through the
// index (the n gathered elements) inside the loss's reduction: no pass
// over n×c elements besides; the one-hot form makes one more (its log
// softmax, x - lse, fused into a pass over the mask).
func TestXentReadsLogitsOnce(t *testing.T) {
	const n, c = 64, 10
	logits := tensor.Must(tensor.RandN[float32](1, n, c))
	labels := tensor.Must(randLabels(2, n, c).Reshape(n, 1))
	classes := tensor.Must(classRow(c))
	plan := func(e expr.Expr[float32]) string {
		var b bytes.Buffer
		x := exec.New(exec.Debug(&b))
		defer x.Close()
		_, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		return b.String()
	}
	// Reads of a whole [n,c] operand, the logits or a temporary of their shape.
	whole := regexp.MustCompile(`in  s\d+ <- v\d+:f32\[64, 10\]\((fixed|temp)\) \((direct|strided|transposed)\)`)
	p := plan(xentLoss(expr.Of(logits), labels))
	assert.Len(t, whole.FindAllString(p, -1), 1, p)
	assert.Regexp(t, `in  s\d+ <- v\d+:f32\[64, 1\]\(view\) \(indexed by s\d+\)`, p)
	assert.Contains(t, p, "view v", p)
	assert.Regexp(t, `gather of v0:f32\[64, 10\]`, p)
	p1 := plan(xentOneHot(expr.Of(logits), labels, classes))
	assert.Len(t, whole.FindAllString(p1, -1), 2, p1)
}
