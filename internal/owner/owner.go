// Package owner names what a gauntlet process leaves on the machine —
// temporary directories, the environment of the bots it starts — with that
// process's identity, so that a later gauntlet can tell the leftovers of a
// dead process (killed with -9, or by the machine) from those of a live one
// and remove them.
//
// A process is identified by its token, "PID.START": its pid and, on Linux,
// its start time in clock ticks since boot (field 22 of /proc/PID/stat), so
// that a reused pid does not pass for the dead owner. Elsewhere the token is
// the pid alone.
package owner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

var (
	selfOnce  sync.Once
	selfToken string
)

// Token is this process's token.
func Token() string {
	selfOnce.Do(func() { selfToken = tokenOf(os.Getpid()) })
	return selfToken
}

// tokenOf is the token of a running process ("" when it is not running).
func tokenOf(pid int) string {
	st, err := startTime(pid)
	if err != nil {
		return ""
	}
	if st == "" {
		return strconv.Itoa(pid)
	}
	return strconv.Itoa(pid) + "." + st
}

// Alive reports whether the process named by token is still running: the
// pid exists and, where start times are known, started at the same time.
// A malformed token is not alive.
func Alive(token string) bool {
	pidText, _, _ := strings.Cut(token, ".")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	return tokenOf(pid) == token
}

// MkdirTemp creates a new directory under the system's temporary directory
// named prefix + Token() + "-" + random characters, after removing the
// directories of the same prefix whose owner is dead (once per prefix and
// process). prefix should end with a separator such as "-".
func MkdirTemp(prefix string) (string, error) {
	sweepOnce(prefix)
	return os.MkdirTemp("", prefix+Token()+"-")
}

var (
	sweptMu sync.Mutex
	swept   = map[string]bool{}
)

func sweepOnce(prefix string) {
	sweptMu.Lock()
	defer sweptMu.Unlock()
	if swept[prefix] {
		return
	}
	swept[prefix] = true
	// A failed sweep leaves old directories where they are: nothing of
	// this process depends on it.
	_, _ = RemoveStale(os.TempDir(), prefix)
}

// RemoveStale removes the entries of dir named prefix + TOKEN + "-..." whose
// owner TOKEN is not alive, and returns their paths. Entries of live owners,
// and names that do not carry a token, are left alone.
func RemoveStale(dir, prefix string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range ents {
		tok, ok := TokenOfName(e.Name(), prefix)
		if !ok || Alive(tok) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}

// TokenOfName returns the owner token in a name made by MkdirTemp with
// prefix, and whether there is one.
func TokenOfName(name, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return "", false
	}
	tok, _, ok := strings.Cut(rest, "-")
	if !ok || !validToken(tok) {
		return "", false
	}
	return tok, true
}

// validToken reports whether s has the form PID or PID.START.
func validToken(s string) bool {
	pid, start, hasStart := strings.Cut(s, ".")
	if !digits(pid) {
		return false
	}
	return !hasStart || digits(start)
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
