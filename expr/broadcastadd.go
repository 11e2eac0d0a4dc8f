package expr

import (
	"fmt"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
)

// BroadcastAdd returns x + y under broadcast_add's strict contract (spec
// 004): equal rank, no rank padding; axis 0 is the batch and is never
// broadcast; every other axis must be equal or 1 on either side, and the
// result takes the larger extent. [B, C, H, W] + [B, C, 1, 1] and
// [B, 1, H, W] + [B, C, 1, 1] are accepted; [B, C, H, W] + [B, C] is not.
// A broken contract makes the result carry a *ConstraintError with Code
// "E_CONSTRAINT". Its gradient reduces with SumTo like any broadcast.
func (x Expr[T]) BroadcastAdd(y Expr[T]) Expr[T] {
	return Expr[T]{broadcastAdd(x.Node(), y.Node())}
}

// BroadcastAdd is the function form of x.BroadcastAdd(y).
func BroadcastAdd[T dtype.Elem](x, y Expr[T]) Expr[T] { return x.BroadcastAdd(y) }

func broadcastAdd(a, b *Node) *Node {
	n, ok := newNode(OpBroadcastAdd, a, b)
	if !ok {
		return n
	}
	if err := checkAccepts(OpBroadcastAdd, a.dt); err != nil {
		n.err = err
		return n
	}
	if b.dt != a.dt {
		n.err = fmt.Errorf("expr: broadcast_add of %s and %s (cast one operand first)", a.dt, b.dt)
		return n
	}
	inf, err := InferBroadcastAdd(a.Dims(), b.Dims(), nil)
	if err != nil {
		n.err = err
		return n
	}
	if a.sym() == nil && b.sym() == nil {
		if err := checkRestrictedRank(a.dt, a.shape, b.shape); err != nil {
			n.err = err
			return n
		}
	}
	n.dt = a.dt
	setDims(n, inf.Out)
	return n
}

// The reasons a *ConstraintError gives.
const (
	ReasonRankMismatch   = "rank_mismatch"   // operands (or out) of different ranks
	ReasonBatchMismatch  = "batch_mismatch"  // axis 0 differs: the batch is never broadcast
	ReasonExtentMismatch = "extent_mismatch" // a non-batch axis neither equal nor 1
	ReasonRankUnknown    = "rank_unknown"    // inference with no shape known at all
)

// ConstraintError reports a broken operator contract (broadcast_add's).
// Code is always "E_CONSTRAINT"; Reason is one of the Reason constants;
// Axis is the lowest offending axis (-1 when the reason concerns no axis)
// and Axes lists every offending axis in increasing order.
type ConstraintError struct {
	Code   string
	Op     string
	Reason string
	Axis   int
	Axes   []int
	A, B   Dims // the operands' shapes (nil when unknown)
	Out    Dims // the output's shape when it was given (inference), else nil
	Detail string
}

// Error names the op, the code, the reason, the axis and the shapes.
func (e *ConstraintError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "expr: %s: %s (%s)", e.Op, e.Code, e.Reason)
	if e.Axis >= 0 {
		fmt.Fprintf(&b, " at axis %d", e.Axis)
	}
	fmt.Fprintf(&b, ": a=%s, b=%s", shapeOrUnknown(e.A), shapeOrUnknown(e.B))
	if e.Out != nil {
		fmt.Fprintf(&b, ", out=%s", e.Out)
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	return b.String()
}

func shapeOrUnknown(s Dims) string {
	if s == nil {
		return "unknown"
	}
	return s.String()
}

// Rule names the rule that inferred an extent (the names of broadcast_add.json).
type Rule string

// The inference rules of broadcast_add. The last two are unique answers
// that spec 004's "wherever the answer is unique" implies without listing.
const (
	RuleBatchEqual    Rule = "batch_equal"    // axis 0: a, b and out are equal
	RuleForward       Rule = "forward"        // both operands known: out is the larger
	RuleOperandIsOne  Rule = "operand_is_one" // out known, a known operand is 1: the other is out
	RuleOutIsOne      Rule = "out_is_one"     // out is 1: the unknown operand is 1 too
	RuleOutIsOneAlone Rule = "out_is_one_no_operand_known"
	RuleOperandFixes  Rule = "operand_gt1_fixes_out" // out unknown, an operand known > 1: out is it
)

