//go:build !unix

package lineproc

import (
	"os"
	"sync"
)

// pipeReader: without raw nonblocking reads, the reader's goroutine alone
// reads the pipe, and a mark takes what it has read by then.
type pipeReader struct {
	mu sync.Mutex
	f  *os.File
}

func (s *stderrTurns) start(f *os.File) error {
	s.pipe.f = f
	return nil
}

func (s *stderrTurns) run() {
	for {
		n, err := s.pipe.f.Read(s.buf)
		if n > 0 {
			s.pipe.mu.Lock()
			s.write(s.buf[:n])
			s.pipe.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func (s *stderrTurns) mark() {
	s.pipe.mu.Lock()
	defer s.pipe.mu.Unlock()
	s.turns.NextTurn()
}
