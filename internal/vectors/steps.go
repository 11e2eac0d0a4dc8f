package vectors

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// ApplySteps replays a view recipe on t with the tensor package's own view
// methods (Permute, Slice, Expand), in order. Missing slice bounds take
// Python's defaults (start 0, stop the end, step 1).
func ApplySteps[T dtype.Elem](t *tensor.Tensor[T], steps []ViewStep) (*tensor.Tensor[T], error) {
	for i, s := range steps {
		var err error
		switch s.Op {
		case "permute":
			t, err = t.Permute(s.Dims...)
		case "slice":
			start, stop, step := 0, math.MaxInt, 1
			if s.Start != nil {
				start = *s.Start
			}
			if s.Stop != nil {
				stop = *s.Stop
			}
			if s.Step != nil {
				step = *s.Step
			}
			t, err = t.Slice(s.Dim, start, stop, step)
		case "expand":
			t, err = t.Expand(s.Shape...)
		default:
			err = fmt.Errorf("unknown op %q", s.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("vectors: view step %d (%s): %w", i, s.Op, err)
		}
	}
	return t, nil
}

// ReplayView rebuilds a view input by replaying its recipe: on a fresh copy
// of its own base, or, when the base is "self.base", on selfBase (the base
// returned for the self operand, so both views share storage). It returns
// the view and the base it was built on.
func ReplayView[T dtype.Elem](v View, selfBase *tensor.Tensor[T]) (view, base *tensor.Tensor[T], err error) {
	bt, ok, err := v.BaseTensor()
	switch {
	case err != nil:
		return nil, nil, err
	case ok:
		if base, err = Build[T](bt); err != nil {
			return nil, nil, err
		}
	case selfBase == nil:
		return nil, nil, fmt.Errorf("vectors: view of self.base needs self's base")
	default:
		base = selfBase
	}
	view, err = ApplySteps(base, v.Steps)
	return view, base, err
}
