package random

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Permutation returns a random permutation of 0, ..., n-1 as int64
// (Generator.permutation(n), torch.randperm).
func Permutation(g *Generator, n int) (*tensor.Tensor[int64], error) {
	if n < 0 {
		return nil, &tensor.ArgError{Op: "Permutation", Reason: fmt.Sprintf("n must not be negative, got %d", n)}
	}
	t, err := tensor.New[int64](n)
	if err != nil {
		return nil, err
	}
	p := t.Data()
	for i := range p {
		p[i] = int64(i)
	}
	g.stream(g.nextCall(), 0).Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return t, nil
}

// Shuffle permutes t's slices along its first axis in place, in a random
// order (Generator.shuffle). t may be any view that does not overlap
// itself; it is written once, through the executor.
func Shuffle[T dtype.Elem](g *Generator, t *tensor.Tensor[T]) error {
	if t == nil {
		return &tensor.ArgError{Op: "Shuffle", Reason: "nil tensor"}
	}
	if len(t.Shape()) == 0 {
		return &tensor.ArgError{Op: "Shuffle", Reason: "a 0-d tensor has no axis to shuffle"}
	}
	perm, err := Permutation(g, t.Shape()[0])
	if err != nil {
		return err
	}
	shuffled, err := takeRows(t, perm.Data())
	if err != nil {
		return err
	}
	return exec.EvalTo(t, expr.Of(shuffled))
}

// takeRows returns a new tensor whose slice i along the first axis is t's
// slice rows[i].
func takeRows[T dtype.Elem](t *tensor.Tensor[T], rows []int64) (*tensor.Tensor[T], error) {
	shape := slices.Clone(t.Shape())
	if err := tensor.CheckAlloc(t.DType(), append(tensor.Shape{len(rows)}, shape[1:]...)); err != nil {
		return nil, err
	}
	vals := t.Values()
	inner := 1
	for _, s := range shape[1:] {
		inner *= s
	}
	out, err := tensor.New[T](append([]int{len(rows)}, shape[1:]...)...)
	if err != nil {
		return nil, err
	}
	d := out.Data()
	for i, r := range rows {
		copy(d[i*inner:(i+1)*inner], vals[int(r)*inner:(int(r)+1)*inner])
	}
	return out, nil
}

// A ChoiceOption changes how Choice draws.
type ChoiceOption func(*choiceConfig)

type choiceConfig struct {
	noReplace bool
	p         []float64
}

// WithoutReplacement draws each slice at most once (replace=False).
func WithoutReplacement() ChoiceOption { return func(c *choiceConfig) { c.noReplace = true } }

// Probabilities gives the probability of each slice along the first axis
// (NumPy's p): not negative, one per slice, summing to 1.
func Probabilities(p []float64) ChoiceOption { return func(c *choiceConfig) { c.p = p } }

// Choice returns size slices of from along its first axis, drawn at random
// (Generator.choice(from, size)): with replacement and equal probabilities
// unless the options say otherwise. The result has shape [size,
// from.shape[1:]...].
//
// Without replacement and with probabilities, the draw is the sequential
// one (each draw from the slices left, in proportion to their
// probabilities), computed by Efraimidis and Spirakis's keys.
func Choice[T dtype.Elem](g *Generator, from *tensor.Tensor[T], size int, opts ...ChoiceOption) (*tensor.Tensor[T], error) {
	var c choiceConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if from == nil {
		return nil, &tensor.ArgError{Op: "Choice", Reason: "nil tensor"}
	}
	if len(from.Shape()) == 0 {
		return nil, &tensor.ArgError{Op: "Choice", Reason: "a 0-d tensor has no axis to choose from"}
	}
	n := from.Shape()[0]
	switch {
	case size < 0:
		return nil, &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("size must not be negative, got %d", size)}
	case n == 0 && size > 0:
		return nil, &tensor.ArgError{Op: "Choice", Reason: "a sample from an empty population"}
	case c.noReplace && size > n:
		return nil, &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("cannot take a larger sample (%d) than the population (%d) without replacement", size, n)}
	}
	if c.p != nil {
		if err := checkProbabilities(c.p, n); err != nil {
			return nil, err
		}
		if c.noReplace && positives(c.p) < size {
			return nil, &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("fewer slices with a nonzero probability (%d) than the sample (%d)", positives(c.p), size)}
		}
	}
	rows := make([]int64, size)
	r := g.stream(g.nextCall(), 0)
	switch {
	case !c.noReplace && c.p == nil:
		for i := range rows {
			rows[i] = int64(r.IntN(n))
		}
	case !c.noReplace:
		cdf := make([]float64, n)
		sum := 0.0
		for i, p := range c.p {
			sum += p
			cdf[i] = sum
		}
		for i := range rows {
			u := r.Float64() * sum
			// The first slice whose cumulative sum passes u has p > 0; if
			// u rounded up to the sum, take the last slice that can be drawn.
			k := sort.Search(n, func(i int) bool { return cdf[i] > u })
			for k == n || c.p[k] == 0 {
				k--
			}
			rows[i] = int64(k)
		}
	case c.p == nil:
		perm := make([]int64, n) // a partial Fisher–Yates shuffle
		for i := range perm {
			perm[i] = int64(i)
		}
		for i := range rows {
			j := i + r.IntN(n-i)
			perm[i], perm[j] = perm[j], perm[i]
			rows[i] = perm[i]
		}
	default:
		type key struct {
			k float64
			i int
		}
		keys := make([]key, 0, n)
		for i, p := range c.p {
			if p > 0 {
				keys = append(keys, key{math.Log(1-r.Float64()) / p, i}) // log(u)/p, u in (0, 1]
			}
		}
		slices.SortFunc(keys, func(a, b key) int {
			if a.k != b.k {
				if a.k > b.k {
					return -1
				}
				return 1
			}
			return a.i - b.i
		})
		for i := range rows {
			rows[i] = int64(keys[i].i)
		}
	}
	return takeRows(from, rows)
}

// checkProbabilities checks NumPy's rules for p: one per slice, not
// negative, finite, summing to 1 within 1e-8.
func checkProbabilities(p []float64, n int) error {
	if len(p) != n {
		return &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("%d probabilities for %d slices", len(p), n)}
	}
	sum := 0.0
	for i, v := range p {
		if !(v >= 0) || math.IsInf(v, 0) {
			return &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("probability %d is %v: probabilities must be finite and not negative", i, v)}
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-8 {
		return &tensor.ArgError{Op: "Choice", Reason: fmt.Sprintf("probabilities sum to %v, not 1", sum)}
	}
	return nil
}

func positives(p []float64) int {
	n := 0
	for _, v := range p {
		if v > 0 {
			n++
		}
	}
	return n
}
