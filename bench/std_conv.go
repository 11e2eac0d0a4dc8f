package bench

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Conv returns the convolution suite (tpbench -suite conv): a ResNet-style
// 3×3 convolution of a [32,64,56,56] float32 batch to 64 channels, padded
// by 1, and the depthwise 3×3 convolution of the same batch, each into a
// preallocated output, against PyTorch's conv2d and NumPy's windowed
// tensordot as peers. They have no hand loop.
func Conv() []Workload {
	add := func(name, desc string, setup func(Params) (*Case, error)) Workload {
		return Workload{Name: name, Description: desc, Bound: ComputeBound, Setup: setup, Suite: "conv", Fixed: true}
	}
	return []Workload{
		add("conv/resnet3x3", "ResNet 3×3 conv 64→64, pad 1, f32", convSetup(32, 64, 56, 64, 3, 1, 1)),
		add("conv/depthwise3x3", "depthwise 3×3 conv, pad 1, f32", convSetup(32, 64, 56, 64, 3, 1, 64)),
	}
}

// convSetup is the convolution of a random [n,c,hw,hw] batch by o kernels
// of k×k, padded by pad, in groups.
func convSetup(n, c, hw, o, k, pad, groups int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.Rand[float32](p.Seed, n, c, hw, hw)
		if err != nil {
			return nil, err
		}
		w, err := tensor.RandN[float32](p.Seed+1, o, c/groups, k, k)
		if err != nil {
			return nil, err
		}
		y := expr.Conv(expr.Of(x), expr.Of(w), expr.Padding(pad), expr.Groups(groups))
		if err := y.Err(); err != nil {
			return nil, err
		}
		out, err := tensor.New[float32](y.Shape()...)
		if err != nil {
			return nil, err
		}
		flops := 2 * int64(out.Numel()) * int64(c/groups*k*k)
		return &Case{
			Shape:      fmt.Sprintf("%v*%v", x.Shape(), w.Shape()),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, y) },
			Bytes:      4 * int64(x.Numel()+w.Numel()+out.Numel()),
			Flops:      flops,
			PeakDType:  dtype.Float32,
			MaxReps:    5,
			Peer: &PeerCase{Pipeline: "conv2d", Inputs: []PeerInput{{"x", x}, {"w", w}},
				Params: map[string]float64{"padding": float64(pad), "groups": float64(groups)}, Outputs: outputs(out)},
		}, nil
	}
}
