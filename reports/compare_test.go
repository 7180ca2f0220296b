package reports

import (
	"strings"
	"testing"

	"gauntlet/harness/results"
	"gauntlet/harness/stats"
)

func TestCompareHeadlineAndTable(t *testing.T) {
	c := &results.Comparison{Game: "duel", Seats: 2, Common: 1, Better: 1,
		Base:   results.ComparedRun{ID: "old", Entrant: "a:x=1", Others: []string{"b"}},
		Run:    results.ComparedRun{ID: "new", Entrant: "a:x=2", Others: []string{"b"}, Points: 1, Firsts: 1},
		SignP:  1,
		Margin: stats.Estimate{Value: 240, Lo: 240, Hi: 240, Note: "one value: no interval"},
		Games: []results.ComparedGame{{Key: "seed:1/ab", Change: 1,
			Base: results.SeatSample{Score: 900, Rank: 2, Margin: -123},
			Run:  results.SeatSample{Score: 1000, Rank: 1, Margin: 117, Forfeit: "timeout"}}},
	}
	h := CompareHeadline(c)
	for _, want := range []string{"base old (a:x=1) → run new (a:x=2); others b", "1 game in common",
		"1 better, 0 worse", "run − base +240 (one value: no interval)"} {
		if !strings.Contains(h, want) {
			t.Errorf("headline lacks %q:\n%s", want, h)
		}
	}
	tb := CompareTable(c, false)
	if len(tb.Rows) != 1 || tb.Rows[0][0] != "seed:1/ab" || tb.Rows[0][5] != "1000 (forfeit)" || tb.Rows[0][7] != "better" {
		t.Errorf("table rows %q", tb.Rows)
	}
	c.Eliminations, c.Base.Eliminated = true, 1
	c.Games[0].Base.Eliminated = "faced the border"
	if h := CompareHeadline(c); !strings.Contains(h, "; eliminated 1 → 0\n") {
		t.Errorf("headline lacks the eliminations:\n%s", h)
	}
	if tb := CompareTable(c, false); tb.Rows[0][2] != "900 (eliminated)" {
		t.Errorf("the eliminated seat's score is not marked: %q", tb.Rows[0])
	}
	c.Games[0].Change = 0
	if tb := CompareTable(c, false); len(tb.Rows) != 0 {
		t.Errorf("an unchanged game listed without --all: %q", tb.Rows)
	}
	if tb := CompareTable(c, true); len(tb.Rows) != 1 || tb.Rows[0][7] != "same" {
		t.Errorf("--all rows %q", tb.Rows)
	}
}
