package brew

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/referees/internal/lineproc"
)

// procBot is an external bot process of one seat.
type procBot struct {
	p      *lineproc.Proc
	closed bool
}

func startProc(ctx context.Context, a Agent, log io.Writer) (*procBot, error) {
	p, err := lineproc.Start(ctx, a.Command, lineproc.Options{Dir: a.Dir, Env: a.Env, Stderr: log})
	if err != nil {
		return nil, err
	}
	return &procBot{p: p}, nil
}

// turn sends one turn input and reads the answer line. Errors are the
// forfeit reasons: a timeout, a crash, an overlong line.
func (b *procBot) turn(input []byte, limit time.Duration, round int) (string, error) {
	if err := b.p.Send(string(input), limit); err != nil {
		return "", describe(err, limit, round)
	}
	line, err := b.p.ReadLine(limit)
	if err != nil {
		return "", describe(err, limit, round)
	}
	return line, nil
}

// describe turns a lineproc error into a human-readable forfeit reason.
func describe(err error, limit time.Duration, round int) error {
	switch {
	case errors.Is(err, lineproc.ErrTimeout):
		return fmt.Errorf("timeout after %v on round %d", limit, round)
	case errors.Is(err, lineproc.ErrLineTooLong):
		return fmt.Errorf("unparseable line (%v)", err)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
		msg = strings.TrimPrefix(msg, "reading output: ")
		msg = strings.TrimPrefix(msg, "writing input: ")
		return fmt.Errorf("crashed: %s", msg)
	}
	return fmt.Errorf("crashed: %v", err)
}

func (b *procBot) close() {
	if !b.closed {
		b.closed = true
		b.p.Close()
	}
}
