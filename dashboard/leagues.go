package dashboard

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"gauntlet/harness/results"
	"gauntlet/harness/store"
	"gauntlet/league"
	"gauntlet/reports"
)

// boards keeps, per league, a league.Follower and the last board it
// built: a board is rebuilt in the background from the games stored since
// the last one, when the league's game count moved or its versions may
// have (every few seconds), and never more often than its own cost
// allows; a page waits up to waitFresh for it and otherwise shows the
// last one.
type boards struct {
	ctx context.Context
	st  *league.Store
	s   *Server
	mu  sync.Mutex
	m   map[string]*boardEntry
}

// boardEntry is one league's last board.
type boardEntry struct {
	f       *league.Follower
	board   *league.Board
	err     error
	games   int64         // the league's game count when the board was asked for
	at      time.Time     // when the last build ended
	cost    time.Duration // how long it took
	running bool
	ready   chan struct{} // closed when the running build ends
}

// boardRecheck is how often a league whose game count did not move is
// read again (a version added or removed).
const boardRecheck = 5 * time.Second

func newBoards(ctx context.Context, s *Server, st *league.Store) *boards {
	return &boards{ctx: ctx, st: st, s: s, m: map[string]*boardEntry{}}
}

// get returns league name's last board (nil before the first) and the
// error of its last build, starting a new build when due; it waits up to
// wait for a build in progress.
func (b *boards) get(name string, games int64, wait time.Duration) (*league.Board, error) {
	b.mu.Lock()
	e := b.m[name]
	if e == nil {
		e = &boardEntry{f: league.NewFollower(b.st, name, b.s.cfg.Registry)}
		b.m[name] = e
	}
	age := time.Since(e.at)
	due := e.board == nil && e.err == nil || e.games != games || age >= boardRecheck
	if !e.running && due && (e.at.IsZero() || age >= max(500*time.Millisecond, 5*e.cost)) {
		e.running, e.ready, e.games = true, make(chan struct{}), games
		go b.build(e)
	}
	ready := e.ready
	b.mu.Unlock()
	if ready != nil && wait > 0 {
		select {
		case <-ready:
		case <-time.After(wait):
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return e.board, e.err
}

// build reads a league's new games into its board.
func (b *boards) build(e *boardEntry) {
	start := time.Now()
	bd, err := e.f.Board(b.ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil {
		e.board = bd
	}
	e.err, e.at, e.cost, e.running = err, time.Now(), time.Since(start), false
	close(e.ready)
	e.ready = nil
}

// leagueRow is a league in the front page's list.
type leagueRow struct {
	Def      league.Def
	Link     string
	Versions int // active versions
	Retired  int // removed or replaced by a new generation
	Rate     float64
	Workers  int // workers holding an unexpired lease
	Leader   string
	Created  string
}

// leagueRows lists the store's leagues (their boards are not waited for:
// the leader shows once a board was built).
func (s *Server) leagueRows(ctx context.Context) ([]leagueRow, error) {
	ds, err := s.leagues.Leagues(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]leagueRow, 0, len(ds))
	for _, d := range ds {
		row := leagueRow{Def: d, Link: "/league/" + pathEscape(d.Name), Rate: s.live.rate("league\x00"+d.Name, int(d.Games)), Created: createdText(d.Created)}
		vs, err := s.leagues.Versions(ctx, d.Name)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if v.Active {
				row.Versions++
			} else {
				row.Retired++
			}
		}
		ws, err := s.store.LeagueWorkers(ctx, d.Name)
		if err != nil {
			return nil, err
		}
		row.Workers = activeWorkers(ws)
		if b, _ := s.boards.get(d.Name, d.Games, 0); b != nil && len(b.Rows) > 0 && b.Rows[0].Rank > 0 {
			row.Leader = b.Rows[0].Version
		}
		out = append(out, row)
	}
	return out, nil
}

// leagueModel is a league's page.
type leagueModel struct {
	Def     league.Def
	Created string
	Rate    float64 // games per second, over the last minute seen
	Workers []store.LeagueWorker
	Active  int // workers holding an unexpired lease
	// Board is the last board built (nil while the first is built), of
	// BoardGames games; BoardErr the last build's error.
	Board      *league.Board
	BoardErr   string
	Pairwise   bool // two versions a game: score and pairs
	Ladder     []ladderRow
	Chart      template.HTML
	ChartNote  string
	Versions   int
	Unrated    int
	StaleBoard bool // the board holds fewer games than the league
}

// ladderRow is a version on the ladder, its figures formatted.
type ladderRow struct {
	Rank                  int
	Version, Entrant      string
	Active                bool
	Rating, Interval, LOS string
	Games, Firsts         int
	Score, MeanRank       string
	Forfeits              int
	ForfeitKinds          string // kind: count (first: reason); ...
	Eliminated            int
	EliminationKinds      string // as ForfeitKinds
	Data                  []string
	// RatingValue is the rating in full for a data attribute ("" when
	// the version has none).
	RatingValue string
}

// chartVersions is at most how many versions the rating chart draws (the
// top of the ladder).
const chartVersions = 12

func (s *Server) leaguePage(r *http.Request) (*view, error) {
	ctx := r.Context()
	name := r.PathValue("name")
	d, err := s.leagues.Def(ctx, name)
	if errors.Is(err, league.ErrNoLeague) {
		return nil, notFound{err}
	} else if err != nil {
		return nil, err
	}
	m := &leagueModel{Def: d, Created: createdText(d.Created), Rate: s.live.rate("league\x00"+name, int(d.Games)), Pairwise: d.Size == 2}
	if m.Workers, err = s.store.LeagueWorkers(ctx, name); err != nil {
		return nil, err
	}
	m.Active = activeWorkers(m.Workers)
	b, err := s.boards.get(name, d.Games, waitFresh)
	if err != nil {
		m.BoardErr = err.Error()
	}
	if b != nil {
		m.Board = b
		m.StaleBoard = int64(b.Games) < d.Games
		m.fill(b)
	}
	return &view{Title: "league " + name, Model: m, Parts: []string{"status", "ladder", "charts", "pairs"}}, nil
}

// kindsText is reasons counted by kind as one line: "kind: count (first:
// reason); ...".
func kindsText(ks []results.ReasonCount) string {
	var b strings.Builder
	for i, k := range ks {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %d (first: %s)", k.Kind, k.Count, k.First)
	}
	return b.String()
}

// fill formats a board's ladder and draws its rating chart.
func (m *leagueModel) fill(b *league.Board) {
	for _, r := range b.Rows {
		row := ladderRow{Rank: r.Rank, Version: r.Version, Entrant: r.Entrant, Active: r.Active, Games: r.Games, Firsts: r.Firsts,
			Forfeits: r.Forfeits, Eliminated: r.Eliminated, Rating: "—", Interval: "—", LOS: "—", Score: "—", MeanRank: "—"}
		m.Versions++
		if r.Rating != nil {
			row.Rating, row.RatingValue = fmt.Sprintf("%+.1f", *r.Rating), strconv.FormatFloat(*r.Rating, 'g', -1, 64)
			row.Interval = fmt.Sprintf("%+.0f .. %+.0f", *r.Lo, *r.Hi)
		} else {
			m.Unrated++
		}
		if r.LOSNext != nil {
			row.LOS = fixed(100**r.LOSNext, 1) + "%"
		}
		if r.Score != nil {
			row.Score = fixed(100**r.Score, 1) + "%"
		}
		if r.MeanRank != nil {
			row.MeanRank = fixed(*r.MeanRank, 2)
		}
		row.ForfeitKinds, row.EliminationKinds = kindsText(r.ForfeitKinds), kindsText(r.EliminationKinds)
		for _, k := range b.Data {
			if x, ok := r.Data[k]; ok {
				row.Data = append(row.Data, reports.Num(x))
			} else {
				row.Data = append(row.Data, r.DataText[k])
			}
		}
		m.Ladder = append(m.Ladder, row)
	}
	var ss []series
	for _, r := range b.Rows {
		if r.Rating == nil {
			continue
		}
		if len(ss) == chartVersions {
			m.ChartNote = fmt.Sprintf("the top %d versions of the ladder", chartVersions)
			break
		}
		var pts []point
		for _, h := range b.History {
			if y, ok := h.Ratings[r.Version]; ok {
				pts = append(pts, point{float64(h.Games), y})
			}
		}
		class := fmt.Sprintf("s%d", len(ss)%6)
		if len(ss) >= 6 {
			class += " dash"
		}
		ss = append(ss, series{Name: r.Version, Points: pts, Class: class})
	}
	if len(ss) > 0 {
		c := chart{W: 760, H: 320, Title: "rating over games", XLabel: "league games", YLabel: "Elo (relative to the mean)",
			Series: ss, Rules: []rule{{0, "mean"}}}
		m.Chart = c.SVG()
	}
}

// activeWorkers counts the workers holding an unexpired lease.
func activeWorkers(ws []store.LeagueWorker) int {
	n := 0
	for _, w := range ws {
		if w.InHand > 0 && w.LeaseMS >= 0 {
			n++
		}
	}
	return n
}

// createdText is a stored RFC 3339 time as the dashboard writes times
// (UTC), or the text as it is when it is not one.
func createdText(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.DateTime)
}
