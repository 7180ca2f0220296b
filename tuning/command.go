package tuning

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"gauntlet/harness/cli"
	"gauntlet/harness/store"
	"gauntlet/internal/owner"
)

// This file is the skeleton that `gauntlet tune` (Goptuna) and `gauntlet
// spsa` share around a study: where it is stored, its log, running it so
// that an interruption says how to resume, and the best values written for
// --params-file.

// StorageURL resolves the --storage value of a tuning command: "none" (or
// "") is a temporary SQLite file that cleanup removes; another value must
// be a storage URL (a usage error names --storage otherwise).
func StorageURL(storage string) (url string, cleanup func(), err error) {
	if storage == "" || storage == "none" {
		// Named with this process, so that a later run removes it if this
		// one is killed (see package owner).
		dir, err := owner.MkdirTemp("gauntlet-tune-")
		if err != nil {
			return "", nil, err
		}
		remove := func() {
			// A directory left behind is removed by the next run
			// (package owner), so a failure here loses nothing.
			_ = os.RemoveAll(dir)
		}
		return "sqlite:" + filepath.Join(dir, "tune.db"), remove, nil
	}
	if _, err := store.ParseStorage(storage); err != nil {
		return "", nil, cli.Usagef("--storage: %v", err)
	}
	return storage, func() {}, nil
}

// Logger is the log of a tuning command on w: the study's start, progress
// and retries; only warnings when quiet.
func Logger(w io.Writer, quiet bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// RunStudy opens the storage at url with open, runs study on it and closes
// it. An interrupted study says what it keeps (kept: "finished trials") and
// how to resume it; a SQLite file removed or replaced while the study ran
// fails it (store.MarkFile) before its answer is reported.
func RunStudy[S io.Closer, R any](ctx context.Context, url string, open func(context.Context, string) (S, error),
	study, kept string, run func(S) (R, error)) (res R, err error) {
	st, err := open(ctx, url)
	if err != nil {
		return res, err
	}
	mark := store.MarkFile(url)
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if res, err = run(st); err != nil {
		if ctx.Err() != nil {
			return res, fmt.Errorf("%w: the study %s keeps its %s; run the same command again to resume", err, study, kept)
		}
		return res, err
	}
	return res, mark.Check()
}

// WriteBestJSON writes v, indented, to path: the --best-json file that
// --params-file reads back (its "params").
func WriteBestJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--best-json: %w", err)
	}
	return nil
}

// BestFile is what tune's --best-json writes; "params" is what
// --params-file reads.
type BestFile struct {
	Game     string         `json:"game"`
	Strategy string         `json:"strategy"`
	Study    string         `json:"study"`
	Trial    int            `json:"trial"`
	Params   map[string]any `json:"params"`
	Value    float64        `json:"value"`
}

// Best is the study's best configuration as --best-json writes it; an
// error when no trial is complete (path names the file in it).
func (s *Summary) Best(path string) (*BestFile, error) {
	if s.BestValue == nil || s.BestTrial == nil {
		return nil, fmt.Errorf("--best-json %s: the study has no complete trial", path)
	}
	return &BestFile{Game: GameArg(s.Game, s.Source), Strategy: s.Strategy, Study: s.Study, Trial: *s.BestTrial,
		Params: s.BestParams, Value: *s.BestValue}, nil
}
