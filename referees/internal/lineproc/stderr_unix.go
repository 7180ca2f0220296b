//go:build unix

package lineproc

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// pipeReader reads a nonblocking pipe by raw reads under mu.
type pipeReader struct {
	mu sync.Mutex
	rc syscall.RawConn
}

// start readies s to read f (our end of the bot's stderr).
func (s *stderrTurns) start(f *os.File) error {
	rc, err := f.SyscallConn()
	s.pipe.rc = rc
	return err
}

// run reads until the pipe closes or its end is closed here (Close).
func (s *stderrTurns) run() {
	for {
		var n int
		var rerr error
		err := s.pipe.rc.Read(func(fd uintptr) bool {
			s.pipe.mu.Lock()
			defer s.pipe.mu.Unlock()
			n, rerr = syscall.Read(int(fd), s.buf)
			if errors.Is(rerr, syscall.EAGAIN) {
				return false // wait until there is something to read
			}
			if n > 0 {
				s.write(s.buf[:n])
			}
			return true
		})
		switch {
		case err != nil:
			return
		case errors.Is(rerr, syscall.EINTR):
		case rerr != nil || n <= 0:
			return
		}
	}
}

// mark hands dst what the pipe holds now, then tells turns of the next
// input.
func (s *stderrTurns) mark() {
	err := s.pipe.rc.Control(func(fd uintptr) {
		s.pipe.mu.Lock()
		defer s.pipe.mu.Unlock()
		// A pipe's worth at most: a bot that floods its stderr does not
		// hold the input back.
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
	})
	if err != nil {
		// Our end is closed (the bot is being closed): nothing to drain,
		// the turn is marked all the same.
		s.pipe.mu.Lock()
		s.turns.NextTurn()
		s.pipe.mu.Unlock()
	}
}
