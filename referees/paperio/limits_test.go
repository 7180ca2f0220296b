package paperio

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gauntlet/internal/botlimit"
	"gauntlet/internal/testbot"
)

// The bots of these tests are the scripts of testdata/bots.
// TestMain lets the test binary play the compiled budget bot (testbot).
func TestMain(m *testing.M) {
	testbot.Main()
	os.Exit(m.Run())
}

func bot(name string, args ...string) Agent {
	return Agent{Command: append([]string{"testdata/bots/" + name}, args...)}
}

// smallGame is a short unshuffled game (the bot plays id 1).
func smallGame(ticks int) Config {
	cfg := DefaultConfig()
	cfg.Shuffle = false
	cfg.Rules.MaxTickCount = ticks
	return cfg
}

// TestCommandsThatChangeNothingAreCounted: a bot answering a command that
// is no direction keeps its direction, faithfully (it never moves and
// scores 0), but every such answer is counted and the first one shown.
func TestCommandsThatChangeNothingAreCounted(t *testing.T) {
	t.Parallel()
	res, err := PlayMatch(context.Background(), smallGame(60), 3, []Agent{bot("banana.sh"), {Bot: &walker{}}}, MatchOptions{Margin: DefaultMargin})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Players[0]
	if b.Disconnect != "" || b.Score != 0 || b.Ignored != len(b.Times) || b.Ignored < 10 {
		t.Fatalf("banana bot: %+v", b)
	}
	if want := `command "BANANA" is not left, right, up or down (tick 1)`; b.IgnoredFirst != want {
		t.Fatalf("first ignored %q, want %q", b.IgnoredFirst, want)
	}
}

// TestLongAnswerIsIgnored: an answer line over the relay's 10,000 bytes is
// ignored (the runner got it cut, not JSON); the bot stays connected.
func TestLongAnswerIsIgnored(t *testing.T) {
	t.Parallel()
	res, err := PlayMatch(context.Background(), smallGame(30), 3, []Agent{bot("long.sh"), {Bot: &walker{}}}, MatchOptions{Margin: DefaultMargin})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Players[0]
	if b.Disconnect != "" || b.Ignored == 0 || !strings.HasPrefix(b.IgnoredFirst, "answer line longer than 10,000 bytes") {
		t.Fatalf("long bot: %+v", b)
	}
}

