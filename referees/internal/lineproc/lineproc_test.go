package lineproc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func sh(t *testing.T, script string) *Proc {
	t.Helper()
	p, err := Start(context.Background(), []string{"sh", "-c", script}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestEcho(t *testing.T) {
	p := sh(t, `while read l; do echo "got $l"; done`)
	for _, w := range []string{"a", "b c"} {
		if err := p.Send(w+"\n", time.Second); err != nil {
			t.Fatal(err)
		}
		got, err := p.ReadLine(2 * time.Second)
		if err != nil || got != "got "+w {
			t.Fatalf("ReadLine = %q, %v", got, err)
		}
	}
}

func TestCRLFAndLastLineWithoutNewline(t *testing.T) {
	p := sh(t, `printf 'one\r\ntwo'`)
	if got, err := p.ReadLine(time.Second); err != nil || got != "one" {
		t.Fatalf("first = %q, %v", got, err)
	}
	if got, err := p.ReadLine(time.Second); err != nil || got != "two" {
		t.Fatalf("second = %q, %v", got, err)
	}
	if _, err := p.ReadLine(time.Second); !errors.Is(err, ErrExited) {
		t.Fatalf("after end: %v, want ErrExited", err)
	}
}

func TestTimeout(t *testing.T) {
	p := sh(t, `sleep 5`)
	start := time.Now()
	_, err := p.ReadLine(50 * time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("timeout took %v", d)
	}
	start = time.Now()
	p.Close()
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("close took %v", d)
	}
}

func TestCrashReportsStderr(t *testing.T) {
	p := sh(t, `echo boom >&2; exit 3`)
	_, err := p.ReadLine(2 * time.Second)
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("err = %v", err)
	}
}

func TestBotThatDoesNotRead(t *testing.T) {
	p := sh(t, `sleep 5`)
	big := strings.Repeat("x", 1<<20) + "\n"
	err := p.Send(big, 100*time.Millisecond)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
}

func TestLineTooLong(t *testing.T) {
	p, err := Start(context.Background(), []string{"sh", "-c", `head -c 5000 /dev/zero | tr '\0' x; echo`}, Options{MaxLine: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.ReadLine(2 * time.Second); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("err = %v", err)
	}
}

func TestContextKills(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, []string{"sh", "-c", "sleep 30"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cancel()
	if _, err := p.ReadLine(5 * time.Second); !errors.Is(err, ErrExited) {
		t.Fatalf("err = %v, want ErrExited after cancel", err)
	}
}

func TestMissingCommand(t *testing.T) {
	_, err := Start(context.Background(), []string{"./no-such-bot"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no-such-bot") {
		t.Fatalf("err = %v", err)
	}
}

func TestRun(t *testing.T) {
	out, err := Run(context.Background(), []string{"sh", "-c", "cat; echo done"}, Options{}, []byte("in\n"), time.Second, 0)
	if err != nil || string(out) != "in\ndone\n" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	_, err = Run(context.Background(), []string{"sh", "-c", "sleep 5"}, Options{}, nil, 100*time.Millisecond, 0)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	_, err = Run(context.Background(), []string{"sh", "-c", "echo bad >&2; exit 1"}, Options{}, nil, time.Second, 0)
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("err = %v", err)
	}
}
