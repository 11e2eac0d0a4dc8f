package exec_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// torchTensor is a tensor of testdata/conv_cases.json.
type torchTensor struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// torchCase is a case of gen_conv_cases.py: an op of PyTorch with its
// inputs, output and the gradients of sum(out·gy).
type torchCase struct {
	Name   string                 `json:"name"`
	Op     string                 `json:"op"`
	DType  string                 `json:"dtype"`
	Params map[string]any         `json:"params"`
	Inputs map[string]torchTensor `json:"inputs"`
	Out    torchTensor            `json:"out"`
	GY     *torchTensor           `json:"gy"`
	Grads  map[string]torchTensor `json:"grads"`
}

func loadTorchCases(t *testing.T) []torchCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/conv_cases.json")
	require.NoError(t, err)
	var file struct {
		Cases []torchCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	require.NotEmpty(t, file.Cases)
	return file.Cases
}

// caseInts reads an int or a list of ints of the case's parameters.
func caseInts(v any) []int {
	switch v := v.(type) {
	case nil:
		return nil
	case float64:
		return []int{int(v)}
	case []any:
		out := make([]int, len(v))
		for i, e := range v {
			out[i] = int(e.(float64))
		}
		return out
	}
	panic(fmt.Sprintf("not ints: %v", v))
}

// windowOptions translates the case's parameters.
func windowOptions(p map[string]any) []expr.WindowOption {
	var opts []expr.WindowOption
	if s := caseInts(p["stride"]); s != nil {
		opts = append(opts, expr.Stride(s...))
	}
	if d := caseInts(p["dilation"]); d != nil {
		opts = append(opts, expr.Dilation(d...))
	}
	switch pad := p["padding"].(type) {
	case string:
		if pad == "same" {
			opts = append(opts, expr.PadSame())
		} else {
			opts = append(opts, expr.PadValid())
		}
	case []any:
		if _, pairs := pad[0].([]any); pairs {
			var pp [][2]int
			for _, e := range pad {
				v := caseInts(e)
				pp = append(pp, [2]int{v[0], v[1]})
			}
			opts = append(opts, expr.PaddingPairs(pp...))
		} else {
			opts = append(opts, expr.Padding(caseInts(pad)...))
		}
	case float64:
		opts = append(opts, expr.Padding(int(pad)))
	}
	if g := caseInts(p["groups"]); g != nil {
		opts = append(opts, expr.Groups(g[0]))
	}
	if c, _ := p["ceil_mode"].(bool); c {
		opts = append(opts, expr.CeilMode())
	}
	if c, ok := p["count_include_pad"].(bool); ok && !c {
		opts = append(opts, expr.ExcludePad())
	}
	return opts
}

// build returns the case's op on leaves of its inputs, the leaves in the
// order x, w, b.
func build[F dtype.Float](t *testing.T, c torchCase) (expr.Expr[F], []expr.Expr[F]) {
	t.Helper()
	leaf := func(name string) expr.Expr[F] {
		in := c.Inputs[name]
		data := make([]F, len(in.Data))
		for i, v := range in.Data {
			data[i] = F(v)
		}
		x, err := tensor.FromSlice(data, in.Shape...)
		require.NoError(t, err)
		return expr.Of(x)
	}
	x := leaf("x")
	opts := windowOptions(c.Params)
	switch c.Op {
	case "conv":
		w := leaf("w")
		if _, ok := c.Inputs["b"]; ok {
			b := leaf("b")
			return expr.ConvBias(x, w, b, opts...), []expr.Expr[F]{x, w, b}
		}
		return expr.Conv(x, w, opts...), []expr.Expr[F]{x, w}
	case "max_pool":
		return expr.MaxPool(x, caseInts(c.Params["kernel"]), opts...), []expr.Expr[F]{x}
	case "avg_pool":
		return expr.AvgPool(x, caseInts(c.Params["kernel"]), opts...), []expr.Expr[F]{x}
	case "adaptive_avg_pool":
		return expr.AdaptiveAvgPool(x, caseInts(c.Params["output"])...), []expr.Expr[F]{x}
	case "adaptive_max_pool":
		return expr.AdaptiveMaxPool(x, caseInts(c.Params["output"])...), []expr.Expr[F]{x}
	}
	t.Fatalf("unknown op %q", c.Op)
	return expr.Expr[F]{}, nil
}

func assertClose[F dtype.Float](t *testing.T, want torchTensor, got *tensor.Tensor[F], tol float64, what string) {
	t.Helper()
	require.Equal(t, want.Shape, []int(got.Shape()), what)
	data := got.Contiguous().Data()
	for i, w := range want.Data {
		g := float64(data[i])
		if math.Abs(g-w) > tol*(1+math.Abs(w)) {
			assert.Failf(t, "mismatch", "%s element %d: got %v, torch %v", what, i, g, w)
			return
		}
	}
}

// runTorchCase checks the forward against torch and, with gy, every
// gradient of sum(out·gy); the same on 1 and 3 workers, bit for bit.
func runTorchCase[F dtype.Float](t *testing.T, c torchCase, tol float64) {
	y, leaves := build[F](t, c)
	require.NoError(t, y.Err())
	outs := []expr.Expr[F]{y}
	names := []string{"out"}
	if c.GY != nil {
		gyData := make([]F, len(c.GY.Data))
		for i, v := range c.GY.Data {
			gyData[i] = F(v)
		}
		gy, err := tensor.FromSlice(gyData, c.GY.Shape...)
		require.NoError(t, err)
		gs, err := autograd.GradOf(y.Mul(expr.Of(gy)).Sum(), leaves...)
		require.NoError(t, err)
		outs = append(outs, gs...)
		names = append(names, "x", "w", "b")
	}
	var first []*tensor.Tensor[F]
	for _, workers := range []int{1, 3} {
		got, err := exec.EvalNWith(exec.New(exec.Workers(workers)), outs)
		require.NoError(t, err)
		if first == nil {
			first = got
			continue
		}
		for i := range got {
			assert.Equal(t, first[i].Contiguous().Data(), got[i].Contiguous().Data(), "%s with %d workers", names[i], workers)
		}
	}
	assertClose(t, c.Out, first[0], tol, "out")
	for i := 1; i < len(first); i++ {
		assertClose(t, c.Grads[names[i]], first[i], tol, "grad "+names[i])
	}
}

func TestConvPoolTorchCases(t *testing.T) {
	for _, c := range loadTorchCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			if c.DType == "float32" {
				runTorchCase[float32](t, c, 2e-5)
			} else {
				runTorchCase[float64](t, c, 1e-10)
			}
		})
	}
}
