package reports

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gauntlet/harness/results"
	"gauntlet/tuning/spsa"
)

// spsaStudy is a study of n iterations: x drifts from 1 to 3 over [0, 5],
// k (an integer) from 40 down to 10 over [0, 50], lr on a log scale.
func spsaStudy(n int) *SPSAStudy {
	s := &SPSAStudy{Name: "toy", Game: "g", Strategy: "s", Cases: "seeds:9", Games: 2 * n, Applied: n, Wins: n, Draws: 1, Losses: n - 1,
		Params: []SPSAParam{
			{Name: "x", Kind: "float", Min: 0, Max: 5, Start: 1, CEnd: 0.5, REnd: 0.002},
			{Name: "k", Kind: "int", Min: 0, Max: 50, Start: 40, CEnd: 5, REnd: 0.002},
			{Name: "lr", Kind: "log-float", Min: 0.01, Max: 100, Start: 0.1, CEnd: 0.9, REnd: 0.002},
		},
		Reproducible: "reproducible"}
	for i := 1; i <= n; i++ {
		f := float64(i) / float64(n)
		s.Points = append(s.Points, SPSAPoint{Games: 2 * i, Values: []float64{1 + 2*f, 40 - 30*f, 0.1 * math.Pow(10, f)}})
	}
	last := s.Points[n-1].Values
	for i := range s.Params {
		s.Params[i].Theta = last[i]
		s.Params[i].Final = last[i]
	}
	s.Params[1].Final = math.Round(last[1])
	return s
}

func TestSPSAReportWritesEveryFile(t *testing.T) {
	dir := t.TempDir()
	s := spsaStudy(2500)
	r, err := WriteSPSAReport(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	page := checkFiles(t, dir, r)
	for _, f := range []string{"params.csv", "params.md", "trajectory.csv", "trajectory.svg", "trajectory.png", "param-x.svg", "param-k.png", "param-lr.svg"} {
		if !strings.Contains(" "+strings.Join(r.Files, " ")+" ", " "+f+" ") {
			t.Errorf("report lacks %s: %v", f, r.Files)
		}
	}
	for _, want := range []string{"2500 of 2500", "5000", "2500/1/2499", "k, 60.0% of its range"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if len(r.Notes) != 0 {
		t.Errorf("notes %v", r.Notes)
	}
	p := SPSAParamTable(s)
	if got := strings.Join(p.Rows[0], " "); got != "x float 0 5 1 3 +2 +40.0% 0.5000 0.0020" {
		t.Errorf("x row: %q", got)
	}
	if got := strings.Join(p.Rows[1][:8], " "); got != "k int 0 50 40 10 -30 -60.0%" {
		t.Errorf("k row: %q", got)
	}
	tr := SPSATrajectoryTable(s)
	if len(tr.Rows) != 21 || tr.Rows[0][0] != "0" || tr.Rows[0][1] != "1" || tr.Rows[20][0] != "5000" || tr.Rows[20][1] != "3" || tr.Rows[10][0] != "2500" {
		t.Errorf("trajectory rows %d: first %v, middle %v, last %v", len(tr.Rows), tr.Rows[0], tr.Rows[10], tr.Rows[len(tr.Rows)-1])
	}
	// At most about maxTrajectoryPoints points a line, the start and the
	// last point always among them.
	pts := trajectory(s, 0, func(v float64) float64 { return v })
	if len(pts) > maxTrajectoryPoints+2 || pts[0].X != 0 || pts[0].Y != 1 || pts[len(pts)-1].X != 5000 || pts[len(pts)-1].Y != 3 {
		t.Errorf("%d points, first %v, last %v", len(pts), pts[0], pts[len(pts)-1])
	}
	for _, n := range []int{1, 7, 1000, 1001, 2999} {
		pts := trajectory(spsaStudy(n), 0, func(v float64) float64 { return v })
		if pts[len(pts)-1].X != float64(2*n) || len(pts) > maxTrajectoryPoints+2 {
			t.Errorf("%d iterations: %d points, last %v", n, len(pts), pts[len(pts)-1])
		}
		for i := 1; i < len(pts); i++ {
			if pts[i].X <= pts[i-1].X {
				t.Fatalf("%d iterations: points out of order at %d: %v %v", n, i, pts[i-1], pts[i])
			}
		}
	}
}

func TestSPSAReportOfAnEmptyStudySaysWhy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	s := &SPSAStudy{Name: "empty", Games: 100, Params: []SPSAParam{{Name: "x", Kind: "float", Min: 0, Max: 1, Start: 0.5}}}
	r, err := WriteSPSAReport(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	page := checkFiles(t, dir, r)
	if !strings.Contains(strings.Join(r.Notes, " "), "no applied iteration yet") || !strings.Contains(page, "no applied iteration yet") {
		t.Fatalf("notes %v", r.Notes)
	}
	for _, f := range r.Figures {
		if f.Name != "trajectory" || f.Missing == "" {
			t.Errorf("figure %s drawn for an empty study", f.Name)
		}
	}
	if _, err := WriteSPSAReport(dir, nil); err == nil {
		t.Error("no error for a nil study")
	}
}

// TestSPSAHoldoutTableCountsEliminations: the hold-out table has a column
// of eliminations only where a hold-out counted one, the running hold-outs
// with an empty cell in it.
func TestSPSAHoldoutTableCountsEliminations(t *testing.T) {
	s := spsaStudy(10)
	done := &results.ABSummary{Games: 20, Wins: 12, Losses: 8, Score: 0.6, ForfeitsB: 1}
	s.Holdouts = []spsa.Holdout{
		{Cases: "seeds:1-10", Run: "r1", Status: "done", Stored: 20, Summary: done},
		{Cases: "seeds:11-20", Run: "r2", Status: "running", Stored: 3},
	}
	header := func(tb *Table) string { return strings.Join(tb.Header, "|") }
	if h := header(SPSAHoldoutTable(s)); strings.Contains(h, "eliminated") {
		t.Fatalf("no elimination counted, yet a column: %s", h)
	}
	done.ConductA.Eliminated, done.ConductB.Eliminated = 3, 1
	tb := SPSAHoldoutTable(s)
	col := slices.Index(tb.Header, "eliminated A/B")
	if col < 0 {
		t.Fatalf("eliminations counted, no column: %s", header(tb))
	}
	for i, row := range tb.Rows {
		if len(row) != len(tb.Header) {
			t.Fatalf("row %d has %d cells for %d columns: %q", i, len(row), len(tb.Header), row)
		}
	}
	if got := tb.Rows[0][col]; got != "3/1" {
		t.Errorf("finished hold-out: eliminated %q, want 3/1", got)
	}
	if got := tb.Rows[1][col]; got != "" {
		t.Errorf("running hold-out: eliminated %q, want empty", got)
	}
	if got := tb.Rows[0][col-1]; got != "0/1" {
		t.Errorf("forfeits beside it %q, want 0/1", got)
	}
}
