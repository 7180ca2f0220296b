package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gauntlet/internal/testbot"
)

// bin is the gauntlet binary the tests run, built once by TestMain (with
// the race detector when the tests run with it).
var bin string

func TestMain(m *testing.M) {
	testbot.Main()
	dir, err := os.MkdirTemp("", "gauntlet-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "gauntlet")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "gauntlet/cmd/gauntlet")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building gauntlet:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// gauntlet runs the binary in dir and returns stdout, stderr and the exit
// status.
func gauntlet(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	return gauntletIn(t, dir, nil, args...)
}

// gauntletIn runs the binary in dir with stdin and returns stdout, stderr
// and the exit status.
func gauntletIn(t *testing.T, dir string, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}
