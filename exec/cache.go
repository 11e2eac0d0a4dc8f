package exec

import (
	"sync"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// planCache keeps the plans of recently evaluated graphs, so evaluating the
// same expression again (into the same destination) plans nothing and
// allocates only its results. Evaluations with bindings are planned anew each
// time, since bound layouts may differ.
type planCache struct {
	mu    sync.Mutex
	plans map[cacheKey]*plan
}

const maxCachedRoots = 4
const maxCachedPlans = 256

type cacheKey struct {
	roots [maxCachedRoots]*expr.Node
	dsts  [maxCachedRoots]tensor.Any
}

func (x *Executor) planFor(roots []*expr.Node, dsts []tensor.Any, binds []Binding) (*plan, error) {
	cacheable := len(binds) == 0 && len(roots) <= maxCachedRoots
	var key cacheKey
	if cacheable {
		copy(key.roots[:], roots)
		copy(key.dsts[:], dsts)
		if p := x.cache.get(key); p != nil {
			return p, nil
		}
	}
	p, err := x.buildPlan(roots, dsts, binds)
	if err != nil {
		return nil, err
	}
	if x.debug != nil {
		p.describe(x.debug)
	}
	if cacheable {
		x.cache.mu.Lock()
		if x.cache.plans == nil || len(x.cache.plans) >= maxCachedPlans {
			x.cache.plans = map[cacheKey]*plan{}
		}
		x.cache.plans[key] = p
		x.cache.mu.Unlock()
	}
	return p, nil
}

func (c *planCache) get(key cacheKey) *plan {
	c.mu.Lock()
	p := c.plans[key]
	c.mu.Unlock()
	return p
}
