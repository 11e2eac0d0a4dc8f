package expr

import "github.com/tensorplay/tensorplay/tensor"

// broadcastOperands returns the result shape of a binary op and the operands
// to compute it from.
func broadcastOperands(op Op, a, b *Node) (tensor.Shape, []*Node, error) {
	shape, err := tensor.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, nil, err
	}
	return shape, []*Node{a, b}, nil
}
