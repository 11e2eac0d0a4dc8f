package expr

// MergedBroadcastShape exports mergedBroadcastShape for the tests.
var MergedBroadcastShape = mergedBroadcastShape
