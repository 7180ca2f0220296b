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

// MaxAnswerBytes is the longest answer line of an external bot, its newline
// included: CodinGame's runner reads at most 10,000 bytes of a player's
// output per turn (AGENT_MAX_BUFFER_SIZE) and a line it could not finish
// there is a timeout.
const MaxAnswerBytes = 10_000

// procBot is an external bot process of one seat.
type procBot struct {
	p      *lineproc.Proc
	closed bool
	times  []time.Duration // answer times, in order (the first is round 1's)
}

func startProc(ctx context.Context, a Agent, log io.Writer) (*procBot, error) {
	p, err := lineproc.Start(ctx, a.Command, lineproc.Options{Dir: a.Dir, Env: a.Env, Stderr: log, MaxLine: MaxAnswerBytes}.WithSeat(a.Stderr))
	if err != nil {
		return nil, err
	}
	return &procBot{p: p}, nil
}

// turn sends one turn input and reads the answer line, due within limit +
// margin after the input's last byte was written (limit 0: no limit).
// Errors are the forfeit reasons: a timeout, a crash, an overlong line.
func (b *procBot) turn(input []byte, limit, margin time.Duration, round int) (string, error) {
	write := time.Duration(0)
	if limit > 0 {
		write = limit + margin
	}
	if err := b.p.Send(input, write); err != nil {
		return "", describe(err, round)
	}
	line, took, err := b.p.Answer(limit, margin)
	if err == nil || lineproc.Came(err) {
		b.times = append(b.times, took)
	}
	if err != nil {
		return "", describe(err, round)
	}
	return line, nil
}

// describe turns a lineproc error into a forfeit reason:
//
//	timeout in round 1: answered after 1,013 ms, limit 1,000 ms + margin 10 ms
//	timeout in round 3: no answer within 120 ms (limit 50 ms + margin 10 ms)
//	timeout in round 3: the bot did not read its input within 60 ms
//	timeout in round 2: no newline within 10,000 bytes (CodinGame reads at most that much a turn)
//	crashed in round 1: exit status 3; stderr: boom
//	killed in round 4: memory cap exceeded: the bot's processes held 612 MiB, cap 512 MiB (killed)
func describe(err error, round int) error {
	switch {
	case errors.Is(err, lineproc.ErrTimeout):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrTimeout.Error()+": ")
		return fmt.Errorf("timeout in round %d: %s", round, msg)
	case errors.Is(err, lineproc.ErrLimit):
		return fmt.Errorf("killed in round %d: %v", round, err)
	case errors.Is(err, lineproc.ErrLineTooLong):
		return fmt.Errorf("timeout in round %d: no newline within 10,000 bytes (CodinGame reads at most that much a turn)", round)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
		msg = strings.TrimPrefix(msg, "reading output: ")
		msg = strings.TrimPrefix(msg, "writing input: ")
		return fmt.Errorf("crashed in round %d: %s", round, msg)
	}
	return fmt.Errorf("crashed in round %d: %v", round, err)
}

func (b *procBot) close() {
	if !b.closed {
		b.closed = true
		// The bot's exit status after the game (or after a forfeit already
		// recorded) changes no result.
		_ = b.p.Close()
	}
}