// InSpec reports whether spec 004 states the rule in so many words.
func (r Rule) InSpec() bool { return r != RuleOutIsOneAlone && r != RuleOperandFixes }

// The reasons an extent stays unknown.
const (
	WhyMatchesOut   = "known operand already matches the larger output: other is that extent or 1"
	WhyOutOnly      = "out > 1 with both operands unknown: (o,o), (1,o), (o,1) all fit"
	WhyOperandAbove = "known operand > 1: the other operand is that extent or 1"
	WhyOperandOne   = "known operand is 1 and out unknown: other operand and out are free"
	WhyNothing      = "nothing known on this axis"
	WhySymbolic     = "symbolic extent: whether it is 1 is not known"
)

// Derivation is one extent InferBroadcastAdd filled in: tensor ("a", "b" or
// "out"), axis, the value and the rule that gives it.
type Derivation struct {
	Tensor string
	Axis   int
	Value  Dim
	Rule   Rule
}

// Unresolved is one extent that stays unknown, and why.
type Unresolved struct {
	Tensor string
	Axis   int
	Why    string
}

// Inference is what InferBroadcastAdd knows: the three shapes with every
// extent it could fill in, how each was derived (ordered by axis, then a,
// b, out) and the extents that stay unknown (ordered by tensor, then axis).
type Inference struct {
	A, B, Out   Dims
	Derived     []Derivation
	NotInferred []Unresolved
}

// InferBroadcastAdd runs broadcast_add's shape inference both ways (spec
// 004) on partially known shapes: a nil Dims is a shape of unknown rank,
// an Unknown extent is unknown. Known inputs fix the output; a known output
// plus one known operand fixes the other operand on axes where the known
// operand is 1 (the other must be full) and where the output is 1 (both are
// 1); an axis where the known operand already matches a larger output stays
// unknown, the extent has to come from the operand's own producer. Axis 0
// (the batch) is equal on all three. Symbols count as known extents that
// may or may not be 1. A contradiction is a *ConstraintError.
func InferBroadcastAdd(a, b, out Dims) (*Inference, error) {
	rank := -1
	for _, s := range []Dims{a, b, out} {
		if s == nil {
			continue
		}
		if rank >= 0 && len(s) != rank {
			return nil, &ConstraintError{Code: "E_CONSTRAINT", Op: "broadcast_add", Reason: ReasonRankMismatch,
				Axis: -1, A: a, B: b, Out: out, Detail: "ranks differ; broadcast_add never pads the rank (reshape first)"}
		}
		rank = len(s)
	}
	if rank < 0 {
		return nil, &ConstraintError{Code: "E_CONSTRAINT", Op: "broadcast_add", Reason: ReasonRankUnknown,
			Axis: -1, Detail: "no shape is known"}
	}
	inf := &Inference{A: fill(a, rank), B: fill(b, rank), Out: fill(out, rank)}
	var bad []int
	var details []string
	var not [3][]Unresolved
	for i := range rank {
		var why string
		if i == 0 {
			why = inf.batchAxis(&not)
		} else {
			why = inf.axis(i, &not)
		}
		if why != "" {
			bad = append(bad, i)
			details = append(details, why)
		}
	}
	if len(bad) > 0 {
		reason := ReasonExtentMismatch
		if bad[0] == 0 {
			reason = ReasonBatchMismatch
		}
		detail := details[0]
		if len(bad) > 1 {
			for k := range details {
				details[k] = fmt.Sprintf("axis %d: %s", bad[k], details[k])
			}
			detail = strings.Join(details, "; ")
		}
		return nil, &ConstraintError{Code: "E_CONSTRAINT", Op: "broadcast_add", Reason: reason,
			Axis: bad[0], Axes: bad, A: a, B: b, Out: out, Detail: detail}
	}
	for _, u := range not {
		inf.NotInferred = append(inf.NotInferred, u...)
	}
	return inf, nil
}

func fill(s Dims, rank int) Dims {
	if s != nil {
		return append(Dims{}, s...)
	}
	return make(Dims, rank)
}

var tensorNames = [3]string{"a", "b", "out"}

