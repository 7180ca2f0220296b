package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/harness/results"
	"gauntlet/internal/owner"
	"gauntlet/internal/testbot"
)

// testBot is the absolute path of a misbehaving test bot of a referee's
// testdata (brew/testdata/bots/exit3.sh, ...).
func testBot(t *testing.T, game, dir, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "referees", game, "testdata", dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTimeFlagsAppliedOrRefused: every time-limit flag applies to the game
// or is refused before any game starts (exit 2, naming the value and why);
// each bad value has a valid twin that runs.
func TestTimeFlagsAppliedOrRefused(t *testing.T) {
	dir := t.TempDir()
	brew := []string{"eval", "--game", "brew", "--strategy", "greedy", "--opponents", "random", "--cases", "seeds:1", "--storage", "none", "--quiet"}
	paper := []string{"eval", "--game", "paperio", "--strategy", "simple", "--cases", "seeds:1", "--storage", "none", "--quiet"}
	hex := []string{"eval", "--game", "hextris", "--strategy", "hexgreedy", "--cases", "p1/s0", "--storage", "none", "--quiet"}
	for _, c := range []struct {
		args []string
		bad  string // a flag=value refused, with the message it gives
		want string
		good string // its valid twin
	}{
		{paper, "--first-turn-time=1s", "paperio: --first-turn-time 1s: Paper.io's runner had no first-turn limit", "--turn-time=1s"},
		{hex, "--first-turn-time=1s", "hextris: --first-turn-time 1s: a hextris solver answers once", "--turn-time=2s"},
		{hex, "--turn-time=1500ms", "hextris: --turn-time 1.5s: this game's limit is in whole multiples of 1s", "--turn-time=1s"},
		{brew, "--turn-time=-1s", "invalid value \"-1s\" for flag -turn-time: -1s: must not be negative", "--turn-time=60ms"},
		{brew, "--first-turn-time=-5ms", "must not be negative", "--first-turn-time=5ms"},
		{brew, "--time-margin=-10ms", "invalid value \"-10ms\" for flag -time-margin: -10ms: must not be negative", "--time-margin=0"},
		{brew, "--time-margin=2h", "brew: --time-margin 2h0m0s: must be at most 1h0m0s", "--time-margin=50ms"},
		{brew, "--turn-time=100us", "brew: --turn-time 100µs: must be between 1ms and 24h0m0s", "--turn-time=1ms"},
		{brew, "--turn-time=48h", "must be between 1ms and 24h0m0s", "--turn-time=24h"},
		{brew, "--turn-time=fast", "not a duration (e.g. 50ms, 1.5s): \"fast\"", "--turn-time=50ms"},
		{append(brew, "--no-time-limit"), "--turn-time=60ms", "brew: --turn-time 60ms with --no-time-limit: give one or the other", "--jobs=1"},
		{append(brew, "--no-time-limit"), "--time-margin=5ms", "with --no-time-limit: there is no limit to add it to", "--jobs=1"},
	} {
		t.Run(c.args[2]+c.bad, func(t *testing.T) {
			t.Parallel()
			_, stderr, code := gauntlet(t, dir, append(c.args, c.bad)...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("%s %s: exit %d, stderr %q; want exit 2 and %q", c.args[2], c.bad, code, stderr, c.want)
			}
			if _, stderr, code := gauntlet(t, dir, append(c.args, c.good)...); code != 0 {
				t.Errorf("%s %s (the valid twin of %s): exit %d: %s", c.args[2], c.good, c.bad, code, stderr)
			}
		})
	}
}

// TestABNamesForfeitReasons: ab says why A forfeited, in text and JSON.
func TestABNamesForfeitReasons(t *testing.T) {
	dir := t.TempDir()
	args := []string{"ab", "--game", "brew", "--a", "cmd:" + testBot(t, "brew", "bots", "exit3.sh"), "--b", "greedy",
		"--games", "4", "--storage", "none", "--quiet"}
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 || !strings.Contains(out, "forfeits: A 4, B 0") ||
		!strings.Contains(out, "A   4 × crashed in round 1: exit status 3; stderr: boom (first in seed:1)") {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	out, stderr, code = gauntlet(t, dir, append(args, "--json")...)
	var s results.ABSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	r := s.ConductA.Reasons
	if len(r) != 1 || r[0].Count != 4 || r[0].First != "crashed in round 1: exit status 3; stderr: boom" || s.ConductB.Forfeits != 0 {
		t.Fatalf("conduct A %+v, B %+v", s.ConductA, s.ConductB)
	}
}

// TestBananaBotReported: a Paper.io bot answering a command that is no
// direction scores 0, faithfully, and the output says why, from the store
// too.
func TestBananaBotReported(t *testing.T) {
	dir := t.TempDir()
	args := []string{"eval", "--game", "paperio", "--strategy", "cmd:" + testBot(t, "paperio", "bots", "banana.sh"),
		"--cases", "seeds:1", "--storage", "sqlite:" + filepath.Join(dir, "b.db"), "--run", "banana", "--quiet"}
	out, stderr, code := gauntlet(t, dir, args...)
	want := `ignored answers: 1499 in 1 game; first command "BANANA" is not left, right, up or down (tick 1), in seed:1`
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	// The same run again resumes its stored game: the conduct is the
	// store's.
	out, _, _ = gauntlet(t, dir, append(args, "--json")...)
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || len(s.Conduct) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	c := s.Conduct[0]
	if c.Ignored != 1499 || c.IgnoredCase != "seed:1" || s.Cases[0].Ignored != 1499 || c.Times == nil || c.Times.Later == nil {
		t.Fatalf("conduct %+v", c)
	}
}

// TestBudgetBotsAtDefaults: a bot that spends exactly the statement's
// budgets after reading its input plays every game at the default limits,
// and its answer times are shown (with a warning: it lives at its limit);
// one that spends twice as much forfeits, the reason saying by how much.
//
// A timeout is tried again (testbot.Retry): a stall of the machine past
// the 30 ms margin forfeits the exact bot by no fault of the harness.
func TestBudgetBotsAtDefaults(t *testing.T) {
	testbot.Exact(t)
	dir := t.TempDir()
	budget := strings.Join(testbot.Command("brew-budget"), " ")
	var c results.Conduct
	testbot.Retry(t, func() string {
		out, stderr, code := gauntlet(t, dir, "ab", "--game", "brew", "--a", "cmd:"+budget+" 1 0.05", "--b", "greedy",
			"--games", "2", "--jobs", "2", "--storage", "none", "--quiet", "--json")
		var s results.ABSummary
		if err := json.Unmarshal([]byte(out), &s); err != nil || code != 0 {
			t.Fatalf("exit %d, %v: %s", code, err, stderr)
		}
		c = s.ConductA
		if c.Forfeits > 0 && len(c.Reasons) == 1 && strings.HasPrefix(c.Reasons[0].First, "timeout in round ") {
			return c.Reasons[0].First
		}
		return ""
	})
	if c.Games != 2 || c.Forfeits != 0 || c.Times == nil || c.Times.First == nil || c.Times.Later == nil {
		t.Fatalf("exact budget: %+v", c)
	}
	if f, l := c.Times.First, c.Times.Later; f.Answers != 2 || f.MeanMS < 1000 || f.LimitMS != 1000 || f.MarginMS != 750 ||
		l.MeanMS < 50 || l.LimitMS != 50 || l.MarginMS != 30 || l.P99MS < l.MeanMS || l.MaxMS < l.P99MS || len(c.Warnings) != 2 {
		t.Fatalf("answer times %+v %+v, warnings %q", *f, *l, c.Warnings)
	}
	t.Logf("first %.1f ms, later mean %.1f p99 %.1f max %.1f ms", c.Times.First.MaxMS, c.Times.Later.MeanMS, c.Times.Later.P99MS, c.Times.Later.MaxMS)

	out, stderr, code := gauntlet(t, dir, "eval", "--game", "brew", "--strategy", "cmd:"+budget+" 2 0.1",
		"--cases", "seeds:1", "--storage", "none", "--quiet")
	if code != 0 || !strings.Contains(out, "1 × timeout in round 1: ") || !strings.Contains(out, "limit 1,000 ms + margin 750 ms") {
		t.Fatalf("double budget: exit %d: %s\n%s", code, stderr, out)
	}
}

// markedBy lists the running processes (not zombies) whose bot mark names
// the gauntlet process pid as their owner.
func markedBy(t *testing.T, pid int) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	prefix := []byte("GAUNTLET_BOT_PROC=" + strconv.Itoa(pid) + ".")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, prefix) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil || bytes.Contains(stat, []byte(") Z ")) {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")) // gone since: listed without its command
		out = append(out, e.Name()+" "+string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
	}
	return out
}

// TestEscapedChildBoundedAtDefaults: a brew bot whose child left its
// session (setsid) and keeps its stdout open, and which never answers,
// forfeits at the 1 s first-turn limit (with its margin and the late
// window), not when the child ends, and nothing of it is left running.
func TestEscapedChildBoundedAtDefaults(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process trees are followed on Linux")
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "eval", "--game", "brew", "--strategy", "cmd:"+testBot(t, "brew", "bots", "setsid_child.sh"),
		"--cases", "seeds:1", "--storage", "none", "--quiet")
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	begin := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	took := time.Since(begin)
	// Awaited for the limit and margin and as long again: 2,750 ms or, on a
	// loaded machine, more.
	if took > 5*time.Second || !strings.Contains(out.String(), "1 × timeout in round 1: no answer within ") ||
		testbot.Millis(out.String(), "no answer within ") < 2750 {
		t.Fatalf("after %v:\n%s", took, out.String())
	}
	if left := markedBy(t, cmd.Process.Pid); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
	t.Logf("bounded in %v", took.Round(time.Millisecond))
}

