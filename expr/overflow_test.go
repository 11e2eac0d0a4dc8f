package expr_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// one returns a 1-element leaf of shape [1] (or [1, 1] with rank 2).
func one(rank int) expr.Expr[float64] {
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1
	}
	return expr.From(tensor.Ones[float64](shape...))
}

// Every shape rule ends in one check: a node whose element count overflows
// int is a *tensor.ShapeError when it is built, sticky as every error is.
func TestOverflowingShapesAreConstructionErrors(t *testing.T) {
	const big = 1 << 40
	bigSym := func() expr.Expr[float64] {
		return expr.SymPlaceholder[float64]("x", expr.Sym("B"), expr.Known(1))
	}
	cases := []struct {
		name string
		x    func() expr.Any
	}{
		{"broadcast", func() expr.Any { return one(1).Expand(big).Add(one(2).Expand(big, 1)) }},
		{"expand", func() expr.Any { return one(1).Expand(big, big) }},
		{"reshape", func() expr.Any { return one(1).Reshape(big, big, 0, -1) }},
		{"matmul", func() expr.Any { return one(2).Expand(big, 1).MatMul(one(2).Expand(1, big)) }},
		{"embed", func() expr.Any { return one(2).Expand(3, 4).Embed(0, 0, 1, math.MaxInt) }},
		{"where", func() expr.Any {
			c := expr.From(tensor.New[bool](1, 1)).Expand(big, 1)
			return expr.Where(c, one(2).Expand(1, big), expr.Scalar(0.0))
		}},
		{"broadcast_add", func() expr.Any {
			return one(3).Expand(1, big, 1).BroadcastAdd(one(3).Expand(1, 1, big))
		}},
		{"placeholder", func() expr.Any { return expr.Placeholder[float64]("p", big, big) }},
		{"specialised placeholder", func() expr.Any {
			x := expr.SymPlaceholder[float64]("x", expr.Sym("B"), expr.Known(big))
			return expr.Specialize(expr.NewSpecializer(map[string]int{"B": big}), x)
		}},
		{"specialised broadcast", func() expr.Any {
			y := bigSym().Add(one(2).Expand(1, big))
			return expr.Specialize(expr.NewSpecializer(map[string]int{"B": big}), y)
		}},
		{"specialised expand", func() expr.Any {
			y := bigSym().ExpandDims(expr.Sym("B"), expr.Known(big))
			return expr.Specialize(expr.NewSpecializer(map[string]int{"B": big}), y)
		}},
		{"sticky", func() expr.Any { return one(1).Expand(big).Add(one(2).Expand(big, 1)).Exp().Sum(0) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := c.x().Node()
			var se *tensor.ShapeError
			require.True(t, errors.As(n.Err(), &se), "want a *tensor.ShapeError, got %v (shape %v)", n.Err(), n.Shape())
			assert.Contains(t, n.Err().Error(), "overflows int")
			assert.Nil(t, n.Shape())
		})
	}
	t.Run("Eval returns it", func(t *testing.T) {
		out, err := exec.Eval(one(1).Expand(big).Add(one(2).Expand(big, 1)).Sum())
		var se *tensor.ShapeError
		assert.True(t, errors.As(err, &se), "%v", err)
		assert.Nil(t, out)
	})
	t.Run("zero extents count 0", func(t *testing.T) {
		x := expr.From(tensor.New[float64](0, 1)).Expand(0, big)
		require.NoError(t, x.Err())
		assert.Equal(t, tensor.Shape{0, big}, x.Shape())
	})
}

// TestNodeShapesSetInOnePlace holds the package to its invariant: a node's
// shape field is assigned only in setShape (and the symbolic, not yet
// countable, shapes in setDims), so no shape rule can skip the check.
func TestNodeShapesSetInOnePlace(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	allowed := map[string]bool{"setShape": true, "setDims": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || allowed[fn.Name.Name] {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for _, l := range n.Lhs {
						if s, ok := l.(*ast.SelectorExpr); ok && s.Sel.Name == "shape" {
							t.Errorf("%s: %s assigns a node's shape outside setShape", fset.Position(n.Pos()), fn.Name.Name)
						}
					}
				case *ast.KeyValueExpr:
					if k, ok := n.Key.(*ast.Ident); ok && k.Name == "shape" {
						t.Errorf("%s: %s builds a node with a shape outside setShape", fset.Position(n.Pos()), fn.Name.Name)
					}
				}
				return true
			})
		}
	}
}

