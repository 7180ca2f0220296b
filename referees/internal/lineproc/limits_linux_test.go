package lineproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/internal/botlimit"
)

// playRole makes the test binary a gauntlet that plays a bot and exits
// ("orphans": see TestOrphansEndWithGauntlet) or a bot that holds memory
// ("hog").
func playRole(role string) int {
	switch role {
	case "hog":
		mib, _ := strconv.Atoi(os.Getenv("LINEPROC_TEST_MIB"))
		b := make([]byte, mib<<20)
		for i := range b {
			b[i] = 1 // resident, page by page
		}
		fmt.Println("ready")
		time.Sleep(30 * time.Second)
		fmt.Println(b[len(b)/2])
	case "orphans":
		tag := os.Getenv("LINEPROC_TEST_TAG")
		// Two bots at once, the older one closed last: the younger one's
		// orphan, which keeps none of its pipes, cannot be told from the
		// older one's and is ended with it.
		older := orphanBot(context.Background(), tag, true)
		younger := orphanBot(context.Background(), tag, false)
		for _, p := range []*Proc{older, younger} {
			if p == nil {
				return 1
			}
			if _, _, err := p.Answer(5*time.Second, 0); err != nil {
				fmt.Println("error", err)
				return 1
			}
		}
		younger.Close()
		older.Close()
		fmt.Println("done")
	}
	return 0
}

// orphanBot starts a bot that leaves an orphan in a session of its own
// with an empty environment, `(env -i setsid sleep 309.TAG &)`, then
// answers "ok"; with pipes the orphan keeps the bot's output pipes.
func orphanBot(ctx context.Context, tag string, pipes bool) *Proc {
	redirect := " </dev/null >/dev/null 2>&1"
	if pipes {
		redirect = ""
	}
	p, err := Start(ctx, []string{"sh", "-c", "(env -i setsid sleep 309." + tag + redirect + " &); echo ok; while read -r l; do :; done"}, Options{})
	if err != nil {
		fmt.Println("error", err)
		return nil
	}
	return p
}

// sleepers counts the running processes whose command line is
// "sleep 309.TAG".
func sleepers(t *testing.T, tag string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmd) == "sleep\x00309."+tag+"\x00" && alive(mustAtoi(e.Name())) {
			n++
		}
	}
	return n
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// waitSleepers waits a bounded time for the count of sleepers to be want.
func waitSleepers(t *testing.T, tag string, want int) int {
	t.Helper()
	n := sleepers(t, tag)
	for i := 0; n != want && i < 400; i++ {
		time.Sleep(5 * time.Millisecond)
		n = sleepers(t, tag)
	}
	return n
}

// newTag is a number no other test process uses at the same time: the
// sleeps of concurrent runs of these tests are told apart by it.
func newTag() string { return fmt.Sprintf("%d%06d", os.Getpid(), time.Now().UnixNano()%1_000_000) }

// TestOrphanWithClearedEnvironmentIsKilled: the orphan of a bot that
// starts `(env -i setsid sleep 309 &)` (no mark, no process group of the
// bot) is ended at the end of the bot's game, while another bot, started
// before it, still plays: it holds the bot's pipes.
func TestOrphanWithClearedEnvironmentIsKilled(t *testing.T) {
	tag := newTag()
	t.Cleanup(func() { killSleepers(tag) })
	other := sh(t, "while read -r l; do :; done")
	p := orphanBot(context.Background(), tag, true)
	if p == nil {
		t.Fatal("cannot start the bot")
	}
	if got, _, err := p.Answer(5*time.Second, 0); err != nil || got != "ok" {
		t.Fatalf("Answer = %q, %v", got, err)
	}
	if n := waitSleepers(t, tag, 1); n != 1 {
		t.Fatalf("%d orphans before Close, want 1 (test is void)", n)
	}
	p.Close()
	if n := waitSleepers(t, tag, 0); n != 0 {
		t.Fatalf("%d orphans left after the bot's game", n)
	}
	other.Close()
}

// TestOrphansEndWithGauntlet: a gauntlet that played bots leaving orphans
// with nothing of the bot on them (no mark, no process group, no pipe)
// leaves no process behind once it exits.
func TestOrphansEndWithGauntlet(t *testing.T) {
	tag := newTag()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LINEPROC_TEST_ROLE=orphans", "LINEPROC_TEST_TAG="+tag)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killSleepers(tag) })
	line, _ := bufio.NewReader(out).ReadString('\n') // a read error leaves it short: the check below fails
	if err := cmd.Wait(); err != nil || strings.TrimSpace(line) != "done" {
		t.Fatalf("the gauntlet said %q, %v", line, err)
	}
	if n := waitSleepers(t, tag, 0); n != 0 {
		t.Fatalf("%d orphans left after gauntlet exited", n)
	}
}

// killSleepers ends what a failed test left.
func killSleepers(tag string) {
	ents, _ := os.ReadDir("/proc") // best effort: waitSleepers has already reported them
	for _, e := range ents {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmd) == "sleep\x00309."+tag+"\x00" {
			if pr, err := os.FindProcess(mustAtoi(e.Name())); err == nil {
				_ = pr.Kill()
			}
		}
	}
}

