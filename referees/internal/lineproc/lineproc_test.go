package lineproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gauntlet/internal/botlimit"
	"gauntlet/internal/owner"
)

// TestMain lets the test binary act as a gauntlet that starts a bot and is
// then killed with -9 (see TestBotsDieWithGauntlet).
func TestMain(m *testing.M) {
	if os.Getenv("LINEPROC_TEST_HOLDER") != "" {
		holdABot()
		return
	}
	if mode := os.Getenv("LINEPROC_TEST_ROLE"); mode != "" {
		os.Exit(playRole(mode))
	}
	os.Exit(m.Run())
}

// holdABot starts testdata/setsid_child.sh, prints the bot's pid and its
// child's, and waits to be killed.
func holdABot() {
	p, err := Start(context.Background(), []string{"testdata/setsid_child.sh"}, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	child := waitChild(p)
	fmt.Printf("bot %d child %d\n", p.cmd.Process.Pid, child)
	select {}
}

// waitChild reads the "child PID" line setsid_child.sh writes to stderr.
func waitChild(p *Proc) int {
	for range 500 {
		if _, rest, ok := strings.Cut(p.StderrTail(), "child "); ok {
			if pid, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				return pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}

func start(t *testing.T, argv ...string) *Proc {
	t.Helper()
	p, err := Start(context.Background(), argv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func sh(t *testing.T, script string) *Proc {
	t.Helper()
	return start(t, "sh", "-c", script)
}

// running lists this process's bots and their descendants still running:
// every process carrying a mark of ours, and our own children that are
// zombies (not reaped).
func running(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		return nil
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	self := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := owner.ReadStat(pid)
		if err != nil {
			continue
		}
		v, ok := markOf(pid)
		mine := ok && strings.HasPrefix(v, owner.Token()+":")
		if mine || (st.PPID == self && st.State == 'Z') {
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)) // gone since: listed without its command
			out = append(out, fmt.Sprintf("%d %c %s", pid, st.State, strings.ReplaceAll(string(cmd), "\x00", " ")))
		}
	}
	return out
}

func alive(pid int) bool {
	st, err := owner.ReadStat(pid)
	return err == nil && st.State != 'Z' && st.State != 'X'
}

// runs reports whether process pid is alive and running the program name.
func runs(pid int, name string) bool {
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return err == nil && strings.TrimSpace(string(comm)) == name && alive(pid)
}

func TestEcho(t *testing.T) {
	p := start(t, "testdata/echo.sh")
	for _, w := range []string{"a", "b c"} {
		t0 := time.Now()
		if err := p.Send([]byte(w+"\n"), time.Second); err != nil {
			t.Fatal(err)
		}
		got, took, err := p.Answer(2*time.Second, 0)
		if err != nil || got != "got "+w {
			t.Fatalf("Answer = %q, %v", got, err)
		}
		// took runs from the end of the write to the answer's arrival, so
		// it lies within the round trip the test saw. It may be 0: the
		// reader can stamp a fast answer before the sender stamps the end
		// of its write (Answer clamps that to 0).
		if rt := time.Since(t0); took < 0 || took > rt || took > 2*time.Second {
			t.Fatalf("took %v, round trip %v", took, rt)
		}
	}
}

func TestCRLFAndLastLineWithoutNewline(t *testing.T) {
	p := sh(t, `printf 'one\r\ntwo'`)
	if got, _, err := p.Answer(time.Second, 0); err != nil || got != "one" {
		t.Fatalf("first = %q, %v", got, err)
	}
	if got, _, err := p.Answer(time.Second, 0); err != nil || got != "two" {
		t.Fatalf("second = %q, %v", got, err)
	}
	if _, _, err := p.Answer(time.Second, 0); !errors.Is(err, ErrExited) {
		t.Fatalf("after end: %v, want ErrExited", err)
	}
}

// TestLateAnswerSaysByHowMuch: an answer after limit + margin is a forfeit
// that gives its time; one that never comes says how long it was awaited.
func TestLateAnswerSaysByHowMuch(t *testing.T) {
	p := start(t, "testdata/sleepy.sh", "0.2")
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	// Due at 140 ms, awaited until 280 ms (the late window): the answer
	// at 200 ms has 60 ms either side on a loaded machine.
	_, took, err := p.Answer(130*time.Millisecond, 10*time.Millisecond)
	var late *LateError
	if !errors.As(err, &late) || !errors.Is(err, ErrTimeout) || !late.Came {
		t.Fatalf("err = %v, want a late answer", err)
	}
	if took < 200*time.Millisecond || !strings.HasPrefix(err.Error(), "answered after ") ||
		!strings.HasSuffix(err.Error(), ", limit 130 ms + margin 10 ms") {
		t.Fatalf("took %v, err %q", took, err)
	}

	q := start(t, "testdata/silent.sh")
	if err := q.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	_, _, err = q.Answer(50*time.Millisecond, 10*time.Millisecond)
	if !errors.As(err, &late) || late.Came || !strings.HasPrefix(err.Error(), "no answer within ") || late.After < 120*time.Millisecond ||
		!strings.HasSuffix(err.Error(), "ms (limit 50 ms + margin 10 ms)") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(begin); d < 120*time.Millisecond || d > 2*time.Second {
		t.Fatalf("waited %v, want limit+margin twice", d)
	}
}

// TestAnswerInTimeWithMargin: an answer past the limit but within the
// margin is an answer, with its time. The bot answers 200 ms after it
// reads; its time is counted from when the write returned, which a loaded
// machine can delay by tens of milliseconds (under the race detector
// beside other packages' tests, a 60 ms answer has measured 42 ms), so
// the check asks only that it be well past the 50 ms limit.
func TestAnswerInTimeWithMargin(t *testing.T) {
	p := start(t, "testdata/sleepy.sh", "0.2")
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	got, took, err := p.Answer(50*time.Millisecond, 2*time.Second)
	if err != nil || got != "late x" || took < 120*time.Millisecond {
		t.Fatalf("Answer = %q %v %v", got, took, err)
	}
}

func TestCrashReportsStatusAndStderr(t *testing.T) {
	p := start(t, "testdata/exit3.sh")
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Answer(2*time.Second, 0)
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("err = %v", err)
	}
}

func TestBotThatDoesNotRead(t *testing.T) {
	p := sh(t, `sleep 5`)
	big := []byte(strings.Repeat("x", 1<<20) + "\n")
	err := p.Send(big, 100*time.Millisecond)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "did not read its input within 100 ms") {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
}

// TestLineTooLong: a line longer than the cap is refused as soon as the
// cap is reached, the rest of it skipped, and the next line read.
func TestLineTooLong(t *testing.T) {
	p, err := Start(context.Background(), []string{"sh", "-c", `head -c 5000 /dev/zero | tr '\0' x; echo; echo fine; head -c 999 /dev/zero | tr '\0' y; echo`}, Options{MaxLine: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, _, err := p.Answer(2*time.Second, 0); !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "more than 1,000 bytes") {
		t.Fatalf("err = %v", err)
	}
	if got, _, err := p.Answer(2*time.Second, 0); err != nil || got != "fine" {
		t.Fatalf("next = %q, %v", got, err)
	}
	// 999 bytes and the newline: exactly the cap.
	if got, _, err := p.Answer(2*time.Second, 0); err != nil || len(got) != 999 {
		t.Fatalf("at the cap: %d bytes, %v", len(got), err)
	}
}

// TestFloodWithoutNewline: an endless line is refused at the cap and the
// bot closed promptly; memory stays bounded (the rest is skipped).
func TestFloodWithoutNewline(t *testing.T) {
	p := start(t, "testdata/flood.sh")
	if err := p.Send([]byte("go\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Answer(5*time.Second, 0)
	if !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v", err)
	}
	begin := time.Now()
	p.Close()
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("close took %v", d)
	}
}

func TestContextKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, []string{"sh", "-c", "sleep 30"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cancel()
	if _, _, err := p.Answer(5*time.Second, 0); !errors.Is(err, ErrExited) {
		t.Fatalf("err = %v, want ErrExited after cancel", err)
	}
}

func TestMissingCommand(t *testing.T) {
	_, err := Start(context.Background(), []string{"./no-such-bot"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no-such-bot") {
		t.Fatalf("err = %v", err)
	}
}

// TestEscapedChildIsBoundedAndKilled: a bot whose child left its session
// (setsid) and keeps its stdout open is held to its limit, and Close ends
// the child too, quickly.
func TestEscapedChildIsBoundedAndKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process trees are followed on Linux only")
	}
	p := start(t, "testdata/setsid_child.sh")
	child := waitChild(p)
	if child == 0 || !alive(child) {
		t.Fatalf("no child: %q", p.StderrTail())
	}
	begin := time.Now()
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Answer(100*time.Millisecond, 10*time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
	p.Close()
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("timeout and close took %v", d)
	}
	if alive(child) {
		t.Fatalf("the setsid child %d is still running", child)
	}
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
}

// TestOrphanOfExitedBotIsKilled: a bot that answers and exits, leaving a
// child in a new session, has that child ended by Close (it was reparented
// to gauntlet, the subreaper, and carries the bot's mark).
func TestOrphanOfExitedBotIsKilled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process trees are followed on Linux only")
	}
	p := start(t, "testdata/setsid_exit.sh")
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	if got, _, err := p.Answer(time.Second, 0); err != nil || got != "answer" {
		t.Fatalf("Answer = %q, %v", got, err)
	}
	<-p.done
	if !Subreaper() {
		t.Fatal("not a child subreaper")
	}
	// The orphan exists once the shell has forked, but its mark is read
	// from /proc while it execs setsid and then sleep, which can fail for
	// a moment: wait a bounded time for it to be seen.
	left := running(t)
	for i := 0; len(left) == 0 && i < 200; i++ {
		time.Sleep(5 * time.Millisecond)
		left = running(t)
	}
	if len(left) == 0 {
		t.Fatal("the orphan is not found before Close (test is void)")
	}
	begin := time.Now()
	p.Close()
	if d := time.Since(begin); d > time.Second {
		t.Fatalf("close took %v", d)
	}
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
}

