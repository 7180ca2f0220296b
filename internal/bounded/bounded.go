// Package bounded reads untrusted input (files and standard input given on
// the command line, replay lines) within stated limits, and stops when a
// context is done even while a read blocks (a pipe that stays open).
//
// A limit that is reached is an error naming the input and the limit
// ("games.json: larger than 64 MiB", "line 3: longer than 16 MiB"); the
// memory used stays within the limit whatever the input holds.
package bounded

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// The limits of gauntlet's inputs.
const (
	// FileSize bounds a whole input file: a solution or problem file.
	FileSize = 64 << 20
	// SettingsSize bounds a file of settings decoded whole into values
	// (--params-file, --gains-file, a {params@spec.json} file), which take
	// several times their size in memory.
	SettingsSize = 16 << 20
	// LineSize bounds one line of a JSON-lines input (a replay case, a
	// trace tick, a towers layout), its newline included.
	LineSize = 16 << 20
)

// TooLargeError is an input past its limit.
type TooLargeError struct {
	Name  string // the input: a file name, "line 3", "stdin"
	Limit int64  // bytes
	Line  bool   // a line of the input rather than the whole input
}

func (e *TooLargeError) Error() string {
	if e.Line {
		return fmt.Sprintf("%s: longer than %s", e.Name, Size(e.Limit))
	}
	return fmt.Sprintf("%s: larger than %s", e.Name, Size(e.Limit))
}

// Size writes a byte count the way the limits are stated: "64 MiB",
// "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the file path whole, as os.ReadFile does, but fails with a
// *TooLargeError naming path once more than limit bytes have come (a device
// such as /dev/zero, or a pipe, has no size to check first), and with
// ctx.Err() when ctx is done while a read blocks (a named pipe,
// /dev/stdin).
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing cannot lose data
	var r io.Reader = f
	size := int64(bytes.MinRead)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > limit {
			return nil, &TooLargeError{Name: path, Limit: limit}
		}
		size += st.Size()
	} else {
		r = Reader(ctx, f)
	}
	return readAll(r, path, limit, size)
}

// ReadAll reads r to its end, as io.ReadAll does, but fails with a
// *TooLargeError naming name once more than limit bytes have come.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	return readAll(r, name, limit, 512)
}

// chunkSize is the largest piece readAll reads input of unknown size in.
const chunkSize = 1 << 20

// readAll reads r whole, at most limit bytes, starting with a buffer of
// size bytes: input of a known size is read in one piece. Input of unknown
// size is read in pieces growing to chunkSize, joined once at its end:
// growing one buffer by doubling, as bytes.Buffer does, touched about four
// times the limit's memory before an endless input was refused
// (BenchmarkReadAllEndless, /dev/zero to the 64 MiB limit: 3.3 s that way
// on this project's 2-core machine, fresh memory's page faults most of it;
// 0.16 s in pieces).
func readAll(r io.Reader, name string, limit, size int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	var pieces [][]byte
	var total int64
	for next := min(size, limit+1); ; next = min(2*next, chunkSize) {
		piece := make([]byte, next)
		n, err := io.ReadFull(r, piece)
		total += int64(n)
		if total > limit {
			return nil, &TooLargeError{Name: name, Limit: limit}
		}
		pieces = append(pieces, piece[:n])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	return slices.Concat(pieces...), nil
}

// Reader returns r as a reader whose Read returns ctx.Err() as soon as ctx
// is done, even while a read of r blocks: r is read by a goroutine, which
// a read that never returns leaves behind (the process is ending). Reading
// stops at the first error of r or of ctx, and every later Read returns it.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r // never cancelled
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte      // the goroutine's buffer
	left    []byte      // read but not yet handed out
	pending chan result // the goroutine's answer, while a read is under way
	err     error       // the first error, sticky
}

type result struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.left) == 0 && c.err == nil {
		if err := c.ctx.Err(); err != nil {
			c.err = err
			return 0, err
		}
		if c.pending == nil {
			// As large as the caller's buffer (readAll offers the
			// rest of its piece), from 64 KiB up to 1 MiB.
			if size := min(max(len(p), 64<<10), 1<<20); len(c.buf) < size {
				c.buf = make([]byte, size)
			}
			ch := make(chan result, 1)
			c.pending = ch
			go func() {
				n, err := c.r.Read(c.buf)
				ch <- result{n, err}
			}()
		}
		select {
		case res := <-c.pending:
			c.pending = nil
			c.left, c.err = c.buf[:res.n], res.err
		case <-c.ctx.Done():
			c.err = c.ctx.Err()
			return 0, c.err
		}
	}
	n := copy(p, c.left)
	c.left = c.left[n:]
	if len(c.left) == 0 && c.err != nil {
		return n, c.err
	}
	return n, nil
}

// Lines reads an input line by line, each line at most LineSize bytes with
// its newline; a longer one is a *TooLargeError naming its line number.
// Reads stop when ctx is done.
type Lines struct {
	sc   *bufio.Scanner
	line int
	max  int
}

// NewLines reads r by lines of at most max bytes (0: LineSize), stopping
// with ctx.Err() when ctx is done even while a read blocks.
func NewLines(ctx context.Context, r io.Reader, max int) *Lines {
	if max <= 0 {
		max = LineSize
	}
	sc := bufio.NewScanner(Reader(ctx, r))
	// A token may be up to the buffer's size minus one: the newline.
	sc.Buffer(make([]byte, 0, min(64<<10, max)), max)
	return &Lines{sc: sc, max: max}
}

// Scan advances to the next line, false at the end of the input or on an
// error (see Err).
func (l *Lines) Scan() bool {
	if !l.sc.Scan() {
		return false
	}
	l.line++
	return true
}

// Bytes is the current line without its line ending; it is overwritten by
// the next Scan.
func (l *Lines) Bytes() []byte { return l.sc.Bytes() }

// Line is the number of the current line (1 for the first).
func (l *Lines) Line() int { return l.line }

// Err is the error that ended the input (nil at its end): a
// *TooLargeError for a line past the limit, naming it, or the reader's
// error.
func (l *Lines) Err() error {
	err := l.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return &TooLargeError{Name: fmt.Sprintf("line %d", l.line+1), Limit: int64(l.max), Line: true}
	}
	return err
}
