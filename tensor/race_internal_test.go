//go:build race

package tensor

// raceEnabled: the race detector adds allocations of its own, so
// allocation counts are not meaningful under it.
const raceEnabled = true
