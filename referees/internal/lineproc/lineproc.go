// Package lineproc runs an external bot as a child process and talks to it by
// lines over its stdin and stdout, with time limits measured as the contest
// platforms measured them: the clock of an answer starts when the last byte
// of the bot's input has been written, and stops when the newline of its
// answer arrives.
//
// It is shared by the referees' native protocols. A bot that crashes, hangs,
// floods its output, stops reading its input or starts processes of its own
// never blocks the caller past the limits given, and leaves nothing running:
//
//   - Every process the bot starts is ended with it, also those that leave
//     its process group or session (setsid): on Linux gauntlet becomes a
//     child subreaper (prctl PR_SET_CHILD_SUBREAPER), so such orphans are
//     reparented to it instead of init, and Close finds the bot's descendants
//     through /proc (the children lists of the bot's tasks, and gauntlet's
//     own orphaned children that carry the bot's mark in their environment,
//     GAUNTLET_BOT_PROC, its process group, or one of its pipes as stdin,
//     stdout or stderr) and kills them, then reaps them. An orphan with
//     none of these (env -i setsid, its output redirected) is killed with
//     the last bot that may have started it, so that none outlives the
//     last bot of a gauntlet.
//   - Bots die with gauntlet even on kill -9: each is started from one
//     dedicated, locked OS thread that never exits, with a parent-death
//     signal (SIGKILL), which Linux sends when the creating thread dies. A
//     bot's own children do not inherit that signal; the next gauntlet that
//     starts a bot kills the processes whose mark names a dead owner (see
//     package gauntlet/internal/owner).
//   - The bounds a game's context carries (package gauntlet/internal/botlimit)
//     hold: an answer still awaited at the game's wall-clock cap is a
//     timeout (*CapError), a bot whose processes hold more memory or run
//     more processes than allowed is killed (*LimitError, found by a look at
//     its processes every WatchEvery), and with the CPU clock an answer is
//     timed by the CPU time the bot's processes spent on it.
//   - Waits are bounded: the bot's output is read by a goroutine of ours (no
//     exec.Cmd copying goroutine waits for a pipe an escaped child holds),
//     and an answer that arrived in time is kept whatever the bot's children
//     do afterwards.
//
// Every failure comes back as an error the referee turns into that player's
// official outcome (timeout, disqualification, forfeit).
package lineproc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gauntlet/internal/botlimit"
	"gauntlet/internal/untrusted"
)

// Errors returned by Proc methods and Run; test with errors.Is.
var (
	ErrTimeout     = errors.New("time limit exceeded")
	ErrExited      = errors.New("bot process exited")
	ErrLineTooLong = errors.New("output line too long")
	ErrOutputLimit = errors.New("output limit exceeded")
	ErrLimit       = errors.New("resource cap exceeded")
)

// DefaultMaxLine is the longest output line accepted when Options.MaxLine is 0.
const DefaultMaxLine = 1 << 20

// LateWindow bounds how long a late answer is still awaited after its limit
// and margin have passed, so that the forfeit can say by how much the limit
// was missed: the wait after the deadline is the limit plus margin, at most
// LateWindow.
const LateWindow = time.Second

// CPUWallFactor bounds the wall time of an answer timed by the CPU clock:
// a bot that waits without computing (blocked, or starved of CPU by the
// machine) forfeits after this many times its limit and margin.
const CPUWallFactor = 10

// WatchEvery is how often the processes of a bot with a memory or process
// cap are looked at (each look reads a few files of /proc per process of
// the bot, and the children lists of gauntlet's threads).
const WatchEvery = 100 * time.Millisecond

// cpuPoll is how often the CPU time of an answer awaited on the CPU clock
// is read (the kernel counts CPU time in clock ticks, 10 ms).
const cpuPoll = 20 * time.Millisecond

// Options configure a process.
type Options struct {
	Dir    string    // working directory ("" = the caller's)
	Env    []string  // extra KEY=VALUE entries appended to the caller's environment
	Stderr io.Writer // optional copy of the bot's stderr (e.g. a debug log)
	// MaxLine is the longest accepted output line in bytes, its newline
	// included (0 = DefaultMaxLine). A longer line is answered with
	// ErrLineTooLong as soon as MaxLine bytes have come without a newline,
	// and the rest of it, up to its newline, is skipped: memory stays
	// bounded whatever the bot prints.
	MaxLine int
	// Turns, when set, is told of each input (Send), once what the bot
	// wrote to stderr before has been written to Stderr: what Stderr
	// receives between two marks is the bot's stderr of one turn. See
	// WithSeat.
	Turns TurnMarker
}

