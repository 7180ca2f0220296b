package reports

import (
	"fmt"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/internal/untrusted"
)

// ConductText is an entrant's conduct as lines of terminal text, each
// prefixed by who ("A", "B", "opponent 1", or "" for none): the forfeits by
// reason with the first of each, the eliminations by cause likewise, the
// answers the rules ignored, the answer times per kind of turn, and
// warnings. Nothing when there is nothing to say. Every line went through
// untrusted.Line: a reason may hold what a bot wrote to its stderr.
//
//	A forfeits: 3 of 20 games
//	A   2 × timeout in round 1: answered after 2,002 ms, limit 1,000 ms + margin 250 ms (first in seed:1)
//	A   1 × crashed in round 1: exit status 3; stderr: boom (seed:4)
//	A eliminated: 4 of 20 games
//	A   3 × line crossed by other player (first in seed:2)
//	A   1 × faced the border (seed:9)
//	A ignored answers: 97 in 1 game; first "BREW 9999": no such id for this verb (round 1), in seed:1
//	A answer times: first mean 1,004 ms, p99 1,005 ms, max 1,005 ms (limit 1,000 ms + 250 ms margin); later ...
//	A warning: later answers: up to 61 ms against a limit of 50 ms + 20 ms margin: within 10% of it or over
func ConductText(who string, c results.Conduct) []string {
	var out []string
	if who != "" {
		who += " "
	}
	kinds := func(rs []results.ReasonCount) {
		for _, r := range rs {
			where := r.Case
			if r.Count > 1 {
				where = "first in " + r.Case
			}
			out = append(out, fmt.Sprintf("%s  %d × %s (%s)", who, r.Count, r.First, where))
		}
	}
	if c.Forfeits > 0 {
		out = append(out, fmt.Sprintf("%sforfeits: %d of %d games", who, c.Forfeits, c.Games))
		kinds(c.Reasons)
	}
	if c.Eliminated > 0 {
		out = append(out, fmt.Sprintf("%seliminated: %d of %d games", who, c.Eliminated, c.Games))
		kinds(c.Causes)
	}
	if c.Ignored > 0 {
		out = append(out, fmt.Sprintf("%signored answers: %d in %d %s; first %s, in %s",
			who, c.Ignored, c.IgnoredGames, plural(c.IgnoredGames, "game"), c.IgnoredFirst, c.IgnoredCase))
	}
	if t := c.Times; t != nil {
		var parts []string
		if t.First != nil {
			parts = append(parts, "first "+figures(t.First))
		}
		if t.Later != nil {
			parts = append(parts, "later "+figures(t.Later))
		}
		line := who + "answer times: " + strings.Join(parts, "; ")
		if t.TotalLimitMS > 0 {
			line += fmt.Sprintf("; most in one game %s (limit %s%s)", contract.MillisF(t.GameMaxMS), contract.MillisF(t.TotalLimitMS), marginText(t.MarginMS))
		}
		out = append(out, line)
	}
	for _, w := range c.Warnings {
		out = append(out, who+"warning: "+w)
	}
	for i, l := range out {
		out[i] = untrusted.Line(l) // reasons hold a bot's stderr
	}
	return out
}

func figures(f *results.TimeFigures) string {
	s := fmt.Sprintf("mean %s, p99 %s, max %s", contract.MillisF(f.MeanMS), contract.MillisF(f.P99MS), contract.MillisF(f.MaxMS))
	if f.LimitMS > 0 {
		s += fmt.Sprintf(" (limit %s%s)", contract.MillisF(f.LimitMS), marginText(f.MarginMS))
	}
	return s
}

func marginText(ms float64) string {
	if ms <= 0 {
		return ""
	}
	return " + " + contract.MillisF(ms) + " margin"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// ConductTable lists the entrants' forfeits by reason, eliminations by
// cause, ignored answers and answer times, one row each, for reports; nil
// when no entrant has any.
func ConductTable(title string, who []string, cs []results.Conduct) *Table {
	t := &Table{Title: title, Header: []string{"entrant", "what", "count", "first / figures", "case"}}
	for i, c := range cs {
		name := c.Entrant
		if i < len(who) && who[i] != "" {
			name = who[i] + " = " + c.Entrant
		}
		for _, r := range c.Reasons {
			t.Rows = append(t.Rows, []string{name, "forfeit", strconv.Itoa(r.Count), r.First, r.Case})
		}
		for _, r := range c.Causes {
			t.Rows = append(t.Rows, []string{name, "eliminated", strconv.Itoa(r.Count), r.First, r.Case})
		}
		if c.Ignored > 0 {
			t.Rows = append(t.Rows, []string{name, "ignored answers", strconv.Itoa(c.Ignored), c.IgnoredFirst, c.IgnoredCase})
		}
		if c.Times != nil {
			if f := c.Times.First; f != nil {
				t.Rows = append(t.Rows, []string{name, "first answer times", strconv.Itoa(f.Answers), figures(f), ""})
			}
			if f := c.Times.Later; f != nil {
				t.Rows = append(t.Rows, []string{name, "later answer times", strconv.Itoa(f.Answers), figures(f), ""})
			}
		}
		for _, w := range c.Warnings {
			t.Rows = append(t.Rows, []string{name, "warning", "", w, ""})
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	t.Right = map[int]bool{2: true}
	return t
}

// conductNotes are the report's notes on the entrants' conduct: the
// forfeits of each by reason and its warnings.
func conductNotes(who []string, cs []results.Conduct) []string {
	var out []string
	for i, c := range cs {
		name := c.Entrant
		if i < len(who) && who[i] != "" {
			name = who[i]
		}
		for _, r := range c.Reasons {
			out = append(out, fmt.Sprintf("%s forfeited %d of %d games: %d × %s (first in %s)", name, c.Forfeits, c.Games, r.Count, r.First, r.Case))
		}
		for _, w := range c.Warnings {
			out = append(out, name+": "+w)
		}
	}
	return out
}
