package main

import (
	"strings"
	"testing"
)

// TestServeRefusesWideAddress: serve listens beyond loopback only with
// --public, and says why; a bad --poll is a usage error too. Both are
// refused before the store is opened (there is none here).
func TestServeRefusesWideAddress(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "--addr", "0.0.0.0:0"},
		{"serve", "--addr", ":8080"},
		{"serve", "--addr", "192.0.2.7:8080"},
		{"serve", "--addr", "localhost"},
		{"serve", "--poll", "1ms"},
	} {
		_, errb, code := gauntlet(t, dir, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb)
		}
		if strings.Contains(args[2], "0") && args[1] == "--addr" && args[2] != "localhost" && !strings.Contains(errb, "--public") {
			t.Errorf("%v: the error does not name --public: %s", args, errb)
		}
	}
	// With --public the address passes; the missing store is then the error.
	_, errb, code := gauntlet(t, dir, "serve", "--addr", "0.0.0.0:0", "--public", "--storage", "sqlite:missing.db")
	if code == 0 || strings.Contains(errb, "--public") || !strings.Contains(errb, "missing.db") {
		t.Errorf("--public: exit %d, stderr %s", code, errb)
	}
}