// TestTotalBudget: a bot that spends exactly MAX_EXECUTION_TIME over its
// answers plays on within the margin; one that spends twice as much is
// disconnected with the sum it took. A sum timeout is tried again
// (testbot.Retry): a stall of the machine past the 100 ms margin
// disconnects the exact bot by no fault of the referee.
func TestTotalBudget(t *testing.T) {
	testbot.Exact(t)
	t.Parallel()
	cfg := smallGame(60) // 10 answers at speed 5
	cfg.Rules.RequestMaxTime = 300 * time.Millisecond
	cfg.Rules.MaxExecutionTime = 500 * time.Millisecond
	opt := MatchOptions{Margin: 100 * time.Millisecond}
	var res MatchResult
	testbot.Retry(t, func() string {
		var err error
		res, err = PlayMatch(context.Background(), cfg, 3, []Agent{Agent{Command: testbot.Command("paperio-budget", "0.05")}, {Bot: &walker{}}}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := res.Players[0].Disconnect; strings.HasPrefix(d, "sum timeout error: ") {
			return d
		}
		return ""
	})
	if b := res.Players[0]; b.Disconnect != "" || len(b.Times) != 10 {
		t.Fatalf("exact budget: %q after %d answers", b.Disconnect, len(b.Times))
	}
	res, err := PlayMatch(context.Background(), cfg, 3, []Agent{Agent{Command: testbot.Command("paperio-budget", "0.1")}, {Bot: &walker{}}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	d := res.Players[0].Disconnect
	if !strings.HasPrefix(d, "sum timeout error: answers took ") || !strings.Contains(d, " ms in all, limit 500 ms + margin 100 ms (tick ") {
		t.Fatalf("double budget: %q", d)
	}
}

// TestPerAnswerLimit: an answer after REQUEST_MAX_TIME and the margin
// disconnects the bot with its time.
func TestPerAnswerLimit(t *testing.T) {
	t.Parallel()
	cfg := smallGame(30)
	cfg.Rules.RequestMaxTime = 200 * time.Millisecond
	res, err := PlayMatch(context.Background(), cfg, 3, []Agent{Agent{Command: testbot.Command("paperio-budget", "0.5")}, {Bot: &walker{}}}, MatchOptions{Margin: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Players[0].Disconnect
	// The bot sleeps 500 ms, past the limit and margin's 400; a loaded
	// machine may add to that, never take from it, and has 300 ms to
	// start the bot before the answer is awaited no longer (800 ms).
	if !strings.HasPrefix(d, "read timeout error: answered after ") || testbot.Millis(d, "after ") < 500 || !strings.HasSuffix(d, " ms, limit 200 ms + margin 200 ms (tick 1)") {
		t.Fatalf("reason %q", d)
	}
}

// TestEscapedChildAndCrash: a bot whose setsid child holds its stdout is
// disconnected at its limit and the child ended; a crash names its status.
func TestEscapedChildAndCrash(t *testing.T) {
	t.Parallel()
	cfg := smallGame(30)
	cfg.Rules.RequestMaxTime = 200 * time.Millisecond
	log := &syncLog{}
	begin := time.Now()
	res, err := PlayMatch(context.Background(), cfg, 3, []Agent{bot("setsid_child.sh"), bot("exit3.sh"), {Bot: &walker{}}}, MatchOptions{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Fatalf("the game took %v", d)
	}
	// Awaited for the limit and as long again: 400 ms or, on a loaded machine, more.
	if d := res.Players[0].Disconnect; !strings.HasPrefix(d, "read timeout error: no answer within ") || testbot.Millis(d, "within ") < 400 {
		t.Errorf("setsid bot: %q", d)
	}
	if d := res.Players[1].Disconnect; d != "connection closed: exit status 3; stderr: boom (tick 1)" {
		t.Errorf("crashing bot: %q", d)
	}
	_, rest, _ := strings.Cut(log.String(), "child ")
	if strings.Contains(rest, "boom") {
		rest = rest[:strings.Index(rest, "boom")]
	}
	child, _ := strconv.Atoi(strings.Fields(rest + " 0")[0])
	if child == 0 {
		t.Fatalf("no child in %q", log.String())
	}
	if st, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
		syscall.Kill(child, syscall.SIGKILL)
		t.Fatalf("the escaped child %d is still running", child)
	}
}

// syncLog collects the bots' stderr, written from several goroutines.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTraceHeaderPlayers: a header with more bots than the game seats is
// refused with their number and the allowed range.
func TestTraceHeaderPlayers(t *testing.T) {
	nine := make([]string, 9)
	for _, c := range []struct {
		h    TraceHeader
		want string
	}{
		{TraceHeader{Bots: nine}, "bots: 9 players (want 1 to 6)"},
		{TraceHeader{Bots: nine[:2]}, "start: missing for the 2 bots (one start position per player, 1 to 6)"},
		{TraceHeader{}, "start: 0 players (want 1 to 6)"},
	} {
		if _, _, err := c.h.Rules(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.h, err, c.want)
		}
	}
}

// TestSharedMachineForfeitSaysSo: a bot that runs out of its budget in a
// game played on the wall clock of a shared machine forfeits with a
// reason that says how the machine was shared.
func TestSharedMachineForfeitSaysSo(t *testing.T) {
	t.Parallel()
	cfg := smallGame(60)
	cfg.Rules.RequestMaxTime = 300 * time.Millisecond
	cfg.Rules.MaxExecutionTime = 500 * time.Millisecond
	ctx := botlimit.With(context.Background(), botlimit.Limits{Shared: "2 games of 2 players on 2 cores"})
	res, err := PlayMatch(ctx, cfg, 3, []Agent{{Command: testbot.Command("paperio-budget", "0.1")}, {Bot: &walker{}}}, MatchOptions{Margin: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Players[0].Disconnect
	if !strings.Contains(d, "timeout error: ") || !strings.Contains(d, "the machine was shared: 2 games of 2 players on 2 cores (tick ") {
		t.Fatalf("disconnect %q, want a timeout on a shared machine", d)
	}
}
