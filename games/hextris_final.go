package games

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gauntlet/harness/cli"
	"gauntlet/referees/hextris"
	"gauntlet/reports/table"
)

// hexFinalJSON is the --json document of `gauntlet hextris final`.
type hexFinalJSON struct {
	Cells    []hexFinalCell    `json:"cells"`
	Variants []hexFinalVariant `json:"variants"`
	// Mean is the final score: the mean of the points over every (problem,
	// variant) cell of the board, a variant without files counting 0.
	Mean float64 `json:"mean"`
	// MeanIfEntered is the mean of the points had these solutions been on
	// the board (each cell's best the larger of the board's and ours: the
	// points capped at 100).
	MeanIfEntered float64        `json:"mean_if_entered"`
	Ranking       []hexFinalTeam `json:"ranking"`
}

type hexFinalCell struct {
	Variant   string   `json:"variant"`
	Problem   int      `json:"problem"`
	Seeds     int      `json:"seeds"`
	Solved    int      `json:"solved"`
	Errors    int      `json:"errors"`
	Ours      int64    `json:"ours"`
	Best      int64    `json:"best"`
	BestTeams []string `json:"best_teams"`
	Points    int64    `json:"points"`
	// IfEntered is the cell's points with the best the larger of the
	// board's and ours (min(points, 100)).
	IfEntered int64 `json:"points_if_entered"`
}

type hexFinalVariant struct {
	Variant string   `json:"variant"`
	Phrases string   `json:"phrases"`
	Files   []string `json:"files"`
	Solved  int      `json:"problems_solved"` // problems with at least one source seed solved
	Mean    float64  `json:"mean"`
	// MeanIfEntered: see hexFinalJSON.
	MeanIfEntered float64 `json:"mean_if_entered"`
}

type hexFinalTeam struct {
	Team   string  `json:"team"`
	Points float64 `json:"points"`
	// Ours marks the rows of these solutions: Points is then Mean, or
	// MeanIfEntered for the row whose IfEntered is set.
	Ours      bool `json:"ours,omitempty"`
	IfEntered bool `json:"if_entered,omitempty"`
}

// hextrisFinal is `gauntlet hextris final`: solution files of the four
// phrase variants scored the way the final round was judged, against the
// official final board.
func hextrisFinal(ctx context.Context, io cli.IO, args []string) error {
	var asJSON bool
	var mdFile, csvFile string
	fs := cli.NewFlags(io, "hextris final", "[--md F] [--csv F] [--json] VARIANT=SOLUTIONS.json... (VARIANT: power, nopower, custompower, illegalpower)")
	fs.StringVar(&mdFile, "md", "", "also write the tables as Markdown to this file")
	fs.StringVar(&csvFile, "csv", "", "also write the tables as CSV to this file")
	fs.BoolVar(&asJSON, "json", false, "print one JSON document on stdout")
	rest, err := cli.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return cli.Usagef("hextris final: no solution file given (want VARIANT=SOLUTIONS.json, VARIANT one of power, nopower, custompower, illegalpower)")
	}
	for _, f := range [][2]string{{"--md", mdFile}, {"--csv", csvFile}} {
		if err := cli.OutputFile(f[0], f[1]); err != nil {
			return err
		}
	}
	board, err := hextris.OfficialFinalBoard()
	if err != nil {
		return err
	}
	files := map[string][]string{} // board variant name -> files, in order
	for _, a := range rest {
		name, file, ok := strings.Cut(a, "=")
		if !ok || file == "" {
			return cli.Usagef("hextris final: %q: want VARIANT=SOLUTIONS.json (VARIANT one of power, nopower, custompower, illegalpower)", a)
		}
		v, err := hextris.FinalVariantOf(name)
		if err != nil {
			return cli.Usagef("hextris final: %q: %v", a, err)
		}
		if !slices.Contains(board.Variants, v.Name) {
			return cli.Usagef("hextris final: %q: the final board has no %s column", a, v.Name)
		}
		files[v.Name] = append(files[v.Name], file)
	}
	doc, err := finalDoc(ctx, board, files)
	if err != nil {
		return fmt.Errorf("hextris final: %w", err)
	}
	tables := hexFinalTables(doc)
	return writeToolOutput(io, tables, mdFile, csvFile, asJSON, doc)
}

