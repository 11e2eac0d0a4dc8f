package expr

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tensorplay/tensorplay/tensor"
)

// Dim is one extent of a symbolic shape: a known integer, a named symbol
// (such as the batch size "B") that stands for one extent fixed later, or
// unknown. The zero Dim is unknown.
//
// Two equal symbols are the same extent; a symbol may be any extent,
// including 1, so shape rules never assume what it is worth.
type Dim struct {
	known bool
	n     int
	sym   string
}

// Known returns the extent n. A negative n gives an unknown Dim.
func Known(n int) Dim {
	if n < 0 {
		return Dim{}
	}
	return Dim{known: true, n: n}
}

// Sym returns the symbolic extent name ("B"). An empty name gives an
// unknown Dim.
func Sym(name string) Dim { return Dim{sym: name} }

// Unknown returns an extent about which nothing is known.
func Unknown() Dim { return Dim{} }

// Value returns the extent and true when it is a known integer.
func (d Dim) Value() (int, bool) { return d.n, d.known }

// Name returns the symbol's name, or "" when d is not a symbol.
func (d Dim) Name() string { return d.sym }

// IsKnown reports whether d is a known integer.
func (d Dim) IsKnown() bool { return d.known }

// IsSym reports whether d is a symbol.
func (d Dim) IsSym() bool { return !d.known && d.sym != "" }

// IsUnknown reports whether nothing is known about d.
func (d Dim) IsUnknown() bool { return !d.known && d.sym == "" }

// String prints a known extent as its number, a symbol as its name and an
// unknown extent as "?".
func (d Dim) String() string {
	switch {
	case d.known:
		return strconv.Itoa(d.n)
	case d.sym != "":
		return d.sym
	}
	return "?"
}

// Same reports whether d and e are certainly the same extent: equal known
// integers or the same symbol. Unknown extents are never the same.
func (d Dim) Same(e Dim) bool {
	return (d.known && e.known && d.n == e.n) || (d.IsSym() && d.sym == e.sym)
}

// is reports whether d is the known extent n.
func (d Dim) is(n int) bool { return d.known && d.n == n }

// extent is d as an int of a tensor.Shape: -1 unless d is known.
func (d Dim) extent() int {
	if d.known {
		return d.n
	}
	return -1
}

// Dims is a shape whose extents may be symbolic or unknown.
type Dims []Dim

// DimsOf returns the shape of the given extents; negative extents are
// unknown (the convention of reshape's -1 and of the reference vectors).
func DimsOf(extents ...int) Dims {
	d := make(Dims, len(extents))
	for i, n := range extents {
		d[i] = Known(n)
	}
	return d
}

// String prints the shape as the graph summary does: "[B, 3, 8, 8]".
func (s Dims) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.String())
	}
	b.WriteByte(']')
	return b.String()
}

// Concrete reports whether every extent is a known integer.
func (s Dims) Concrete() bool {
	for _, d := range s {
		if !d.known {
			return false
		}
	}
	return true
}

// Shape returns s as a tensor.Shape, with -1 for every extent that is not a
// known integer, and whether s is concrete.
func (s Dims) Shape() (tensor.Shape, bool) {
	out := make(tensor.Shape, len(s))
	for i, d := range s {
		out[i] = d.extent()
	}
	return out, s.Concrete()
}

// Same reports whether s and t have the same rank and the same extents
// (see Dim.Same).
func (s Dims) Same(t Dims) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if !s[i].Same(t[i]) {
			return false
		}
	}
	return true
}

// Symbols returns the names of the symbols in s, each once, in order of
// first appearance.
func (s Dims) Symbols() []string {
	var out []string
	for _, d := range s {
		if d.IsSym() && !slices.Contains(out, d.sym) {
			out = append(out, d.sym)
		}
	}
	return out
}

func dimsOfShape(s tensor.Shape) Dims {
	return DimsOf(s...)
}

