package workflow_test

import (
	"bytes"
	"context"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/workflow"
)

// abRequest is an ab run of brew's greedy strategy against a small beam
// search (the games go either way), on two jobs, nothing stored.
func abRequest(games int, sprt string) workflow.ABRequest {
	req := workflow.ABRequest{Options: workflow.NewOptions(), A: "greedy", B: "brewbeam:width=3,depth=3,nodes=300", Games: games, SPRT: sprt}
	req.Game, req.Storage, req.Jobs, req.JobsSet = "brew", "none", 2, true
	return req
}

var interimLine = regexp.MustCompile(`^ab: (\d+)/(\d+) games: (.*)$`)

// interimLines are the interim statistics lines of progress, by the games
// they count (after "games: ").
func interimLines(t *testing.T, progress string) map[int]string {
	t.Helper()
	out := map[int]string{}
	for l := range strings.Lines(progress) {
		m := interimLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		out[n] = m[3]
	}
	return out
}

// TestABInterimEqualsARunOfThoseGames: each interim line of an ab run
// (every 4 games, with an SPRT) says what an ab run of exactly those games
// reports at its end: the same W/D/L, score, Elo interval and LLR.
func TestABInterimEqualsARunOfThoseGames(t *testing.T) {
	ctx := context.Background()
	req := abRequest(40, "0,10")
	req.Report = workflow.Every{Games: 4}
	var progress bytes.Buffer
	res, err := workflow.AB(ctx, req, &progress)
	if err != nil {
		t.Fatal(err)
	}
	lines := interimLines(t, progress.String())
	if len(lines) < 3 {
		t.Fatalf("interim lines %v in\n%s", lines, progress.String())
	}
	if !strings.Contains(progress.String(), "LLR ") {
		t.Errorf("an ab run with --sprt shows no LLR:\n%s", progress.String())
	}
	counts := slices.Sorted(maps.Keys(lines))
	if testing.Short() {
		// The first line, one from the middle and the last: each checked
		// line replays its games.
		counts = []int{counts[0], counts[len(counts)/2], counts[len(counts)-1]}
	}
	for _, n := range counts {
		got := lines[n]
		if n > res.Summary.Games {
			t.Errorf("an interim line counts %d games, the run %d", n, res.Summary.Games)
		}
		short := abRequest(n, "0,10")
		short.Quiet = true
		r, err := workflow.AB(ctx, short, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := interimLine.FindStringSubmatch(workflow.ABInterimLine(r.Summary, true))
		if m == nil || m[1] != strconv.Itoa(n) || m[3] != got {
			t.Errorf("after %d games the interim line says\n  %s\na run of those games ends with\n  %v", n, got, m)
		}
	}
}

// TestABInterimOff: no interim line with Quiet or --report-every 0, and
// none before a period that has not passed.
func TestABInterimOff(t *testing.T) {
	for name, req := range map[string]workflow.ABRequest{
		"quiet": func() workflow.ABRequest {
			r := abRequest(12, "")
			r.Quiet, r.Report = true, workflow.Every{Games: 1}
			return r
		}(),
		"off": func() workflow.ABRequest { r := abRequest(12, ""); r.Report = workflow.Every{Off: true}; return r }(),
		"period": func() workflow.ABRequest {
			r := abRequest(12, "")
			r.Report = workflow.Every{Period: time.Hour}
			return r
		}(),
	} {
		var progress bytes.Buffer
		if _, err := workflow.AB(context.Background(), req, &progress); err != nil {
			t.Fatal(err)
		}
		if lines := interimLines(t, progress.String()); len(lines) > 0 {
			t.Errorf("%s: interim lines %v", name, lines)
		}
	}
}

func TestEveryFlag(t *testing.T) {
	for in, want := range map[string]workflow.Every{"200": {Games: 200}, "30s": {Period: 30 * time.Second}, "0": {Off: true}, "0s": {Off: true}} {
		var e workflow.Every
		if err := e.Set(in); err != nil || e != want {
			t.Errorf("Set(%q) = %+v, %v; want %+v", in, e, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "-3s", "1.5"} {
		var e workflow.Every
		if err := e.Set(in); err == nil {
			t.Errorf("Set(%q) = %+v, want an error", in, e)
		}
	}
}
