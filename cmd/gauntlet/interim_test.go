package main

import (
	"encoding/json"
	"strings"
	"testing"

	"gauntlet/harness/results"
	"gauntlet/workflow"
)

// TestABInterimStatistics: ab --report-every prints interim lines on
// stderr, the last of them the figures of ab --json's summary; --quiet
// prints none, and a bad value is a usage error.
func TestABInterimStatistics(t *testing.T) {
	dir := t.TempDir()
	args := []string{"ab", "--game", "pips", "--a", "skill:skill=7", "--b", "skill", "--games", "40", "--sprt", "0,10",
		"--storage", "none", "--jobs", "2", "--report-every", "8"}
	out, stderr, code := gauntlet(t, dir, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("ab: exit %d: %s", code, stderr)
	}
	var s results.ABSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	var last string
	for l := range strings.Lines(stderr) {
		if strings.HasPrefix(l, "ab: ") {
			last = strings.TrimSpace(l)
		}
	}
	if want := workflow.ABInterimLine(&s, true); s.Stopped || last != want {
		t.Errorf("the last interim line is\n  %s\nthe summary's (stopped %v)\n  %s\nstderr:\n%s", last, s.Stopped, want, stderr)
	}
	if _, stderr, code := gauntlet(t, dir, append(args, "--quiet")...); code != 0 || strings.Contains(stderr, "ab: ") {
		t.Errorf("ab --quiet: exit %d, stderr\n%s", code, stderr)
	}
	if _, stderr, code := gauntlet(t, dir, append(args, "--report-every", "soon")...); code != 2 || !strings.Contains(stderr, "-report-every") {
		t.Errorf("ab --report-every soon: exit %d, stderr\n%s", code, stderr)
	}
}
