package exec

import "fmt"

// Dead steps.
//
// A root written into a destination that the graph also reads (an
// optimizer step: m = 0.9*m + g, w = w - 0.1*m, written into m and w) is
// computed by the final region, which reads every old value before it
// writes a block and stages any operand that overlaps a destination other
// than element for element (see buildRegion). The same root also has a
// tensor of its own, as every result does (see materialize), and the
// region that fills it is then read by nothing: it computed every root a
// second time. dropDeadSteps removes such steps once the plan is built,
// with the temporaries only they wrote, so each value is computed once.

// dropDeadSteps removes the steps that write something and none of whose
// writes is a destination, a result, or read by a later step (a value is
// read when it, or a view of its storage, is an input), walking the steps
// backwards; then the temporaries that no remaining step touches. What a
// step reads and writes is its values(); a step that writes nothing (an
// index check) is kept.
func (pl *planner) dropDeadSteps() {
	p := pl.p
	live := make([]bool, len(p.values))
	markLive := func(v int) {
		live[v] = true
		live[p.values[v].storage] = true
	}
	for _, r := range p.results {
		markLive(r)
	}
	keep := make([]bool, len(p.steps))
	for i := len(p.steps) - 1; i >= 0; i-- {
		reads, writes := p.steps[i].values()
		keep[i] = len(writes) == 0 // a check: kept whatever reads its operands
		for _, w := range writes {
			v := &p.values[w]
			if v.kind == valFixed || live[w] || live[v.storage] {
				keep[i] = true
				break
			}
		}
		if !keep[i] {
			continue
		}
		for _, w := range writes {
			if p.values[w].kind == valView {
				markLive(w) // the view a region writes through must be made
			}
		}
		for _, r := range reads {
			markLive(r)
		}
	}
	used := make([]bool, len(p.values))
	for _, r := range p.results {
		used[p.values[r].storage] = true
	}
	steps := p.steps[:0]
	for i, s := range p.steps {
		if !keep[i] {
			continue
		}
		steps = append(steps, s)
		reads, writes := s.values()
		for _, v := range reads {
			used[p.values[v].storage] = true
		}
		for _, v := range writes {
			used[p.values[v].storage] = true
		}
	}
	if dropped := len(p.steps) - len(steps); dropped > 0 {
		p.notes = append(p.notes, fmt.Sprintf("dropped %d steps whose values nothing reads (a final pass computes them again)", dropped))
	}
	clear(p.steps[len(steps):])
	p.steps = steps
	temps := p.temps[:0]
	for _, t := range p.temps {
		if used[t] {
			temps = append(temps, t)
		}
	}
	p.temps = temps
}

// finalNote says what a final region does with its destinations: each is
// computed (or copied) after every step that reads it, and the operands
// that are exactly a destination are read in place, element for element
// before it is written.
func finalNote(ms []member, exact [][]int) string {
	how := "computes its roots again from the old values"
	if ms[0].copy {
		how = "copies its roots' tensors (the graph may fail: nothing is written before every kernel has run)"
	}
	inPlace := 0
	for _, e := range exact {
		if len(e) > 0 {
			inPlace++
		}
	}
	return fmt.Sprintf("final pass: writes %d destinations after every step that reads them, %d of them read in place; %s", len(ms), inPlace, how)
}
