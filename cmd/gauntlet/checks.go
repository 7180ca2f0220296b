package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gauntlet/harness"
	"gauntlet/harness/cli"
	"gauntlet/internal/bounded"
	"gauntlet/strategies/param"
)

// Every flag value is checked here before any game starts: a bad one is a
// usage error (exit status 2) that names the flag, the value given and what
// is allowed.

// check refuses bad values of the flags every game-playing command shares.
func (f *runFlags) check() error {
	if err := atLeast("--jobs", f.jobs, 1, "games played in parallel"); err != nil {
		return err
	}
	return f.checkBots()
}

// atLeast refuses an integer flag below lo.
func atLeast(name string, v, lo int, what string) error {
	if v < lo {
		return usagef("%s %d: want at least %d (%s)", name, v, lo, what)
	}
	return nil
}

// nonNegativeDuration refuses a negative duration flag.
func nonNegativeDuration(name string, d time.Duration, zero string) error {
	if d < 0 {
		return usagef("%s %v: want a duration of at least 0 (0: %s)", name, d, zero)
	}
	return nil
}

// openInterval refuses a float flag outside the open interval (lo, hi),
// NaN included.
func openInterval(name string, v, lo, hi float64, what string) error {
	if !(v > lo && v < hi) || math.IsNaN(v) {
		return usagef("%s %v: want %s in (%g, %g)", name, v, what, lo, hi)
	}
	return nil
}

// nameList refuses a comma-separated list with an empty name (",,", "a,",
// "a,,b"); "" is no list at all.
func nameList(flagName, list, what string) error {
	if list == "" {
		return nil
	}
	for i, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == "" {
			return usagef("%s %q: name %d is empty; want comma-separated %s", flagName, list, i+1, what)
		}
	}
	return nil
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// readParamsFile reads a params file (param.DecodeFile) before any game
// starts; a file that cannot be read or decoded is a usage error naming it.
// The file may hold at most bounded.SettingsSize bytes ("params file F:
// larger than 16 MiB"). It is read without the command's context: a named
// pipe that never ends holds the command there.
func readParamsFile(path string) (map[string]any, error) {
	data, err := bounded.ReadFile(context.Background(), path, bounded.SettingsSize)
	if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, usagef("params file %v", err)
	}
	if err != nil {
		return nil, usagef("params file %s: %s", path, fileProblem(err))
	}
	m, err := param.DecodeFile(data)
	if err != nil {
		return nil, usagef("params file %s: %v", path, err)
	}
	return m, nil
}

// fileProblem says why a file could not be read, in words.
func fileProblem(err error) string { return cli.FileProblem(err) }

// check refuses bad values of tune's flags (set: the flags given) and
// resolves the default case set.
func (f *tuneFlags) check(set map[string]bool) error {
	if f.list {
		return nil
	}
	checks := []error{
		f.rf.check(),
		atLeast("--trials", f.trials, 1, "a number of trials"),
		atLeast("--chunk", f.chunk, 0, "a number of cases between two intermediate values (0: automatic)"),
		nonNegativeDuration("--timeout", f.timeout, "none"),
		nameList("--space", f.space, "names of the strategy's declared parameters (see 'gauntlet list')"),
		cli.OutputFile("--best-json", f.bestJSON),
	}
	if f.heartbeat < 100*time.Millisecond {
		checks = append(checks, usagef("--heartbeat %v: want at least 100ms", f.heartbeat))
	}
	if f.pruner == "wilcoxon" {
		checks = append(checks, openInterval("--prune-p", f.pruneP, 0, 0.5, "a one-sided p-value"),
			atLeast("--prune-min", f.pruneMin, 1, "a number of paired cases"))
	} else {
		for _, name := range []string{"prune-p", "prune-min"} {
			if set[name] {
				checks = append(checks, usagef("--%s applies only to --pruner wilcoxon (the pruner is %s)", name, f.pruner))
			}
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if f.cases == "" && f.rf.game != "" {
		f.cases = "smoke"
		if g, err := harness.Default.Game(f.rf.game); err == nil {
			f.cases = harness.DefaultCases(g, "tune", f.cases)
		}
	}
	return nil
}

// existingDatabase checks that the SQLite file of a --storage URL that is
// only read exists and can be opened (PostgreSQL URLs pass), saying which:
// no database, or permission denied.
func existingDatabase(url string) error {
	ps, err := harness.ParseStorage(url)
	if err != nil || ps.Dialect != "sqlite" || ps.Path == ":memory:" {
		return nil // ParseStorage's error is reported where the store is opened
	}
	f, err := os.Open(ps.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--storage %s: no database (%s: no such file)", url, ps.Path)
		}
		return fmt.Errorf("--storage %s: %s: %s", url, ps.Path, fileProblem(err))
	}
	return f.Close()
}

// outputFiles checks several output file flags (name, path pairs).
func outputFiles(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := cli.OutputFile(pairs[i], pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// outputDir checks a directory flag whose directory is created if missing
// (with its parents): it is a directory if it exists, and the nearest of
// its parents that exists is a directory.
func outputDir(flagName, path string) error {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return nil
		case err == nil && p == filepath.Clean(path):
			return usagef("%s %s: is a file; want a directory to write the report into", flagName, path)
		case err == nil:
			return usagef("%s %s: %s is not a directory", flagName, path, p)
		case !errors.Is(err, fs.ErrNotExist):
			return usagef("%s %s: %s: %s", flagName, path, p, fileProblem(err))
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}
