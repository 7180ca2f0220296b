package brew

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/internal/botlimit"
	"gauntlet/internal/testbot"
)

// The bots of these tests are the scripts of testdata/bots.
func bot(name string, args ...string) Agent {
	return Agent{Command: append([]string{"testdata/bots/" + name}, args...)}
}

// defaults are the limits and margins the harness gives an external bot.
func defaults() MatchOptions {
	return MatchOptions{Margin: DefaultMargin, FirstTurnMargin: DefaultFirstTurnMargin}
}

// TestBudgetBotPlaysAtDefaults: a compiled bot that spends exactly the
// statement's budgets (1,000 ms, then 50 ms), timed from when it has read
// its input,
// plays the whole game at the default limits; its answer times are
// recorded, each at least its budget (within a millisecond: below). A
// timeout is tried again (testbot.Retry): a stall of the machine past the
// 30 ms margin forfeits the bot by no fault of the referee.
func TestBudgetBotPlaysAtDefaults(t *testing.T) {
	testbot.Exact(t)
	t.Parallel()
	var res MatchResult
	testbot.Retry(t, func() string {
		var err error
		res, err = PlayMatch(context.Background(), 5, 3, [Players]Agent{Agent{Command: testbot.Command("brew-budget", "1", "0.05")}, {Bot: newRandBot(2)}}, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(res.Reason[0], "timeout in round ") {
			return res.Reason[0]
		}
		return ""
	})
	if res.Reason[0] != "" || !res.Active[0] {
		t.Fatalf("the budget bot forfeited: %q", res.Reason[0])
	}
	times := res.Times[0]
	if len(times) != res.Rounds || res.Rounds < 2 {
		t.Fatalf("%d answer times for %d rounds", len(times), res.Rounds)
	}
	// The answer clock starts when the write of the turn's input returns;
	// the bot can have read it, and started its budget, a little before
	// that thread runs again (49.54 ms was once seen for 50 ms on a loaded
	// machine). A clock started anywhere else is off by far more.
	const early = time.Millisecond
	if times[0] < DefaultFirstTurnTime-early {
		t.Errorf("first answer after %v, before its budget", times[0])
	}
	worst := time.Duration(0)
	for _, d := range times[1:] {
		if d < DefaultTurnTime-early {
			t.Errorf("an answer after %v, before its budget", d)
		}
		worst = max(worst, d)
	}
	t.Logf("%d rounds; first answer %v, slowest later %v", res.Rounds, times[0], worst)
}

// TestDoubleBudgetForfeits: a bot that spends twice the budget forfeits on
// the first turn with a reason that says by how much it missed.
func TestDoubleBudgetForfeits(t *testing.T) {
	t.Parallel()
	res, err := PlayMatch(context.Background(), 5, 3, [Players]Agent{{Bot: newRandBot(2)}, Agent{Command: testbot.Command("brew-budget", "2", "0.1")}}, defaults())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Reason[1]
	if res.Rounds != 1 || !strings.HasPrefix(r, "timeout in round 1: ") || !strings.Contains(r, "limit 1,000 ms + margin 750 ms") ||
		!(testbot.Millis(r, "answered after ") >= 2000 || testbot.Millis(r, "no answer within ") >= 2750) {
		t.Fatalf("rounds %d, reason %q", res.Rounds, r)
	}
	t.Log(r)
}

// TestEscapedChildDoesNotHoldTheGame: a bot whose child left its session
// and keeps its stdout open, and which never answers, forfeits at its limit
// (not when the child ends), and the child is ended with it.
func TestEscapedChildDoesNotHoldTheGame(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	opt := MatchOptions{FirstTurnTime: 200 * time.Millisecond, FirstTurnMargin: 10 * time.Millisecond, Log: &childLog{}}
	res, err := PlayMatch(context.Background(), 5, 3, [Players]Agent{bot("setsid_child.sh"), {Bot: newRandBot(2)}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	// Awaited for the limit and as long again: 420 ms or, on a loaded machine, more.
	if !strings.HasPrefix(res.Reason[0], "timeout in round 1: no answer within ") || testbot.Millis(res.Reason[0], "within ") < 420 ||
		!strings.HasSuffix(res.Reason[0], "ms (limit 200 ms + margin 10 ms)") || took > 3*time.Second {
		t.Fatalf("after %v: %q", took, res.Reason[0])
	}
	child := opt.Log.(*childLog).pid()
	if child == 0 {
		t.Fatal("the bot did not report its child")
	}
	if err := syscall.Kill(child, 0); err == nil {
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the escaped child %d is still running", child)
		}
	}
	t.Logf("forfeited and closed in %v", took.Round(time.Millisecond))
}

// childLog catches the "child PID" line of setsid_child.sh's stderr.
type childLog struct{ b strings.Builder }

func (c *childLog) Write(p []byte) (int, error) { return c.b.Write(p) }

func (c *childLog) pid() int {
	_, rest, ok := strings.Cut(c.b.String(), "child ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0 // no pid: the caller fails on 0
	}
	return n
}

// TestIgnoredActionsAreCounted: an action that parses but can never be
// carried out is not a forfeit (the referee lets the player wait) but is
// counted, the first one described.
func TestIgnoredActionsAreCounted(t *testing.T) {
	t.Parallel()
	res, err := PlayMatch(context.Background(), 5, 3, [Players]Agent{{Bot: newRandBot(2)}, bot("banana.sh")}, MatchOptions{NoTimeLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason[1] != "" || res.Ignored[1] != res.Rounds || res.Ignored[0] != 0 {
		t.Fatalf("reason %q, ignored %v in %d rounds", res.Reason[1], res.Ignored, res.Rounds)
	}
	if want := `"BREW 9999": no such id for this verb (round 1)`; res.IgnoredFirst[1] != want {
		t.Fatalf("first ignored %q, want %q", res.IgnoredFirst[1], want)
	}
}

// TestFloodAndCrashForfeits: an endless answer line is cut at CodinGame's
// 10,000 bytes (a timeout there); a crash names its exit status.
func TestFloodAndCrashForfeits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		bot, want string
	}{
		{"flood.sh", "timeout in round 1: no newline within 10,000 bytes"},
		{"exit3.sh", "crashed in round 1: exit status 3; stderr: boom"},
	} {
		begin := time.Now()
		res, err := PlayMatch(context.Background(), 5, 3, [Players]Agent{bot(c.bot), {Bot: newRandBot(2)}}, defaults())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Reason[0], c.want) || res.Rounds != 1 {
			t.Errorf("%s: %q after %d rounds, want %q", c.bot, res.Reason[0], res.Rounds, c.want)
		}
		if d := time.Since(begin); d > 3*time.Second {
			t.Errorf("%s: took %v", c.bot, d)
		}
	}
}

// TestLeagueRange: leagues outside 1..3 are refused, naming the league and
// the ones that exist.
func TestLeagueRange(t *testing.T) {
	for _, lg := range []int{0, 4, 99, -1} {
		_, err := ReplayGame(1, lg, nil, false)
		want := fmt.Sprintf("league %d: the leagues are 1 (Wood 2), 2 (Wood 1) and 3 (Bronze and above: the final rules)", lg)
		if err == nil || err.Error() != want {
			t.Errorf("league %d: %v", lg, err)
		}
	}
	if _, err := New(1, 3); err != nil {
		t.Errorf("league 3: %v", err)
	}
}

// TestCancelIsNoForfeit: a game given up by its caller (Ctrl-C) returns the
// context's error, not a result in which the killed bot forfeited.
func TestCancelIsNoForfeit(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := PlayMatch(ctx, 5, 3, [Players]Agent{bot("setsid_child.sh"), {Bot: newRandBot(2)}}, defaults())
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestProcessCapForfeitSaysSo: a bot killed for running more processes
// than its cap forfeits with a reason that says so, not as a crash of its
// own.
func TestProcessCapForfeitSaysSo(t *testing.T) {
	t.Parallel()
	ctx := botlimit.With(context.Background(), botlimit.Limits{Procs: 4})
	fork := Agent{Command: []string{"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do sleep 30 & done; wait"}}
	res, err := PlayMatch(ctx, 5, 3, [Players]Agent{fork, {Bot: newRandBot(2)}}, defaults())
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Reason[0]; !strings.HasPrefix(r, "killed in round 1: process cap exceeded: the bot ran ") || !strings.HasSuffix(r, ", cap 4 (killed)") {
		t.Fatalf("reason %q", r)
	}
}
