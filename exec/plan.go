package exec

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// A plan is a graph compiled for execution: the tensors it handles (values)
// and the steps that produce them, in dependency order.
type plan struct {
	values  []value
	steps   []step
	results []int // value of each root
	temps   []int // values allocated per run
	scratch []int // temporaries no result holds: reused across runs (see splitScratch)
	views   int   // view steps, each with its memo in a run's buffers (see viewStep.memo)
	sig     []uint64
	notes   []string // what planning decided beyond the steps, for describe

	runs  sync.Pool                    // *runBuffers
	spare atomic.Pointer[[]tensor.Any] // the last run's tensors for scratch, in order
}

type valueKind uint8

const (
	valFixed valueKind = iota // a leaf, bound placeholder or destination tensor
	valTemp                   // allocated for each run
	valView                   // a view of another value's storage
)

// value is a tensor of the run: its layout is known when the plan is built.
type value struct {
	kind    valueKind
	node    *expr.Node // while planning; dropped after, so cached plans hold no graph
	dt      dtype.DType
	shape   tensor.Shape
	strides []int
	offset  int
	fixed   tensor.Any    // valFixed: the tensor when planned (overlap checks; dropped after)
	leaf    int           // valFixed: the leaf's position in the walk, or
	dst     int           // the destination's position, or -1
	src     int           // valView: the value whose storage it views
	storage int           // the fixed or temp value that owns the storage
	index   *indexedValue // a gather's value: read through an index (see index.go)
}

// step is one stage of a plan: a fused kernel, a reduction, a matmul or a
// view.
type step interface {
	run(x *Executor, vals []tensor.Any) error
	describe(w io.Writer, names func(v int) string)
	// values lists every value the step reads and every value it writes
	// (a view value it writes through included): the planner keeps a step
	// whose writes are needed and the steps that make its reads, and
	// drops the rest (see dropDeadSteps). A step that writes nothing is a
	// check, kept whatever reads its operands.
	values() (reads, writes []int)
}

// viewStep makes a view value from its source's storage.
type viewStep struct {
	v    int
	op   expr.Op
	val  value
	memo int // its index in runBuffers.views; -1 for a view of a tensor made each run
}

// runBuffers is what a run of a plan needs beside its steps: a slot for
// every value, and per view step of a leaf, destination or scratch tensor
// the view it made last, with its source. A view depends only on its
// source's storage and the step's layout, so a run whose source is the
// same tensor over the same storage as the last run's takes that view
// rather than allocate it again: a step repeated over the same tensors (a
// training loop, a stencil) allocates no views. (The storage is compared
// too: a tensor's header can be overwritten in place, by UnmarshalBinary.)
// The buffers live in a sync.Pool, so the views they remember (and the
// storage those reach) are let go at the second garbage collection after
// the plan's last run: a cached plan does not keep its tensors alive.
type runBuffers struct {
	vals  []tensor.Any
	views []viewMemo
}

// viewMemo is the view a view step made and the source it made it of.
type viewMemo struct{ src, view tensor.Any }

func (s *viewStep) run(x *Executor, vals []tensor.Any) error {
	off := s.val.offset
	if n, _ := s.val.shape.Numel(); n == 0 {
		off = 0 // an empty view reads nothing; its offset may lie past the storage
	}
	vals[s.v] = typedFor(s.val.dt).asStrided(vals[s.val.src], s.val.shape, s.val.strides, off)
	return nil
}

// values lists what the step reads (the view's source) and writes.
func (s *viewStep) values() (reads, writes []int) { return []int{s.val.src}, []int{s.v} }

func (s *viewStep) describe(w io.Writer, names func(int) string) {
	fmt.Fprintf(w, "  view %s = %s of %s: shape %v strides %v offset %d\n", names(s.v), s.op, names(s.val.src), s.val.shape, s.val.strides, s.val.offset)
}

// exec runs the plan over the walked graph's leaf tensors and the
// destinations, and stores the result tensors in results (if non-nil).
func (p *plan) exec(x *Executor, leaves, dsts []tensor.Any, results []tensor.Any) error {
	rb, _ := p.runs.Get().(*runBuffers)
	if rb == nil {
		rb = &runBuffers{vals: make([]tensor.Any, len(p.values)), views: make([]viewMemo, p.views)}
	}
	vals := rb.vals
	for i := range p.values {
		v := &p.values[i]
		switch {
		case v.kind != valFixed:
		case v.dst >= 0:
			vals[i] = dsts[v.dst]
		default:
			vals[i] = leaves[v.leaf]
		}
	}
	for _, t := range p.temps {
		v := &p.values[t]
		vals[t] = typedFor(v.dt).alloc(v.shape)
	}
	sp := p.getScratch()
	for i, t := range p.scratch {
		vals[t] = (*sp)[i]
	}
	var err error
	for _, s := range p.steps {
		if v, ok := s.(*viewStep); ok && v.memo >= 0 {
			m := &rb.views[v.memo]
			src := vals[v.val.src]
			if m.view == nil || m.src != src || !m.view.SameBase(src) || m.view.StorageLen() != src.StorageLen() {
				v.run(x, vals)
				m.src, m.view = src, vals[v.v]
			}
			vals[v.v] = m.view
			continue
		}
		if err = s.run(x, vals); err != nil {
			break
		}
	}
	p.spare.Store(sp)
	if err == nil && results != nil {
		for i, r := range p.results {
			results[i] = vals[r]
		}
	}
	clear(vals)
	p.runs.Put(rb)
	return err
}

