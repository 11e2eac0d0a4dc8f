package exec

import (
	"fmt"
	"io"
	"strings"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// externalStep runs an external op (expr.External): it hands the
// operands' tensors to the op's Eval and makes the tensor it returns the
// node's value. The operands have tensors of their own (materialize gives
// them one), and the value is a temporary that Eval's tensor replaces, so
// the step copies nothing; a graph with an external op writes its
// destinations last (mayFail), so an Eval that fails leaves them as they
// were.
type externalStep struct {
	fn   *expr.External
	args []int
	out  int
	val  value // the value's dtype, shape and strides, which later steps were planned for
}

func (pl *planner) buildExternal(n *expr.Node) step {
	s := &externalStep{fn: n.External(), out: pl.valueOf[n]}
	for _, a := range pl.args(n) {
		s.args = append(s.args, pl.valueOf[a])
	}
	s.val = pl.p.values[s.out]
	s.val.node, s.val.fixed = nil, nil
	return s
}

func (s *externalStep) run(x *Executor, vals []tensor.Any) error {
	args := make([]tensor.Any, len(s.args))
	for i, a := range s.args {
		args[i] = vals[a]
	}
	r, err := s.fn.Eval(args)
	if err != nil {
		return err
	}
	if err := s.check(r); err != nil {
		return err
	}
	for _, a := range args {
		if r.SameStorage(a) {
			return &ExternalError{Name: s.fn.Name, Reason: "Eval returned an operand's storage, not a new tensor"}
		}
	}
	if s.val.kind == valTemp {
		vals[s.out] = r
		return nil
	}
	return &ExternalError{Name: s.fn.Name, Reason: "the value must be a temporary"} // unreachable: assignValues gives external nodes temporaries
}

// check refuses a result that is not what the node declared: the steps
// after this one were planned for a dense row-major tensor of the node's
// dtype and shape.
func (s *externalStep) check(r tensor.Any) error {
	switch {
	case r == nil || typedFor(s.val.dt).isNil(r):
		return &ExternalError{Name: s.fn.Name, Reason: "Eval returned no tensor"}
	case r.DType() != s.val.dt:
		return &ExternalError{Name: s.fn.Name, Reason: fmt.Sprintf("Eval returned a %s tensor, the node is %s", r.DType(), s.val.dt)}
	case !r.Shape().Equal(s.val.shape):
		return &ExternalError{Name: s.fn.Name, Reason: fmt.Sprintf("Eval returned shape %v, the node has shape %v", r.Shape(), s.val.shape)}
	case !rowMajorAtZero(r) || r.StorageLen() < r.Numel():
		return &ExternalError{Name: s.fn.Name, Reason: "Eval must return a dense row-major tensor starting at offset 0"}
	}
	return nil
}

// values lists what the step reads (its operands) and writes.
func (s *externalStep) values() (reads, writes []int) { return s.args, []int{s.out} }

func (s *externalStep) describe(w io.Writer, names func(v int) string) {
	args := make([]string, len(s.args))
	for i, a := range s.args {
		args[i] = names(a)
	}
	name := s.fn.Name
	if s.fn.Key != "" {
		name += "[" + s.fn.Key + "]"
	}
	fmt.Fprintf(w, "  external %s = %s(%s): shape %v\n", names(s.out), name, strings.Join(args, ", "), s.val.shape)
}

// ExternalError reports an external op (expr.External) whose Eval returned
// a tensor other than the one its node declared.
type ExternalError struct {
	Name   string // the op's name
	Reason string
}

// Error names the op and says what was wrong.
func (e *ExternalError) Error() string { return "exec: external op " + e.Name + ": " + e.Reason }