// broadcastDim is NumPy's per-axis rule on symbolic extents. Known extents
// follow the concrete rule; a 1 yields to the other side; a known extent
// other than 1 fixes the result whatever the other side is (it can only be
// that extent or 1); the same symbol on both sides stays; anything else is
// unknown. ok is false only for two known extents that do not broadcast.
func broadcastDim(a, b Dim) (Dim, bool) {
	switch {
	case a.known && b.known:
		switch {
		case a.n == b.n || b.n == 1:
			return a, true
		case a.n == 1:
			return b, true
		}
		return Dim{}, false
	case a.is(1):
		return b, true
	case b.is(1):
		return a, true
	case a.known:
		return a, true
	case b.known:
		return b, true
	case a.Same(b):
		return a, true
	}
	return Dim{}, true
}

// broadcastDims broadcasts symbolic shapes with NumPy's rules. The error for
// two known extents that conflict is PyTorch's *tensor.BroadcastError, with
// -1 in the shapes for extents that are not known.
func broadcastDims(shapes ...Dims) (Dims, error) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(Dims, rank)
	for i := range out {
		out[i] = Known(1)
	}
	for k, s := range shapes {
		for i := len(s) - 1; i >= 0; i-- {
			o := rank - len(s) + i
			d, ok := broadcastDim(out[o], s[i])
			if !ok {
				return nil, dimsBroadcastError(shapes[:k], s)
			}
			out[o] = d
		}
	}
	return out, nil
}

// dimsBroadcastError reports the right-most pair of known extents that do
// not broadcast between s and the first of prev it conflicts with.
func dimsBroadcastError(prev []Dims, s Dims) error {
	for _, p := range prev {
		rank := max(len(p), len(s))
		for dim := rank - 1; dim >= 0; dim-- {
			a, b := dimAt(p, rank, dim), dimAt(s, rank, dim)
			if _, ok := broadcastDim(a, b); !ok {
				pa, _ := p.Shape()
				sb, _ := s.Shape()
				return &tensor.BroadcastError{A: pa, B: sb, Dim: dim, SizeA: a.n, SizeB: b.n}
			}
		}
	}
	acc, _ := broadcastDims(prev...)
	return dimsBroadcastError([]Dims{acc}, s)
}

func dimAt(s Dims, rank, dim int) Dim {
	i := dim - (rank - len(s))
	if i < 0 {
		return Known(1)
	}
	return s[i]
}

// monomial is the element count of a symbolic shape: coef times the product
// of the symbols (sorted, with repeats). ok is false when an extent is
// unknown, so that nothing can be said about the count.
type monomial struct {
	coef int
	syms []string
	ok   bool
}

func numelDims(s Dims) monomial {
	m := monomial{coef: 1, ok: true}
	for _, d := range s {
		switch {
		case d.known:
			m.coef *= d.n
		case d.IsSym():
			m.syms = append(m.syms, d.sym)
		default:
			m.ok = false
		}
	}
	slices.Sort(m.syms)
	return m
}

// div returns m / k as the extent it stands for when that is unique (the
// symbols of k all appear in m, and the coefficients divide). impossible
// reports a quotient that no sizes of the symbols make a whole extent:
// k's symbols cancel all of m's and the coefficients do not divide
// (symbols are taken to be non-zero).
func (m monomial) div(k monomial) (d Dim, unique, impossible bool) {
	if !m.ok || !k.ok || k.coef == 0 {
		return Dim{}, false, false
	}
	rest := slices.Clone(m.syms)
	for _, s := range k.syms {
		i := slices.Index(rest, s)
		if i < 0 {
			return Dim{}, false, false
		}
		rest = slices.Delete(rest, i, i+1)
	}
	if m.coef%k.coef != 0 {
		return Dim{}, false, len(rest) == 0
	}
	c := m.coef / k.coef
	switch {
	case len(rest) == 0:
		return Known(c), true, false
	case len(rest) == 1 && c == 1:
		return Sym(rest[0]), true, false
	}
	return Dim{}, false, false
}

// differs reports whether m and k are certainly different counts: the same
// symbols with different coefficients (symbols are taken to be non-zero).
func (m monomial) differs(k monomial) bool {
	return m.ok && k.ok && slices.Equal(m.syms, k.syms) && m.coef != k.coef
}

func (m monomial) String() string {
	parts := []string{}
	if m.coef != 1 || len(m.syms) == 0 {
		parts = append(parts, strconv.Itoa(m.coef))
	}
	parts = append(parts, m.syms...)
	return strings.Join(parts, "*")
}
