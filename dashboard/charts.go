package dashboard

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// The charts are SVG drawn here, on the server: numbers formatted by
// strconv and every text escaped by html.EscapeString, so that the SVG is
// safe to put into the page as it is.

// point is a point of a series.
type point struct{ X, Y float64 }

// series is one line or set of dots of a chart.
type series struct {
	Name   string
	Points []point
	Class  string // CSS class: the colour (s0..s5, best, faint)
	Dots   bool   // dots instead of a line
	Step   bool   // a staircase line (best so far)
}

// rule is a horizontal line across a chart (a bound).
type rule struct {
	Y     float64
	Label string
}

// chart is an x-y chart.
type chart struct {
	W, H           int
	Title          string
	XLabel, YLabel string
	Series         []series
	Rules          []rule
	// XTicks, when set, label the x axis with these names at 0, 1, ...
	// (a categorical parameter).
	XTicks []string
}

const (
	padL, padR, padT, padB = 56, 12, 22, 34
)

// bounds is the data range of the chart, padded, never empty.
func (c *chart) bounds() (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				continue
			}
			x0, x1 = math.Min(x0, p.X), math.Max(x1, p.X)
			y0, y1 = math.Min(y0, p.Y), math.Max(y1, p.Y)
		}
	}
	for _, r := range c.Rules {
		if finite(r.Y) {
			y0, y1 = math.Min(y0, r.Y), math.Max(y1, r.Y)
		}
	}
	if math.IsInf(x0, 1) {
		x0, x1 = 0, 1
	}
	if math.IsInf(y0, 1) {
		y0, y1 = 0, 1
	}
	if len(c.XTicks) > 0 {
		x0, x1 = -0.5, float64(len(c.XTicks))-0.5
	}
	if x1 == x0 {
		x0, x1 = x0-1, x1+1
	}
	if y1 == y0 {
		d := math.Max(math.Abs(y0)*0.1, 1)
		y0, y1 = y0-d, y1+d
	}
	pad := (y1 - y0) * 0.05
	return x0, x1, y0 - pad, y1 + pad
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// SVG draws the chart.
func (c *chart) SVG() template.HTML {
	x0, x1, y0, y1 := c.bounds()
	pw, ph := float64(c.W-padL-padR), float64(c.H-padT-padB)
	sx := func(x float64) float64 { return padL + (x-x0)/(x1-x0)*pw }
	sy := func(y float64) float64 { return padT + (y1-y)/(y1-y0)*ph }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, c.W, c.H, c.W, c.H, esc(c.Title))
	fmt.Fprintf(&b, `<text class="title" x="%d" y="14">%s</text>`, padL, esc(c.Title))
	fmt.Fprintf(&b, `<rect class="frame" x="%d" y="%d" width="%s" height="%s"/>`, padL, padT, num(pw), num(ph))
	for _, t := range ticks(y0, y1, 5) {
		y := sy(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%s" y1="%s" y2="%s"/><text class="tick" x="%d" y="%s" text-anchor="end">%s</text>`,
			padL, num(padL+pw), num(y), num(y), padL-4, num(y+4), esc(short(t)))
	}
	if len(c.XTicks) > 0 {
		for i, name := range c.XTicks {
			fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(sx(float64(i))), num(padT+ph+14), esc(name))
		}
	} else {
		for _, t := range ticks(x0, x1, 6) {
			fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(sx(t)), num(padT+ph+14), esc(short(t)))
		}
	}
	if c.XLabel != "" {
		fmt.Fprintf(&b, `<text class="label" x="%s" y="%d" text-anchor="middle">%s</text>`, num(padL+pw/2), c.H-4, esc(c.XLabel))
	}
	if c.YLabel != "" {
		fmt.Fprintf(&b, `<text class="label" x="12" y="%s" text-anchor="middle" transform="rotate(-90 12 %s)">%s</text>`, num(padT+ph/2), num(padT+ph/2), esc(c.YLabel))
	}
	for _, r := range c.Rules {
		if !finite(r.Y) {
			continue
		}
		y := sy(r.Y)
		fmt.Fprintf(&b, `<line class="rule" x1="%d" x2="%s" y1="%s" y2="%s"/><text class="rulelabel" x="%s" y="%s" text-anchor="end">%s</text>`,
			padL, num(padL+pw), num(y), num(y), num(padL+pw-4), num(y-3), esc(r.Label))
	}
	for _, s := range c.Series {
		if s.Dots {
			fmt.Fprintf(&b, `<g class="%s">`, esc(s.Class))
			for _, p := range s.Points {
				if finite(p.X) && finite(p.Y) {
					fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5"/>`, num(sx(p.X)), num(sy(p.Y)))
				}
			}
			b.WriteString(`</g>`)
			continue
		}
		var d strings.Builder
		first := true
		for _, p := range s.Points {
			if !finite(p.X) || !finite(p.Y) {
				continue
			}
			switch {
			case first:
				fmt.Fprintf(&d, "M%s %s", num(sx(p.X)), num(sy(p.Y)))
			case s.Step:
				fmt.Fprintf(&d, "H%s V%s", num(sx(p.X)), num(sy(p.Y)))
			default:
				fmt.Fprintf(&d, "L%s %s", num(sx(p.X)), num(sy(p.Y)))
			}
			first = false
		}
		if d.Len() > 0 {
			fmt.Fprintf(&b, `<path class="line %s" d="%s"><title>%s</title></path>`, esc(s.Class), d.String(), esc(s.Name))
		}
	}
	b.WriteString(legend(c.Series, padL+8+7*len([]rune(c.Title)), 14))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text escaped above
}

