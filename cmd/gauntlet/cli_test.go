package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/internal/testbot"
	"gauntlet/internal/testjson"
)

// The test binary doubles as the gauntlet binary: with GAUNTLET_CLI_MAIN
// set it runs the CLI, so tests can start real processes (workers to kill,
// external bots) without a separate build.
func TestMain(m *testing.M) {
	testbot.Main()
	if os.Getenv("GAUNTLET_CLI_MAIN") != "" {
		os.Exit(mainCode(os.Args[1:], &env{os.Stdin, os.Stdout, os.Stderr}))
	}
	os.Exit(m.Run())
}

// gauntlet runs the CLI in this process with dir as the working directory
// (mainCode, what main exits with) and returns stdout, stderr and the exit
// status. The tests that need a real process (to kill it, to feed it
// stdin, to see what it leaves behind) start one themselves. The CLI's own
// children (external bots given as this binary) see GAUNTLET_CLI_MAIN, as
// they would under a CLI process.
func gauntlet(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("GAUNTLET_CLI_MAIN", "1")
	return inProcess(t, args...)
}

// inProcess runs the CLI in this process (mainCode, what main exits
// with) and returns stdout, stderr and the exit status; stdin is empty.
// The caller must not be parallel: mainCode sets the default logger.
func inProcess(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	defer slog.SetDefault(slog.Default())
	var out, errb bytes.Buffer
	code := mainCode(args, &env{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), code
}

func TestEvalIsDeterministicWhateverJobs(t *testing.T) {
	dir := t.TempDir()
	args := []string{"eval", "--game", "pips", "--strategy", "skill:skill=6", "--opponents", "skill", "--cases", "seeds:30", "--json", "--quiet"}
	one, e1, c1 := gauntlet(t, dir, append(args, "--jobs", "1", "--storage", "none")...)
	two, e2, c2 := gauntlet(t, dir, append(args, "--jobs", "2", "--storage", "none")...)
	again, _, _ := gauntlet(t, dir, append(args, "--jobs", "2", "--storage", "sqlite:"+filepath.Join(dir, "g.db"))...)
	if c1 != 0 || c2 != 0 {
		t.Fatalf("exit %d %d: %s %s", c1, c2, e1, e2)
	}
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(one), &s); err != nil || s.Games != 30 {
		t.Fatalf("eval --json: %v %+v", err, s)
	}
	if one != two {
		t.Fatalf("--jobs 1 and --jobs 2 differ:\n%s\n%s", one, two)
	}
	// The stored run has a run ID in it; everything else must agree.
	var s3 results.EvalSummary
	json.Unmarshal([]byte(again), &s3)
	s3.Run = s.Run
	a := testjson.Marshal(t, s)
	b := testjson.Marshal(t, s3)
	if string(a) != string(b) {
		t.Fatalf("stored run differs:\n%s\n%s", a, b)
	}
}

// TestEvalStandings: a line-up of three seats or more prints every seat's
// record after the case table, and --md writes it too.
func TestEvalStandings(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "t.md")
	out, stderr, code := gauntlet(t, dir, "eval", "--game", "paperio", "--strategy", "paperpaths:paths=8",
		"--opponents", "simple*2", "--cases", "seeds:2", "--storage", "none", "--quiet", "--md", md)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	file, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{out, string(file)} {
		i := strings.Index(text, "every seat of the line-up (2 games)")
		if i < 0 {
			t.Fatalf("no standings table in:\n%s", text)
		}
		rows := 0
		for _, l := range strings.Split(text[i:], "\n") {
			row := strings.HasPrefix(l, "│") || strings.HasPrefix(l, "|")
			if row && (strings.Contains(l, " paperpaths:paths=8 ") || strings.Contains(l, " simple ")) {
				rows++
			}
		}
		if rows != 3 {
			t.Errorf("%d rows of seats, want 3:\n%s", rows, text[i:])
		}
	}
}

