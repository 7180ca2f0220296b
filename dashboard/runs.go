package dashboard

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/results"
	"gauntlet/harness/stats"
	"gauntlet/harness/store"
	"gauntlet/reports"
	"gauntlet/tuning"
	"gauntlet/tuning/spsa"
)

// runState is a run's progress as every page shows it.
type runState struct {
	Count, Planned int
	Rate           float64 // games per second, over the last minute seen
	ETA            float64 // seconds, NaN when unknown
	Done           float64 // Count of Planned, 0..1
	Workers        []store.RunWorker
	Active         int // workers holding an unexpired lease
	// Stalled: the run is marked running but no worker holds a lease.
	Stalled bool
}

// state reads a run's progress.
func (s *Server) state(r *http.Request, rec *store.RunRecord) (runState, error) {
	st := runState{Count: rec.GameCount, ETA: math.NaN()}
	st.Planned = s.planned(rec)
	st.Rate = s.live.rate(rec.ID, rec.GameCount)
	if st.Planned > 0 {
		st.Done = min(float64(st.Count)/float64(st.Planned), 1)
		if st.Rate > 0 && rec.Status == "running" {
			st.ETA = float64(max(st.Planned-st.Count, 0)) / st.Rate
		}
	}
	ws, err := s.store.RunWorkers(r.Context(), rec.ID)
	if err != nil {
		return st, err
	}
	st.Workers = ws
	for _, w := range ws {
		if w.Open > 0 && w.LeaseMS >= 0 {
			st.Active++
		}
	}
	st.Stalled = rec.Status == "running" && st.Active == 0 && st.Rate == 0 && (st.Planned == 0 || st.Count < st.Planned)
	return st, nil
}

// plannedCache holds the planned game count of each run (its spec never
// changes).
var plannedCache sync.Map // run ID + spec -> int

// planned is the number of games of a run's plan, 0 when this build cannot
// tell (a game or case set it does not know).
func (s *Server) planned(rec *store.RunRecord) int {
	key := rec.ID + "\x00" + rec.Spec
	if n, ok := plannedCache.Load(key); ok {
		return n.(int)
	}
	n, err := results.PlannedGames(s.cfg.Registry, rec)
	if err != nil {
		n = 0
	}
	plannedCache.Store(key, n)
	return n
}

// indexModel is the front page.
type indexModel struct {
	Runs    []runRow
	Studies []tuning.StudyInfo
	SPSA    []spsa.StudyInfo
	Leagues []leagueRow
	Errors  []string
}

// runRow is a run in the list.
type runRow struct {
	Rec    store.RunRecord
	Vs     string
	State  runState
	Result string
}

func (s *Server) indexPage(r *http.Request) (*view, error) {
	ctx := r.Context()
	recs, err := s.store.Runs(ctx)
	if err != nil {
		return nil, err
	}
	m := &indexModel{}
	for _, rec := range recs {
		row := runRow{Rec: rec, Vs: vsText(rec.Entrants)}
		if row.State, err = s.state(r, &rec); err != nil {
			return nil, err
		}
		row.Result = resultText(rec.Kind, rec.Summary)
		m.Runs = append(m.Runs, row)
	}
	// A store without studies lists none; an error reading them is shown
	// on the page, not in place of the runs.
	if m.Studies, err = s.tune.Studies(ctx); err != nil {
		m.Errors = append(m.Errors, "tuning studies: "+err.Error())
	}
	if m.SPSA, err = s.spsa.Studies(ctx); err != nil {
		m.Errors = append(m.Errors, "SPSA studies: "+err.Error())
	}
	if m.Leagues, err = s.leagueRows(ctx); err != nil {
		m.Errors = append(m.Errors, "leagues: "+err.Error())
	}
	return &view{Title: "gauntlet", Model: m, Parts: []string{"runs", "studies", "leagues"}}, nil
}

