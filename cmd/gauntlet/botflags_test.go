package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
)

// TestBotFlagsAreChecked: a bad value of a flag that bounds external bots
// is a usage error (exit 2) naming the flag, before any game starts.
func TestBotFlagsAreChecked(t *testing.T) {
	dir := t.TempDir()
	base := []string{"eval", "--game", "brew", "--strategy", "greedy", "--cases", "seeds:1", "--storage", "none", "--quiet"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bot-memory", "lots"}, "-bot-memory"},
		{[]string{"--bot-memory", "512"}, "want at least 1M"},
		{[]string{"--bot-memory", "-1G"}, "-bot-memory"},
		{[]string{"--bot-procs", "-1"}, "--bot-procs -1: want at least 0"},
		{[]string{"--clock", "sundial"}, `--clock "sundial": want wall or cpu`},
		{[]string{"--clock", "cpu", "--no-time-limit"}, "--clock cpu with --no-time-limit"},
		{[]string{"--game-timeout", "-1s"}, "-game-timeout"},
		{[]string{"--game-timeout", "400h"}, "--game-timeout 400h0m0s: must be between"},
	} {
		_, stderr, code := gauntlet(t, dir, append(append([]string(nil), base...), c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512M": 512 << 20, "2G": 2 << 30, "1.5g": 3 << 29, "1024KiB": 1 << 20, "1MB": 1 << 20, "1048576": 1 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "x", "NaN", "1e30G", "-5M", "100"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
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

	f := runFlags{jobs: 8, clock: "wall"}
	f.fitJobs(plan, 8)
	if f.jobs != 4 {
		t.Errorf("default jobs on 8 cores with 2 players: %d, want 4", f.jobs)
	}
	f = runFlags{jobs: 2, jobsSet: true, clock: "wall"}
	f.fitJobs(plan, 2)
	if f.jobs != 2 || !strings.Contains(logs.String(), "--jobs 2 with 2 players a game on 2 cores") {
		t.Errorf("--jobs 2 on 2 cores: jobs %d, logs %q; want 2 and a warning", f.jobs, logs.String())
	}
	f = runFlags{jobs: 8, clock: "cpu"}
	f.fitJobs(plan, 2)
	if f.jobs != 8 {
		t.Errorf("CPU clock: jobs %d, want 8 (each bot is charged its own CPU time)", f.jobs)
	}
	plan.Entrants[0] = greedy
	f = runFlags{jobs: 8, clock: "wall"}
	f.fitJobs(plan, 2)
	if f.jobs != 8 {
		t.Errorf("no external bot: jobs %d, want 8", f.jobs)
	}
}
