package reports

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
	"gauntlet/workflow"
)

// Stored names what `gauntlet report` reports: one of a study (tuning or
// SPSA), an eval or ab run (Run) or an ab run (AB), in the store at
// Storage.
type Stored struct {
	Storage   string
	Study     string
	Run       string
	AB        string
	NoOptimum bool // eval runs: no optimum of each case
}

// WriteStoredReport writes the report of a stored study or run into the
// directory out, with the viewer pages of a few chosen games of a run; reg
// resolves the games and strategies it names.
func WriteStoredReport(ctx context.Context, reg *contract.Registry, req Stored, out string) (rep *Report, retErr error) {
	run, ab := req.Run, req.AB
	chosen := 0
	for _, s := range []string{req.Study, req.Run, req.AB} {
		if s != "" {
			chosen++
		}
	}
	if chosen != 1 {
		return nil, cli.Usagef("give exactly one of --study, --run or --ab")
	}
	if out == "" {
		return nil, cli.Usagef("--out DIR is required")
	}
	if err := OutputDir("--out", out); err != nil {
		return nil, err
	}
	if err := workflow.ReadStorage("--storage", req.Storage, "a report reads a stored run or study"); err != nil {
		return nil, err
	}
	if err := workflow.ExistingDatabase(req.Storage); err != nil {
		return nil, err
	}
	switch {
	case req.Study != "":
		var ok bool // an SPSA study of that name, else a tuning study
		var err error
		if rep, ok, err = spsaReport(ctx, req.Storage, req.Study, out); err != nil {
			return nil, err
		} else if ok {
			break
		}
		s, err := storedStudy(ctx, reg, req.Storage, req.Study)
		if err != nil {
			return nil, err
		}
		if rep, err = WriteStudyReport(out, s); err != nil {
			return nil, err
		}
	default:
		st, err := store.OpenReadOnly(ctx, req.Storage)
		if err != nil {
			return nil, err
		}
		defer func() {
			if cerr := st.Close(); cerr != nil && retErr == nil {
				retErr = cerr
			}
		}()
		if run != "" {
			// --run takes an ab run too: its kind decides the report.
			rec, err := st.Run(ctx, run)
			if err != nil {
				return nil, err
			}
			if rec.Kind == "ab" {
				ab, run = run, ""
			} else if rec.Kind != "eval" {
				return nil, fmt.Errorf("run %s is a %s run: report it with --study", run, rec.Kind)
			}
		}
		if run != "" {
			rs, _, err := results.LoadResults(ctx, st, reg, run)
			if err != nil {
				return nil, err
			}
			sum := results.SummarizeEval(rs)
			if !req.NoOptimum {
				if err := sum.AddOptima(ctx, rs.Plan, runtime.NumCPU()); err != nil {
					return nil, err
				}
			}
			g := rs.Plan.Game
			links, notes := storedReplays(ctx, reg, st, out, run, PickEvalReplays(sum, g.Info().Direction))
			if rep, err = WriteEvalReport(out, g, sum, WithReplays(links)); err != nil {
				return nil, err
			}
			rep.Notes = append(rep.Notes, notes...)
		} else {
			sum, err := results.LoadABSummary(ctx, st, reg, ab)
			if err != nil {
				return nil, err
			}
			var picks []ReplayPick
			if g, err := reg.Game(sum.Game); err == nil {
				info := g.Info()
				picks = PickABReplays(sum, info.MaxSeats == 1, info.Direction, 3)
			}
			links, notes := storedReplays(ctx, reg, st, out, ab, picks)
			if rep, err = WriteABReport(out, sum, WithReplays(links)); err != nil {
				return nil, err
			}
			rep.Notes = append(rep.Notes, notes...)
		}
	}
	return rep, nil
}

// storedReplays writes the viewer pages of the picked games of a stored run
// into dir/replays. A game that cannot be watched (its game has no viewer,
// an external bot's moves were not recorded) is a note, not a failure.
func storedReplays(ctx context.Context, reg *contract.Registry, st *store.Store, dir, run string, picks []ReplayPick) ([]ReplayLink, []string) {
	var links []ReplayLink
	var notes []string
	for _, p := range picks {
		for _, key := range p.Keys {
			r, v, err := results.WatchStored(ctx, st, reg, run, key)
			if err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			file := ReplayFile(key)
			if err := os.MkdirAll(filepath.Join(dir, "replays"), 0o755); err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			if err := WriteReplayFile(filepath.Join(dir, file), r, v.Renderer()); err != nil {
				notes = append(notes, fmt.Sprintf("no replay of %s: %v", key, err))
				continue
			}
			links = append(links, ReplayLink{Why: p.Why, Case: p.Case, Key: key, File: file})
		}
	}
	return links, notes
}

// spsaReport writes the report of SPSA study name, with its hold-outs, if
// the storage has one; ok is false when it has none (the name may be a
// tuning study).
func spsaReport(ctx context.Context, storage, name, out string) (rep *Report, ok bool, err error) {
	st, err := spsa.OpenStorageReadOnly(ctx, storage)
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	rec, err := st.Load(ctx, name)
	if errors.Is(err, spsa.ErrNoStudy) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	sum, err := spsa.BuildSummary(rec)
	if err != nil {
		return nil, false, err
	}
	s := SPSAStudyOf(rec, sum)
	if s.Holdouts, err = st.Holdouts(ctx, name); err != nil {
		return nil, false, err
	}
	rep, err = WriteSPSAReport(out, s)
	return rep, true, err
}

// OutputDir checks a directory flag whose directory is created if missing
// (with its parents): it is a directory if it exists, and the nearest of
// its parents that exists is a directory.
func OutputDir(flagName, path string) error {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return nil
		case err == nil && p == filepath.Clean(path):
			return cli.Usagef("%s %s: is a file; want a directory to write the report into", flagName, path)
		case err == nil:
			return cli.Usagef("%s %s: %s is not a directory", flagName, path, p)
		case !errors.Is(err, fs.ErrNotExist):
			return cli.Usagef("%s %s: %s: %s", flagName, path, p, cli.FileProblem(err))
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// storedStudy reads tuning study name stored at url, with its finished
// hold-outs, as a report sees it.
func storedStudy(ctx context.Context, reg *contract.Registry, url, name string) (*Study, error) {
	st, err := tuning.OpenStorageReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer func() { _ = st.Close() }() // read only: a failed close loses nothing
	rec, err := st.Load(ctx, name)
	if err != nil {
		return nil, err
	}
	s := TuningStudy(reg, rec, tuning.BuildSummary(rec))
	if s.Holdouts, err = st.Holdouts(ctx, name); err != nil {
		return nil, err
	}
	return s, nil
}
