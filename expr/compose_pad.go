package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

// PadMode says how Pad fills the new elements (NumPy's pad modes).
type PadMode uint8

// The pad modes, with what padding a b c d by 2 on each side gives.
const (
	PadConstant  PadMode = iota // a value (PadWith; Pad uses 0): 0 0 | a b c d | 0 0
	PadEdge                     // the edge element: a a | a b c d | d d
	PadReflect                  // mirrored without the edge: c b | a b c d | c b
	PadSymmetric                // mirrored with the edge: b a | a b c d | d c
	PadWrap                     // periodically: c d | a b c d | a b
)

var padModeNames = [...]string{"constant", "edge", "reflect", "symmetric", "wrap"}

// String returns NumPy's name of the mode.
func (m PadMode) String() string {
	if int(m) < len(padModeNames) {
		return padModeNames[m]
	}
	return fmt.Sprintf("PadMode(%d)", m)
}

// Pad pads x by widths (NumPy's pad): one {before, after} pair for every
// axis, or one pair per axis. PadConstant pads with zeros (PadWith takes
// the value); the other modes read x's own elements, and widths beyond the
// extent keep repeating (reflect's period is 2(n-1), symmetric's 2n).
func (x Expr[T]) Pad(mode PadMode, widths ...[2]int) Expr[T] {
	var zero T
	return x.pad(mode, zero, widths)
}

// PadWith pads x with the constant value by widths (see Pad).
func (x Expr[T]) PadWith(value T, widths ...[2]int) Expr[T] {
	return x.pad(PadConstant, value, widths)
}

func (x Expr[T]) pad(mode PadMode, value T, widths [][2]int) Expr[T] {
	const op = "pad"
	a := x.Node()
	if a.err != nil {
		return x
	}
	bad := func(format string, args ...any) Expr[T] {
		return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: fmt.Sprintf(format, args...)})}
	}
	r := len(a.shape)
	if int(mode) >= len(padModeNames) {
		return bad("unknown mode %v", mode)
	}
	w := make([][2]int, r)
	switch len(widths) {
	case 1:
		for k := range w {
			w[k] = widths[0]
		}
	case r:
		copy(w, widths)
	default:
		return bad("%d pad widths %v for a tensor of shape %v (give one pair, or one per dimension)", len(widths), widths, a.shape)
	}
	out := a.shape.Clone()
	for k, p := range w {
		if p[0] < 0 || p[1] < 0 {
			return bad("negative pad width %v at dimension %d", p, k)
		}
		if p[0] > maxInt-out[k] || p[1] > maxInt-out[k]-p[0] {
			return Expr[T]{errNode(OpAssemble, &tensor.ShapeError{Shape: a.shape, Axis: k, Reason: "number of elements overflows int"})}
		}
		out[k] += p[0] + p[1]
		if mode != PadConstant && a.shape[k] == 0 && p[0]+p[1] > 0 {
			return bad("can't extend the empty dimension %d of shape %v using modes other than constant (mode %v)", k, a.shape, mode)
		}
	}
	if mode == PadConstant {
		return Expr[T]{padConstant(a, Scalar(value).Node(), w, out)}
	}
	y := a
	for k, p := range w {
		if p[0]+p[1] > 0 {
			y = padAxis(y, k, p, mode)
		}
	}
	return Expr[T]{y}
}

const maxInt = int(^uint(0) >> 1)

// padConstant places a in the interior and fills the rest from the 0-d
// fill, in two slabs per axis: along axis k they span the interior of the
// axes before k and the whole of the axes after it, so every element is
// written once.
func padConstant(a, fill *Node, w [][2]int, out tensor.Shape) *Node {
	r := len(out)
	at := make([]int, r)
	for k := range w {
		at[k] = w[k][0]
	}
	pieces := []Piece{{Arg: 0, At: at, Size: a.shape.Clone()}}
	for k := range r {
		for side, width := range w[k] {
			if width == 0 {
				continue
			}
			pAt, pSize := make([]int, r), make([]int, r)
			for j := range r {
				switch {
				case j < k:
					pAt[j], pSize[j] = w[j][0], a.shape[j]
				case j > k:
					pSize[j] = out[j]
				}
			}
			pSize[k] = width
			if side == 1 {
				pAt[k] = w[k][0] + a.shape[k]
			}
			pieces = append(pieces, Piece{Arg: 1, At: pAt, Size: pSize})
		}
	}
	return assemble("pad", a.dt, out, pieces, []*Node{a, fill})
}

// padAxis pads a along axis k alone. Output position i reads input
// position src[i]; consecutive positions reading consecutive elements make
// one piece, positions reading one element (edge) a spread piece, and the
// mirrored stretches of reflect and symmetric a piece per element.
func padAxis(a *Node, k int, w [2]int, mode PadMode) *Node {
	n := a.shape[k]
	m := n + w[0] + w[1]
	src := padSources(mode, n, w[0], w[1])
	var rs []run
	for i := 0; i < m; {
		f := src[i]
		j := i + 1
		switch {
		case j < m && src[j] == f+1:
			for j < m && src[j] == src[j-1]+1 {
				j++
			}
			rs = append(rs, run{at: i, from: f, size: j - i})
		case j < m && src[j] == f:
			for j < m && src[j] == f {
				j++
			}
			rs = append(rs, run{at: i, from: f, size: j - i, spread: true})
		default:
			rs = append(rs, run{at: i, from: f, size: 1})
		}
		i = j
	}
	out := a.shape.Clone()
	out[k] = m
	return assemble("pad", a.dt, out, axisPieces(a.shape, k, rs), []*Node{a})
}

// padSources returns, for each of the n+before+after positions of an axis
// padded by mode, the position of the input it reads. Reflect, symmetric
// and wrap run NumPy 1.24's own algorithm (numpy/lib/arraypad.py) on the
// positions, so that pads wider than the extent repeat exactly as NumPy's
// do: its wrap of a wide pad whose sides differ is not periodic (a b c d
// padded by (5, 1) begins with a, not d).
func padSources(mode PadMode, n, before, after int) []int {
	m := n + before + after
	buf := make([]int, m)
	for i := range buf {
		buf[i] = min(max(i-before, 0), n-1) // edge
	}
	if mode == PadEdge || n == 1 { // NumPy extends a singleton axis by its edge in every mode
		return buf
	}
	l, r := before, after
	chunk := make([]int, 0, m)
	for l > 0 || r > 0 {
		if mode == PadWrap {
			period := m - r - l
			nl, nr := 0, 0
			if l > 0 {
				c := min(period, l)
				chunk = append(chunk[:0], buf[m-r-c:m-r]...)
				if l > period {
					copy(buf[l-period:l], chunk)
					nl = l - period
				} else {
					copy(buf[:l], chunk)
				}
			}
			if r > 0 {
				c := min(period, r)
				chunk = append(chunk[:0], buf[l:l+c]...)
				if r > period {
					copy(buf[m-r:m-r+period], chunk)
					nr = r - period
				} else {
					copy(buf[m-r:], chunk)
				}
			}
			l, r = nl, nr
			continue
		}
		old := m - r - l
		edge := 1 // symmetric repeats the edge
		if mode == PadReflect {
			edge = 0
			old--
		}
		if l > 0 {
			c := min(old, l)
			start := l - edge + c
			for i := range c {
				buf[l-c+i] = buf[start-i]
			}
			l -= c
		}
		if r > 0 {
			c := min(old, r)
			start := m - r + edge - 2
			at := m - r
			for i := range c {
				buf[at+i] = buf[start-i]
			}
			r -= c
		}
	}
	return buf
}