// TestKill9LeavesNothing: a gauntlet killed with -9 takes its bots with it;
// what they started in new sessions is ended by the next gauntlet that
// runs a bot, and temporary directories of dead runs (hextris problem
// files, tune's scratch store) are removed by the next run that makes one.
func TestKill9LeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parent-death signals and process trees are Linux's")
	}
	dir := t.TempDir()
	tmp := t.TempDir()
	env := append(os.Environ(), "TMPDIR="+tmp)
	// Any gauntlet on the machine that starts a bot ends what dead
	// gauntlets' bots left running (by design), and tests of other packages
	// run gauntlets beside this one: one of them may end the escaped
	// children between the kill and the look, and the test tries again.
	var pid int
	for try := 1; ; try++ {
		var survived bool
		if pid, survived = killWithEscapedChildren(t, dir, env); survived {
			break
		}
		if try == 10 {
			t.Fatal("in 10 tries, no escaped child was seen to survive its gauntlet's kill (the rest of the test would be void)")
		}
		t.Logf("try %d: the escaped children were ended before they were looked at; again", try)
	}
	// Dead runs' temporary directories, and a live one's.
	dead := []string{filepath.Join(tmp, "gauntlet-hextris-999999999.1-x"), filepath.Join(tmp, "gauntlet-tune-999999999.1-y")}
	live := filepath.Join(tmp, "gauntlet-hextris-"+owner.Token()+"-z") // this test's own
	for _, d := range append(dead, live) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The next gauntlet running an external solver cleans up.
	next := exec.Command(bin, "eval", "--game", "hextris", "--strategy", "cmd:"+testBot(t, "hextris", "solvers", "exit3.sh"),
		"--cases", "p1/s0", "--storage", "none", "--quiet")
	next.Dir, next.Env = dir, env
	if b, err := next.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if left := markedBy(t, pid); len(left) > 0 {
		t.Errorf("left running after the next start: %q", left)
	}
	if _, err := os.Stat(dead[0]); err == nil {
		t.Errorf("%s: not removed", dead[0])
	}
	tune := exec.Command(bin, "tune", "--game", "hextris", "--strategy", "hexgreedy", "--cases", "p1/s0", "--trials", "1",
		"--storage", "none", "--quiet", "--json")
	tune.Dir, tune.Env = dir, env
	if b, err := tune.CombinedOutput(); err != nil {
		t.Fatalf("tune: %v: %s", err, b)
	}
	if _, err := os.Stat(dead[1]); err == nil {
		t.Errorf("%s: not removed", dead[1])
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the directory of a live process was removed: %v", err)
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != filepath.Base(live) {
			t.Errorf("left in TMPDIR: %s", e.Name())
		}
	}
}

