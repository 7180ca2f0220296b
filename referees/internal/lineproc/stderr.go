package lineproc

import "io"

// TurnMarker is told of each input a bot is sent (Options.Turns).
type TurnMarker interface {
	// NextTurn marks the start of the bot's next turn: what it wrote to
	// stderr before has been handed to Options.Stderr.
	NextTurn()
}

// WithSeat adds w, where the harness keeps one seat's stderr (nil: none),
// to the options: w receives the bot's stderr beside Stderr, and when it
// is a TurnMarker it is told of each input.
func (o Options) WithSeat(w io.Writer) Options {
	if w == nil {
		return o
	}
	if o.Stderr == nil {
		o.Stderr = w
	} else {
		o.Stderr = io.MultiWriter(o.Stderr, w)
	}
	if t, ok := w.(TurnMarker); ok {
		o.Turns = t
	}
	return o
}

// stderrTurns reads a bot's stderr so that the turns of Options.Turns
// hold what the bot wrote in them: Send drains the pipe of what is in it
// (mark) before it tells Turns, under the lock the reader holds from each
// read to the write of what it read. Everything the bot wrote before its
// answer then lies before the mark of its next input, however late the
// reader's goroutine ran.
type stderrTurns struct {
	dst   io.Writer
	turns TurnMarker
	buf   []byte
	pipe  pipeReader // the platform's raw reads (stderr_unix.go)
}

func newStderrTurns(dst io.Writer, turns TurnMarker) *stderrTurns {
	return &stderrTurns{dst: dst, turns: turns, buf: make([]byte, 16<<10)}
}

// write hands what was read to dst: a failing writer (a closed debug
// log) loses its copy, not the bot's turns.
func (s *stderrTurns) write(b []byte) { _, _ = s.dst.Write(b) }