// Slice resolves its bounds with tensor.SliceRange, so extreme ints give
// NumPy's slices (not overflowed extents), and Embed's fit check cannot
// overflow. Both evaluate.
func TestSliceAndEmbedExtremeArguments(t *testing.T) {
	a, err := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4)
	require.NoError(t, err)
	x := expr.Of(a)
	slices := []struct {
		name                    string
		axis, start, stop, step int
		shape                   tensor.Shape
		values                  []float64
	}{
		{"step MaxInt", 0, 0, 1, math.MaxInt, tensor.Shape{1, 4}, []float64{1, 2, 3, 4}},
		{"MinInt to MaxInt by MaxInt", 0, math.MinInt, math.MaxInt, math.MaxInt, tensor.Shape{1, 4}, []float64{1, 2, 3, 4}},
		{"from the last by MaxInt", 1, -1, math.MaxInt, math.MaxInt, tensor.Shape{3, 1}, []float64{4, 8, 12}},
		{"MaxInt to MinInt", 0, math.MaxInt, math.MinInt, 1, tensor.Shape{0, 4}, []float64{}},
		{"every other", 1, math.MinInt, math.MaxInt, 2, tensor.Shape{3, 2}, []float64{1, 3, 5, 7, 9, 11}},
	}
	for _, c := range slices {
		t.Run("slice "+c.name, func(t *testing.T) {
			y := x.Slice(c.axis, c.start, c.stop, c.step)
			require.NoError(t, y.Err())
			assert.Equal(t, c.shape, y.Shape())
			want, err := a.Slice(c.axis, c.start, c.stop, c.step)
			require.NoError(t, err)
			assert.Equal(t, want.Shape(), y.Shape(), "tensor.Slice agrees")
			out, err := exec.Eval(y)
			require.NoError(t, err)
			assert.Equal(t, c.values, out.Values())
		})
	}
	t.Run("slice of a symbolic operand", func(t *testing.T) {
		p := expr.SymPlaceholder[float64]("p", expr.Known(3), expr.Sym("B"))
		y := p.Slice(0, math.MinInt, math.MaxInt, math.MaxInt)
		require.NoError(t, y.Err())
		assert.Equal(t, expr.Dims{expr.Known(1), expr.Sym("B")}, y.Dims())
	})

	row, err := tensor.FromSlice([]float64{1, 2}, 1, 2)
	require.NoError(t, err)
	three, err := tensor.FromSlice([]float64{1, 2, 3}, 3)
	require.NoError(t, err)
	embeds := []struct {
		name                    string
		x                       *tensor.Tensor[float64]
		axis, start, step, size int
		shape                   tensor.Shape // nil: a *ShapeOpError
		values                  []float64
	}{
		{"step MaxInt overflows the last index", three, 0, 0, math.MaxInt, 5, nil, nil},
		{"start MaxInt", three, 0, math.MaxInt, 1, 5, nil, nil},
		{"last index just past the end", three, 0, 1, 2, 5, nil, nil},
		{"last index at the end", three, 0, 0, 2, 5, tensor.Shape{5}, []float64{1, 0, 2, 0, 3}},
		{"one element, step MaxInt", row, 0, 1, math.MaxInt, 3, tensor.Shape{3, 2}, []float64{0, 0, 1, 2, 0, 0}},
		{"step as large as the axis", three, 0, 1, 3, 8, tensor.Shape{8}, []float64{0, 1, 0, 0, 2, 0, 0, 3}},
	}
	for _, c := range embeds {
		t.Run("embed "+c.name, func(t *testing.T) {
			y := expr.Of(c.x).Embed(c.axis, c.start, c.step, c.size)
			if c.shape == nil {
				var se *expr.ShapeOpError
				require.True(t, errors.As(y.Err(), &se), "want a *ShapeOpError, got %v", y.Err())
				assert.Contains(t, y.Err().Error(), "do not fit in extent")
				return
			}
			require.NoError(t, y.Err())
			assert.Equal(t, c.shape, y.Shape())
			out, err := exec.Eval(y)
			require.NoError(t, err)
			assert.Equal(t, c.values, out.Values())
		})
	}
}
