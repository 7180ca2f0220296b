// Package testpy puts the Python interpreter itself first on a test
// binary's PATH, for the tests that start Python bots and referees.
//
// The python3 a PATH finds is often a version manager's shim: pyenv's is a
// bash script that runs pyenv, which finds the interpreter and starts it.
// On this project's 2-core machine that costs 0.40 s of wall time a start
// against 0.06 s for the interpreter itself, and the relay, refgame and e2e
// tests start Python a few hundred times (relay's tests: 26 s against 15 s;
// e2e's: 99 s against 78 s, when each runs alone).
package testpy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Direct resolves python3 once and, when the PATH's python3 is not the
// interpreter itself, puts a temporary directory holding a link to the
// interpreter first on the PATH of this process (and so of every process
// it starts). It returns a function that removes that directory. Without
// a python3 on the PATH it changes nothing: the tests that need one say so
// themselves.
func Direct() (cleanup func(), err error) {
	cleanup = func() {}
	onPath, err := exec.LookPath("python3")
	if err != nil {
		return cleanup, nil
	}
	out, err := exec.Command(onPath, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return cleanup, fmt.Errorf("asking %s for its interpreter: %w", onPath, err)
	}
	exe := strings.TrimSpace(string(out))
	if exe == "" || !filepath.IsAbs(exe) {
		return cleanup, fmt.Errorf("%s names its interpreter %q", onPath, exe)
	}
	if same(onPath, exe) {
		return cleanup, nil
	}
	dir, err := os.MkdirTemp("", "gauntlet-python-")
	if err != nil {
		return cleanup, err
	}
	cleanup = func() {
		// A temporary directory left behind costs nothing but its entry;
		// the test's own result is what matters.
		_ = os.RemoveAll(dir)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "python3")); err != nil {
		cleanup()
		return func() {}, err
	}
	if err := os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		cleanup()
		return func() {}, err
	}
	return cleanup, nil
}

// same reports whether two paths name one file once links are followed.
func same(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// Main is a TestMain's body for a package that needs nothing else there:
// it runs the tests with Direct's PATH and exits with their status.
func Main(run func() int) int {
	cleanup, err := Direct()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testpy:", err)
		return 1
	}
	code := run()
	cleanup()
	return code
}
