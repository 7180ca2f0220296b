//go:build unix

package lineproc

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// pipeReader reads a nonblocking pipe by raw reads under mu. Its
// callbacks are bound once (read, drain), so that a read or a mark
// allocates nothing.
type pipeReader struct {
	mu    sync.Mutex
	rc    syscall.RawConn
	read  func(fd uintptr) bool
	drain func(fd uintptr)
	n     int   // the last read's count (read)
	err   error // and error
}

// start readies s to read f (our end of the bot's stderr).
func (s *stderrTurns) start(f *os.File) error {
	rc, err := f.SyscallConn()
	s.pipe.rc, s.pipe.read, s.pipe.drain = rc, s.readRaw, s.drainRaw
	return err
}

// run reads until the pipe closes or its end is closed here (Close).
func (s *stderrTurns) run() {
	for {
		if err := s.pipe.rc.Read(s.pipe.read); err != nil {
			return
		}
		switch {
		case errors.Is(s.pipe.err, syscall.EINTR):
		case s.pipe.err != nil || s.pipe.n <= 0:
			return
		}
	}
}

// readRaw is one read of run's, under the lock; false: nothing to read
// yet (the poller waits for more).
func (s *stderrTurns) readRaw(fd uintptr) bool {
	s.pipe.mu.Lock()
	defer s.pipe.mu.Unlock()
	s.pipe.n, s.pipe.err = syscall.Read(int(fd), s.buf)
	if errors.Is(s.pipe.err, syscall.EAGAIN) {
		return false
	}
	if s.pipe.n > 0 {
		s.write(s.buf[:s.pipe.n])
	}
	return true
}

// mark hands dst what the pipe holds now, then tells turns of the next
// input.
func (s *stderrTurns) mark() {
	if err := s.pipe.rc.Control(s.pipe.drain); err != nil {
		// Our end is closed (the bot is being closed): nothing to drain,
		// the turn is marked all the same.
		s.pipe.mu.Lock()
		s.turns.NextTurn()
		s.pipe.mu.Unlock()
	}
}

// drainRaw is mark's work, under the lock.
func (s *stderrTurns) drainRaw(fd uintptr) {
	s.pipe.mu.Lock()
	defer s.pipe.mu.Unlock()
	// A pipe's worth at most: a bot that floods its stderr does not hold
	// its input back.
	for range 4 {
		n, err := syscall.Read(int(fd), s.buf)
		if n > 0 {
			s.write(s.buf[:n])
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
	}
	s.turns.NextTurn()
}