// getScratch returns tensors for the plan's scratch values: those of the
// last run, or new ones when there are none or another run holds them. A
// cached plan keeps one set alive between runs (the price of a repeated
// step allocating nothing), whatever the garbage collector does.
func (p *plan) getScratch() *[]tensor.Any {
	if sp := p.spare.Swap(nil); sp != nil {
		return sp
	}
	ts := make([]tensor.Any, len(p.scratch))
	for i, t := range p.scratch {
		v := &p.values[t]
		ts[i] = typedFor(v.dt).alloc(v.shape)
	}
	return &ts
}

// splitScratch moves to p.scratch the temporaries that a run can take
// from an earlier run's: those no result holds (the caller would keep
// them) and that every run writes whole before it reads them (an embed's
// tensor, which a region writes through a view, must start as zeros, so it
// is new each run). Staged copies and the tensors between fused regions,
// reductions and matmuls are such. It then numbers the view steps for
// their memos (runBuffers).
func (p *plan) splitScratch() {
	fresh := make([]bool, len(p.values))
	for _, r := range p.results {
		fresh[p.values[r].storage] = true
	}
	made := make([]bool, len(p.values)) // tensors a step makes (external ops): no run allocates them
	for _, s := range p.steps {
		if _, ok := s.(*viewStep); ok {
			continue // makes a view; writes no element
		}
		if e, ok := s.(*externalStep); ok {
			fresh[e.out], made[e.out] = true, true
			continue
		}
		_, writes := s.values()
		for _, w := range writes {
			if p.values[w].kind == valView {
				fresh[p.values[w].storage] = true
			}
		}
	}
	temps := p.temps[:0]
	for _, t := range p.temps {
		if made[t] {
			continue
		}
		if fresh[t] {
			temps = append(temps, t)
		} else {
			p.scratch = append(p.scratch, t)
		}
	}
	p.temps = temps
	kept := make([]bool, len(p.values)) // storage a later run may hand a view step again
	for i := range p.values {
		kept[i] = p.values[i].kind == valFixed
	}
	for _, t := range p.scratch {
		kept[t] = true
	}
	for _, s := range p.steps {
		if v, ok := s.(*viewStep); ok {
			v.memo = -1 // a view of a tensor made afresh each run: made each run
			if kept[v.val.storage] {
				v.memo = p.views
				p.views++
			}
		}
	}
}

// forget drops the references a plan needed only while it was built, so a
// cached plan keeps neither the graph nor the tensors it was planned for.
func (p *plan) forget() {
	for i := range p.values {
		p.values[i].node, p.values[i].fixed = nil, nil
	}
	for _, s := range p.steps {
		switch s := s.(type) {
		case *viewStep:
			s.val.node, s.val.fixed = nil, nil
		}
	}
}

// describe prints the plan for the Debug option.
func (p *plan) describe(w io.Writer) {
	names := func(v int) string {
		val := &p.values[v]
		kind := [...]string{"fixed", "temp", "view"}[val.kind]
		return fmt.Sprintf("v%d:%s%v(%s)", v, val.dt.Short(), val.shape, kind)
	}
	fmt.Fprintf(w, "exec plan: %d values, %d steps\n", len(p.values), len(p.steps))
	for _, s := range p.steps {
		s.describe(w, names)
	}
	for _, n := range p.notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fmt.Fprint(w, "  results:")
	for _, r := range p.results {
		fmt.Fprintf(w, " %s", names(r))
	}
	fmt.Fprintln(w)
}

// internalOverlap reports whether two elements of the layout can share a
// storage location: a stride-0 axis of extent > 1, or strides that let one
// axis step onto another's elements. Sorting by |stride|, each axis must step
// past everything the inner axes span (sufficient, as in PyTorch's check; a
// layout it rejects may in rare cases not overlap, which costs a clone).
func internalOverlap(shape tensor.Shape, strides []int) bool {
	type ax struct{ size, stride int }
	var buf [16]ax
	axes := buf[:0]
	for i, d := range shape {
		if d == 0 {
			return false
		}
		if d > 1 {
			// A reversed axis (a negative stride) covers the same
			// elements as the forward one.
			axes = append(axes, ax{d, max(strides[i], -strides[i])})
		}
	}
	// Insertion sort by stride: ranks are small, and sort.Slice allocates.
	for i := 1; i < len(axes); i++ {
		for j := i; j > 0 && axes[j].stride < axes[j-1].stride; j-- {
			axes[j], axes[j-1] = axes[j-1], axes[j]
		}
	}
	span := 0 // the largest offset the inner axes reach
	for _, a := range axes {
		if a.stride <= span {
			return true
		}
		span += (a.size - 1) * a.stride
	}
	return false
}
