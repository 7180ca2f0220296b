package reports

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"gauntlet/internal/untrusted"
	"gauntlet/league"
)

// LeagueTable is a league's ladder: rank, version, rating ± 95% interval,
// the likelihood of superiority over the next version, games, score (two
// versions a game) or first places and mean place, forfeits, eliminations
// (games that say so), and the mean of each player_data column.
func LeagueTable(b *league.Board) *Table {
	t := &Table{Title: fmt.Sprintf("league %s: %s, %s ratings (Elo, 95%% interval) over %d games", b.League, b.Game, b.Model, b.Games)}
	t.Header = []string{"rank", "version", "rating", "95% interval", "LOS next", "games"}
	if b.Size == 2 {
		t.Header = append(t.Header, "score")
	} else {
		t.Header = append(t.Header, "firsts", "mean place")
	}
	t.Header = append(t.Header, "forfeits")
	if b.Eliminations {
		t.Header = append(t.Header, "eliminated")
	}
	t.Header = append(t.Header, "entrant")
	t.Header = append(t.Header, b.Data...)
	for _, r := range b.Rows {
		name := r.Version
		if !r.Active {
			name += " (removed)"
		}
		row := []string{"-", name, "-", "-", optPercent(r.LOSNext), strconv.Itoa(r.Games)}
		if r.Rank > 0 {
			row[0] = strconv.Itoa(r.Rank)
			row[2] = fmt.Sprintf("%.0f", *r.Rating)
			row[3] = fmt.Sprintf("%.0f .. %.0f", *r.Lo, *r.Hi)
		}
		if b.Size == 2 {
			row = append(row, optPercent(r.Score))
		} else {
			row = append(row, strconv.Itoa(r.Firsts), optFixed2(r.MeanRank))
		}
		row = append(row, strconv.Itoa(r.Forfeits))
		if b.Eliminations {
			row = append(row, strconv.Itoa(r.Eliminated))
		}
		row = append(row, r.Entrant)
		for _, k := range b.Data {
			if x, ok := r.Data[k]; ok {
				row = append(row, Num(x))
			} else {
				row = append(row, r.DataText[k])
			}
		}
		t.Rows = append(t.Rows, row)
	}
	t.NumericRight()
	return t
}

// LeaguePairsTable lists each pair's wins, draws and losses (two versions
// a game), the first version being the higher rated.
func LeaguePairsTable(b *league.Board) *Table {
	t := &Table{Title: fmt.Sprintf("league %s: results of each pair", b.League),
		Header: []string{"A", "B", "games", "A wins", "draws", "A losses", "A score", "LOS A > B"}}
	for _, p := range b.Pairs {
		t.Rows = append(t.Rows, []string{p.A, p.B, strconv.Itoa(p.Wins + p.Draws + p.Losses), strconv.Itoa(p.Wins),
			strconv.Itoa(p.Draws), strconv.Itoa(p.Losses), optPercent(&p.Score), optPercent(p.LOS)})
	}
	t.NumericRight()
	return t
}

func optPercent(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**x)
}

func optFixed2(x *float64) string {
	if x == nil {
		return "-"
	}
	return strconv.FormatFloat(*x, 'f', 2, 64)
}

