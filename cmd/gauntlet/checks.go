package main

import (
	"flag"
	"gauntlet/workflow"
	"math"
	"strings"
	"time"

	"gauntlet/harness"
	"gauntlet/harness/cli"
)

// Every flag value is checked here before any game starts: a bad one is a
// usage error (exit status 2) that names the flag, the value given and what
// is allowed.

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

// check refuses bad values of tune's flags (set: the flags given) and
// resolves the default case set.
func (f *tuneFlags) check(set map[string]bool) error {
	if f.list {
		return nil
	}
	checks := []error{
		f.rf.Check(),
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
	if f.cases == "" && f.rf.Game != "" {
		f.cases = "smoke"
		if g, err := harness.Default.Game(f.rf.Game); err == nil {
			f.cases = harness.DefaultCases(g, "tune", f.cases)
		}
	}
	return nil
}

// existingDatabase checks that the SQLite file of a --storage URL that is
// only read exists (workflow.ExistingDatabase).
func existingDatabase(url string) error { return workflow.ExistingDatabase(url) }

// outputFiles checks several output file flags (name, path pairs).
func outputFiles(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if err := cli.OutputFile(pairs[i], pairs[i+1]); err != nil {
			return err
		}
	}
	return nil
}
