package lineproc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gauntlet/internal/botlog"
)

// TestStderrByTurn: with Options.Turns, what a bot writes to stderr while
// it answers an input lies in that input's turn, however late the stderr
// reader runs: each Send drains the pipe before it marks the next turn.
func TestStderrByTurn(t *testing.T) {
	bot := filepath.Join(t.TempDir(), "chatty.sh")
	script := "#!/bin/sh\nwhile read l; do echo \"thinking about $l\" >&2; echo \"done $l\" >&2; echo \"ans $l\"; done\n"
	if err := os.WriteFile(bot, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	log := botlog.New(0)
	p, err := Start(context.Background(), []string{bot}, Options{}.WithSeat(log))
	if err != nil {
		t.Fatal(err)
	}
	const turns = 40
	for i := 1; i <= turns; i++ {
		if err := p.Send(fmt.Appendf(nil, "%d\n", i), 0); err != nil {
			t.Fatal(err)
		}
		if line, _, err := p.Answer(0, 0); err != nil || line != fmt.Sprintf("ans %d", i) {
			t.Fatalf("answer %d: %q, %v", i, line, err)
		}
	}
	if err := p.Close(); err != nil {
		t.Logf("close: %v", err) // the bot is killed at the end of its input
	}
	rec := log.Record()
	if len(rec.Turns) != turns+1 {
		t.Fatalf("%d turns, want %d: %q", len(rec.Turns), turns+1, rec.Turns)
	}
	if len(rec.Turns[0]) != 0 {
		t.Errorf("before the first input: %q, want nothing", rec.Turns[0])
	}
	for i := 1; i <= turns; i++ {
		want := []string{fmt.Sprintf("thinking about %d", i), fmt.Sprintf("done %d", i)}
		if !slices.Equal(rec.Turns[i], want) {
			t.Errorf("turn %d: %q, want %q", i, rec.Turns[i], want)
		}
	}
	if tail := p.StderrTail(); !strings.Contains(tail, fmt.Sprintf("done %d", turns)) {
		t.Errorf("the crash tail lost the stderr: %q", tail)
	}
}