// WriteLeagueReport writes a league's report into dir: the ladder
// (ladder.*), the pairs (pairs.*, two versions a game), each version's
// rating over the league's games (ratings.svg/png) and index.html.
func WriteLeagueReport(dir string, b *league.Board) (*Report, error) {
	if err := prepare(dir); err != nil {
		return nil, err
	}
	r := &Report{Kind: "league", Title: fmt.Sprintf("league %s: %s on %s", b.League, b.Game, b.Cases)}
	r.Headline = []Fact{{"versions", strconv.Itoa(len(b.Rows))}, {"games", strconv.Itoa(b.Games)}, {"model", b.Model}}
	if len(b.Rows) > 0 && b.Rows[0].Rank > 0 {
		r.Headline = append(r.Headline, Fact{"leader", b.Rows[0].Version})
	}
	r.Notes = append(r.Notes, b.Notes...)
	r.method = "Ratings are maximum-likelihood fits over all games, in Elo relative to the mean of the rated versions: " +
		"Bradley–Terry (as Ordo and BayesElo) for two versions a game, a draw half a win; Plackett–Luce over placements otherwise " +
		"(tied places each chosen from the same rest). Intervals are ±1.96 standard errors from the observed information; " +
		"LOS is Φ(difference / its standard error)."
	r.Tables = append(r.Tables, TableFile{Name: "ladder", Table: LeagueTable(b)})
	if len(b.Pairs) > 0 {
		r.Tables = append(r.Tables, TableFile{Name: "pairs", Table: LeaguePairsTable(b)})
	}
	if err := r.figure(dir, "ratings", "Ratings over the league's games",
		"Each version's rating (Elo, relative to the mean) as fitted after the league's first N games.",
		func(f *Figure) (string, error) { return leagueRatingsFigure(dir, f, b) }); err != nil {
		return nil, err
	}
	if err := r.finish(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// leagueRatingsFigure draws each version's rating over the history.
func leagueRatingsFigure(dir string, f *Figure, b *league.Board) (string, error) {
	if len(b.History) < 2 {
		return "fewer than two fits in the league's history", nil
	}
	names := map[string]bool{}
	for _, m := range b.History {
		for k := range m.Ratings {
			names[k] = true
		}
	}
	order := make([]string, 0, len(names))
	for k := range names {
		order = append(order, k)
	}
	sort.Strings(order)
	p := newPlot("Ratings over the games", "games", "rating (Elo)")
	for i, name := range order {
		var xys plotter.XYs
		for _, m := range b.History {
			if y, ok := m.Ratings[name]; ok {
				xys = append(xys, plotter.XY{X: float64(m.Games), Y: y})
			}
		}
		xys = finiteXYs(xys)
		if len(xys) == 0 {
			continue
		}
		l, err := line(xys, plotutil.Color(i), i >= 7)
		if err != nil {
			return "", err
		}
		p.Add(l)
		p.Legend.Add(shortLabel(name), l)
	}
	p.Legend.Top = true
	return "", saveFigure(dir, f, p, plotW, plotH)
}

// WriteLeagueBoard writes league board b to w: the ladder, the pairs when
// asked (two versions a game) and the board's notes.
func WriteLeagueBoard(w io.Writer, b *league.Board, pairs bool) error {
	if err := LeagueTable(b).WriteText(w); err != nil {
		return err
	}
	if pairs && len(b.Pairs) > 0 {
		if err := LeaguePairsTable(b).WriteText(w); err != nil {
			return err
		}
	}
	for _, n := range b.Notes {
		if _, err := fmt.Fprintln(w, "note:", untrusted.Line(n)); err != nil {
			return err
		}
	}
	return nil
}

// WriteLeagueRun writes what a worker of league name did, then the board.
func WriteLeagueRun(w io.Writer, name string, out *league.Outcome, b *league.Board) error {
	if _, err := fmt.Fprintf(w, "league %s: this worker played %d games (%d blocks, %d taken over); stopped: %s\n",
		untrusted.Line(name), out.Played, out.Blocks, out.Resumed, out.Reason); err != nil {
		return err
	}
	return WriteLeagueBoard(w, b, false)
}

// LeaguesTable lists leagues.
func LeaguesTable(ds []league.Def) *Table {
	t := &Table{Title: "leagues", Header: []string{"league", "game", "cases", "size", "games", "created"}}
	for _, d := range ds {
		t.Rows = append(t.Rows, []string{d.Name, d.Game, d.Cases, fmt.Sprint(d.Size), fmt.Sprint(d.Games), d.Created})
	}
	return t
}