func TestABStrongBeatsWeakAndSPRTAcceptsH1(t *testing.T) {
	out, stderr, code := gauntlet(t, t.TempDir(), "ab", "--game", "pips", "--a", "skill:skill=9", "--b", "skill:skill=1",
		"--games", "600", "--sprt", "0,10", "--json", "--quiet", "--storage", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s results.ABSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.SPRT != "H1" || s.Score < 0.9 || s.Elo < 100 || !s.Stopped || s.Games >= 600 {
		t.Fatalf("strong vs weak: sprt %s score %.3f elo %.1f stopped %v games %d", s.SPRT, s.Score, s.Elo, s.Stopped, s.Games)
	}
}

func TestBadInputIsOneClearLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--game", "nope", "--strategy", "x"}, `unknown game "nope"`},
		{[]string{"eval", "--game", "pips", "--strategy", "nope"}, `nope`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill:bogus=1"}, `unknown param "bogus"`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill:skill=99"}, `skill`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill", "--cases", "seedz"}, `unknown pips case set "seedz"`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill", "--opponent", "cmd:./no-such-bot"}, `no-such-bot`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill", "--storage", "postgres://x@127.0.0.1:1/none"}, `unreachable`},
		{[]string{"ab", "--game", "pips", "--a", "skill", "--b", "skill:skill=1", "--sprt", "10,0"}, `elo1 must be greater`},
		{[]string{"eval", "--game", "pips", "--strategy", "skill", "--opponents", "skill", "skill:skill=2"}, `unexpected argument "skill:skill=2"`},
		{[]string{"ab", "--game", "pips", "--a", "skill", "--b", "skill:skill=1", "stray"}, `unexpected argument "stray"`},
		{[]string{"play", "--game", "pips", "--case", "seed:1", "--entrants", "skill,skill", "stray"}, `unexpected argument "stray"`},
		{[]string{"list", "stray"}, `unexpected argument "stray"`},
	} {
		_, stderr, code := gauntlet(t, dir, c.args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code == 0 || !strings.Contains(stderr, c.want) || len(lines) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gauntlet.db")); err == nil {
		t.Error("bad input left a database behind")
	}
}

// TestKilledRunResumes kills an eval with SIGKILL while external bots are
// playing, runs the same command again, and checks that the store ends with
// every game exactly once.
func TestKilledRunResumes(t *testing.T) {
	// Each game starts a bot process (a race build under make test, about
	// half a second to start): 30 games in the -short form, 60 at full size.
	n := 60
	if testing.Short() {
		n = 30
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"eval", "--game", "pips", "--strategy", "skill", "--cases", fmt.Sprint("seeds:", n), "--jobs", "2",
		"--opponent", "cmd:" + os.Args[0] + " bot pips skill:skill=2", "--no-time-limit",
		"--storage", "sqlite:" + db, "--run", "killme", "--quiet", "--json"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stored := func() int {
		st, err := store.Open(ctx, "sqlite:"+db)
		if err != nil {
			return 0
		}
		defer st.Close()
		g, err := st.Games(ctx, "killme")
		if err != nil {
			return 0
		}
		return len(g)
	}
	deadline := time.Now().Add(60 * time.Second)
	for stored() < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the worker and its bots
	cmd.Wait()
	before := stored()
	if before == 0 || before >= n {
		t.Fatalf("%d games stored before the kill; want some but not all", before)
	}
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.Games != n || s.Missing != 0 {
		t.Fatalf("resumed summary: %v games=%d missing=%d", err, s.Games, s.Missing)
	}
	st, err := store.Open(ctx, "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rows, distinct int
	if err := st.DB().QueryRow(`SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = 'killme'`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != n || distinct != n {
		t.Fatalf("after resume: %d rows, %d distinct games; want %d and %d", rows, distinct, n, n)
	}
	fmt.Printf("killed after %d of %d games; resumed to %d distinct games\n", before, n, n)
}

// TestCPUProfile: GAUNTLET_CPUPROFILE writes a profile pprof reads (a
// gzipped protocol buffer) of any command; a path that cannot be written
// is a usage error before the command runs.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	cmd := exec.Command(os.Args[0], "eval", "--game", "pips", "--strategy", "skill", "--opponents", "skill", "--cases", "seeds:20", "--storage", "none", "--quiet")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1", "GAUNTLET_CPUPROFILE="+prof)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile of %d bytes does not start as gzip: % x", len(b), b[:min(len(b), 4)])
	}

	cmd = exec.Command(os.Args[0], "list")
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1", "GAUNTLET_CPUPROFILE="+filepath.Join(dir, "no", "such", "dir", "cpu.prof"))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "GAUNTLET_CPUPROFILE") {
		t.Fatalf("unwritable profile: %v, %s; want exit 2 naming GAUNTLET_CPUPROFILE", err, out)
	}
}
