package compat

import "sync/atomic"

var (
	restrictedRank   atomic.Bool
	broadcastWarning atomic.Bool
	legacyPointwise  atomic.Bool
)

func init() { restrictedRank.Store(true) }

// RestrictedRank reports whether the CANN merged-rank rule is enforced.
func RestrictedRank() bool { return restrictedRank.Load() }

// SetRestrictedRank turns the merged-rank rule on or off and returns the
// previous setting.
func SetRestrictedRank(on bool) (previous bool) { return restrictedRank.Swap(on) }

// BroadcastWarning reports whether the backwards-compatibility broadcast
// warning is enabled.
func BroadcastWarning() bool { return broadcastWarning.Load() }

// SetBroadcastWarning enables or disables the broadcast warning and returns
// the previous setting.
func SetBroadcastWarning(on bool) (previous bool) { return broadcastWarning.Swap(on) }

// LegacyPointwise reports whether the deprecated 1-D pointwise fallback is on.
func LegacyPointwise() bool { return legacyPointwise.Load() }

// SetLegacyPointwise turns the 1-D pointwise fallback on or off and returns
// the previous setting.
func SetLegacyPointwise(on bool) (previous bool) { return legacyPointwise.Swap(on) }

// Settings is the state of every switch. Its zero value is the default:
// the restricted-rank rule on, both legacy modes off.
type Settings struct {
	Unrestricted     bool // the restricted-rank rule is lifted
	BroadcastWarning bool
	LegacyPointwise  bool
}

// Current returns the switches' settings.
func Current() Settings {
	return Settings{!RestrictedRank(), BroadcastWarning(), LegacyPointwise()}
}

// Apply sets every switch to s and returns a function that restores the
// settings that were in force before:
//
//	defer compat.Apply(compat.Settings{BroadcastWarning: true})()
func Apply(s Settings) (restore func()) {
	prev := Settings{
		Unrestricted:     !SetRestrictedRank(!s.Unrestricted),
		BroadcastWarning: SetBroadcastWarning(s.BroadcastWarning),
		LegacyPointwise:  SetLegacyPointwise(s.LegacyPointwise),
	}
	return func() { Apply(prev) }
}
