package bench

import (
	"io"
	"strings"
	"unicode/utf8"
)

// grid is a table of text cells with a header row; right[i] right-aligns
// column i (numbers), the others are left-aligned.
type grid struct {
	head  []string
	right []bool
	rows  [][]string
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

func (g *grid) widths() []int {
	w := make([]int, len(g.head))
	for _, r := range append([][]string{g.head}, g.rows...) {
		for i, c := range r {
			w[i] = max(w[i], utf8.RuneCountInString(c))
		}
	}
	return w
}

func pad(s string, w int, right bool) string {
	fill := strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s)))
	if right {
		return fill + s
	}
	return s + fill
}

// writeText writes the grid aligned, columns two spaces apart, with a rule
// under the header.
func (g *grid) writeText(w io.Writer, indent string) error {
	ws := g.widths()
	var b strings.Builder
	line := func(r []string) {
		var parts []string
		for i, c := range r {
			parts = append(parts, pad(c, ws[i], g.right[i]))
		}
		b.WriteString(indent + strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
	}
	line(g.head)
	rule := make([]string, len(ws))
	for i, n := range ws {
		rule[i] = strings.Repeat("-", n)
	}
	line(rule)
	for _, r := range g.rows {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdown writes the grid as a GitHub-flavoured Markdown table.
func (g *grid) writeMarkdown(w io.Writer) error {
	var b strings.Builder
	line := func(r []string) {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	line(g.head)
	sep := make([]string, len(g.head))
	for i := range sep {
		sep[i] = "---"
		if g.right[i] {
			sep[i] = "--:"
		}
	}
	line(sep)
	for _, r := range g.rows {
		esc := make([]string, len(r))
		for i, c := range r {
			esc[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		line(esc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
