package e2e

import (
	"strings"
	"testing"
)

// TestPlayShowsAnswers: play reports an external bot's ignored answers
// and answer times in words, as ab and eval do, not as Go values.
func TestPlayShowsAnswers(t *testing.T) {
	bot := testBot(t, "brew", "bots", "banana.sh")
	out, stderr, code := gauntlet(t, t.TempDir(), "play", "--game", "brew", "--case", "seed:1",
		"--entrants", "greedy", "--entrant", "cmd:"+bot, "--quiet")
	if code != 0 {
		t.Fatalf("play: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"seat 1 ignored answers: ", `first "BREW 9999"`, "seat 1 answer times: first mean "} {
		if !strings.Contains(out, want) {
			t.Errorf("play output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0x") || strings.Contains(out, "answers: [") {
		t.Errorf("play output shows the answers as Go values:\n%s", out)
	}
}
