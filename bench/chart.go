package bench

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/tensorplay/tensorplay/internal/nilarg"
)

// ChartFormats are the file extensions SaveChart and WriteChart accept.
var ChartFormats = []string{"svg", "png", "pdf"}

// SaveChart draws r as a bar chart (see WriteChart) into the file at path,
// whose extension picks the format: .svg, .png or .pdf. A nil r is a
// *tensor.ArgError.
func SaveChart(path string, r *Report) error {
	if err := nilarg.Check("bench.SaveChart", "r", r); err != nil {
		return err
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	p, err := chartPlot(r, format)
	if err != nil {
		return err
	}
	return p.Save(chartWidth(r), 12*vg.Centimeter, path)
}

// WriteChart draws r as a bar chart in format ("svg", "png" or "pdf") to w:
// the GB/s of every timed row, tensorplay next to its hand loop, with the
// bandwidth probe (the best of copy and triad with as many goroutines as
// workers) as a horizontal line per size. A nil w or r is a
// *tensor.ArgError.
func WriteChart(w io.Writer, r *Report, format string) error {
	if err := errors.Join(nilarg.Check("bench.WriteChart", "w", w), nilarg.Check("bench.WriteChart", "r", r)); err != nil {
		return err
	}
	p, err := chartPlot(r, format)
	if err != nil {
		return err
	}
	wt, err := p.WriterTo(chartWidth(r), 12*vg.Centimeter, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

func chartWidth(r *Report) vg.Length {
	return vg.Length(max(16, 4+1.2*float64(len(r.Rows)))) * vg.Centimeter
}

var (
	tensorplayColor = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	handColor       = color.RGBA{R: 0xaa, G: 0xaa, B: 0xaa, A: 0xff}
	probeColor      = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
)

func chartPlot(r *Report, format string) (*plot.Plot, error) {
	ok := false
	for _, f := range ChartFormats {
		ok = ok || f == format
	}
	if !ok {
		return nil, fmt.Errorf("bench: chart format %q: want one of %s", format, strings.Join(ChartFormats, ", "))
	}
	multi := len(sizes(r)) > 1
	var names []string
	var tp, hand plotter.Values
	for _, row := range r.Rows {
		if row.Err != "" {
			continue
		}
		name := row.Name
		if multi {
			name += " " + fmtSize(row.Size)
		}
		names = append(names, name)
		tp = append(tp, row.GBps)
		hand = append(hand, row.HandGBps)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("bench: chart: no timed rows to draw")
	}

	p := plot.New()
	p.Title.Text = fmt.Sprintf("tensorplay bench, %s, %d workers", r.Date.Format("2006-01-02"), r.Workers)
	p.Y.Label.Text = "GB/s (inputs read + outputs written once)"
	p.Y.Min = 0
	p.Legend.Top = true
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter

	width := vg.Points(10)
	for _, s := range []struct {
		vals   plotter.Values
		col    color.Color
		label  string
		offset vg.Length
	}{{tp, tensorplayColor, "tensorplay", -width / 2}, {hand, handColor, "hand-written Go loop", width / 2}} {
		b, err := plotter.NewBarChart(s.vals, width)
		if err != nil {
			return nil, err
		}
		b.Color, b.Offset = s.col, s.offset
		b.LineStyle.Width = 0
		p.Add(b)
		p.Legend.Add(s.label, b)
	}
	for i, size := range sizes(r) {
		bw := bandwidth(r.Probes, size, r.Workers)
		if bw == 0 {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: bw}, {X: float64(len(names)) - 0.5, Y: bw}})
		if err != nil {
			return nil, err
		}
		l.Color = probeColor
		l.Width = vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3 + 2*float64(i))}
		p.Add(l)
		label := fmt.Sprintf("bandwidth probe (plain Go, %d goroutines)", r.Workers)
		if multi {
			label += ", size " + fmtSize(size)
		}
		p.Legend.Add(label, l)
	}
	p.NominalX(names...)
	// Headroom above the tallest bar or line for the legend.
	p.Y.Max *= 1.25
	return p, nil
}

// sizes returns the distinct row sizes of r in order of appearance.
func sizes(r *Report) []int {
	var out []int
	seen := map[int]bool{}
	for _, row := range r.Rows {
		if !seen[row.Size] {
			seen[row.Size] = true
			out = append(out, row.Size)
		}
	}
	return out
}