// Proc is a running bot process.
type Proc struct {
	name    string
	cmd     *exec.Cmd
	stdin   *os.File // our end of the bot's stdin
	stdout  *os.File // our end of the bot's stdout
	stderr  *os.File // our end of the bot's stderr
	maxLine int
	tail    *TailBuffer
	group   *group
	lim     botlimit.Limits
	over    atomic.Pointer[LimitError] // why the watcher killed the bot

	lines   chan lineItem // answers as they arrive, in order
	quit    chan struct{} // closed by Close: the readers stop
	readers sync.WaitGroup
	errDone chan struct{} // closed when the stderr reader has stopped
	turns   *stderrTurns  // the stderr reader when inputs mark turns (Options.Turns)

	done    chan struct{} // closed once the process has been waited for
	waitErr error
	sentAt  time.Time     // when the last Send finished writing
	sentCPU time.Duration // the CPU time of the bot's processes then (CPU clock)

	// Answer's timers, made by its first call and reset by the next ones
	// (Answer is called by one goroutine at a time): new timers for each
	// answer were 12 of a relayed answer's 21 allocations.
	limitT *time.Timer  // the answer's time limit
	capT   *time.Timer  // the game's wall-clock cap; nil again once it fired
	pollT  *time.Ticker // the CPU clock's polls

	once sync.Once
	stop func() bool // stops the context watcher
}

// lineItem is one line read from the bot, or the reason there is none.
type lineItem struct {
	text string
	at   time.Time
	cpu  time.Duration // the CPU time of the bot's processes at arrival (CPU clock)
	err  error         // ErrLineTooLong (text empty), io.EOF (the output closed)
}

// Start launches argv[0] with arguments argv[1:]. The process and every
// process it starts are killed when ctx is done or Close is called. The
// bounds ctx carries (botlimit.From) apply to them.
func Start(ctx context.Context, argv []string, opt Options) (*Proc, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("empty bot command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("bot command %q: %w", argv[0], err)
	}
	p := &Proc{
		name:    strings.Join(argv, " "),
		maxLine: opt.MaxLine,
		tail:    NewTailBuffer(4096),
		lines:   make(chan lineItem, 1),
		quit:    make(chan struct{}),
		errDone: make(chan struct{}),
		done:    make(chan struct{}),
		lim:     botlimit.From(ctx),
	}
	if p.maxLine <= 0 {
		p.maxLine = DefaultMaxLine
	}
	var pp pipes
	if err := pp.open(); err != nil {
		return nil, err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pp.child()
	g, err := startGroup(cmd, opt.Env)
	if err != nil {
		pp.close()
		return nil, fmt.Errorf("bot command %q: %w", argv[0], err)
	}
	g.setPipes(pp.in[1], pp.out[0], pp.err[0])
	pp.started()
	p.cmd, p.group = cmd, g
	p.sentAt = time.Now() // an answer read before any Send is timed from the start
	if p.lim.CPU {
		p.sentCPU = g.cpuTime()
	}
	p.stdin, p.stdout, p.stderr = pp.in[1], pp.out[0], pp.err[0]
	go func() {
		p.waitErr = cmd.Wait()
		g.exited()
		close(p.done)
	}()
	if opt.Turns != nil {
		p.turns = newStderrTurns(p.stderrSink(opt.Stderr), opt.Turns)
		if err := p.turns.start(p.stderr); err != nil {
			p.turns = nil // read as without turns: one turn
		}
	}
	p.readers.Add(2)
	go p.readLines()
	go p.readStderr(opt.Stderr)
	p.stop = context.AfterFunc(ctx, g.kill)
	if p.lim.Memory > 0 || p.lim.Procs > 0 {
		go watch(g, p.lim, p.quit, func(e *LimitError) { p.over.Store(e) })
	}
	return p, nil
}

// Name is the command line the process was started with.
func (p *Proc) Name() string { return p.name }

// Send writes text to the bot's stdin; it should end with a newline. The
// answer clock of Answer starts when the last byte has been written. A bot
// that does not read its input (the pipe stays full) fails after timeout
// (<= 0: no limit).
func (p *Proc) Send(text []byte, timeout time.Duration) error {
	if p.lim.CPU {
		// Reading takes the bot no CPU time to speak of: only the wall
		// clock bounds it, as it bounds an answer on the CPU clock.
		timeout *= CPUWallFactor
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	capped := false
	if c := p.lim.Deadline; !c.IsZero() && (deadline.IsZero() || c.Before(deadline)) {
		deadline, capped = c, true
	}
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		return err
	}
	if p.turns != nil {
		p.turns.mark()
	}
	_, err := p.stdin.Write(text)
	p.sentAt = time.Now()
	if p.lim.CPU {
		p.sentCPU = p.group.cpuTime()
	}
	if err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded) && capped:
			return &CapError{Cap: p.lim.Cap}
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fmt.Errorf("%w: the bot did not read its input within %s", ErrTimeout, Millis(timeout))
		}
		return p.exitError("writing input", "closed its input (stdin)")
	}
	return nil
}