// legend lists the named series that have points in their colours, in a
// row from x on the title's line y.
func legend(ss []series, x, y int) string {
	var b strings.Builder
	for _, s := range ss {
		if s.Name == "" || len(s.Points) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<text class="legend %s" x="%d" y="%d">■ %s</text>`, esc(s.Class), x, y, esc(s.Name))
		x += 6*len([]rune(s.Name)) + 24
	}
	return b.String()
}

// bars draws horizontal bars of values in [0, 1] with their labels.
func bars(title string, labels []string, values []float64) template.HTML {
	const w, row = 460, 20
	h := padT + row*len(labels) + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, w, h, w, h, esc(title))
	fmt.Fprintf(&b, `<text class="title" x="4" y="14">%s</text>`, esc(title))
	for i, l := range labels {
		y := padT + row*i
		v := values[i]
		if !finite(v) {
			v = 0
		}
		fmt.Fprintf(&b, `<text class="tick" x="150" y="%d" text-anchor="end">%s</text>`, y+13, esc(l))
		fmt.Fprintf(&b, `<rect class="bar" x="156" y="%d" width="%s" height="14"/>`, y+2, num(v*250))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d">%s</text>`, num(160+v*250), y+13, esc(strconv.FormatFloat(v, 'f', 2, 64)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text escaped above
}

// axis is one axis of a parallel coordinates chart.
type axis struct {
	Name   string
	Lo, Hi float64
	Names  []string // a categorical axis: the choices at 0, 1, ...
}

// parallel draws parallel coordinates: an axis per column, a line per row
// (rows[i][j] is row i on axis j), coloured by class[i].
func parallel(title string, axes []axis, rows [][]float64, class []string) template.HTML {
	w, h := max(160*len(axes), 480), 300
	top, bottom := 36, 24
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`, w, h, w, h, esc(title))
	fmt.Fprintf(&b, `<text class="title" x="4" y="14">%s</text>`, esc(title))
	ax := func(j int) float64 { return 40 + float64(j)*float64(w-80)/math.Max(float64(len(axes)-1), 1) }
	ay := func(a axis, v float64) float64 {
		if a.Hi == a.Lo {
			return float64(top+h-bottom) / 2
		}
		return float64(h-bottom) - (v-a.Lo)/(a.Hi-a.Lo)*float64(h-bottom-top)
	}
	for i, r := range rows {
		var d strings.Builder
		for j, v := range r {
			if !finite(v) {
				continue
			}
			op := "L"
			if d.Len() == 0 {
				op = "M"
			}
			fmt.Fprintf(&d, "%s%s %s", op, num(ax(j)), num(ay(axes[j], v)))
		}
		fmt.Fprintf(&b, `<path class="pline %s" d="%s"/>`, esc(class[i]), d.String())
	}
	for j, a := range axes {
		x := ax(j)
		fmt.Fprintf(&b, `<line class="axis" x1="%s" x2="%s" y1="%d" y2="%d"/>`, num(x), num(x), top, h-bottom)
		fmt.Fprintf(&b, `<text class="label" x="%s" y="%d" text-anchor="middle">%s</text>`, num(x), top-8, esc(a.Name))
		if len(a.Names) > 0 {
			for k, n := range a.Names {
				fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s">%s</text>`, num(x+4), num(ay(a, float64(k))+4), esc(n))
			}
			continue
		}
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d">%s</text>`, num(x+4), h-bottom+14, esc(short(a.Lo)))
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%d">%s</text>`, num(x+4), top+4, esc(short(a.Hi)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text escaped above
}

// ticks returns about n round values in [lo, hi].
func ticks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		return nil
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		if math.Abs(t) < step*1e-9 {
			t = 0
		}
		out = append(out, t)
	}
	return out
}

// short formats a tick value: a whole number in digits, else in at most
// four significant digits.
func short(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e9 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// num formats an SVG coordinate.
func num(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// esc escapes text for SVG (XML) content and attributes.
func esc(s string) string { return html.EscapeString(lineOf(s)) }
