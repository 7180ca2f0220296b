package spsa

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestProgressLineHasETA: the progress line says the iterations applied of
// the budget and the time left at the pace since this process's first
// block.
func TestProgressLineHasETA(t *testing.T) {
	var logs bytes.Buffer
	p := &progress{log: slog.New(slog.NewTextHandler(&logs, nil)), every: time.Nanosecond, study: "s", n: 100,
		start: time.Now().Add(-10 * time.Second), from: -1}
	p.add(make([]pairResult, 5), nil, 25) // 20 applied before, 5 in 10 s: 75 left take 150 s
	line := logs.String()
	_, eta, _ := strings.Cut(line, "eta=")
	d, err := time.ParseDuration(strings.Fields(eta + " ")[0])
	if !strings.Contains(line, "iterations=25/100") || err != nil || d < 150*time.Second || d > 160*time.Second {
		t.Errorf("progress line %q, want iterations=25/100 and an eta of 2m30s (a little more on a slow machine)", line)
	}
	if got := p.eta(100); got != "0s" {
		t.Errorf("eta at the end = %s", got)
	}
}
