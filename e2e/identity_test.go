package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/internal/testbot"
)

// TestRunIdentityHoldsLimitsAndBotFiles: the settings that change an
// external bot's results make another run, and the output says why; the
// same settings resume the stored run.
func TestRunIdentityHoldsLimitsAndBotFiles(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")
	bot := filepath.Join(dir, "bot.sh")
	writeBot := func(version string) {
		t.Helper()
		script := "#!/bin/sh\n# " + version + "\nexec " + strings.Join(testbot.Command("brew-budget", "0", "0"), " ") + "\n"
		if err := os.WriteFile(bot, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeBot("v1")
	eval := func(extra ...string) (string, string) {
		t.Helper()
		args := append([]string{"eval", "--game", "brew", "--strategy", "cmd:" + bot, "--opponents", "random",
			"--cases", "seeds:2", "--storage", db, "--quiet"}, extra...)
		out, stderr, code := gauntlet(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		return out, stderr
	}
	out, _ := eval("--turn-time", "60ms")
	if !strings.Contains(out, "2 played, 0 resumed") {
		t.Fatalf("first run: %s", out)
	}
	out, stderr := eval("--turn-time", "1ms")
	if !strings.Contains(out, "2 played, 0 resumed") || !strings.Contains(stderr, "time limits") || !strings.Contains(stderr, "turn=1ms") {
		t.Fatalf("another --turn-time resumed the run or did not say why:\n%s\n%s", out, stderr)
	}
	out, _ = eval("--turn-time", "60ms")
	if !strings.Contains(out, "0 played, 2 resumed") {
		t.Fatalf("the same settings did not resume: %s", out)
	}
	out, _ = eval("--no-time-limit")
	if !strings.Contains(out, "2 played, 0 resumed") {
		t.Fatalf("--no-time-limit resumed a timed run: %s", out)
	}
	writeBot("v2")
	out, stderr = eval("--turn-time", "60ms")
	if !strings.Contains(out, "2 played, 0 resumed") || !strings.Contains(stderr, "files of cmd:"+bot+" changed") {
		t.Fatalf("a rebuilt bot resumed the old bot's run or did not say why:\n%s\n%s", out, stderr)
	}
	// Built-in strategies keep resuming as before.
	args := []string{"eval", "--game", "brew", "--strategy", "greedy", "--cases", "seeds:2", "--storage", db, "--quiet"}
	gauntlet(t, dir, append(args, "--turn-time", "60ms")...)
	out, _, _ = gauntlet(t, dir, append(args, "--turn-time", "1ms")...)
	if !strings.Contains(out, "0 played, 2 resumed") {
		t.Fatalf("a built-in strategy's run depends on bot time limits: %s", out)
	}
}
