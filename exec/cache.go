package exec

import (
	"slices"
	"sync"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// planCache keeps the plans of recently evaluated graphs by signature, so
// evaluating the same computation again — the same graph, or one rebuilt
// over tensors of the same layouts — plans nothing and allocates only its
// results.
type planCache struct {
	mu    sync.Mutex
	plans map[uint64]*plan
}

const maxCachedPlans = 256

// planFor returns the plan for the walked graph, building it on a miss.
func (x *Executor) planFor(w *walker, roots []*expr.Node, dsts []tensor.Any, binds []Binding) (*plan, error) {
	h := w.hash()
	x.cache.mu.Lock()
	p := x.cache.plans[h]
	x.cache.mu.Unlock()
	if p != nil && slices.Equal(p.sig, w.sig) {
		return p, nil
	}
	p, err := x.buildPlan(w, roots, dsts, binds, nil)
	if err != nil {
		return nil, err
	}
	p.sig = slices.Clone(w.sig)
	if x.debug != nil {
		p.describe(x.debug)
	}
	p.forget()
	x.cache.mu.Lock()
	if x.cache.plans == nil || len(x.cache.plans) >= maxCachedPlans {
		x.cache.plans = map[uint64]*plan{}
	}
	x.cache.plans[h] = p
	x.cache.mu.Unlock()
	return p, nil
}

// evaluate runs roots into dsts (nil entries: new tensors) and stores the
// result tensors in results, if it is non-nil.
func (x *Executor) evaluate(roots []*expr.Node, dsts []tensor.Any, binds []Binding, results []tensor.Any) error {
	w := getWalker()
	defer putWalker(w)
	w.walk(roots, dsts, binds)
	p, err := x.planFor(w, roots, dsts, binds)
	if err != nil {
		return err
	}
	return p.exec(x, w.leaves, dsts, results)
}
