// Package compat holds tensorplay's compatibility switches and the sink that
// their warnings go to.
//
// # Switches
//
//   - RestrictedRank (on by default): for complex64, complex128, float64,
//     int16, uint16 and uint64, a broadcast of two operands whose merged rank
//     (tensor.MergedBroadcastShape) is 6 or more is an error when the node is
//     built, as CANN's hardware requires. Turning it off lifts the limit; the
//     executor computes any rank for every dtype.
//   - BroadcastWarning (off by default): PyTorch's
//     torch.utils.backcompat.broadcast_warning.enabled. An op whose operands
//     differ in shape, are broadcastable and have the same number of elements
//     warns that broadcasting, not a 1-D view, now decides the result.
//   - LegacyPointwise (off by default): operands that are not broadcastable
//     but have the same number of elements are computed as flat 1-D views,
//     the result taking the first operand's shape, with a deprecation warning.
//
// Switches are atomic: any goroutine may read or flip them. Apply sets
// several at once and returns a function that restores the previous ones,
// for tests: defer compat.Apply(compat.Settings{...})().
//
// # Warnings
//
// Warnings go to a Sink. The default sink logs each distinct warning once
// per call site to stderr through log/slog. Capture installs a Recorder that
// keeps every warning, for tests. All checks and warnings happen when a node
// is built, so an op that fails has written nothing.
package compat