// Answer returns the next line the bot prints, without its line ending
// ("\n" or "\r\n"), and how long after the end of the last Send it arrived
// (0 for a line that was already there). With limit > 0 the line is due
// within limit + margin: a later one is a *LateError (errors.Is ErrTimeout)
// that says when it came, or that none came within the late window (see
// LateWindow). After a timeout the bot should be closed. An overlong line
// is ErrLineTooLong (wrapped, with the limit); the bot may go on.
//
// With the CPU clock (see botlimit.Limits) the times are the CPU time the
// bot's processes spent since the end of the last Send; the line is due
// once they have spent limit + margin, and within CPUWallFactor times that
// on the wall clock. At the game's wall-clock cap an answer not there yet
// is a *CapError (errors.Is ErrTimeout).
func (p *Proc) Answer(limit, margin time.Duration) (string, time.Duration, error) {
	cpu := p.lim.CPU && limit > 0
	var timer <-chan time.Time
	due := limit + margin
	if limit > 0 {
		wait := due + min(due, LateWindow)
		if cpu {
			wait = CPUWallFactor * due
		}
		d := time.Until(p.sentAt.Add(wait))
		if p.limitT == nil {
			p.limitT = time.NewTimer(d)
		} else {
			p.limitT.Reset(d)
		}
		defer p.limitT.Stop()
		timer = p.limitT.C
	}
	var capC <-chan time.Time
	if !p.lim.Deadline.IsZero() {
		// Made once: it fires at the cap whether or not an Answer waits
		// then, and the Answer that takes its tick makes the next Answer
		// make another, already due.
		if p.capT == nil {
			p.capT = time.NewTimer(time.Until(p.lim.Deadline))
		}
		capC = p.capT.C
	}
	var poll <-chan time.Time
	if cpu {
		if p.pollT == nil {
			p.pollT = time.NewTicker(cpuPoll)
		} else {
			p.pollT.Reset(cpuPoll)
		}
		defer p.pollT.Stop()
		poll = p.pollT.C
	}
	var it lineItem
	var ok bool
wait:
	for {
		select {
		case it, ok = <-p.lines:
			break wait
		case <-poll:
			if spent := p.group.cpuTime() - p.sentCPU; spent > due {
				select {
				case it, ok = <-p.lines:
					break wait
				default:
					return "", spent, &LateError{Limit: limit, Margin: margin, After: spent, CPU: true}
				}
			}
		case <-timer:
			// A line that came before the timer fired, but was not read
			// then (the caller was busy elsewhere), still counts by its time.
			select {
			case it, ok = <-p.lines:
				break wait
			default:
				waited := time.Since(p.sentAt)
				late := &LateError{Limit: limit, Margin: margin, After: waited, Note: p.lim.Shared}
				if cpu {
					late.Note = fmt.Sprintf("the bot's processes spent %s of CPU time in that wall time", Millis(p.group.cpuTime()-p.sentCPU))
				}
				return "", waited, late
			}
		case <-capC:
			p.capT = nil
			select {
			case it, ok = <-p.lines:
				break wait
			default:
				return "", time.Since(p.sentAt), &CapError{Cap: p.lim.Cap}
			}
		}
	}
	if !ok || errors.Is(it.err, io.EOF) {
		return "", 0, p.exitError("reading output", "closed its output (stdout)")
	}
	took := max(it.at.Sub(p.sentAt), 0)
	if cpu {
		took = max(it.cpu-p.sentCPU, 0)
	}
	if limit > 0 && took > due {
		late := &LateError{Limit: limit, Margin: margin, After: took, Came: true, CPU: cpu}
		if !cpu {
			late.Note = p.lim.Shared
		}
		return "", took, late
	}
	if it.err != nil {
		return "", took, fmt.Errorf("%w: more than %s bytes", it.err, thousands(int64(p.maxLine)))
	}
	return it.text, took, nil
}