// slots returns the three extents at axis i, in the order a, b, out.
func (inf *Inference) slots(i int) [3]*Dim { return [3]*Dim{&inf.A[i], &inf.B[i], &inf.Out[i]} }

func (inf *Inference) derive(t, i int, v Dim, r Rule) {
	*inf.slots(i)[t] = v
	inf.Derived = append(inf.Derived, Derivation{Tensor: tensorNames[t], Axis: i, Value: v, Rule: r})
}

func unresolved(not *[3][]Unresolved, t, i int, why string) {
	not[t] = append(not[t], Unresolved{Tensor: tensorNames[t], Axis: i, Why: why})
}

// batchAxis applies batch_equal to axis 0; it returns a description of the
// conflict, or "".
func (inf *Inference) batchAxis(not *[3][]Unresolved) string {
	s := inf.slots(0)
	var pick Dim
	for t, d := range s {
		if !d.known {
			continue
		}
		for _, e := range s[t+1:] {
			if e.known && e.n != d.n {
				return fmt.Sprintf("batch extents %d and %d differ (the batch axis is never broadcast)", d.n, e.n)
			}
		}
		if pick.IsUnknown() {
			pick = *d
		}
	}
	for _, d := range s {
		if pick.IsUnknown() && d.IsSym() {
			pick = *d
		}
	}
	for t, d := range s {
		switch {
		case pick.IsUnknown():
			unresolved(not, t, 0, WhyNothing)
		case d.IsUnknown():
			inf.derive(t, 0, pick, RuleBatchEqual)
		}
	}
	return ""
}

// axis applies the non-batch rules to axis i; it returns a description of
// the conflict, or "".
func (inf *Inference) axis(i int, not *[3][]Unresolved) string {
	s := inf.slots(i)
	a, b, o := *s[0], *s[1], *s[2]
	ka, kb, ko := !a.IsUnknown(), !b.IsUnknown(), !o.IsUnknown()
	clash := func(x, y Dim, xn, yn string) string {
		return fmt.Sprintf("%s=%s and %s=%s must be equal or one of them 1", xn, x, yn, y)
	}
	switch {
	case ka && kb:
		f, ok := broadcastDim(a, b)
		switch {
		case !ok:
			return clash(a, b, "a", "b")
		case ko && f.known && o.known && f.n != o.n:
			return fmt.Sprintf("out=%s but a=%s and b=%s give %s", o, a, b, f)
		case !ko && f.IsUnknown():
			unresolved(not, 2, i, WhySymbolic)
		case !ko:
			inf.derive(2, i, f, RuleForward)
		}
	case ka || kb:
		t, k := 1, a // t: the unknown operand, k: the known one
		if kb {
			t, k = 0, b
		}
		switch {
		case ko && o.is(1):
			if k.known && k.n != 1 {
				return fmt.Sprintf("out is 1 but %s=%s", tensorNames[1-t], k)
			}
			inf.derive(t, i, Known(1), RuleOutIsOne)
		case ko && k.is(1):
			inf.derive(t, i, o, RuleOperandIsOne)
		case ko && k.Same(o):
			unresolved(not, t, i, WhyMatchesOut)
		case ko && k.known && o.known:
			return fmt.Sprintf("%s=%s cannot give out=%s", tensorNames[1-t], k, o)
		case ko:
			unresolved(not, t, i, WhySymbolic)
		case k.is(1):
			unresolved(not, t, i, WhyOperandOne)
			unresolved(not, 2, i, WhyOperandOne)
		case k.known:
			inf.derive(2, i, k, RuleOperandFixes)
			unresolved(not, t, i, WhyOperandAbove)
		default:
			unresolved(not, t, i, WhySymbolic)
			unresolved(not, 2, i, WhySymbolic)
		}
	case ko:
		if o.is(1) {
			inf.derive(0, i, Known(1), RuleOutIsOneAlone)
			inf.derive(1, i, Known(1), RuleOutIsOneAlone)
			break
		}
		unresolved(not, 0, i, WhyOutOnly)
		unresolved(not, 1, i, WhyOutOnly)
	default:
		for t := range 3 {
			unresolved(not, t, i, WhyNothing)
		}
	}
	return ""
}
