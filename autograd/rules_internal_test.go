package autograd

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/expr"
)

// TestRuleTable checks that every op either has a VJP row or a reason why
// it has none, and that the two float types share the rows.
func TestRuleTable(t *testing.T) {
	for op := expr.Op(1); int(op) < expr.NumOps; op++ {
		if op.Class() == expr.ClassLeaf {
			continue
		}
		has := rules64()[op] != nil
		assert.Equal(t, has, rules32()[op] != nil, "%s", op)
		if !has {
			assert.NotEqual(t, "the op has no gradient rule", whyNot(op), "%s has neither a rule nor a reason", op)
		}
	}
}
