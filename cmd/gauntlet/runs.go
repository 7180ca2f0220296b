package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/reports"
)

func init() {
	register(&command{
		name:    "runs",
		summary: "list the stored eval and ab runs: id, game, cases, entrants, games, status and result",
		run:     runRuns,
	})
}

// runInfo is one run of the --json answer of runs.
type runInfo struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"`
	Game     string   `json:"game"`
	CaseSet  string   `json:"case_set"`
	Entrants []string `json:"entrants"`
	Games    int      `json:"games"`             // stored
	Planned  int      `json:"planned,omitempty"` // when complete (0: unknown here)
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

func runRuns(ctx context.Context, e *env, args []string) (retErr error) {
	var storage, game string
	var tables tableFiles
	var asJSON bool
	fs := newFlags(e, "runs", "[--storage URL] [--game G] [--json] [--csv F] [--md F]")
	fs.StringVar(&storage, "storage", store.DefaultStorage, "results store: sqlite:FILE or postgres://...")
	fs.StringVar(&game, "game", "", "only the runs of this game")
	fs.BoolVar(&asJSON, "json", false, "print the runs, each with its stored summary, as JSON")
	tables.register(fs, "table")
	if err := parseOnlyFlags(fs, args); err != nil {
		return err
	}
	if err := readStorage("--storage", storage, "runs reads a results store"); err != nil {
		return err
	}
	if game != "" {
		if _, err := contract.Default.Game(game); err != nil {
			return usagef("--game: %v", err)
		}
	}
	if err := tables.check(); err != nil {
		return err
	}
	if err := existingDatabase(storage); err != nil {
		return err
	}
	st, err := store.OpenReadOnly(ctx, storage)
	if err != nil {
		return err
	}
	defer closeInto(&retErr, st)
	recs, err := st.Runs(ctx)
	if err != nil {
		return err
	}
	var list []runInfo
	for _, r := range slices.Backward(recs) { // oldest first, as they were made
		if game != "" && r.Game != game {
			continue
		}
		info := runInfo{ID: r.ID, Kind: r.Kind, Game: r.Game, CaseSet: r.CaseSet, Games: r.GameCount,
			Status: r.Status, Created: r.Created, Updated: r.Updated, Summary: r.Summary}
		if n, err := results.PlannedGames(contract.Default, &r); err == nil {
			info.Planned = n
		} // else a game or case set this build does not know: the stored count alone
		for _, en := range r.Entrants {
			info.Entrants = append(info.Entrants, en.Label)
		}
		if info.Result, err = runResult(r.Kind, r.Summary); err != nil {
			return fmt.Errorf("run %s: summary: %w", r.ID, err)
		}
		if n, ok := abCounted(r.Kind, r.Summary); ok && n != info.Games {
			info.Counted = &n
		}
		list = append(list, info)
	}
	if asJSON {
		if list == nil {
			list = []runInfo{}
		}
		return writeJSON(e.stdout, list)
	}
	tb := runsTable(list)
	if err := tb.WriteText(e.stdout); err != nil {
		return err
	}
	return tables.write(tb)
}

// runsTable is the table of runs: one row each, the entrants as "A vs B"
// (an eval's strategy against its opponents).
func runsTable(list []runInfo) *reports.Table {
	tb := &reports.Table{Title: "runs", Header: []string{"run", "kind", "game", "cases", "entrants", "games", "status", "result", "updated"}}
	for _, r := range list {
		vs := ""
		if len(r.Entrants) > 0 {
			vs = r.Entrants[0]
			if len(r.Entrants) > 1 {
				vs += " vs " + strings.Join(r.Entrants[1:], ", ")
			}
		}
		result := r.Result
		if result == "" {
			result = "—"
		}
		games := strconv.Itoa(r.Games)
		if r.Planned > 0 && r.Planned != r.Games {
			games += " of " + strconv.Itoa(r.Planned)
		}
		if r.Counted != nil {
			games = fmt.Sprintf("%d counted, %s stored", *r.Counted, games)
		}
		tb.Rows = append(tb.Rows, []string{r.ID, r.Kind, r.Game, r.CaseSet, truncateText(vs, 60), games,
			r.Status, result, r.Updated.UTC().Format(time.DateTime)})
	}
	tb.NumericRight()
	return tb
}

// runResult is a run's answer in a few words, from its stored summary: an
// eval's mean with its 95% interval, an ab run's score and Elo (or, for a
// single-player game, the mean difference A − B). "" while the run has no
// summary (it is running, or was killed).
func runResult(kind string, summary json.RawMessage) (string, error) {
	if len(summary) == 0 || string(summary) == "null" {
		return "", nil
	}
	switch kind {
	case "eval":
		var s results.EvalSummary
		if err := json.Unmarshal(summary, &s); err != nil {
			return "", err
		}
		out := fmt.Sprintf("mean %s (95%% CI %s .. %s)", reports.Num(s.Mean), reports.Num(s.CI95[0]), reports.Num(s.CI95[1]))
		if s.FirstRate != nil {
			out += fmt.Sprintf(", first %.0f%%", 100**s.FirstRate)
		}
		return out, nil
	case "ab":
		var s results.ABSummary
		if err := json.Unmarshal(summary, &s); err != nil {
			return "", err
		}
		if s.MeanDiff != nil && s.CI95 != nil {
			out := fmt.Sprintf("A − B %s (95%% CI %s .. %s)", reports.Num(*s.MeanDiff), reports.Num(s.CI95[0]), reports.Num(s.CI95[1]))
			if s.Direction == contract.Lower {
				out += ", lower is better"
			}
			return out, nil
		}
		out := fmt.Sprintf("score %.3f, Elo %+.1f (95%% CI %+.1f .. %+.1f)", s.Score, s.Elo, s.EloCI95[0], s.EloCI95[1])
		if s.Stopped {
			out += fmt.Sprintf(", SPRT %s at %d games", s.SPRT, s.Games)
		}
		return out, nil
	}
	return "", nil
}

// abCounted is the number of games an ab run's stored summary counts.
func abCounted(kind string, summary json.RawMessage) (int, bool) {
	if kind != "ab" || len(summary) == 0 || string(summary) == "null" {
		return 0, false
	}
	var s results.ABSummary
	if err := json.Unmarshal(summary, &s); err != nil {
		return 0, false // runResult reported it
	}
	return s.Games, true
}