// readLines reads the bot's stdout into p.lines, stamping each line with its
// arrival time, until the output closes or Close is called.
func (p *Proc) readLines() {
	defer p.readers.Done()
	defer close(p.lines)
	rd := bufio.NewReaderSize(p.stdout, 64<<10)
	var buf []byte
	skipping := false // inside an overlong line already refused
	for {
		chunk, err := rd.ReadSlice('\n')
		now := time.Now()
		var cpu time.Duration
		if p.lim.CPU {
			cpu = p.group.cpuTime()
		}
		nl := err == nil
		if nl {
			chunk = chunk[:len(chunk)-1]
		}
		switch {
		case skipping:
			skipping = !nl
		case len(buf)+len(bytes.TrimSuffix(chunk, []byte{'\r'})) >= p.maxLine:
			// Not even the newline would fit: refuse now, skip the rest.
			if !p.emit(lineItem{err: ErrLineTooLong, at: now, cpu: cpu}) {
				return
			}
			buf, skipping = buf[:0], !nl
		case nl:
			buf = append(buf, chunk...)
			line := string(bytes.TrimSuffix(buf, []byte{'\r'}))
			buf = buf[:0]
			if !p.emit(lineItem{text: line, at: now, cpu: cpu}) {
				return
			}
		default:
			buf = append(buf, chunk...)
		}
		if nl || errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(buf) > 0 && !skipping {
			// A last line without a newline still counts.
			if !p.emit(lineItem{text: string(bytes.TrimSuffix(buf, []byte{'\r'})), at: now, cpu: cpu}) {
				return
			}
		}
		p.emit(lineItem{err: io.EOF, at: now})
		return
	}
}

// emit hands a line to Answer; false when the Proc is being closed.
func (p *Proc) emit(it lineItem) bool {
	select {
	case p.lines <- it:
		return true
	case <-p.quit:
		return false
	}
}

// readStderr keeps the tail of the bot's stderr (and copies it to w).
func (p *Proc) readStderr(w io.Writer) {
	defer p.readers.Done()
	defer close(p.errDone)
	if p.turns != nil {
		p.turns.run()
		return
	}
	// The copy ends at EOF or when Close closes our end; either way the
	// tail holds what came.
	_, _ = io.Copy(p.stderrSink(w), p.stderr)
}

// stderrSink is where the bot's stderr goes: the tail, and w.
func (p *Proc) stderrSink(w io.Writer) io.Writer {
	if w == nil {
		return p.tail
	}
	return io.MultiWriter(p.tail, w)
}

// exitError describes why the bot's pipe closed: its exit status (when it has
// exited within a moment), else closed (which end the bot closed while still
// running), and the tail of its stderr.
func (p *Proc) exitError(doing, closed string) error {
	select {
	case <-p.done:
	case <-time.After(200 * time.Millisecond):
	}
	if e := p.over.Load(); e != nil {
		return e
	}
	var status string
	select {
	case <-p.done:
		if p.waitErr != nil {
			status = p.waitErr.Error()
		} else {
			status = "exit status 0"
		}
		// The stderr of a process that has exited is complete once its
		// own children are gone; wait for it a moment.
		select {
		case <-p.errDone:
		case <-time.After(50 * time.Millisecond):
		}
	default:
		status = closed
	}
	msg := fmt.Sprintf("%s: %s", doing, status)
	if t := strings.TrimSpace(p.tail.String()); t != "" {
		msg += "; stderr: " + untrusted.LastLines(t, 3)
	}
	return fmt.Errorf("%w: %s", ErrExited, msg)
}

