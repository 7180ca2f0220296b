package workflow_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	_ "gauntlet/games" // registers brew
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/workflow"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512M": 512 << 20, "2G": 2 << 30, "1.5g": 3 << 29, "1024KiB": 1 << 20, "1MB": 1 << 20, "1048576": 1 << 20} {
		if got, err := workflow.ParseSize(in); err != nil || got != want {
			t.Errorf("workflow.ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "x", "NaN", "1e30G", "-5M", "100"} {
		if got, err := workflow.ParseSize(in); err == nil {
			t.Errorf("workflow.ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

// TestJobsLeaveEachPlayerACore: with time-limited external bots on the
// wall clock, the default --jobs plays at most cores / players games at
// once; a --jobs given that shares the cores is kept, with a warning.
func TestJobsLeaveEachPlayerACore(t *testing.T) {
	g, err := contract.Default.Game("brew")
	if err != nil {
		t.Fatal(err)
	}
	ext, err := entrant.Parse(contract.Default, "brew", "cmd:sh")
	if err != nil {
		t.Fatal(err)
	}
	greedy, err := entrant.Parse(contract.Default, "brew", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	plan := &runner.Plan{Game: g, Entrants: []*entrant.Entrant{ext, greedy}, Matches: []runner.Match{{Seats: []int{0, 1}}}}
	var logs bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))

	f := workflow.Options{Jobs: 8, Clock: "wall"}
	f.FitJobs(plan, 8)
	if f.Jobs != 4 {
		t.Errorf("default jobs on 8 cores with 2 players: %d, want 4", f.Jobs)
	}
	f = workflow.Options{Jobs: 2, JobsSet: true, Clock: "wall"}
	f.FitJobs(plan, 2)
	if f.Jobs != 2 || !strings.Contains(logs.String(), "--jobs 2 with 2 players a game on 2 cores") {
		t.Errorf("--jobs 2 on 2 cores: jobs %d, logs %q; want 2 and a warning", f.Jobs, logs.String())
	}
	f = workflow.Options{Jobs: 8, Clock: "cpu"}
	f.FitJobs(plan, 2)
	if f.Jobs != 8 {
		t.Errorf("CPU clock: jobs %d, want 8 (each bot is charged its own CPU time)", f.Jobs)
	}
	plan.Entrants[0] = greedy
	f = workflow.Options{Jobs: 8, Clock: "wall"}
	f.FitJobs(plan, 2)
	if f.Jobs != 8 {
		t.Errorf("no external bot: jobs %d, want 8", f.Jobs)
	}
}
