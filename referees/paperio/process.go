package paperio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/referees/internal/lineproc"
)

// procBot is an external bot process speaking the runner's JSON protocol on
// its stdin and stdout.
type procBot struct {
	p      *lineproc.Proc
	spent  time.Duration // total time waited for answers
	closed bool
}

func startProc(ctx context.Context, a Agent, log io.Writer) (*procBot, error) {
	p, err := lineproc.Start(ctx, a.Command, lineproc.Options{Dir: a.Dir, Env: a.Env, Stderr: log})
	if err != nil {
		return nil, err
	}
	return &procBot{p: p}, nil
}

// send writes one message; an error is the disconnect reason.
func (b *procBot) send(msg []byte, limit time.Duration) error {
	if err := b.p.Send(string(msg), limit); err != nil {
		return describe(err, limit)
	}
	return nil
}

// ask reads one answer line under the per-read limit and the total budget
// (both 0 = no limit). Errors are disconnect reasons.
func (b *procBot) ask(limit, total time.Duration) (string, error) {
	start := time.Now()
	line, err := b.p.ReadLine(limit)
	b.spent += time.Since(start)
	if err != nil {
		return "", describe(err, limit)
	}
	if total > 0 && b.spent > total {
		return "", fmt.Errorf("sum timeout error: %v spent, limit %v", b.spent.Round(time.Millisecond), total)
	}
	return line, nil
}

// describe turns a lineproc error into a disconnect reason.
func describe(err error, limit time.Duration) error {
	switch {
	case errors.Is(err, lineproc.ErrTimeout):
		return fmt.Errorf("read timeout error: no answer within %v", limit)
	case errors.Is(err, lineproc.ErrLineTooLong):
		return fmt.Errorf("unreadable answer (%v)", err)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
		return fmt.Errorf("connection closed: %s", msg)
	}
	return fmt.Errorf("connection error: %v", err)
}

func (b *procBot) close() {
	if !b.closed {
		b.closed = true
		b.p.Close()
	}
}