// vsText is "A vs B, C" of a run's entrants.
func vsText(es []store.EntrantRecord) string {
	labels := make([]string, len(es))
	for i, e := range es {
		labels[i] = e.Label
	}
	if len(labels) < 2 {
		return strings.Join(labels, "")
	}
	return labels[0] + " vs " + strings.Join(labels[1:], ", ")
}

// resultText is a finished run's answer in a few words, from its stored
// summary: what `gauntlet runs` says of it (reports.RunResult).
func resultText(kind string, summary json.RawMessage) string {
	out, err := reports.RunResult(kind, summary)
	if err != nil {
		return "unreadable summary"
	}
	return out
}

// runModel is a run's page.
type runModel struct {
	Rec   *store.RunRecord
	State runState
	// Stats: the stored summary of a finished run, else the last computed
	// from its games (Live, as of LiveCount games; LiveErr if it failed).
	AB        *results.ABSummary
	Eval      *results.EvalSummary
	Live      bool
	LiveCount int
	LiveErr   string
	Lower     float64 // the SPRT's bounds
	Upper     float64
	LLR       template.HTML
	Elo       template.HTML
	Games     gamesPage
}

// gamesPage is a page of a run's games, grouped by case.
type gamesPage struct {
	Offset, Limit, Total int
	Prev, Next           int // offsets; -1: none
	Rows                 []gameView
}

// gameView is one game on the page.
type gameView struct {
	Key, Case  string
	NewCase    bool // the first game of its case on the page
	Seats      []seatView
	Outcome    string // an ab game: A's result, W, D or L
	Turns      int
	WallMS     float64
	Worker     string
	Finished   string
	ReplayPath string
}

const gamesPerPage = 50

func (s *Server) runPage(r *http.Request) (*view, error) {
	ctx := r.Context()
	id := r.PathValue("id")
	rec, err := s.store.Run(ctx, id)
	if err != nil {
		if strings.HasPrefix(err.Error(), "no run ") {
			return nil, notFound{err}
		}
		return nil, err
	}
	m := &runModel{Rec: rec}
	if m.State, err = s.state(r, rec); err != nil {
		return nil, err
	}
	s.runStats(rec, m)
	if m.Games, err = s.games(r, rec); err != nil {
		return nil, err
	}
	return &view{Title: rec.ID, Model: m, Parts: []string{"status", "result", "charts", "games"}}, nil
}

// runStats fills in a run's statistics and charts: the stored summary of a
// finished run, else the live ones.
func (s *Server) runStats(rec *store.RunRecord, m *runModel) {
	if len(rec.Summary) > 0 && string(rec.Summary) != "null" && rec.Status != "running" {
		var err error
		if rec.Kind == "ab" {
			m.AB = &results.ABSummary{}
			err = json.Unmarshal(rec.Summary, m.AB)
		} else {
			m.Eval = &results.EvalSummary{}
			err = json.Unmarshal(rec.Summary, m.Eval)
		}
		if err != nil {
			m.AB, m.Eval, m.LiveErr = nil, nil, "stored summary: "+err.Error()
		}
	} else {
		ls := s.live.summary(rec, rec.GameCount)
		m.Live, m.LiveCount, m.AB, m.Eval = true, ls.count, ls.ab, ls.eval
		if ls.err != nil {
			m.LiveErr = ls.err.Error()
		}
	}
	if m.AB != nil && m.AB.SPRTConfig != nil {
		sp := *m.AB.SPRTConfig
		if t, err := stats.NewSPRT(sp.Elo0, sp.Elo1, sp.Alpha, sp.Beta, sp.EloModel()); err == nil {
			m.Lower, m.Upper = t.Bounds()
		}
	}
	if m.AB != nil && len(m.AB.History) > 0 {
		llr := make([]point, len(m.AB.History))
		elo := make([]point, len(m.AB.History))
		for i, p := range m.AB.History {
			llr[i] = point{float64(p.Games), p.LLR}
			elo[i] = point{float64(p.Games), p.Elo}
		}
		c := chart{W: 560, H: 260, Title: "LLR over games", XLabel: "games", YLabel: "LLR",
			Series: []series{{Name: "LLR", Points: llr, Class: "s0"}}}
		if m.Lower != 0 || m.Upper != 0 {
			c.Rules = []rule{{m.Upper, fmt.Sprintf("accept H1 (%.2f)", m.Upper)}, {m.Lower, fmt.Sprintf("accept H0 (%.2f)", m.Lower)}}
		}
		m.LLR = c.SVG()
		e := chart{W: 560, H: 260, Title: "Elo of A over games", XLabel: "games", YLabel: "Elo", Series: []series{{Name: "Elo", Points: elo, Class: "s1"}},
			Rules: []rule{{0, "0"}}}
		m.Elo = e.SVG()
	}
}

