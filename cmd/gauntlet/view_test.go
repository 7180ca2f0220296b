package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
)

// viewable lists the registered games with a viewer, each with its first
// smoke case and a strategy.
func viewable(t *testing.T) []struct{ game, cases, strategy string } {
	t.Helper()
	var out []struct{ game, cases, strategy string }
	for _, g := range contract.Default.Games() {
		if _, ok := g.(contract.Viewer); !ok {
			continue
		}
		info := g.Info()
		cs, err := g.Cases("smoke")
		if err != nil || len(cs) == 0 {
			t.Fatalf("%s smoke: %v", info.Name, err)
		}
		ss := contract.Default.Strategies(info.Name)
		if len(ss) == 0 {
			t.Fatalf("%s has no strategy", info.Name)
		}
		// The game's default opponent where it has one: the page does not
		// depend on who plays, and the baseline plays fastest (paperpaths'
		// game under the race detector took 10 s of this test).
		strategy := ss[0].Name
		if info.Opponents != "" {
			opps, err := entrant.ParseLineup(contract.Default, info.Name, info.Opponents)
			if err != nil {
				t.Fatalf("%s default opponents: %v", info.Name, err)
			}
			strategy = opps[0].Name()
		}
		out = append(out, struct{ game, cases, strategy string }{info.Name, cs[0].ID, strategy})
	}
	if len(out) == 0 {
		t.Fatal("no game has a viewer")
	}
	return out
}

// TestViewWritesAPage runs `gauntlet view` for every game with a viewer, and
// `gauntlet view --run` on the same game stored by eval.
func TestViewWritesAPage(t *testing.T) {
	for _, v := range viewable(t) {
		t.Run(v.game, func(t *testing.T) {
			dir := t.TempDir()
			page := filepath.Join(dir, "g.html")
			_, stderr, code := gauntlet(t, dir, "view", "--game", v.game, "--case", v.cases, "--strategy", v.strategy, "--out", page)
			if code != 0 {
				t.Fatalf("view: exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(page)
			if err != nil || !strings.Contains(string(data), `id="score"`) || strings.Contains(string(data), "http://") || strings.Contains(string(data), "https://") {
				t.Fatalf("page: %v (a self-contained page with a score line expected)", err)
			}
			db := "sqlite:" + filepath.Join(dir, "g.db")
			if _, stderr, code := gauntlet(t, dir, "eval", "--game", v.game, "--strategy", v.strategy, "--cases", v.cases, "--storage", db, "--quiet", "--run", "r1"); code != 0 {
				t.Fatalf("eval: exit %d: %s", code, stderr)
			}
			stored := filepath.Join(dir, "s.html")
			if _, stderr, code := gauntlet(t, dir, "view", "--run", "r1", "--case", v.cases, "--storage", db, "--out", stored); code != 0 {
				t.Fatalf("view --run: exit %d: %s", code, stderr)
			}
			again, err := os.ReadFile(stored)
			if err != nil || string(again) != string(data) {
				t.Fatalf("view --run gave another page than view of the same game (%v)", err)
			}
		})
	}
}

func TestViewRefusesBadInput(t *testing.T) {
	v := viewable(t)[0]
	dir := t.TempDir()
	out := filepath.Join(dir, "x.html")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view", "--game", v.game, "--case", v.cases, "--strategy", v.strategy}, "--out"},
		{[]string{"view", "--game", v.game, "--strategy", v.strategy, "--out", out}, "--case"},
		{[]string{"view", "--game", v.game, "--case", "no-such-case", "--strategy", v.strategy, "--out", out}, "no-such-case"},
		{[]string{"view", "--game", "no-such-game", "--case", v.cases, "--strategy", v.strategy, "--out", out}, "no-such-game"},
		{[]string{"view", "--run", "r1", "--game", v.game, "--case", v.cases, "--out", out}, "--run"},
	} {
		_, stderr, code := gauntlet(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 naming %s)", c.args, code, stderr, c.want)
		}
	}
	// A store that is not there is not made: view only reads.
	_, stderr, code := gauntlet(t, dir, "view", "--run", "nope", "--case", v.cases, "--storage", "sqlite:"+filepath.Join(dir, "none.db"), "--out", out)
	if code == 0 || !strings.Contains(stderr, "no database") {
		t.Errorf("view of a missing store: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("view of a missing store made it (stat: %v)", err)
	}
}
