//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// startReading starts the CLI with args on a stdin pipe that stays open,
// writes input to it and returns once the command has read all of it (the
// pipe is empty again): its signal handling is in place by then.
func startReading(t *testing.T, input string, args ...string) (*exec.Cmd, *bytes.Buffer, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
	cmd.Stdin = r
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	if _, err := w.WriteString(input); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		n, err := unix.IoctlGetInt(int(w.Fd()), unix.TIOCINQ) // FIONREAD: bytes in the pipe
		if err != nil {
			t.Skip("FIONREAD on a pipe:", err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v did not read its input within a minute", args)
		}
	}
	return cmd, &errb, w
}

// waitExit waits for cmd to exit (a minute at most: it should take a
// moment) and returns its exit status, -1 for death by a signal.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatal("still running a minute after the signal")
		return 0
	}
}

// TestStdinCommandsStopOnSignals: a command reading a pipe that stays open
// (replay, towers solve, hextris score /dev/stdin) stops on SIGINT, SIGTERM
// and SIGHUP as interrupted (exit status 130), instead of waiting for the
// input to end or, for SIGHUP, dying outright.
func TestStdinCommandsStopOnSignals(t *testing.T) {
	layout := `{"id": "small", "columns": ["a1 b0 a0", "b6 b5 b4 b3 b2 b1", "a6 a5 a4 a3 a2", ""], "moves": []}` + "\n"
	for _, c := range []struct {
		sig   syscall.Signal
		input string
		args  []string
	}{
		{syscall.SIGINT, layout, []string{"replay", "towers"}},
		{syscall.SIGHUP, layout, []string{"replay", "towers"}},
		{syscall.SIGTERM, `{"problemId":1,"seed":0,"solution":"ei!"}` + "\n", []string{"replay", "hextris"}},
		{syscall.SIGINT, layout, []string{"towers", "solve", "--jobs", "1"}},
		{syscall.SIGHUP, `[{"problemId":1,`, []string{"hextris", "score", "/dev/stdin"}},
	} {
		t.Run(fmt.Sprint(c.sig, c.args), func(t *testing.T) {
			cmd, errb, _ := startReading(t, c.input, c.args...)
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd); code != 130 || !strings.Contains(errb.String(), ": interrupted (") {
				t.Fatalf("exit %d after %v; want 130 and the interrupted message: %s", code, c.sig, errb.String())
			}
		})
	}
}

// TestSIGHUPHandsBackAndSaysHowToResume: an eval interrupted by SIGHUP (a
// closed terminal) stops as on Ctrl-C: exit status 130, the message saying
// how to resume, and the same command then finishes the run.
func TestSIGHUPHandsBackAndSaysHowToResume(t *testing.T) {
	const n = 12
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"eval", "--game", "pips", "--strategy", "skill", "--cases", fmt.Sprint("seeds:", n), "--jobs", "2",
		"--opponent", "cmd:" + os.Args[0] + " bot pips skill:skill=2", "--no-time-limit",
		"--storage", "sqlite:" + db, "--run", "hup", "--quiet", "--json"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GAUNTLET_CLI_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stored := func() int {
		st, err := store.Open(ctx, "sqlite:"+db)
		if err != nil {
			return 0
		}
		defer st.Close()
		g, err := st.Games(ctx, "hup")
		if err != nil {
			return 0
		}
		return len(g)
	}
	for deadline := time.Now().Add(time.Minute); stored() < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no game stored within a minute: %s", errb.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	code := waitExit(t, cmd)
	if code == 0 {
		t.Skip("the run finished before the signal")
	}
	if code != 130 || !strings.Contains(errb.String(), "interrupted") || !strings.Contains(errb.String(), "run the same command again to resume") {
		t.Fatalf("exit %d after SIGHUP; want 130 and how to resume: %s", code, errb.String())
	}
	out, stderr, code := gauntlet(t, dir, args...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	var s results.EvalSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.Games != n || s.Missing != 0 {
		t.Fatalf("resumed summary: %v games=%d missing=%d", err, s.Games, s.Missing)
	}
}

// TestInputFilesAreCapped: an input file without end (/dev/zero) is read
// only up to its cap, and the error names the file and the cap.
func TestInputFilesAreCapped(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hextris", "score", "/dev/zero"}, 1, "/dev/zero: larger than 64 MiB"},
		{[]string{"hextris", "solve", "-f", "/dev/zero"}, 1, "/dev/zero: larger than 64 MiB"},
		{[]string{"params", "--game", "brew", "greedy", "--params-file", "/dev/zero"}, 2, "params file /dev/zero: larger than 16 MiB"},
		{[]string{"spsa", "--game", "brew", "--strategy", "greedy", "--games", "2", "--storage", "none", "--gains-file", "/dev/zero"}, 2, "--gains-file: /dev/zero: larger than 16 MiB"},
		{[]string{"params", "--game", "brew", "cmd:echo {params@/dev/zero}"}, 2, "spec file: /dev/zero: larger than 16 MiB"},
	} {
		_, stderr, code := inProcess(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
