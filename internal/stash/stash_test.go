package stash

import (
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStashKeepsUpToSlots(t *testing.T) {
	var s Stash[int]
	assert.Nil(t, s.Get(), "empty")
	vals := make([]*int, Slots+1)
	for i := range vals {
		vals[i] = new(int)
		*vals[i] = i
		s.Put(vals[i])
	}
	runtime.GC() // a sync.Pool would be empty now
	got := map[int]bool{}
	for range Slots {
		p := s.Get()
		require.NotNil(t, p)
		got[*p] = true
	}
	assert.Nil(t, s.Get(), "the value beyond Slots was dropped")
	assert.Len(t, got, Slots)
	assert.False(t, got[Slots], "the last value put found every slot full")
}

// TestStashConcurrent takes and puts values from several goroutines: every
// value is taken by one goroutine at a time, and none is lost.
func TestStashConcurrent(t *testing.T) {
	var s Stash[int]
	for range 4 {
		s.Put(new(int))
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10000 {
				p := s.Get()
				if p == nil {
					continue // all four held by the others at this instant
				}
				*p++ // a value held by two goroutines would race here (-race)
				s.Put(p)
			}
		})
	}
	wg.Wait()
	n := 0
	for s.Get() != nil {
		n++
	}
	assert.Equal(t, 4, n)
}
