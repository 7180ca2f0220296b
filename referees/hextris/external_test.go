package hextris

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gauntlet/internal/owner"
)

func solver(name string, args ...string) []string {
	return append([]string{"testdata/solvers/" + name}, args...)
}

// TestSolverOutputKeptWhateverItsChildDoes: a solver that prints its
// solution and exits, leaving a child that holds its stdout, has its
// solution kept at once (not thrown away when the child lingers).
func TestSolverOutputKeptWhateverItsChildDoes(t *testing.T) {
	p := mustOfficial(t, 1)
	begin := time.Now()
	res, err := RunExternal(context.Background(), solver("escape.sh"), ExternalOptions{TimeLimit: 5 * time.Second}, p, p.SourceSeeds[0])
	if err != nil || res.Solution != "ei!" {
		t.Fatalf("%+v, %v", res, err)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestSolverOutputCap: a solver that prints without end is stopped at the
// cap, promptly, memory bounded, with an error saying so.
func TestSolverOutputCap(t *testing.T) {
	p := mustOfficial(t, 1)
	begin := time.Now()
	_, err := RunExternal(context.Background(), solver("flood.sh"), ExternalOptions{MaxOutput: 4 << 20}, p, p.SourceSeeds[0])
	want := "hextris solver testdata/solvers/flood.sh: more than 4,194,304 bytes of output (stopped reading and killed it)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestSolverTimeLimit: a solver finishing after -t and the margin is a
// forfeit that says when it finished; the margin lets a later one through.
func TestSolverTimeLimit(t *testing.T) {
	p := mustOfficial(t, 1)
	seed := p.SourceSeeds[0]
	_, err := RunExternal(context.Background(), solver("slow.sh", "1.5"), ExternalOptions{TimeLimit: time.Second, Margin: 200 * time.Millisecond}, p, seed)
	if err == nil || !strings.HasSuffix(err.Error(), "limit 1,000 ms + margin 200 ms") {
		t.Fatalf("err = %v", err)
	}
	// It finished after its 1.5 s sleep; a loaded machine may add to that.
	m := regexp.MustCompile(`finished after (\d),(\d{3}) ms`).FindStringSubmatch(err.Error())
	if m == nil || m[1]+m[2] < "1500" {
		t.Fatalf("err = %v, want it to say when the solver finished (after 1,500 ms)", err)
	}
	res, err := RunExternal(context.Background(), solver("slow.sh", "1.1"), ExternalOptions{TimeLimit: time.Second, Margin: 500 * time.Millisecond}, p, seed)
	if err != nil || res.Solution != "ei!" || res.Took < 1100*time.Millisecond {
		t.Fatalf("within the margin: %+v, %v", res, err)
	}
}

// TestSolverIgnoredEntries: entries the scoring ignores are counted.
func TestSolverIgnoredEntries(t *testing.T) {
	p := mustOfficial(t, 1)
	seed := p.SourceSeeds[0]
	res, err := RunExternal(context.Background(), solver("extra.sh"), ExternalOptions{}, p, seed)
	if err != nil || res.Solution != "ei!" || res.Ignored != 2 || res.IgnoredFirst != "entry 0 (problem 99 seed 1): another game" {
		t.Fatalf("%+v, %v", res, err)
	}
	_, err = RunExternal(context.Background(), solver("exit3.sh"), ExternalOptions{}, p, seed)
	if err == nil || err.Error() != "hextris solver testdata/solvers/exit3.sh: exit status 3; stderr: boom" {
		t.Fatalf("err = %v", err)
	}
}

// TestTempDirsOfDeadRunsRemoved: the problem files' directory is named
// with its owner; a directory of a dead owner is removed by the next run,
// one of a live owner is left alone.
func TestTempDirsOfDeadRunsRemoved(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := filepath.Join(tmp, TempPrefix+"999999999.1-abc")    // no such pid
	live := filepath.Join(tmp, TempPrefix+owner.Token()+"-def") // this process
	other := filepath.Join(tmp, TempPrefix+"notatoken")
	for _, d := range []string{dead, live, other} {
		if err := os.MkdirAll(filepath.Join(d, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := owner.RemoveStale(tmp, TempPrefix)
	if err != nil || len(removed) != 1 || removed[0] != dead {
		t.Fatalf("removed %q, %v", removed, err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
}

// TestProblemWithoutUnitsOrSeeds: a problem file with no units, or no
// source seeds, cannot be played: refused, naming the field.
func TestProblemWithoutUnitsOrSeeds(t *testing.T) {
	for data, want := range map[string]string{
		`{"id":7,"width":5,"height":5,"filled":[],"units":[],"sourceLength":10,"sourceSeeds":[0]}`:                                                 "problem 7: units: none",
		`{"id":8,"width":5,"height":5,"filled":[],"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}],"sourceLength":10,"sourceSeeds":[]}`: "problem 8: sourceSeeds: none",
	} {
		if _, err := ParseProblem([]byte(data)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", data, err, want)
		}
	}
}
