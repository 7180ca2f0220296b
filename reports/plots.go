package reports

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one plot of a report, saved as SVG and PNG side by side.
type Figure struct {
	Name    string // base file name without extension, e.g. "history"
	Title   string
	Caption string // what the plot shows, for the HTML page
	SVG     string // file name relative to the report directory; "" when not drawn
	PNG     string
	Missing string // why the plot was not drawn (no data, no finite values); "" when drawn
	Small   bool   // one of a series (slice plots), shown side by side
	Wide    bool   // drawn wider than a plot (one box per case): the page gives it a whole row
}

// Plot size on disk.
const (
	plotW = 16 * vg.Centimeter
	plotH = 10 * vg.Centimeter
)

// Colours of the plots: a small fixed palette (colour-blind safe, Okabe–Ito).
var (
	colBlue   = color.RGBA{0, 114, 178, 255}
	colOrange = color.RGBA{230, 159, 0, 255}
	colGreen  = color.RGBA{0, 158, 115, 255}
	colRed    = color.RGBA{204, 51, 17, 255}
	colGrey   = color.RGBA{128, 128, 128, 255}
)

// finite reports whether x is neither NaN nor ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// finiteValues drops NaN and ±Inf.
func finiteValues(xs []float64) plotter.Values {
	out := make(plotter.Values, 0, len(xs))
	for _, x := range xs {
		if finite(x) {
			out = append(out, x)
		}
	}
	return out
}

// finiteXYs drops the points with a NaN or infinite coordinate.
func finiteXYs(xys plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, 0, len(xys))
	for _, p := range xys {
		if finite(p.X) && finite(p.Y) {
			out = append(out, p)
		}
	}
	return out
}

// newPlot makes a plot with a title, axis labels and a grid.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// saveFigure writes p as dir/name.svg and dir/name.png and fills the file
// names of f.
func saveFigure(dir string, f *Figure, p *plot.Plot, w, h vg.Length) error {
	f.Wide = w > plotW*13/10
	for _, ext := range []string{".svg", ".png"} {
		file := f.Name + ext
		if err := p.Save(w, h, filepath.Join(dir, file)); err != nil {
			return fmt.Errorf("plot %s: %w", file, err)
		}
		if ext == ".svg" {
			f.SVG = file
		} else {
			f.PNG = file
		}
	}
	return nil
}

// line makes a coloured line (optionally dashed).
func line(xys plotter.XYs, c color.Color, dashed bool) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	return l, nil
}

// scatter makes coloured dots.
func scatter(xys plotter.XYs, c color.Color, shape draw.GlyphDrawer) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.Color = c
	s.Radius = vg.Points(2.5)
	if shape != nil {
		s.Shape = shape
	}
	return s, nil
}

// hline is a horizontal reference line across [x0, x1].
func hline(y, x0, x1 float64, c color.Color) (*plotter.Line, error) {
	if x1 <= x0 {
		x1 = x0 + 1
	}
	return line(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}}, c, true)
}

// boxPlots draws one box per group of values at nominal positions; groups
// with no finite value are left out (and named in the returned note).
func boxPlots(p *plot.Plot, names []string, groups [][]float64, c color.Color) (drawn int, err error) {
	var labels []string
	for i, g := range groups {
		vs := finiteValues(g)
		if len(vs) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(18), float64(len(labels)), vs)
		if err != nil {
			return 0, err
		}
		b.FillColor = lighten(c)
		b.BoxStyle.Color = c
		b.MedianStyle.Color = c
		p.Add(b)
		// The values themselves as small dots: a box of one or two values
		// says little on its own.
		pts := make(plotter.XYs, len(vs))
		for j, v := range vs {
			pts[j] = plotter.XY{X: float64(len(labels)), Y: v}
		}
		dots, err := scatter(pts, colGrey, draw.CircleGlyph{})
		if err != nil {
			return 0, err
		}
		dots.Radius = vg.Points(1.5)
		p.Add(dots)
		labels = append(labels, shortLabel(names[i]))
	}
	if len(labels) > 0 {
		p.NominalX(labels...)
		// Half a slot of room on either side, so no box sits on the edge.
		p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	}
	return len(labels), nil
}

// lighten mixes c with white.
func lighten(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8)/2 + 128) }
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

// boxWidth is the width of a plot with n nominal positions: wider for many.
func boxWidth(n int) vg.Length {
	w := vg.Length(n) * 0.9 * vg.Centimeter
	if w < plotW {
		return plotW
	}
	if w > 60*vg.Centimeter {
		return 60 * vg.Centimeter
	}
	return w
}

// shortLabel cuts an axis label to maxLabel runes: a long label would
// squeeze the plot area to nothing.
func shortLabel(s string) string {
	const maxLabel = 24
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	return string(r[:maxLabel-1]) + "…"
}

// legendOnTop puts the legend in the top right corner and raises the top of
// the Y axis so that the n legend entries sit above the data instead of on
// it. Call it once everything is added to p.
func legendOnTop(p *plot.Plot, n int) {
	if n <= 0 {
		return
	}
	p.Legend.Top = true
	span := p.Y.Max - p.Y.Min
	if !(span > 0) || math.IsInf(span, 0) {
		span = math.Max(math.Abs(p.Y.Max), 1)
	}
	p.Y.Max += span * (0.09*float64(n) + 0.04)
}

// integerTicks are the default ticks of an axis that counts things (trial
// numbers): whole numbers only, written without decimals.
var integerTicks = plot.TickerFunc(func(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Value != math.Trunc(t.Value) {
			if t.Label == "" {
				out = append(out, plot.Tick{Value: t.Value})
			}
			continue
		}
		if t.Label != "" {
			t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
		out = append(out, t)
	}
	return out
})
