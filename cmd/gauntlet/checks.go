package main

import (
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
)

// check refuses bad values of tune's flags (set: the flags given) and
// resolves the default case set.
func (f *tuneFlags) check(set map[string]bool) error {
	if f.list {
		return nil
	}
	checks := []error{
		f.rf.Check(),
		cli.AtLeast("--trials", f.trials, 1, "a number of trials"),
		cli.AtLeast("--chunk", f.chunk, 0, "a number of cases between two intermediate values (0: automatic)"),
		cli.NonNegativeDuration("--timeout", f.timeout, "none"),
		cli.NameList("--space", f.space, "names of the strategy's declared parameters (see 'gauntlet list')"),
		cli.OutputFile("--best-json", f.bestJSON),
	}
	if f.heartbeat < 100*time.Millisecond {
		checks = append(checks, usagef("--heartbeat %v: want at least 100ms", f.heartbeat))
	}
	if f.pruner == "wilcoxon" {
		checks = append(checks, cli.OpenInterval("--prune-p", f.pruneP, 0, 0.5, "a one-sided p-value"),
			cli.AtLeast("--prune-min", f.pruneMin, 1, "a number of paired cases"))
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
		if g, err := contract.Default.Game(f.rf.Game); err == nil {
			f.cases = contract.DefaultCases(g, "tune", f.cases)
		}
	}
	return nil
}