// finalDoc scores the solution files of each variant (board variant name
// -> files) against board: one cell per (variant, problem), the mean per
// variant and over all cells, and the board's ranking with these solutions
// placed among the teams.
func finalDoc(ctx context.Context, board *hextris.FinalBoard, files map[string][]string) (hexFinalJSON, error) {
	doc := hexFinalJSON{}
	var sum, sumIn float64
	for _, vname := range board.Variants {
		v, err := hextris.FinalVariantOf(vname)
		if err != nil {
			return hexFinalJSON{}, err
		}
		phrases, err := hextris.OfficialPhrases(v.Phrases)
		if err != nil {
			return hexFinalJSON{}, err
		}
		scores, err := scoreFinalFiles(ctx, board, files[vname], phrases)
		if err != nil {
			return hexFinalJSON{}, fmt.Errorf("%s: %w", vname, err)
		}
		vo := hexFinalVariant{Variant: vname, Phrases: v.Phrases, Files: append([]string{}, files[vname]...)}
		var vsum, vsumIn float64
		for _, id := range board.Problems {
			best, ok := board.Best(id, vname)
			if !ok {
				return hexFinalJSON{}, fmt.Errorf("the board has no cell for problem %d, %s", id, vname)
			}
			p, err := hextris.Official(id)
			if err != nil {
				return hexFinalJSON{}, err
			}
			c := hexFinalCell{Variant: vname, Problem: id, Seeds: len(distinctSeeds(p.SourceSeeds)), Best: best.Score, BestTeams: best.Teams}
			if ps, ok := scores[id]; ok {
				c.Solved, c.Errors, c.Ours = ps.Solved, ps.Errors, ps.Score
			}
			c.Points = hextris.FinalPoints(c.Ours, c.Best)
			c.IfEntered = min(c.Points, 100)
			if c.Solved > 0 {
				vo.Solved++
			}
			vsum += float64(c.Points)
			vsumIn += float64(c.IfEntered)
			doc.Cells = append(doc.Cells, c)
		}
		vo.Mean = vsum / float64(len(board.Problems))
		vo.MeanIfEntered = vsumIn / float64(len(board.Problems))
		sum += vsum
		sumIn += vsumIn
		doc.Variants = append(doc.Variants, vo)
	}
	doc.Mean = sum / float64(len(doc.Cells))
	doc.MeanIfEntered = sumIn / float64(len(doc.Cells))
	for _, t := range board.Ranking {
		doc.Ranking = append(doc.Ranking, hexFinalTeam{Team: t.Name, Points: float64(t.Points)})
	}
	doc.Ranking = append(doc.Ranking, hexFinalTeam{Team: "these solutions (the formula against the board)", Points: doc.Mean, Ours: true},
		hexFinalTeam{Team: "these solutions, had they been entered (best = max(board, ours))", Points: doc.MeanIfEntered, Ours: true, IfEntered: true})
	slices.SortStableFunc(doc.Ranking, func(a, b hexFinalTeam) int { return cmp.Compare(b.Points, a.Points) })

	return doc, nil
}

// scoreFinalFiles reads the solution files of one variant (a later entry
// for the same problem and seed wins) and scores them with the official
// aggregation, by problem id. An entry for a problem that is not on the
// final board is an error naming the file and the entry.
func scoreFinalFiles(ctx context.Context, board *hextris.FinalBoard, files []string, phrases hextris.PhraseSet) (map[int]hextris.ProblemScore, error) {
	var sols []hextris.Solution
	for _, f := range files {
		s, err := readSolutionFile(ctx, f)
		if err != nil {
			return nil, err
		}
		for i, sol := range s {
			if !board.Has(sol.ProblemID) {
				return nil, fmt.Errorf("%s: solutions[%d]: problem %d is not on the final board (judged: %s)", f, i, sol.ProblemID, idRanges(board.Problems))
			}
		}
		sols = append(sols, s...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	scores, err := hextris.ScoreSolutions(sols, phrases, hextris.Official)
	if err != nil {
		return nil, err
	}
	out := map[int]hextris.ProblemScore{}
	for _, ps := range scores {
		out[ps.ProblemID] = ps
	}
	return out, nil
}

// hexFinalTables are the three tables of `hextris final`: one row per
// (variant, problem), the mean per variant, and the final ranking with
// these solutions among the contest's teams.
func hexFinalTables(doc hexFinalJSON) []*table.Table {
	cells := &table.Table{Title: "final round: points = round(100·(ours/best)²) per problem and variant (not capped)",
		Header: []string{"variant", "problem", "seeds", "ours", "best", "best team", "points", "if entered", "errors"}}
	for _, c := range doc.Cells {
		cells.Rows = append(cells.Rows, []string{c.Variant, strconv.Itoa(c.Problem), fmt.Sprintf("%d/%d", c.Solved, c.Seeds),
			strconv.FormatInt(c.Ours, 10), strconv.FormatInt(c.Best, 10), teamList(c.BestTeams),
			strconv.FormatInt(c.Points, 10), strconv.FormatInt(c.IfEntered, 10), strconv.Itoa(c.Errors)})
	}
	cells.NumericRight()
	vars := &table.Table{Title: "per variant", Header: []string{"variant", "phrases", "problems solved", "mean points", "if entered", "files"}}
	for _, v := range doc.Variants {
		fs := strings.Join(v.Files, " ")
		if fs == "" {
			fs = "none (counts 0)"
		}
		vars.Rows = append(vars.Rows, []string{v.Variant, v.Phrases, fmt.Sprintf("%d/%d", v.Solved, len(doc.Cells)/len(doc.Variants)),
			strconv.FormatFloat(v.Mean, 'f', 1, 64), strconv.FormatFloat(v.MeanIfEntered, 'f', 1, 64), fs})
	}
	vars.Footer = []string{"final score", "", "", strconv.FormatFloat(doc.Mean, 'f', 1, 64), strconv.FormatFloat(doc.MeanIfEntered, 'f', 1, 64), ""}
	vars.NumericRight()
	rank := &table.Table{Title: "final ranking (the contest's teams: published points)", Header: []string{"rank", "team", "points"}}
	place := 0
	for i, t := range doc.Ranking {
		if i == 0 || t.Points != doc.Ranking[i-1].Points {
			place = i + 1 // equal points share a rank
		}
		pts := strconv.FormatFloat(t.Points, 'f', 0, 64)
		if t.Ours {
			pts = strconv.FormatFloat(t.Points, 'f', 1, 64)
		}
		rank.Rows = append(rank.Rows, []string{strconv.Itoa(place), t.Team, pts})
	}
	rank.NumericRight()
	return []*table.Table{cells, vars, rank}
}

// idRanges writes sorted ids as "8-10, 12-16, 18".
func idRanges(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			parts = append(parts, strconv.Itoa(ids[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// teamList names the best teams of a cell, a long tie shortened (the JSON
// document has them all).
func teamList(teams []string) string {
	if len(teams) > 2 {
		return fmt.Sprintf("%s +%d tied", teams[0], len(teams)-1)
	}
	return strings.Join(teams, ", ")
}