// games reads the page of games the request asks for (?offset=N).
func (s *Server) games(r *http.Request, rec *store.RunRecord) (gamesPage, error) {
	p := gamesPage{Offset: intParam(r, "offset", 0), Limit: gamesPerPage, Total: rec.GameCount, Prev: -1, Next: -1}
	rows, err := s.store.GamesPage(r.Context(), rec.ID, p.Offset, p.Limit)
	if err != nil {
		return p, err
	}
	if p.Offset > 0 {
		p.Prev = max(p.Offset-p.Limit, 0)
	}
	if p.Offset+len(rows) < p.Total {
		p.Next = p.Offset + p.Limit
	}
	info, known := contract.GameInfo{}, false
	if g, err := s.cfg.Registry.Game(rec.Game); err == nil {
		info, known = g.Info(), true
	}
	labels := make([]string, len(rec.Entrants))
	for i, e := range rec.Entrants {
		labels[i] = e.Label
	}
	prevCase := ""
	for _, g := range rows {
		v := gameView{Key: g.Key, Case: g.Case, NewCase: g.Case != prevCase, Turns: g.Turns, WallMS: g.WallMS, Worker: g.Worker,
			ReplayPath: "/replay/" + pathEscape(rec.ID) + "/" + pathEscape(g.Key)}
		prevCase = g.Case
		if t, err := time.Parse(time.RFC3339Nano, g.Finished); err == nil {
			v.Finished = t.UTC().Format(time.TimeOnly)
		}
		var seats []int
		var res [][3]any
		_ = json.Unmarshal([]byte(g.Seats), &seats) // a bad row shows no seats
		_ = json.Unmarshal([]byte(g.Results), &res) // nor scores
		scores := make([]float64, len(seats))
		for i, e := range seats {
			name := fmt.Sprintf("entrant %d", e)
			if e >= 0 && e < len(labels) {
				name = labels[e]
			}
			sv := seatView{Entrant: name}
			if i < len(res) {
				if x, ok := res[i][0].(float64); ok {
					scores[i] = x
					sv.Score = reports.Num(x)
				}
				sv.Forfeit, _ = res[i][2].(string)
			}
			v.Seats = append(v.Seats, sv)
		}
		if rec.Kind == "ab" && len(seats) >= 2 && known && len(res) >= 2 {
			a, b := seatOf(seats, 0), seatOf(seats, 1)
			if a >= 0 && b >= 0 {
				switch {
				case info.Better(scores[a], scores[b]):
					v.Outcome = "W"
				case info.Better(scores[b], scores[a]):
					v.Outcome = "L"
				default:
					v.Outcome = "D"
				}
			}
		}
		p.Rows = append(p.Rows, v)
	}
	return p, nil
}

// seatView is one seat of a game: its entrant, score and forfeit.
type seatView struct{ Entrant, Score, Forfeit string }

// seatOf is the seat of entrant e, -1 if none.
func seatOf(seats []int, e int) int {
	for s, x := range seats {
		if x == e {
			return s
		}
	}
	return -1
}

// pathEscape escapes a run ID or a game key as one path segment.
func pathEscape(s string) string { return url.PathEscape(s) }
