package reports

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
)

// ReplayPick is a game worth watching in a report: why, its case, and the
// match keys of its games (one for an eval, the seat-swapped pair of an ab
// case in games of two or more seats).
type ReplayPick struct {
	Why  string
	Case string
	Keys []string
}

// ReplayLink is a viewer page written next to a report.
type ReplayLink struct {
	Why  string // "best", "worst", "median", "A's largest win" ...
	Case string // the case, as the report's tables name it
	Key  string // the game's match key
	File string // the page, relative to the report directory
}

// PickEvalReplays chooses the telling cases of an eval: the best, the worst
// and the median by seat 0's score (d says which end is best),
// each case once.
func PickEvalReplays(s *results.EvalSummary, d contract.Direction) []ReplayPick {
	var cs []results.EvalCase
	for _, c := range s.Cases {
		if !math.IsNaN(c.Score) {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return nil
	}
	slices.SortStableFunc(cs, func(a, b results.EvalCase) int {
		if d == contract.Higher {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.Score, b.Score)
	})
	var out []ReplayPick
	seen := map[string]bool{}
	add := func(why string, c results.EvalCase) {
		if !seen[c.Case] {
			seen[c.Case] = true
			out = append(out, ReplayPick{Why: why, Case: c.Case, Keys: []string{c.Case}})
		}
	}
	add("best", cs[0])
	add("median", cs[len(cs)/2])
	add("worst", cs[len(cs)-1])
	return out
}

// PickABReplays chooses the cases of an ab run where A and B differ most:
// in single-player games the largest A − B each way; in games of two or
// more seats the cases with the largest score margin over the pair, both
// games of each. A lower score is better when d is Lower.
func PickABReplays(s *results.ABSummary, single bool, d contract.Direction, n int) []ReplayPick {
	type scored struct {
		c      results.ABCase
		margin float64 // A's advantage, positive when A did better
	}
	var cs []scored
	for _, c := range s.Cases {
		var m float64
		for i := range min(len(c.A), len(c.B)) {
			m += c.A[i] - c.B[i]
		}
		if d == contract.Lower {
			m = -m
		}
		if !math.IsNaN(m) {
			cs = append(cs, scored{c, m})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	keys := func(c string) []string {
		if single {
			return []string{c + "/a", c + "/b"}
		}
		return []string{c + "/ab", c + "/ba"}
	}
	slices.SortStableFunc(cs, func(a, b scored) int { return cmp.Compare(b.margin, a.margin) })
	var out []ReplayPick
	for i := 0; i < len(cs) && len(out) < (n+1)/2 && cs[i].margin > 0; i++ {
		out = append(out, ReplayPick{Why: "A's largest margin", Case: cs[i].c.Case, Keys: keys(cs[i].c.Case)})
	}
	for i := len(cs) - 1; i >= 0 && len(out) < n && cs[i].margin < 0; i-- {
		out = append(out, ReplayPick{Why: "B's largest margin", Case: cs[i].c.Case, Keys: keys(cs[i].c.Case)})
	}
	return out
}

// ReplayFile is the file name of a game's viewer page in a report:
// replays/<key with unsafe characters replaced>.html.
func ReplayFile(key string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, key)
	return "replays/" + safe + ".html"
}

// Option adds to a report.
type Option func(*Report)

// WithReplays links viewer pages from the report: a "Watch" list under the
// headline, and the case column of the case tables.
func WithReplays(links []ReplayLink) Option {
	return func(r *Report) { r.Replays = append(r.Replays, links...) }
}

// linkCases sets the links of the case tables from the replays: a row whose
// first cell is a replayed case links to its first page.
func (r *Report) linkCases() {
	if len(r.Replays) == 0 {
		return
	}
	byCase := map[string]string{}
	for _, l := range r.Replays {
		if _, ok := byCase[l.Case]; !ok {
			byCase[l.Case] = l.File
		}
	}
	for i := range r.Tables {
		tf := &r.Tables[i]
		if tf.Name != "cases" {
			continue
		}
		for _, row := range tf.Table.Rows {
			if len(row) > 0 {
				if f, ok := byCase[row[0]]; ok {
					if tf.Links == nil {
						tf.Links = map[string]string{}
					}
					tf.Links[row[0]] = f
				}
			}
		}
	}
	for _, l := range r.Replays {
		r.Files = append(r.Files, l.File)
	}
}

var longDecimal = regexp.MustCompile(`-?\d+\.\d{5,}(?:[eE][-+]?\d+)?`)

// shortNums rounds the long decimals in a label (tuned parameter values such
// as price_weight=1.744476237984022) to four significant digits for titles.
func shortNums(s string) string {
	return longDecimal.ReplaceAllStringFunc(s, func(m string) string {
		x, err := strconv.ParseFloat(m, 64)
		if err != nil {
			return m
		}
		return strconv.FormatFloat(x, 'g', 4, 64)
	})
}
