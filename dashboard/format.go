package dashboard

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"time"

	"gauntlet/internal/untrusted"
	"gauntlet/reports"
)

// lineOf is text from the store made one line of safe characters
// (untrusted.Line); the templates escape it for HTML on top.
func lineOf(s string) string { return untrusted.Line(s) }

// funcs are the templates' functions.
var funcs = template.FuncMap{
	"u":   lineOf,
	"seg": pathEscape, // a name as one path segment of a link
	"num": numText,
	"f":   fixed,
	"pct": func(x float64) string { return fixed(100*x, 1) + "%" },
	"signed": func(x float64, digits int) string {
		if !finite(x) {
			return "—"
		}
		return fmt.Sprintf("%+.*f", digits, x)
	},
	"dur":   durText,
	"add":   func(a, b int) int { return a + b },
	"agoMS": func(ms int64) string { return durText(float64(ms)/1000) + " ago" },
	"secs":  func(ms int64) float64 { return float64(ms) / 1000 },
	"deref": deref,
	"ms":    msText,
	"since": func(t time.Time) string { return durText(time.Since(t).Seconds()) + " ago" },
	"when":  func(t time.Time) string { return t.UTC().Format(time.DateTime) },
}

// numText is a number as the reports write it, "—" when not finite.
func numText(x float64) string {
	if !finite(x) {
		return "—"
	}
	return reports.Num(x)
}

// fixed is x with digits decimals, "—" when not finite.
func fixed(x float64, digits int) string {
	if !finite(x) {
		return "—"
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// durText is a number of seconds as "1h02m", "3m05s", "12s" ("—" for an
// unknown or negative one).
func durText(sec float64) string {
	if !finite(sec) || sec < 0 {
		return "—"
	}
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// msText is a lease's remaining time: "in 12s" or "ended 3m05s ago".
func msText(ms int64) string {
	if ms >= 0 {
		return "in " + durText(float64(ms)/1000)
	}
	return "ended " + durText(math.Abs(float64(ms))/1000) + " ago"
}

// deref is *p for the templates (0 for nil).
func deref(p any) any {
	switch v := p.(type) {
	case *float64:
		if v != nil {
			return *v
		}
		return 0.0
	case *int:
		if v != nil {
			return *v
		}
		return 0
	}
	return p
}
