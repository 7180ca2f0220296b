package main

import (
	"strings"
	"testing"
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
