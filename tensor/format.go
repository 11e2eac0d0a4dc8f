package tensor

import (
	"fmt"
	"io"
	"strings"
)

// NumPy's default print options.
const (
	printPrecision = 8    // digits after the point
	printThreshold = 1000 // more elements than this are summarized
	printEdgeItems = 3    // items kept at each end of a summarized axis
	printLineWidth = 75   // characters per line
)

// Format implements fmt.Formatter with NumPy's layout:
//
//   - %v and %s print the array as numpy's str() does: nested brackets,
//     columns aligned across the whole tensor, long rows wrapped at 75
//     characters, and tensors of more than 1000 elements summarized with
//     "..." keeping 3 items at each end of every long axis. Floats take the
//     fewest digits that identify each value, at most 8 after the point
//     (switching to scientific notation when values span more than 1000x or
//     fall outside [1e-4, 1e8)); complex values print as 1.+2.j and bools
//     as True/False. A 0-d tensor prints as the bare scalar (2.0).
//   - a precision sets the maximum digits after the point: %.3v.
//   - %+v (and %#v) prints the repr form, like numpy's repr() with torch's
//     name: tensor([[1., 2.], [3., 4.]], dtype=float32), one row per line.
//
// Other verbs print %!verb(tensor.Tensor[dtype]). A nil tensor prints <nil>.
func (t *Tensor[T]) Format(f fmt.State, verb rune) {
	if t == nil {
		io.WriteString(f, "<nil>")
		return
	}
	t = t.orEmpty()
	prec, hasPrec := f.Precision()
	if !hasPrec {
		prec = printPrecision
	}
	switch {
	case (verb == 'v' || verb == 's') && (f.Flag('+') || f.Flag('#')):
		io.WriteString(f, t.repr(prec))
	case verb == 'v' || verb == 's':
		io.WriteString(f, t.str(prec, hasPrec))
	default:
		fmt.Fprintf(f, "%%!%c(tensor.Tensor[%v])", verb, t.DType())
	}
}

// String returns t printed as by %v: numpy's str() layout.
func (t *Tensor[T]) String() string {
	if t == nil {
		return "<nil>"
	}
	return t.orEmpty().str(printPrecision, false)
}

// str is numpy's array_str. A 0-d tensor prints as the scalar does, unless a
// precision was asked for.
func (t *Tensor[T]) str(prec int, hasPrec bool) string {
	if len(t.shape) == 0 && !hasPrec && t.offset < len(t.data) {
		return scalarString(t.data[t.offset])
	}
	return t.layout(prec, " ", " ", printLineWidth)
}

// repr is numpy's array_repr, named tensor and always naming the dtype.
func (t *Tensor[T]) repr(prec int) string {
	const prefix = "tensor("
	var body string
	switch {
	case t.Numel() > 0 || (len(t.shape) == 1 && t.shape[0] == 0):
		body = t.layout(prec, ", ", " "+strings.Repeat(" ", len(prefix)), printLineWidth-len(","))
	default:
		body = "[], shape=" + t.shape.String()
	}
	s := prefix + body + ","
	dt := "dtype=" + t.DType().String() + ")"
	last := len(s) - (strings.LastIndexByte(s, '\n') + 1)
	if last+len(dt)+1 > printLineWidth {
		return s + "\n" + strings.Repeat(" ", len(prefix)) + dt
	}
	return s + " " + dt
}

// layout is numpy's _array2string and _formatArray: sep separates
// elements, hang is the prefix of continuation lines, width the line width.
func (t *Tensor[T]) layout(prec int, sep, hang string, width int) string {
	if t.Numel() == 0 || t.offset >= len(t.data) {
		return "[]"
	}
	p := &printer{shape: t.shape, sep: sep, summarize: t.Numel() > printThreshold, edge: printEdgeItems}
	p.words = formatWords(t.printedValues(p.summarize), prec, len(t.shape) == 0)
	return p.recurse(0, hang, width)
}

// printedValues returns, in row-major order, the elements that are printed:
// all of them, or with summarize only the edge items of every long axis
// (numpy's _leading_trailing). Column widths are computed from these alone.
func (t *Tensor[T]) printedValues(summarize bool) []T {
	var out []T
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(t.shape) {
			out = append(out, t.data[off])
			return
		}
		n, st := t.shape[axis], t.strides[axis]
		for _, i := range printedIndices(n, summarize) {
			walk(axis+1, off+i*st)
		}
	}
	walk(0, t.offset)
	return out
}

// printedIndices lists the indices printed along an axis of extent n.
func printedIndices(n int, summarize bool) []int {
	var idx []int
	if summarize && n > 2*printEdgeItems {
		for i := range printEdgeItems {
			idx = append(idx, i)
		}
		for i := n - printEdgeItems; i < n; i++ {
			idx = append(idx, i)
		}
		return idx
	}
	for i := range n {
		idx = append(idx, i)
	}
	return idx
}

// printer lays out pre-formatted words in nested brackets.
type printer struct {
	shape     Shape
	words     []string // the printed elements, row-major, consumed in order
	next      int
	sep       string
	summarize bool
	edge      int
}

// recurse is numpy's _formatArray recurser for the sub-array at axis.
func (p *printer) recurse(axis int, hang string, width int) string {
	if axis == len(p.shape) {
		w := p.words[p.next]
		p.next++
		return w
	}
	nextHang, nextWidth := hang+" ", width-1
	n := p.shape[axis]
	lead, trail := 0, n
	summary := p.summarize && 2*p.edge < n
	if summary {
		lead, trail = p.edge, p.edge
	}
	var s strings.Builder
	if left := len(p.shape) - axis; left == 1 {
		elemWidth := width - max(len(strings.TrimRight(p.sep, " ")), len("]"))
		line := hang
		for range lead {
			line = extendLine(&s, line, p.recurse(axis+1, nextHang, nextWidth), elemWidth, hang) + p.sep
		}
		if summary {
			line = extendLine(&s, line, "...", elemWidth, hang) + p.sep
		}
		for i := trail; i > 1; i-- {
			line = extendLine(&s, line, p.recurse(axis+1, nextHang, nextWidth), elemWidth, hang) + p.sep
		}
		line = extendLine(&s, line, p.recurse(axis+1, nextHang, nextWidth), elemWidth, hang)
		s.WriteString(line)
	} else {
		lineSep := strings.TrimRight(p.sep, " ") + strings.Repeat("\n", left-1)
		for range lead {
			s.WriteString(hang + p.recurse(axis+1, nextHang, nextWidth) + lineSep)
		}
		if summary {
			s.WriteString(hang + "..." + lineSep)
		}
		for i := trail; i > 1; i-- {
			s.WriteString(hang + p.recurse(axis+1, nextHang, nextWidth) + lineSep)
		}
		s.WriteString(hang + p.recurse(axis+1, nextHang, nextWidth))
	}
	return "[" + s.String()[len(hang):] + "]"
}

// extendLine is numpy's _extendLine: append word to line, first flushing the
// line into s when the word would pass width (unless wrapping cannot help).
func extendLine(s *strings.Builder, line, word string, width int, hang string) string {
	if len(line)+len(word) > width && len(line) > len(hang) {
		s.WriteString(strings.TrimRight(line, " "))
		s.WriteByte('\n')
		line = hang
	}
	return line + word
}