// TestGameCapEndsAnAnswer: without a time limit, an answer still awaited
// at the game's wall-clock cap is a timeout that names the cap; a solver
// still running then too.
func TestGameCapEndsAnAnswer(t *testing.T) {
	capped := botlimit.With(context.Background(), botlimit.Limits{Deadline: time.Now().Add(300 * time.Millisecond), Cap: 300 * time.Millisecond})
	p, err := Start(capped, []string{"testdata/silent.sh"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Send([]byte("x\n"), 0); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	_, _, err = p.Answer(0, 0)
	var ce *CapError
	if !errors.As(err, &ce) || !errors.Is(err, ErrTimeout) || err.Error() != "game wall-clock cap 300ms exceeded" {
		t.Fatalf("err = %v, want the cap", err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Fatalf("the cap took %v", d)
	}
	_, _, err = Run(capped, []string{"sh", "-c", "sleep 30"}, Options{}, nil, 0, 0, 0)
	if !errors.As(err, &ce) || !strings.HasSuffix(err.Error(), "game wall-clock cap 300ms exceeded") {
		t.Fatalf("Run: err = %v, want the cap", err)
	}
}

// TestMemoryCapKillsTheBot: a bot whose memory goes over the cap is
// killed, and its next answer says why.
func TestMemoryCapKillsTheBot(t *testing.T) {
	ctx := botlimit.With(context.Background(), botlimit.Limits{Memory: 32 << 20})
	p, err := Start(ctx, []string{os.Args[0], "-test.run=^$"}, Options{Env: []string{"LINEPROC_TEST_ROLE=hog", "LINEPROC_TEST_MIB=128"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, _, err = p.Answer(0, 0)
	for err == nil { // "ready" may come before the watcher's look
		_, _, err = p.Answer(0, 0)
	}
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrLimit) || !le.Memory ||
		!strings.HasPrefix(err.Error(), "memory cap exceeded: the bot's processes held ") || !strings.HasSuffix(err.Error(), ", cap 32 MiB (killed)") {
		t.Fatalf("err = %v, want the memory cap", err)
	}
}

// TestProcessCapKillsTheBot: a bot that starts more processes than the
// cap is killed, with its processes, and says why.
func TestProcessCapKillsTheBot(t *testing.T) {
	ctx := botlimit.With(context.Background(), botlimit.Limits{Procs: 4})
	p, err := Start(ctx, []string{"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do sleep 30 & done; wait"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, _, err = p.Answer(0, 0)
	var le *LimitError
	if !errors.As(err, &le) || le.Memory || le.Over != 4 || !strings.HasPrefix(err.Error(), "process cap exceeded: the bot ran ") {
		t.Fatalf("err = %v, want the process cap", err)
	}
	p.Close()
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
	_, _, err = Run(ctx, []string{"sh", "-c", "for i in 1 2 3 4 5 6 7 8; do sleep 30 & done; wait"}, Options{}, nil, 0, 0, 0)
	if !errors.As(err, &le) || le.Memory {
		t.Fatalf("Run: err = %v, want the process cap", err)
	}
}

// TestCPUClock: on the CPU clock, a bot that waits 300 ms of wall time
// before answering, computing nothing, is in time for a 100 ms limit, and
// its time is its CPU time; one that computes past the limit is not.
func TestCPUClock(t *testing.T) {
	ctx := botlimit.With(context.Background(), botlimit.Limits{CPU: true})
	p, err := Start(ctx, []string{"testdata/sleepy.sh", "0.3"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	got, took, err := p.Answer(100*time.Millisecond, 0)
	if err != nil || got != "late x" || took >= 100*time.Millisecond {
		t.Fatalf("Answer = %q, %v, %v; want an answer in time", got, took, err)
	}
	if p.ClockNote() != "CPU time" {
		t.Fatalf("ClockNote = %q", p.ClockNote())
	}

	q, err := Start(ctx, []string{"sh", "-c", "read -r l; while :; do :; done"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err = q.Answer(100*time.Millisecond, 0)
	var late *LateError
	if !errors.As(err, &late) {
		t.Fatalf("err = %v, want a timeout", err)
	}
	// On a loaded machine the busy bot may be starved for ten times its
	// limit: then the wall-clock bound ends it and says what it spent.
	if late.CPU && !strings.HasPrefix(err.Error(), "no answer within ") || late.CPU && !strings.Contains(err.Error(), " ms of CPU time (limit 100 ms)") ||
		!late.CPU && !strings.Contains(err.Error(), "wall time: the bot's processes spent ") {
		t.Fatalf("err = %q", err)
	}
}

// TestSharedMachineSaysSo: a timeout on the wall clock while the machine
// was shared says so.
func TestSharedMachineSaysSo(t *testing.T) {
	ctx := botlimit.With(context.Background(), botlimit.Limits{Shared: "2 games on 2 cores"})
	p, err := Start(ctx, []string{"testdata/silent.sh"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Answer(20*time.Millisecond, 0)
	if !errors.Is(err, ErrTimeout) || !strings.HasSuffix(err.Error(), "(limit 20 ms); wall time, the machine was shared: 2 games on 2 cores") {
		t.Fatalf("err = %v", err)
	}
	if got := p.ClockNote(); got != "wall time; the machine was shared: 2 games on 2 cores" {
		t.Fatalf("ClockNote = %q", got)
	}
}