// ClockNote says how the answer times of the bot are measured when that is
// not plainly the wall time of a machine of its own: "CPU time", or
// "wall time; the machine was shared: 2 games on 2 cores"; "" otherwise.
// Callers that judge the times themselves (a total limit) add it to the
// forfeit they give.
func (p *Proc) ClockNote() string {
	switch {
	case p.lim.CPU:
		return "CPU time"
	case p.lim.Shared != "":
		return "wall time; the machine was shared: " + p.lim.Shared
	}
	return ""
}

// StderrTail returns the last few KiB the bot wrote to stderr.
func (p *Proc) StderrTail() string { return p.tail.String() }

// Close ends the bot and every process it started, and waits for them. A
// well-behaved bot gets a moment to exit on the end of its input first. It
// is safe to call more than once and returns the process's wait error, if
// any, the first time.
func (p *Proc) Close() error {
	var err error
	p.once.Do(func() {
		p.stop()
		// Closing the pipes' ends here only tells the bot, or our readers,
		// that we are done: their errors cannot matter.
		_ = p.stdin.Close()
		select {
		case <-p.done:
		case <-time.After(100 * time.Millisecond):
		}
		p.group.release()
		<-p.done // SIGKILL cannot be ignored
		// The killed processes' pipe ends are closed by the kernel; a
		// process that escaped the kill would hold them: stop reading.
		select {
		case <-p.errDone:
		case <-time.After(100 * time.Millisecond):
		}
		close(p.quit)
		_ = p.stdout.Close()
		_ = p.stderr.Close()
		p.readers.Wait()
		err = p.waitErr
	})
	return err
}

// pipes are a child's stdin, stdout and stderr: {read end, write end} each.
type pipes struct{ in, out, err [2]*os.File }

func (pp *pipes) open() error {
	for _, p := range []*[2]*os.File{&pp.in, &pp.out, &pp.err} {
		r, w, err := os.Pipe()
		if err != nil {
			pp.close()
			return err
		}
		*p = [2]*os.File{r, w}
	}
	return nil
}

// child returns the child's ends: stdin's read end, the others' write ends.
func (pp *pipes) child() (in, out, errOut *os.File) { return pp.in[0], pp.out[1], pp.err[1] }

// started closes the child's ends in this process once the child holds its
// own copies.
func (pp *pipes) started() {
	for _, f := range []**os.File{&pp.in[0], &pp.out[1], &pp.err[1]} {
		_ = (*f).Close() // the child holds its copy; ours only goes away
		*f = nil
	}
}

// close closes every end still open here.
func (pp *pipes) close() {
	for _, p := range []*[2]*os.File{&pp.in, &pp.out, &pp.err} {
		for i, f := range p {
			if f != nil {
				_ = f.Close() // a pipe end: nothing was buffered in it
				p[i] = nil
			}
		}
	}
}

// LateError is a time limit missed: an answer (or a solver's exit) that
// came after the limit and its margin, or none within the late window.
type LateError struct {
	Limit, Margin time.Duration
	After         time.Duration // when it came, or how long it was awaited
	Came          bool          // false: nothing came within After
	Run           bool          // a whole run (a solver), not one answer
	CPU           bool          // After is CPU time (the CPU clock)
	// Note, when set, says how the machine was shared while a wall-clock
	// time was taken ("2 games on 2 cores"), or what a CPU-clock answer
	// awaited past its wall-clock bound spent.
	Note string
}