// TestBotsDieWithGauntlet: a gauntlet killed with -9 takes its bot with it
// (parent-death signal); the bot's escaped child is killed by the next
// gauntlet that starts bots (its mark names a dead owner).
func TestBotsDieWithGauntlet(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parent-death signals are Linux's")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LINEPROC_TEST_HOLDER=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var bot, child int
	if _, err := fmt.Sscanf(line, "bot %d child %d", &bot, &child); err != nil || child == 0 {
		cmd.Process.Kill()
		t.Fatalf("holder said %q", line)
	}
	t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
	// The shell names its child as soon as it has forked it; the sweep is
	// meant for a settled orphan, so wait until the child runs sleep (on a
	// loaded machine an exec can still be under way, and /proc shows no
	// environment, so no mark, in the middle of one).
	for i := 0; !runs(child, "sleep") && i < 1000; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if !alive(bot) || !runs(child, "sleep") {
		t.Fatal("bot or child not running")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	for i := 0; alive(bot) && i < 200; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if alive(bot) {
		t.Fatalf("bot %d outlived its gauntlet", bot)
	}
	if !alive(child) {
		t.Skip("the escaped child died with the bot; nothing left to sweep")
	}
	killOrphansOfDeadOwners()
	for i := 0; alive(child) && i < 1000; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if alive(child) {
		t.Fatalf("child %d of a dead gauntlet still running after the sweep", child)
	}
}

func TestRun(t *testing.T) {
	ctx := context.Background()
	out, took, err := Run(ctx, []string{"sh", "-c", "cat; echo done"}, Options{}, []byte("in\n"), time.Second, 0, 0)
	if err != nil || string(out) != "in\ndone\n" || took <= 0 {
		t.Fatalf("Run = %q, %v, %v", out, took, err)
	}
	_, _, err = Run(ctx, []string{"sh", "-c", "sleep 5"}, Options{}, nil, 100*time.Millisecond, 0, 0)
	var late *LateError
	if !errors.As(err, &late) || late.Came || !strings.Contains(err.Error(), "still running after") {
		t.Fatalf("err = %v, want still running", err)
	}
	_, _, err = Run(ctx, []string{"sh", "-c", "sleep 0.3"}, Options{}, nil, 200*time.Millisecond, 50*time.Millisecond, 0)
	// The clock starts once the process is running, so a loaded machine can
	// show less than the 300 ms the shell sleeps; it is past limit + margin.
	if !errors.As(err, &late) || !late.Came || late.After <= 250*time.Millisecond ||
		!strings.Contains(err.Error(), "finished after ") ||
		!strings.Contains(err.Error(), "limit 200 ms + margin 50 ms") {
		t.Fatalf("err = %v, want finished after more than 250 ms", err)
	}
	_, _, err = Run(ctx, []string{"sh", "-c", "echo bad >&2; exit 1"}, Options{}, nil, time.Second, 0, 0)
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("err = %v", err)
	}
}

