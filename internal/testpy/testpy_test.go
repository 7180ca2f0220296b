package testpy

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestDirectFindsTheInterpreter(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on the PATH")
	}
	t.Setenv("PATH", os.Getenv("PATH"))
	cleanup, err := Direct()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	onPath, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(onPath, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	if exe := strings.TrimSpace(string(out)); !same(onPath, exe) {
		t.Errorf("python3 on the PATH is %s, the interpreter %s", onPath, exe)
	}
}

func TestDirectWithoutPython(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	cleanup, err := Direct()
	if err != nil {
		t.Fatal(err)
	}
	cleanup()
	if got := os.Getenv("PATH"); got != empty {
		t.Errorf("PATH %q, want it unchanged (%q)", got, empty)
	}
}
