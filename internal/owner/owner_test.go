package owner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestTokenAndAlive(t *testing.T) {
	tok := Token()
	if !validToken(tok) || !strings.HasPrefix(tok, strconv.Itoa(os.Getpid())) {
		t.Fatalf("token %q", tok)
	}
	if !Alive(tok) {
		t.Fatalf("this process (%s) is not alive", tok)
	}
	for _, bad := range []string{"", "x", "-1", "999999999.1", tok + "9", "12.ab"} {
		if Alive(bad) {
			t.Errorf("Alive(%q)", bad)
		}
	}
	// A process that has exited is not alive, even while its pid exists
	// as a zombie.
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dead := tokenOf(cmd.Process.Pid)
	cmd.Wait()
	if dead != "" && Alive(dead) {
		t.Errorf("exited process %s alive", dead)
	}
}

func TestMkdirTempSweepsDeadOwners(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const prefix = "owner-test-"
	dead := filepath.Join(tmp, prefix+"999999999.1-old")
	stranger := filepath.Join(tmp, prefix+"not-a-token")
	for _, d := range []string{dead, stranger} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := MkdirTemp(prefix)
	if err != nil {
		t.Fatal(err)
	}
	if tok, ok := TokenOfName(filepath.Base(dir), prefix); !ok || tok != Token() {
		t.Fatalf("%s: token %q, %v", dir, tok, ok)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s not removed", dead)
	}
	if _, err := os.Stat(stranger); err != nil {
		t.Errorf("%s removed: %v", stranger, err)
	}
}
