package bounded

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileStopsAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("[1,2,3]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(context.Background(), small, 7); err != nil || string(b) != "[1,2,3]" {
		t.Fatalf("ReadFile of 7 bytes with limit 7 = %q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(context.Background(), small, 6); !errors.As(err, &tl) || err.Error() != small+": larger than 6 bytes" {
		t.Fatalf("ReadFile of 7 bytes with limit 6 = %v", err)
	}
	// A device has no size: the read itself stops after the limit.
	_, err := ReadFile(context.Background(), "/dev/zero", 1<<20)
	if !errors.As(err, &tl) || err.Error() != "/dev/zero: larger than 1 MiB" {
		t.Fatalf("ReadFile(/dev/zero) = %v", err)
	}
	if _, err := ReadFile(context.Background(), filepath.Join(dir, "none"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadFile of a missing file = %v", err)
	}
}

func TestReadAll(t *testing.T) {
	if b, err := ReadAll(strings.NewReader("abc"), "x", 3); err != nil || string(b) != "abc" {
		t.Fatalf("ReadAll = %q, %v", b, err)
	}
	if _, err := ReadAll(strings.NewReader("abcd"), "stdin", 3); err == nil || err.Error() != "stdin: larger than 3 bytes" {
		t.Fatalf("ReadAll past the limit = %v", err)
	}
}

// TestReadAllJoinsPieces: input of unknown size, read in pieces, comes
// back whole and in order up to the limit exactly, and one byte past it is
// refused.
func TestReadAllJoinsPieces(t *testing.T) {
	data := make([]byte, 3*chunkSize+17)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	limit := int64(len(data))
	b, err := ReadAll(io.MultiReader(bytes.NewReader(data)), "pipe", limit)
	if err != nil || !bytes.Equal(b, data) {
		t.Fatalf("ReadAll of %d bytes with limit %d: %d bytes back, equal %v, %v", len(data), limit, len(b), bytes.Equal(b, data), err)
	}
	if _, err := ReadAll(io.MultiReader(bytes.NewReader(data)), "pipe", limit-1); err == nil || err.Error() != "pipe: larger than 3145744 bytes" {
		t.Fatalf("ReadAll one byte past the limit = %v", err)
	}
	if b, err := ReadAll(strings.NewReader(""), "empty", 10); err != nil || len(b) != 0 {
		t.Fatalf("ReadAll of nothing = %q, %v", b, err)
	}
}

// BenchmarkReadAllEndless reads an endless input (/dev/zero) to the file
// limit: the memory touched before it is refused.
func BenchmarkReadAllEndless(b *testing.B) {
	for b.Loop() {
		if _, err := ReadFile(context.Background(), "/dev/zero", FileSize); err == nil {
			b.Fatal("no error past the limit")
		}
	}
}

// TestReadFileOfAPipeStopsOnCancel: a named pipe whose writer stays open
// blocks a read; cancelling the context ends it.
func TestReadFileOfAPipeStopsOnCancel(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(ctx, fifo, 1<<20)
		done <- err
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the reader opened it
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write([]byte("[1,")); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("ReadFile after cancel = %v; want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadFile of an open pipe did not stop on cancel")
	}
}

func TestReaderStopsOnCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cr := Reader(ctx, r)
	if _, err := w.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	if n, err := io.ReadFull(cr, buf); err != nil || string(buf[:n]) != "hel" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if n, err := cr.Read(buf); err != nil || string(buf[:n]) != "lo" {
		t.Fatalf("Read of the rest = %q, %v", buf[:n], err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := cr.Read(buf) // blocks: the writer stays open
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Read after cancel = %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Read of an open pipe did not stop on cancel")
	}
	if _, err := cr.Read(buf); !errors.Is(err, context.Canceled) {
		t.Fatalf("a later Read = %v", err)
	}
}

func TestLinesNamesTheLongLine(t *testing.T) {
	in := "a\n\nbcd\n" + strings.Repeat("x", 100) + "\nnext\n"
	l := NewLines(context.Background(), strings.NewReader(in), 64)
	var got []string
	for l.Scan() {
		got = append(got, string(l.Bytes()))
	}
	if strings.Join(got, "|") != "a||bcd" || l.Line() != 3 {
		t.Fatalf("lines %q, at line %d", got, l.Line())
	}
	var tl *TooLargeError
	if err := l.Err(); !errors.As(err, &tl) || err.Error() != "line 4: longer than 64 bytes" {
		t.Fatalf("Err = %v", err)
	}
	l = NewLines(context.Background(), strings.NewReader("last"), 0)
	if !l.Scan() || string(l.Bytes()) != "last" || l.Scan() || l.Err() != nil {
		t.Fatalf("a last line without newline: %q, %v", l.Bytes(), l.Err())
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64 MiB", 16 << 20: "16 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q; want %q", n, got, want)
		}
	}
}