// killWithEscapedChildren starts a gauntlet whose two brew bots each start a
// child in a new session, kills the gauntlet with SIGKILL once both children
// have escaped, and checks that no bot outlived it. It reports the dead
// gauntlet's pid and whether the escaped children were still running when
// the bots were gone.
func killWithEscapedChildren(t *testing.T, dir string, env []string) (pid int, survived bool) {
	t.Helper()
	cmd := exec.Command(bin, "eval", "--game", "brew", "--strategy", "cmd:"+testBot(t, "brew", "bots", "setsid_child.sh"),
		"--cases", "seeds:4", "--jobs", "2", "--storage", "none", "--quiet")
	cmd.Dir, cmd.Env = dir, env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid = cmd.Process.Pid
	count := func(procs []string, what string) int {
		n := 0
		for _, p := range procs {
			if strings.Contains(p, what) {
				n++
			}
		}
		return n
	}
	// Two bots and their two children, in new sessions: "sleep 60" once
	// setsid has run.
	var running []string
	for i := 0; i < 400; i++ {
		if running = markedBy(t, pid); count(running, "setsid_child.sh") == 2 && count(running, "sleep 60") == 2 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if count(running, "sleep 60") < 2 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("bots and their children not started: %q", running)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() // killed: its error says only that
	// The bots die of their parent-death signal, at once.
	var left []string
	for i := 0; i < 200; i++ {
		if left = markedBy(t, pid); count(left, "setsid_child.sh") == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if count(left, "setsid_child.sh") > 0 {
		t.Fatalf("a bot outlived its gauntlet by a second: %q", left)
	}
	return pid, count(left, "sleep 60") > 0
}
