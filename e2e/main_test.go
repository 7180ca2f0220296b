package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/internal/testbot"
	"gauntlet/internal/testpy"
)

// bin is the gauntlet binary the tests run, built once by TestMain (with
// the race detector when the tests run with it, except in -short mode);
// sourceDirs are the
// directories of the packages it is built from, outside the standard
// library.
var (
	bin        string
	sourceDirs []string
)

// TestBinarySources reads the files of every package the binary is built
// from. go test caches a package's result by what its test binary is built
// from and by the files its tests read; the gauntlet binary is built by
// TestMain in another process, so without this a change to a game or to the
// CLI would replay a cached e2e result.
func TestBinarySources(t *testing.T) {
	var main bool
	for _, d := range sourceDirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Type().IsRegular() {
				if _, err := os.ReadFile(filepath.Join(d, e.Name())); err != nil {
					t.Fatal(err)
				}
				main = main || (filepath.Base(d) == "gauntlet" && e.Name() == "main.go")
			}
		}
	}
	if !main {
		t.Fatalf("cmd/gauntlet/main.go not among the binary's sources (%d directories)", len(sourceDirs))
	}
}

func TestMain(m *testing.M) {
	testbot.Main()
	dir, err := os.MkdirTemp("", "gauntlet-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "gauntlet")
	args := []string{"build", "-o", bin}
	// The binary carries the race detector in the full run (make
	// test-long) only: in the -short one (make test) these tests took 94 s
	// of wall time with it and 47 s without, on the project's 2-core
	// machine, and the packages the binary is built from are tested under
	// the detector in their own right.
	flag.Parse()
	if raceEnabled && !testing.Short() {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "gauntlet/cmd/gauntlet")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building gauntlet:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	list := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", "gauntlet/cmd/gauntlet")
	list.Stderr = os.Stderr
	out, err := list.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: listing gauntlet's packages:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	sourceDirs = strings.Fields(string(out))
	code := testpy.Main(m.Run)
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
