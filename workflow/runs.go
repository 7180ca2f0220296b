package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
)

// RunInfo is one stored run or study as `gauntlet runs` lists it: an eval
// or ab run, a tuning study (kind "tune") or an SPSA study (kind "spsa").
type RunInfo struct {
	ID       string   `json:"id"` // the run's or study's name
	Kind     string   `json:"kind"`
	Game     string   `json:"game"`
	CaseSet  string   `json:"case_set"`
	Entrants []string `json:"entrants"` // a study's: its strategy
	// Differs are the parameters whose values differ between entrants of
	// one strategy ("name: A's vs B's"); a study's are the parameters it
	// tunes ("tunes: a, b").
	Differs []string `json:"differs,omitempty"`
	Games   int      `json:"games"`             // stored (an SPSA study's: played)
	Planned int      `json:"planned,omitempty"` // when complete (0: unknown here)
	// Trials are a tuning study's trials, by state.
	Trials *TrialCounts `json:"trials,omitempty"`
	// SPRT is an ab run's sequential test: its hypotheses and error rates,
	// and whether it may stop the run.
	SPRT *results.SPRTSpec `json:"sprt,omitempty"`
	// Best is a tuning study's best value so far (BestTrial's).
	Best      *float64 `json:"best,omitempty"`
	BestTrial *int     `json:"best_trial,omitempty"`
	// Counted is the number of games an ab run's summary counts, when
	// that is not all the stored ones (after an SPRT stop: the games up to
	// the stop point).
	Counted *int            `json:"counted,omitempty"`
	Status  string          `json:"status"`
	Result  string          `json:"result,omitempty"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	Summary json.RawMessage `json:"summary,omitempty"`
}

// Runs lists the runs and studies stored at url (of game only, unless
// ""), oldest first; result words a run's stored summary in a few words
// (see reports.RunResult).
func Runs(ctx context.Context, url, game string, result func(kind string, summary json.RawMessage) (string, error)) (list []RunInfo, err error) {
	if err := ReadStorage("--storage", url, "runs reads a results store"); err != nil {
		return nil, err
	}
	if game != "" {
		if _, err := contract.Default.Game(game); err != nil {
			return nil, cli.Usagef("--game: %v", err)
		}
	}
	if err := ExistingDatabase(url); err != nil {
		return nil, err
	}
	st, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		return nil, err
	}
	defer closeInto(&err, st)
	recs, err := st.Runs(ctx)
	if err != nil {
		return nil, err
	}
	list = []RunInfo{}
	for _, r := range slices.Backward(recs) { // oldest first, as they were made
		if game != "" && r.Game != game {
			continue
		}
		info := RunInfo{ID: r.ID, Kind: r.Kind, Game: r.Game, CaseSet: r.CaseSet, Games: r.GameCount,
			Status: r.Status, Created: r.Created, Updated: r.Updated, Summary: r.Summary}
		if n, err := results.PlannedGames(contract.Default, &r); err == nil {
			info.Planned = n
		} // else a game or case set this build does not know: the stored count alone
		for _, en := range r.Entrants {
			info.Entrants = append(info.Entrants, en.Label)
		}
		info.Differs = differs(r.Entrants)
		if r.Kind == "ab" {
			info.SPRT = specSPRT(r.Spec)
		}
		if info.Result, err = result(r.Kind, r.Summary); err != nil {
			return nil, fmt.Errorf("run %s: summary: %w", r.ID, err)
		}
		if n, ok := abCounted(r.Kind, r.Summary); ok && n != info.Games {
			info.Counted = &n
		}
		list = append(list, info)
	}
	studies, err := studies(ctx, url, game)
	if err != nil {
		return nil, err
	}
	list = append(list, studies...)
	slices.SortStableFunc(list, func(a, b RunInfo) int { return a.Created.Compare(b.Created) })
	return list, nil
}

// abCounted is the number of games an ab run's stored summary counts.
func abCounted(kind string, summary json.RawMessage) (int, bool) {
	if kind != "ab" || len(summary) == 0 || string(summary) == "null" {
		return 0, false
	}
	var s results.ABSummary
	if err := json.Unmarshal(summary, &s); err != nil {
		return 0, false // the result's error reports it
	}
	return s.Games, true
}

// Compare compares run id of the store at url with run base of the store
// at baseURL, game by game.
func Compare(ctx context.Context, baseURL, base, url, id string) (*results.Comparison, error) {
	if base == "" || id == "" {
		return nil, cli.Usagef("--base and --run are required")
	}
	if base == id && baseURL == url {
		return nil, cli.Usagef("--base and --run name the same run %q", id)
	}
	for _, s := range []struct{ flag, url string }{{"--storage", url}, {"--base-storage", baseURL}} {
		if err := ReadStorage(s.flag, s.url, "compare reads stored runs"); err != nil {
			return nil, err
		}
	}
	for _, u := range []string{baseURL, url} {
		if err := ExistingDatabase(u); err != nil {
			return nil, err
		}
	}
	load := func(url, id string) (_ *results.StoredRun, err error) {
		st, err := store.OpenReadOnly(ctx, url)
		if err != nil {
			return nil, err
		}
		defer closeInto(&err, st)
		return results.LoadStoredRun(ctx, st, id)
	}
	b, err := load(baseURL, base)
	if err != nil {
		return nil, err
	}
	r, err := load(url, id)
	if err != nil {
		return nil, err
	}
	return results.Compare(contract.Default, b, r)
}

// ReadStorage checks the store flag (name) of a command that reads stored
// runs or studies: set (not none), and a storage URL. why says what reads
// it.
func ReadStorage(name, url, why string) error {
	if url == "" || url == "none" {
		return cli.Usagef("%s %q: %s", name, url, why)
	}
	if _, err := store.ParseStorage(url); err != nil {
		return cli.Usagef("%s: %v", name, err)
	}
	return nil
}

// ExistingDatabase checks that the SQLite file of a storage URL that is
// only read exists and can be opened (PostgreSQL URLs pass), saying which:
// no database, or permission denied.
func ExistingDatabase(url string) error {
	ps, err := store.ParseStorage(url)
	if err != nil || ps.Dialect != "sqlite" || ps.Path == ":memory:" {
		return nil // ParseStorage's error is reported where the store is opened
	}
	f, err := os.Open(ps.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--storage %s: no database (%s: no such file)", url, ps.Path)
		}
		return fmt.Errorf("--storage %s: %s: %s", url, ps.Path, cli.FileProblem(err))
	}
	return f.Close()
}
