package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gauntlet/harness/entrant"
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
	if !strings.Contains(out, "2 played, 0 resumed") || !strings.Contains(stderr, "limits") || !strings.Contains(stderr, "turn=1ms") {
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
	// The caps on a bot's memory, processes and game time make other runs
	// too, except the defaults given by name.
	for _, lim := range [][]string{{"--bot-memory", "1G"}, {"--bot-procs", "8"}, {"--game-timeout", "1h"}} {
		out, stderr = eval(append([]string{"--turn-time", "60ms"}, lim...)...)
		if !strings.Contains(out, "2 played, 0 resumed") || !strings.Contains(stderr, "limits") {
			t.Fatalf("%v resumed the run without it or did not say why:\n%s\n%s", lim, out, stderr)
		}
	}
	out, _ = eval("--turn-time", "60ms", "--bot-procs", "256")
	if !strings.Contains(out, "0 played, 2 resumed") {
		t.Fatalf("the default --bot-procs given by name did not resume: %s", out)
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

// writeScript writes an executable shell script into dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunIdentityKeepsArgumentBoundaries: the same bot given x "a b" and
// then x a b is two commands, so two runs; each resumes its own.
func TestRunIdentityKeepsArgumentBoundaries(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")
	bot := writeScript(t, dir, "bot.sh", "exec "+entrant.JoinCommand(testbot.Command("brew-budget", "0", "0")))
	eval := func(strategy string) string {
		t.Helper()
		out, stderr, code := gauntlet(t, dir, "eval", "--game", "brew", "--strategy", strategy, "--opponents", "random",
			"--cases", "seeds:3", "--storage", db, "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strategy, code, stderr)
		}
		return out
	}
	if out := eval(`cmd:` + bot + ` x "a b"`); !strings.Contains(out, "3 played, 0 resumed") {
		t.Fatalf("first run: %s", out)
	}
	if out := eval(`cmd:` + bot + ` x a b`); !strings.Contains(out, "3 played, 0 resumed") {
		t.Fatalf(`x a b resumed the run of x "a b":%s`, out)
	}
	if out := eval(`cmd:` + bot + ` x 'a b'`); !strings.Contains(out, "0 played, 3 resumed") {
		t.Fatalf(`x 'a b' did not resume the run of x "a b": %s`, out)
	}
}

// TestRunIdentityIgnoresFilesTheBotWrites: a log the bot writes into,
// named on its command line, is not part of the run's identity: three
// workers share one run (each game starts the bot once), and the same
// command again resumes it.
func TestRunIdentityIgnoresFilesTheBotWrites(t *testing.T) {
	const games = 12
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")
	writeScript(t, dir, "bot.sh", `echo start >> "$1"; exec `+entrant.JoinCommand(testbot.Command("brew-budget", "0.1", "0")))
	log := filepath.Join(dir, "plays.log")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--game", "brew", "--strategy", "cmd:./bot.sh plays.log", "--opponents", "random",
		"--cases", fmt.Sprintf("seeds:%d", games), "--storage", db, "--jobs", "1", "--quiet", "--first-turn-time", "10s", "--turn-time", "2s"}
	starts := func() int {
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), "start")
	}
	first := exec.Command(bin, args...)
	first.Dir = dir
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	// The others start once the first worker's bot has written its log.
	for deadline := time.Now().Add(time.Minute); starts() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatal("the first worker's bot never started")
		}
	}
	var wg sync.WaitGroup
	stderrs := make([]string, 2)
	for i := range stderrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, stderrs[i], _ = gauntlet(t, dir, args...)
		}()
	}
	wg.Wait()
	if err := first.Wait(); err != nil {
		t.Fatalf("first worker: %v: %s", err, firstErr.String())
	}
	for _, s := range append(stderrs, firstErr.String()) {
		if strings.Contains(s, "new run") {
			t.Errorf("a worker forked the run: %s", s)
		}
	}
	// A game is started once, by one worker; a worker may start one more
	// that another has just finished.
	if n := starts(); n < games || n > games+2 {
		t.Errorf("%d bot starts for %d games, want %d to %d: the workers did not share one run", n, games, games, games+2)
	}
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("0 played, %d resumed", games)) {
		t.Fatalf("the same command again: exit %d: %s%s", code, out, stderr)
	}
}

// TestNewRunWhileAnotherPlaysIsAWarning: a worker that finds the run it
// would join made with other bot files says so, as a warning naming the
// unfinished run, and does not quietly start another.
func TestNewRunWhileAnotherPlaysIsAWarning(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "g.db")
	bot := func(first string) {
		writeScript(t, dir, "bot.sh", `echo start >> plays.log; exec `+entrant.JoinCommand(testbot.Command("brew-budget", first, "0")))
	}
	bot("0.5")
	args := []string{"eval", "--game", "brew", "--strategy", "cmd:./bot.sh", "--opponents", "random", "--cases", "seeds:20",
		"--storage", db, "--jobs", "1", "--quiet", "--first-turn-time", "10s", "--turn-time", "2s"}
	first := exec.Command(bin, args...)
	first.Dir = dir
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		first.Process.Kill()
		first.Wait()
	}()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "plays.log")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first worker's bot never started")
		}
	}
	bot("0") // rebuilt while the first worker plays
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 || !strings.Contains(out, "20 played, 0 resumed") {
		t.Fatalf("second worker: exit %d: %s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "level=WARN") || !strings.Contains(stderr, "files of cmd:./bot.sh changed") || !strings.Contains(stderr, "is not finished") {
		t.Fatalf("the second worker started another run without a warning naming the unfinished one:\n%s", stderr)
	}
}
