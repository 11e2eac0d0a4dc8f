package exec

// Access kinds: how a block reads (or writes) one operand. Every operand of
// a region has exactly one, decided by classify from its strides on the
// layout's two innermost axes; no other code compares an operand's strides
// to decide how it is read. Each kind has one way to present its block to
// the kernels (slot.load and region.runBlock), one buffer length (slotLen)
// and one name in the debug plan (access.String).

// access is an operand's access kind.
type access uint8

const (
	// accInvariant: stride 0 on every axis, one value over the whole
	// region, loaded once per task.
	accInvariant access = iota
	// accScalar: stride 0 along every run the kernels see (the row, and the
	// rows too when a run crosses them), one value per run.
	accScalar
	// accDirect: unit stride along the row (and, when a run crosses rows,
	// rows one after another), read or written in place.
	accDirect
	// accStrided: any other strides (a stepped slice, a column broadcast
	// down a run of several rows), gathered into the slot's buffer.
	accStrided
	// accTransposed: unit stride down the rows and a larger one along them
	// (b.T), copied copyRows rows at a time by the transpose loops into
	// the slot's buffer, which the rows then take their pieces of.
	accTransposed
	// accIndexed: read through an index tensor along one axis (a gather,
	// see index.go), whatever its strides: the index's slot is presented
	// first, then the operand is gathered through it into the slot's
	// buffer.
	accIndexed
	// accReversed: stride -1 along the row (and, when a run crosses rows,
	// rows one before another: the whole run walked backwards, as a
	// flipped contiguous tensor is), copied reversed into the slot's
	// buffer by one tight loop per row (see reversed.go).
	accReversed
	// accRepeated: one row (unit stride along it) broadcast down the rows
	// (stride 0 across them), read by a tile whose rows run together
	// (interleave, panels): its buffer holds the row copied once per row
	// of the tile (see slot.copyRepeated), which the runs then take their
	// pieces of, as a transposed input's. A per-channel mean read by an
	// NCHW → NHWC normalization is one (its rows are the channels).
	accRepeated
)

var accessNames = [...]string{"invariant", "scalar", "direct", "strided", "transposed", "indexed", "reversed", "repeated"}

func (a access) String() string { return accessNames[a] }

// classify returns the access kind of an operand with these layout strides
// in runs of one row (across false) or of whole rows of cols elements
// (across true); an operand read through an index (indexed) is indexed
// whatever its strides. It is written as what each kind requires: a
// negative stride is never direct or transposed; a row walked backwards
// is reversed, any other layout not listed strided.
func classify(st []int, indexed, across bool, cols int) access {
	d := len(st)
	stC, stR := st[d-1], 0
	if d >= 2 {
		stR = st[d-2]
	}
	across = across && d >= 2
	zero := true
	for _, s := range st {
		zero = zero && s == 0
	}
	switch {
	case indexed:
		return accIndexed
	case zero:
		return accInvariant
	case stC == 0 && (!across || stR == 0):
		return accScalar
	case stC == 1 && (!across || stR == cols):
		return accDirect
	case stC > 1 && stR == 1:
		return accTransposed
	case stC == -1 && (!across || stR == -cols) && reversedKind:
		return accReversed
	}
	return accStrided
}

// constant reports whether kind a is one value per run: a scalar slot.
func (a access) constant() bool { return a == accInvariant || a == accScalar }

// inPlace reports whether kind a is read or written in its storage.
func (a access) inPlace() bool { return a == accDirect }
