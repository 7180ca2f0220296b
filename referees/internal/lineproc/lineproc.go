// Package lineproc runs an external bot as a child process and talks to it by
// lines over its stdin and stdout, with per-read time limits.
//
// It is shared by the referees' native protocols. A bot that crashes, hangs,
// floods its output or stops reading its input never blocks the caller past
// the limits given: every failure comes back as an error the referee turns
// into that player's official outcome (timeout, disqualification, forfeit).
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
	"syscall"
	"time"
)

// Errors returned by Proc methods; test with errors.Is.
var (
	ErrTimeout     = errors.New("time limit exceeded")
	ErrExited      = errors.New("bot process exited")
	ErrLineTooLong = errors.New("output line too long")
)

// DefaultMaxLine is the longest output line accepted when Options.MaxLine is 0.
const DefaultMaxLine = 1 << 20

// Options configure a process.
type Options struct {
	Dir     string    // working directory ("" = the caller's)
	Env     []string  // extra KEY=VALUE entries appended to the caller's environment
	Stderr  io.Writer // optional copy of the bot's stderr (e.g. a debug log)
	MaxLine int       // longest accepted output line in bytes (0 = DefaultMaxLine)
}

// Proc is a running bot process.
type Proc struct {
	name    string
	cmd     *exec.Cmd
	stdin   *os.File // our end of the bot's stdin
	stdout  *os.File // our end of the bot's stdout
	rd      *bufio.Reader
	maxLine int
	tail    *tailBuffer

	done    chan struct{} // closed once the process has been waited for
	waitErr error
	once    sync.Once
	stop    func() bool // stops the context watcher
}

// Start launches argv[0] with arguments argv[1:]. The process (and any
// children it starts, as one process group) is killed when ctx is done or
// Close is called.
func Start(ctx context.Context, argv []string, opt Options) (*Proc, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("empty bot command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("bot command %q: %w", argv[0], err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &Proc{
		name:    strings.Join(argv, " "),
		stdin:   inW,
		stdout:  outR,
		maxLine: opt.MaxLine,
		tail:    &tailBuffer{max: 4096},
		done:    make(chan struct{}),
	}
	if p.maxLine <= 0 {
		p.maxLine = DefaultMaxLine
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = opt.Dir
	if len(opt.Env) > 0 {
		cmd.Env = append(os.Environ(), opt.Env...)
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	if opt.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.tail, opt.Stderr)
	} else {
		cmd.Stderr = p.tail
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("bot command %q: %w", argv[0], err)
	}
	// The child holds its own copies of these ends now.
	inR.Close()
	outW.Close()
	p.cmd = cmd
	p.rd = bufio.NewReaderSize(outR, 64<<10)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	p.stop = context.AfterFunc(ctx, p.kill)
	return p, nil
}

// Name is the command line the process was started with.
func (p *Proc) Name() string { return p.name }

// Send writes text to the bot's stdin. The text should end with a newline.
// timeout <= 0 means no limit.
func (p *Proc) Send(text string, timeout time.Duration) error {
	if timeout > 0 {
		p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	} else {
		p.stdin.SetWriteDeadline(time.Time{})
	}
	_, err := io.WriteString(p.stdin, text)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("writing input: %w (the bot does not read its input)", ErrTimeout)
		}
		return p.exitError("writing input")
	}
	return nil
}

// ReadLine returns the next line the bot prints, without its line ending
// ("\n" or "\r\n"). timeout <= 0 means no limit. A timed-out bot should be
// closed: a partial line may have been consumed.
func (p *Proc) ReadLine(timeout time.Duration) (string, error) {
	if timeout > 0 {
		p.stdout.SetReadDeadline(time.Now().Add(timeout))
	} else {
		p.stdout.SetReadDeadline(time.Time{})
	}
	var buf []byte
	for {
		chunk, err := p.rd.ReadSlice('\n')
		if len(buf)+len(chunk) > p.maxLine {
			return "", fmt.Errorf("%w (more than %d bytes)", ErrLineTooLong, p.maxLine)
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			line := buf[:len(buf)-1]
			line = bytes.TrimSuffix(line, []byte{'\r'})
			return string(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			return "", ErrTimeout
		default:
			if len(buf) > 0 && errors.Is(err, io.EOF) {
				// A last line without a newline still counts.
				return string(bytes.TrimSuffix(buf, []byte{'\r'})), nil
			}
			return "", p.exitError("reading output")
		}
	}
}

// exitError describes why the bot's pipe closed: its exit status (when it has
// exited within a moment) and the tail of its stderr.
func (p *Proc) exitError(doing string) error {
	select {
	case <-p.done:
	case <-time.After(200 * time.Millisecond):
	}
	var status string
	select {
	case <-p.done:
		if p.waitErr != nil {
			status = p.waitErr.Error()
		} else {
			status = "exit status 0"
		}
	default:
		status = "closed its output"
	}
	msg := fmt.Sprintf("%s: %s", doing, status)
	if t := strings.TrimSpace(p.tail.String()); t != "" {
		msg += "; stderr: " + lastLines(t, 3)
	}
	return fmt.Errorf("%w: %s", ErrExited, msg)
}

// StderrTail returns the last few KiB the bot wrote to stderr.
func (p *Proc) StderrTail() string { return p.tail.String() }

// Close ends the process group and waits for it. It is safe to call more
// than once and returns the process's wait error, if any, the first time.
func (p *Proc) Close() error {
	var err error
	p.once.Do(func() {
		p.stop()
		p.stdin.Close()
		// Give a well-behaved bot a moment to exit on EOF, then kill it.
		select {
		case <-p.done:
		case <-time.After(100 * time.Millisecond):
			p.kill()
			<-p.done
		}
		p.stdout.Close()
		err = p.waitErr
	})
	return err
}

func (p *Proc) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Run starts argv, writes input to its stdin, and returns everything it
// printed on stdout once it exits. It fails when the process exits non-zero,
// prints more than maxOut bytes (0 = 64 MiB), or is still running after
// timeout (<= 0: no limit) or when ctx ends.
func Run(ctx context.Context, argv []string, opt Options, input []byte, timeout time.Duration, maxOut int) ([]byte, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("empty command")
	}
	if maxOut <= 0 {
		maxOut = 64 << 20
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	if len(opt.Env) > 0 {
		cmd.Env = append(os.Environ(), opt.Env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	cmd.Stdin = bytes.NewReader(input)
	out := &limitBuffer{max: maxOut}
	cmd.Stdout = out
	tail := &tailBuffer{max: 4096}
	if opt.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, opt.Stderr)
	} else {
		cmd.Stderr = tail
	}
	err := cmd.Run()
	if out.over {
		return nil, fmt.Errorf("%s: %w (more than %d bytes of output)", argv[0], ErrLineTooLong, maxOut)
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: %w (%v)", argv[0], ErrTimeout, timeout)
		}
		msg := err.Error()
		if t := strings.TrimSpace(tail.String()); t != "" {
			msg += "; stderr: " + lastLines(t, 3)
		}
		return nil, fmt.Errorf("%s: %w: %s", argv[0], ErrExited, msg)
	}
	return out.Bytes(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// limitBuffer collects up to max bytes and remembers whether more came.
type limitBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (l *limitBuffer) Write(b []byte) (int, error) {
	if l.Len()+len(b) > l.max {
		l.over = true
		return 0, ErrLineTooLong
	}
	return l.Buffer.Write(b)
}