// Error says by how much the limit was missed:
// "answered after 1,013 ms, limit 1,000 ms + margin 10 ms" or
// "no answer within 2,020 ms (limit 1,000 ms + margin 10 ms)".
//
// A CPU-clock time says so ("answered after 1,013 ms of CPU time, ..."), and
// a note follows: "...; wall time, the machine was shared: 2 games on 2
// cores".
func (e *LateError) Error() string {
	lim := "limit " + Millis(e.Limit)
	if e.Margin > 0 {
		lim += " + margin " + Millis(e.Margin)
	}
	after := Millis(e.After)
	if e.CPU {
		after += " of CPU time"
	}
	var msg string
	switch {
	case e.Came && e.Run:
		msg = fmt.Sprintf("finished after %s, %s", after, lim)
	case e.Came:
		msg = fmt.Sprintf("answered after %s, %s", after, lim)
	case e.Run:
		msg = fmt.Sprintf("still running after %s (%s)", after, lim)
	default:
		msg = fmt.Sprintf("no answer within %s (%s)", after, lim)
	}
	switch {
	case e.Note == "":
	case e.CPU || e.Run:
		msg += "; " + e.Note
	case strings.HasPrefix(e.Note, "the bot's"):
		msg += "; wall time: " + e.Note
	default:
		msg += "; wall time, the machine was shared: " + e.Note
	}
	return msg
}

// Is makes a LateError match ErrTimeout.
func (e *LateError) Is(target error) bool { return target == ErrTimeout }

// Came reports whether err is an answer that came late (a *LateError with
// Came set): its time counts among the bot's answer times. Call it on an
// error only: the target errors.As needs is an allocation.
func Came(err error) bool {
	var late *LateError
	return errors.As(err, &late) && late.Came
}

// CapError is an answer (or a solver's exit) still awaited when the game's
// wall-clock cap passed.
type CapError struct {
	Cap time.Duration
}

// Error says which cap: "game wall-clock cap 10m0s exceeded".
func (e *CapError) Error() string {
	return fmt.Sprintf("game wall-clock cap %v exceeded", e.Cap)
}

// Is makes a CapError match ErrTimeout.
func (e *CapError) Is(target error) bool { return target == ErrTimeout }

// LimitError is a bot whose processes went over a resource cap: they were
// killed.
type LimitError struct {
	Memory     bool  // the memory cap; false: the process cap
	Used, Over int64 // what they held (bytes, or processes) and the cap
}

// Error says which cap and by how much: "memory cap exceeded: the bot's
// processes held 612 MiB, cap 512 MiB (killed)".
func (e *LimitError) Error() string {
	if e.Memory {
		return fmt.Sprintf("memory cap exceeded: the bot's processes held %s, cap %s (killed)", MiB(e.Used), MiB(e.Over))
	}
	return fmt.Sprintf("process cap exceeded: the bot ran %d processes, cap %d (killed)", e.Used, e.Over)
}

// Is makes a LimitError match ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// MiB writes a number of bytes in mebibytes: "612 MiB", "0.5 MiB".
func MiB(n int64) string {
	const mib = 1 << 20
	if n%mib != 0 && n < 10*mib {
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	}
	return thousands((n+mib/2)/mib) + " MiB"
}

// watch looks at the processes of g every WatchEvery until stop is closed,
// and when they hold more memory or are more processes than lim allows,
// hands why to over and kills them.
func watch(g *group, lim botlimit.Limits, stop <-chan struct{}, over func(*LimitError)) {
	t := time.NewTicker(WatchEvery)
	defer t.Stop()
	for {
		u, ok := g.usage()
		if !ok {
			return
		}
		var e *LimitError
		switch {
		case lim.Memory > 0 && u.rss > lim.Memory:
			e = &LimitError{Memory: true, Used: u.rss, Over: lim.Memory}
		case lim.Procs > 0 && u.procs > lim.Procs:
			e = &LimitError{Used: int64(u.procs), Over: int64(lim.Procs)}
		}
		if e != nil {
			over(e)
			g.kill()
			return
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// Millis writes a duration in milliseconds with thousands separators,
// "1,013 ms"; durations under 10 ms keep one decimal ("2.5 ms").
func Millis(d time.Duration) string {
	if d < 10*time.Millisecond && d%time.Millisecond != 0 {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return thousands(int64((d+time.Millisecond/2)/time.Millisecond)) + " ms"
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TailBuffer keeps the last bytes written to it (a program's stderr,
// shown when it fails). It is safe for concurrent use.
type TailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// NewTailBuffer returns a TailBuffer that keeps the last max bytes.
func NewTailBuffer(max int) *TailBuffer { return &TailBuffer{max: max} }

func (t *TailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(b) >= t.max {
		t.buf = append(t.buf[:0], b[len(b)-t.max:]...)
		return len(b), nil
	}
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *TailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