// TestRunKeepsOutputOfEscapedChild: a solver that exits 0 after printing,
// leaving a child that holds its stdout, gives its output at once (it is
// not thrown away when the child lingers) and the child is killed.
func TestRunKeepsOutputOfEscapedChild(t *testing.T) {
	begin := time.Now()
	out, _, err := Run(context.Background(), []string{"testdata/solver_escape.sh"}, Options{}, nil, 10*time.Second, 0, 0)
	if err != nil || strings.TrimSpace(string(out)) != `[{"ok": true}]` {
		t.Fatalf("Run = %q, %v", out, err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
}

// TestRunOutputCap: a solver printing without end is stopped at the cap,
// promptly, with an error saying so.
func TestRunOutputCap(t *testing.T) {
	begin := time.Now()
	_, _, err := Run(context.Background(), []string{"testdata/solver_flood.sh"}, Options{}, nil, 20*time.Second, 0, 1<<20)
	if !errors.Is(err, ErrOutputLimit) || !strings.Contains(err.Error(), "more than 1,048,576 bytes of output") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
}

func TestRunContextKills(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, _, err := Run(ctx, []string{"sh", "-c", "setsid sleep 60 & sleep 30"}, Options{}, nil, 0, 0, 0)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if left := running(t); len(left) > 0 {
		t.Fatalf("left running: %q", left)
	}
}

func TestMillis(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1013 * time.Millisecond:      "1,013 ms",
		50 * time.Millisecond:        "50 ms",
		2500 * time.Microsecond:      "2.5 ms",
		120 * time.Second:            "120,000 ms",
		1234567 * time.Microsecond:   "1,235 ms",
		0:                            "0 ms",
		3 * time.Millisecond:         "3 ms",
		1000000 * time.Millisecond:   "1,000,000 ms",
		10*time.Millisecond + 400000: "10 ms",
	} {
		if got := Millis(d); got != want {
			t.Errorf("Millis(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestTestdataIsExecutable(t *testing.T) {
	ents, err := filepath.Glob("testdata/*.sh")
	if err != nil || len(ents) == 0 {
		t.Fatal(err, ents)
	}
	for _, e := range ents {
		fi, err := os.Stat(e)
		if err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", e)
		}
	}
}

// TestCrashStderrIsEscaped: a crashed bot's stderr tail, in the error of
// Answer and of Run, holds none of its escape sequences, NUL, bad bytes,
// carriage returns or bidi overrides, only their escapes; its lines are
// joined by " | ".
func TestCrashStderrIsEscaped(t *testing.T) {
	script := `printf 'first\r\n\033]0;PWNED\007\033[2J nul:\000 bad:\377 \342\200\256rtl\n' >&2; exit 3`
	want := `first | \x1b]0;PWNED\a\x1b[2J nul:\x00 bad:\xff \u202ertl`
	p := sh(t, "read x; "+script)
	if err := p.Send([]byte("x\n"), time.Second); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Answer(2*time.Second, 0)
	if !errors.Is(err, ErrExited) || !strings.HasSuffix(err.Error(), "stderr: "+want) {
		t.Errorf("Answer: err = %q, want it to end with stderr: %s", err, want)
	}
	_, _, err = Run(context.Background(), []string{"sh", "-c", script}, Options{}, nil, 2*time.Second, 0, 0)
	if !errors.Is(err, ErrExited) || !strings.HasSuffix(err.Error(), "stderr: "+want) {
		t.Errorf("Run: err = %q, want it to end with stderr: %s", err, want)
	}
}

// TestClosedEndIsNamed: a bot that closes its stdin while running is
// reported as having closed its input, one that closes its stdout as having
// closed its output.
func TestClosedEndIsNamed(t *testing.T) {
	p := sh(t, `exec 0<&-; sleep 5`)
	var err error
	for range 50 { // the bot closes its stdin a moment after it starts
		if err = p.Send([]byte("x\n"), time.Second); err != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "writing input: closed its input (stdin)") {
		t.Fatalf("Send to a bot without stdin: err = %v", err)
	}
	p = sh(t, `exec 1>&-; sleep 5`)
	_, _, err = p.Answer(2*time.Second, 0)
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "reading output: closed its output (stdout)") {
		t.Fatalf("Answer of a bot without stdout: err = %v", err)
	}
}

// TestAnswersReuseTheirTimers: the timers one Answer leaves for the next
// time each answer by its own limit (one that fired and one stopped
// alike), the game's cap still ends an answer after many, and every
// Answer after the cap ends at once. A round of Send and Answer allocates
// the line and little else.
func TestAnswersReuseTheirTimers(t *testing.T) {
	capAt := 600 * time.Millisecond
	ctx := botlimit.With(context.Background(), botlimit.Limits{Deadline: time.Now().Add(capAt), Cap: capAt})
	p, err := Start(ctx, []string{"sh", "-c", `read l; echo a; read l; echo b; read l; read l; sleep 30`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ask := func(limit, margin time.Duration) (string, time.Duration, error) {
		t.Helper()
		if err := p.Send([]byte("x\n"), time.Second); err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		got, _, err := p.Answer(limit, margin)
		return got, time.Since(begin), err
	}
	for _, want := range []string{"a", "b"} {
		if got, _, err := ask(5*time.Second, 0); err != nil || got != want {
			t.Fatalf("Answer = %q, %v; want %q", got, err, want)
		}
	}
	// Due at 60 ms, awaited until 120 ms: a timer left from a limit of 5 s
	// would wait past the cap, one left fired would end it at once.
	var late *LateError
	if _, d, err := ask(50*time.Millisecond, 10*time.Millisecond); !errors.As(err, &late) || late.Came || d < 100*time.Millisecond || d > capAt {
		t.Fatalf("after %v: err = %v, want no answer within 120 ms", d, err)
	}
	var ce *CapError
	if _, d, err := ask(0, 0); !errors.As(err, &ce) || d > 10*time.Second {
		t.Fatalf("after %v: err = %v, want the cap", d, err)
	}
	begin := time.Now()
	if _, _, err := p.Answer(0, 0); !errors.As(err, &ce) || time.Since(begin) > 10*time.Second {
		t.Fatalf("after %v: err = %v, want the cap again", time.Since(begin), err)
	}

	q := start(t, "testdata/echo.sh")
	line := []byte("x\n")
	round := func() {
		if err := q.Send(line, time.Second); err != nil {
			t.Fatal(err)
		}
		if got, _, err := q.Answer(5*time.Second, 0); err != nil || got != "got x" {
			t.Fatalf("Answer = %q, %v", got, err)
		}
	}
	round()
	// 1 (the line's string); 4 with new timers for each answer.
	if n := testing.AllocsPerRun(50, round); n > 2 {
		t.Errorf("a round of Send and Answer: %.1f allocations, want at most 2", n)
	}
}
