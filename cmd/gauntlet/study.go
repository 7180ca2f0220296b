package main

import (
	"context"
	"flag"

	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/workflow"
)

// studyFlags are the flags that tune and spsa share: a study of a
// strategy's parameters, stored, listed and resumed the same way.
type studyFlags struct {
	rf         runFlags
	strategy   string
	params     multiFlag
	paramsFile string
	space      string
	study      string
	bestJSON   string
	worker     string
	list       bool
}

// studyHelp is the help of the shared flags whose meaning differs between
// the two commands.
type studyHelp struct{ strategy, param, paramsFile, space, spaceDefault, study, bestJSON, list string }

func (f *studyFlags) register(fs *flag.FlagSet, h studyHelp) {
	f.rf.register(fs, false)
	fs.StringVar(&f.rf.Storage, "storage", store.DefaultStorage, "study storage: sqlite:FILE or postgres://... (shared by all workers of a study); none: a temporary SQLite file")
	fs.StringVar(&f.strategy, "strategy", "", h.strategy)
	fs.Var(&f.params, "param", h.param)
	fs.StringVar(&f.paramsFile, "params-file", "", h.paramsFile)
	fs.StringVar(&f.space, "space", h.spaceDefault, h.space)
	fs.StringVar(&f.study, "study", "", h.study)
	fs.StringVar(&f.bestJSON, "best-json", "", h.bestJSON)
	fs.StringVar(&f.worker, "worker", "", "this worker's name in the study (default: host:pid.start)")
	fs.BoolVar(&f.list, "list", false, h.list)
}

// listStudies is --list of tune and spsa: the studies stored at url, as
// JSON or as a table.
func listStudies[T any](ctx context.Context, e *env, url string, asJSON bool,
	list func(context.Context, string) ([]T, error), table func([]T) *reports.Table) error {
	if err := workflow.ExistingDatabase(url); err != nil {
		return err
	}
	l, err := list(ctx, url)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(e.stdout, l)
	}
	return table(l).WriteText(e.stdout)
}
