package exec

import (
	"errors"

	"github.com/tensorplay/tensorplay/expr"
)

func (pl *planner) buildReduce(n *expr.Node) (step, error) {
	return nil, errors.New("exec: reductions not implemented yet")
}

func (pl *planner) buildMatMul(n *expr.Node) (step, error) {
	return nil, errors.New("exec: matmul not implemented yet")
}
