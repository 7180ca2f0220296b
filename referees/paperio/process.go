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

// MaxAnswerBytes is the longest answer line of an external bot, its newline
// included: the contest's relay between a bot's process and the server read
// its output with QIODevice::readLine(MAX_RESP_LEN = 10000), so a longer
// line reached the server cut, as something that is not JSON, which the
// runner ignores. A longer line is ignored here too (and its rest skipped).
const MaxAnswerBytes = 10_000

// DefaultMargin is gauntlet's default margin on the runner's limits
// (REQUEST_MAX_TIME per answer and MAX_EXECUTION_TIME in all): the runner
// timed each read from before the tick message left its buffer, through the
// relay and TCP, and a bot can only time its own work; the margin absorbs
// what the pipe and the scheduler add to a bot that spends exactly its
// budget (README gives the figures).
const DefaultMargin = time.Second

// procBot is an external bot process speaking the runner's JSON protocol on
// its stdin and stdout.
type procBot struct {
	p      *lineproc.Proc
	spent  time.Duration   // answer times summed
	times  []time.Duration // answer times in order
	closed bool
}

func startProc(ctx context.Context, a Agent, log io.Writer) (*procBot, error) {
	p, err := lineproc.Start(ctx, a.Command, lineproc.Options{Dir: a.Dir, Env: a.Env, Stderr: log, MaxLine: MaxAnswerBytes}.WithSeat(a.Stderr))
	if err != nil {
		return nil, err
	}
	return &procBot{p: p}, nil
}

// send writes one message; the bot must have read it within limit + margin
// (limit 0: no limit). An error is the disconnect reason.
func (b *procBot) send(msg []byte, limit, margin time.Duration) error {
	write := time.Duration(0)
	if limit > 0 {
		write = limit + margin
	}
	if err := b.p.Send(msg, write); err != nil {
		return describe(err)
	}
	return nil
}

// ask reads one answer line under the per-read limit and the total budget,
// each with the margin (limit, total 0: no limit). An answer line over
// MaxAnswerBytes is errLong (ignored, the bot stays connected); other
// errors are disconnect reasons.
func (b *procBot) ask(limit, total, margin time.Duration) (string, error) {
	line, took, err := b.p.Answer(limit, margin)
	if err == nil || errors.Is(err, lineproc.ErrLineTooLong) || lineproc.Came(err) {
		b.spent += took
		b.times = append(b.times, took)
	}
	if errors.Is(err, lineproc.ErrLineTooLong) {
		return "", errLong
	}
	if err != nil {
		return "", describe(err)
	}
	if total > 0 && b.spent > total+margin {
		lim := "limit " + lineproc.Millis(total)
		if margin > 0 {
			lim += " + margin " + lineproc.Millis(margin)
		}
		if note := b.p.ClockNote(); note != "" {
			lim += "; " + note
		}
		return "", fmt.Errorf("sum timeout error: answers took %s in all, %s", lineproc.Millis(b.spent), lim)
	}
	return line, nil
}

// errLong is an answer line over MaxAnswerBytes.
var errLong = errors.New("answer line longer than 10,000 bytes (cut by the contest's relay): ignored")

// describe turns a lineproc error into a disconnect reason, with the
// runner's names for its failures:
//
//	read timeout error: answered after 6,020 ms, limit 5,000 ms + margin 1,000 ms
//	read timeout error: no answer within 7,000 ms (limit 5,000 ms + margin 1,000 ms)
//	read timeout error: the bot did not read its input within 6,000 ms
//	connection closed: exit status 3; stderr: boom
//	killed: memory cap exceeded: the bot's processes held 612 MiB, cap 512 MiB (killed)
func describe(err error) error {
	switch {
	case errors.Is(err, lineproc.ErrTimeout):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrTimeout.Error()+": ")
		return fmt.Errorf("read timeout error: %s", msg)
	case errors.Is(err, lineproc.ErrLimit):
		return fmt.Errorf("killed: %v", err)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), lineproc.ErrExited.Error()+": ")
		msg = strings.TrimPrefix(msg, "reading output: ")
		msg = strings.TrimPrefix(msg, "writing input: ")
		return fmt.Errorf("connection closed: %s", msg)
	}
	return fmt.Errorf("connection error: %v", err)
}

func (b *procBot) close() {
	if !b.closed {
		b.closed = true
		// The bot's exit status after the game (or after a forfeit already
		// recorded) changes no result.
		_ = b.p.Close()
	}
}
