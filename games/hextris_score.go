package games

import (
	"context"
	"fmt"
	"strconv"

	"gauntlet/harness/cli"
	"gauntlet/internal/bounded"
	"gauntlet/referees/hextris"
	"gauntlet/reports/table"
)

// hexScoreJSON is the --json document of `gauntlet hextris score`.
type hexScoreJSON struct {
	Phrases  string          `json:"phrases"`
	Files    []string        `json:"files"`
	Problems []hexProblemOut `json:"problems"`
	Total    int64           `json:"total"`
	Move     int64           `json:"move_total"`
	Power    int64           `json:"power_total"`
}

type hexProblemOut struct {
	Problem    int          `json:"problem"`
	Seeds      int          `json:"seeds"`
	Solved     int          `json:"solved"`
	Errors     int          `json:"errors"`
	Score      int64        `json:"score"`
	MoveScore  int64        `json:"move_score"`
	PowerScore int64        `json:"power_score"`
	PerSeed    []hexSeedOut `json:"per_seed"`
}

type hexSeedOut struct {
	Seed          uint32 `json:"seed"`
	Tag           string `json:"tag,omitempty"`
	Score         int64  `json:"score"`
	MoveScore     int64  `json:"move_score"`
	PowerScore    int64  `json:"power_score"`
	Error         string `json:"error,omitempty"`
	Reason        string `json:"reason,omitempty"`
	EndState      string `json:"end_state,omitempty"`
	MovesExecuted int    `json:"moves_executed"`
}

// hextrisScore is `gauntlet hextris score`: contest solution files scored
// with the official rules and aggregation.
func hextrisScore(ctx context.Context, io cli.IO, args []string) error {
	var seeds, asJSON bool
	var mdFile, csvFile, phraseName string
	fs := cli.NewFlags(io, "hextris score", "[--seeds] [--phrases power|custom|illegal|none] [--md F] [--csv F] [--json] SOLUTIONS.json...")
	fs.BoolVar(&seeds, "seeds", false, "also print one row per (problem, seed)")
	fs.StringVar(&phraseName, "phrases", "power", "phrase set: power (the leaderboard's 18), custom, illegal or none")
	fs.StringVar(&mdFile, "md", "", "also write the tables as Markdown to this file")
	fs.StringVar(&csvFile, "csv", "", "also write the tables as CSV to this file")
	fs.BoolVar(&asJSON, "json", false, "print one JSON document on stdout")
	files, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return cli.Usagef("hextris score: no solution file given")
	}
	for _, f := range [][2]string{{"--md", mdFile}, {"--csv", csvFile}} {
		if err := cli.OutputFile(f[0], f[1]); err != nil {
			return err
		}
	}
	phrases, err := hextris.OfficialPhrases(phraseName)
	if err != nil {
		return cli.Usagef("--phrases: %v", err)
	}
	// Later files and later entries win for the same (problem, seed), as
	// the leaderboard kept the latest submission.
	var sols []hextris.Solution
	for _, f := range files {
		s, err := readSolutionFile(ctx, f)
		if err != nil {
			return err
		}
		sols = append(sols, s...)
	}
	scores, err := hextris.ScoreSolutions(sols, phrases, hextris.Official)
	if err != nil {
		return err
	}
	doc := hexScoreJSON{Phrases: phrases.Name(), Files: files}
	probT := &table.Table{Title: fmt.Sprintf("hextris solutions (%s phrases)", phrases.Name()),
		Header: []string{"problem", "seeds", "score", "move score", "power score", "errors"}}
	seedT := &table.Table{Title: "per seed",
		Header: []string{"problem", "seed", "tag", "score", "move score", "power score", "moves", "end state", "error / reason"}}
	for _, ps := range scores {
		po := hexProblemOut{Problem: ps.ProblemID, Seeds: ps.NumSeeds, Solved: ps.Solved, Errors: ps.Errors,
			Score: ps.Score, MoveScore: ps.MoveScore, PowerScore: ps.PowerScore}
		doc.Total += ps.Score
		doc.Move += ps.MoveScore
		doc.Power += ps.PowerScore
		probT.Rows = append(probT.Rows, []string{strconv.Itoa(ps.ProblemID), fmt.Sprintf("%d/%d", ps.Solved, ps.NumSeeds),
			strconv.FormatInt(ps.Score, 10), strconv.FormatInt(ps.MoveScore, 10), strconv.FormatInt(ps.PowerScore, 10), strconv.Itoa(ps.Errors)})
		for _, s := range ps.Seeds {
			why := s.Result.Error
			if s.Reason != "" {
				why = s.Reason
			} else if why != "" {
				why += " (scores 0)"
			}
			score := s.Result.Score
			if s.Reason != "" {
				score = 0
			}
			po.PerSeed = append(po.PerSeed, hexSeedOut{Seed: s.Seed, Tag: s.Tag, Score: score, MoveScore: s.Result.MoveScore,
				PowerScore: s.Result.PowerScore, Error: s.Result.Error, Reason: s.Reason, EndState: s.Result.EndState, MovesExecuted: s.Result.MovesExecuted})
			seedT.Rows = append(seedT.Rows, []string{strconv.Itoa(ps.ProblemID), strconv.FormatUint(uint64(s.Seed), 10), s.Tag,
				strconv.FormatInt(score, 10), strconv.FormatInt(s.Result.MoveScore, 10), strconv.FormatInt(s.Result.PowerScore, 10),
				strconv.Itoa(s.Result.MovesExecuted), s.Result.EndState, why})
		}
		doc.Problems = append(doc.Problems, po)
	}
	probT.Footer = []string{"total", "", strconv.FormatInt(doc.Total, 10), strconv.FormatInt(doc.Move, 10), strconv.FormatInt(doc.Power, 10), ""}
	probT.NumericRight()
	seedT.NumericRight()
	tables := []*table.Table{probT}
	if seeds {
		tables = append(tables, seedT)
	}
	return writeToolOutput(io, tables, mdFile, csvFile, asJSON, doc)
}

// writeToolOutput writes a hextris tool's tables to the --md and --csv
// files asked for, then prints either doc as JSON (--json) or the tables.
func writeToolOutput(io cli.IO, tables []*table.Table, mdFile, csvFile string, asJSON bool, doc any) error {
	if mdFile != "" {
		if err := table.WriteFile(mdFile, true, tables...); err != nil {
			return err
		}
	}
	if csvFile != "" {
		if err := table.WriteFile(csvFile, false, tables...); err != nil {
			return err
		}
	}
	if asJSON {
		return cli.WriteJSON(io.Stdout, doc)
	}
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(io.Stdout)
		}
		if err := t.WriteText(io.Stdout); err != nil {
			return err
		}
	}
	return nil
}

// readSolutionFile reads one contest solution file of at most
// bounded.FileSize bytes; a file that is not one, or a larger one, is an
// error naming it. A file that is a pipe stops being read when ctx is done.
func readSolutionFile(ctx context.Context, f string) ([]hextris.Solution, error) {
	data, err := bounded.ReadFile(ctx, f, bounded.FileSize)
	if err != nil {
		return nil, err
	}
	s, err := hextris.ParseSolutions(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return s, nil
}
