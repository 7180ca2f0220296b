package lineproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"gauntlet/internal/botlimit"
	"gauntlet/internal/untrusted"
)

// DefaultMaxOutput is the most a Run process may print when maxOut is 0.
const DefaultMaxOutput = 64 << 20

// drainWait bounds the wait for the last of a finished process's output
// once its descendants have been killed.
const drainWait = time.Second

// Run starts argv, writes input to its stdin, and returns everything it
// printed on stdout once it exits, with the time from its start to its
// exit. It must exit within limit + margin (limit <= 0: no limit); a later
// exit, or none within the late window, is a *LateError (the process is
// killed). It fails when the process exits non-zero, prints more than
// maxOut bytes (0 = DefaultMaxOutput; the reading stops there and the
// process is killed, so memory stays bounded: ErrOutputLimit), or when ctx
// ends. The output of a process that exited in time is kept whatever its
// children do afterwards: they are killed, and the pipe drained for at most
// a moment. The bounds ctx carries (botlimit.From) apply: a process still
// running at the game's wall-clock cap is killed (*CapError), one over a
// memory or process cap too (*LimitError). Its time is the wall clock's
// even with the CPU clock.
func Run(ctx context.Context, argv []string, opt Options, input []byte, limit, margin time.Duration, maxOut int) ([]byte, time.Duration, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, 0, errors.New("empty command")
	}
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", argv[0], err)
	}
	var pp pipes
	if err := pp.open(); err != nil {
		return nil, 0, err
	}
	defer pp.close()
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pp.child()
	g, err := startGroup(cmd, opt.Env)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", argv[0], err)
	}
	start := time.Now()
	g.setPipes(pp.in[1], pp.out[0], pp.err[0])
	pp.started()
	stdin, stdout, stderr := pp.in[1], pp.out[0], pp.err[0]
	done := make(chan struct{})
	var waitErr error
	var exitAt time.Time
	go func() {
		waitErr = cmd.Wait()
		exitAt = time.Now()
		g.exited()
		close(done)
	}()
	defer g.release()
	lim := botlimit.From(ctx)
	overC := make(chan *LimitError, 1)
	if lim.Memory > 0 || lim.Procs > 0 {
		stop := make(chan struct{})
		defer close(stop)
		go watch(g, lim, stop, func(e *LimitError) { overC <- e })
	}
	var capC <-chan time.Time
	if !lim.Deadline.IsZero() {
		t := time.NewTimer(time.Until(lim.Deadline))
		defer t.Stop()
		capC = t.C
	}
	go func() {
		// A solver need not read its input: a failed write only means that.
		_, _ = stdin.Write(input)
		_ = stdin.Close()
	}()
	out := &capped{max: maxOut, over: make(chan struct{})}
	outDone := make(chan struct{})
	go func() {
		out.readFrom(stdout)
		close(outDone)
	}()
	tail := NewTailBuffer(4096)
	errDone := make(chan struct{})
	go func() {
		var dst io.Writer = tail
		if opt.Stderr != nil {
			dst = io.MultiWriter(tail, opt.Stderr)
		}
		// Ends at EOF or when the deferred pp.close closes our end.
		_, _ = io.Copy(dst, stderr)
		close(errDone)
	}()

	due := limit + margin
	var timer <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(due)
		defer t.Stop()
		timer = t.C
	}
	kill := func() {
		g.kill()
		<-done
	}
	var late *LateError
	select {
	case <-done:
	case <-out.over:
		kill()
	case e := <-overC:
		kill()
		return nil, time.Since(start), fmt.Errorf("%s: %w", argv[0], e)
	case <-capC:
		kill()
		return nil, time.Since(start), fmt.Errorf("%s: %w", argv[0], &CapError{Cap: lim.Cap})
	case <-ctx.Done():
		kill()
		return nil, time.Since(start), ctx.Err()
	case <-timer:
		w := time.NewTimer(min(due, LateWindow))
		select {
		case <-capC:
			w.Stop()
			kill()
			return nil, time.Since(start), fmt.Errorf("%s: %w", argv[0], &CapError{Cap: lim.Cap})
		case e := <-overC:
			w.Stop()
			kill()
			return nil, time.Since(start), fmt.Errorf("%s: %w", argv[0], e)
		case <-done:
			w.Stop()
			// The timer and the exit can be ready together; a process that
			// exited within the limit is not late whichever the select took.
			if after := exitAt.Sub(start); after > due {
				late = &LateError{Limit: limit, Margin: margin, After: after, Came: true, Run: true, Note: sharedNote(lim)}
			}
		case <-w.C:
			kill()
			late = &LateError{Limit: limit, Margin: margin, After: time.Since(start), Run: true, Note: sharedNote(lim)}
		case <-ctx.Done():
			w.Stop()
			kill()
			return nil, time.Since(start), ctx.Err()
		}
	}
	select {
	case e := <-overC:
		// Killed by the watcher while its exit was being awaited.
		return nil, time.Since(start), fmt.Errorf("%s: %w", argv[0], e)
	default:
	}
	took := exitAt.Sub(start)
	// What the process's children still hold open is not waited for: they
	// are killed, and the output read for at most a moment.
	g.kill()
	drained := true
	select {
	case <-outDone:
	case <-time.After(drainWait):
		drained = false
	}
	select {
	case <-errDone:
	case <-time.After(50 * time.Millisecond):
	}
	switch {
	case out.exceeded():
		return nil, took, fmt.Errorf("%s: %w: more than %s bytes of output (stopped reading and killed it)", argv[0], ErrOutputLimit, thousands(int64(maxOut)))
	case late != nil:
		return nil, late.After, fmt.Errorf("%s: %w", argv[0], late)
	case waitErr != nil:
		msg := waitErr.Error()
		if t := strings.TrimSpace(tail.String()); t != "" {
			msg += "; stderr: " + untrusted.LastLines(t, 3)
		}
		return nil, took, fmt.Errorf("%s: %w: %s", argv[0], ErrExited, msg)
	}
	if !drained {
		// Close our end so the reader stops, and take what it has.
		_ = stdout.Close() // a read end: only stops the reader
		<-outDone
	}
	return out.bytes(), took, nil
}

// capped collects up to max bytes and signals when more came. It keeps
// what it reads in chunks and joins them once, at the end: growing one
// slice by doubling held up to three times the cap in memory (the old
// and new arrays and the garbage collector's headroom).
type capped struct {
	chunks [][]byte
	n      int
	max    int
	over   chan struct{} // closed when the output went past max
}

const chunkSize = 256 << 10

// readFrom reads r until EOF, an error, or max is exceeded; then it stops
// reading (the writer blocks on a full pipe until it is killed).
func (c *capped) readFrom(r io.Reader) {
	for {
		chunk := make([]byte, chunkSize)
		n, err := io.ReadFull(r, chunk)
		if c.n+n > c.max {
			close(c.over)
			return
		}
		if n > 0 {
			c.chunks = append(c.chunks, chunk[:n])
			c.n += n
		}
		if err != nil {
			return
		}
	}
}

// exceeded and bytes are read after readFrom has returned.
func (c *capped) exceeded() bool {
	select {
	case <-c.over:
		return true
	default:
		return false
	}
}

func (c *capped) bytes() []byte {
	out := make([]byte, 0, c.n)
	for _, ch := range c.chunks {
		out = append(out, ch...)
	}
	return out
}

// sharedNote is the note of a solver's timeout on a shared machine: its
// time is always the wall clock's.
func sharedNote(lim botlimit.Limits) string {
	if lim.Shared == "" {
		return ""
	}
	return "wall time, the machine was shared: " + lim.Shared
}
