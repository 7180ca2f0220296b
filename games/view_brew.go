package games

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"

	"gauntlet/harness/contract"
	"gauntlet/referees/brew"
)

var _ contract.Viewer = brewGame{}

//go:embed viewer/brew.js
var brewRenderer string

// brewMoves is the Outcome.Moves of a brew game: the action line of each
// seat in each round (null where a seat no longer plays).
type brewMoves struct {
	Seed    int64       `json:"seed"`
	League  int         `json:"league"`
	Actions [][]*string `json:"actions"`
}

// recording is where a referee writes a game's record: the caller's
// writer (PlayOptions.Record), and a buffer of the moves when
// opt.RecordMoves asks for them. A game with neither allocates nothing.
type recording struct {
	w     io.Writer     // nil: no record
	moves *bytes.Buffer // nil unless opt.RecordMoves
	name  string        // the game's name in the record
}

func recordingOf(opt contract.PlayOptions, caseID string) recording {
	var r recording
	switch {
	case !opt.RecordMoves:
		r.w = opt.Record
	case opt.Record == nil:
		r.moves = new(bytes.Buffer)
		r.w = r.moves
	default:
		r.moves = new(bytes.Buffer)
		r.w = io.MultiWriter(opt.Record, r.moves)
	}
	if r.w != nil {
		r.name = "gauntlet/" + caseID
	}
	return r
}

// brewMovesOf keeps the seed, league and action lines of a games.jsonl
// record (its turn input texts are left out: the referee rebuilds them).
func brewMovesOf(record []byte) (json.RawMessage, error) {
	var g brew.GameRecord
	if err := json.Unmarshal(record, &g); err != nil {
		return nil, fmt.Errorf("brew: reading the game's record: %w", err)
	}
	acts := make([][]*string, len(g.Actions))
	for i := range g.Actions {
		acts[i] = g.Actions[i][:]
	}
	return json.Marshal(brewMoves{Seed: g.Seed, League: g.League, Actions: acts})
}

// brewFrame is one round as the viewer draws it: the state the witches see
// before acting, and the lines they answered.
type brewFrame struct {
	Round  int32        `json:"r"`
	P      [2]brewWitch `json:"p"`
	Tome   [][6]int32   `json:"tome"`   // id, delta ×4, stock
	Orders [][7]int32   `json:"orders"` // id, cost ×4, price now, bonus
	Acts   [2]*string   `json:"acts,omitempty"`
	Scores [2]int       `json:"s"`
	Over   bool         `json:"over,omitempty"`
}

type brewWitch struct {
	Inv        [brew.Tiers]int32 `json:"inv"`
	Deliveries int32             `json:"d"`
	Active     bool              `json:"a"`
	Spells     [][6]int32        `json:"sp"` // id, delta ×4, castable (0/1)
}

func brewFrameOf(st *brew.State, acts [2]*string) brewFrame {
	f := brewFrame{Round: st.Round, Acts: acts, Scores: st.Scores(), Over: st.Over}
	for p := range f.P {
		pl := &st.P[p]
		w := brewWitch{Inv: pl.Inv, Deliveries: pl.Deliveries, Active: pl.Active}
		for i := range int(pl.NSpells) {
			rc := st.SpellRecipe(p, i)
			castable := int32(0)
			if st.IsCastable(p, i) {
				castable = 1
			}
			w.Spells = append(w.Spells, [6]int32{int32(pl.Spells[i].ID), int32(rc.Delta[0]), int32(rc.Delta[1]), int32(rc.Delta[2]), int32(rc.Delta[3]), castable})
		}
		f.P[p] = w
	}
	for k := range int(st.NTome) {
		t := st.Tome[k]
		d := brew.Recipes[t.ID].Delta
		f.Tome = append(f.Tome, [6]int32{int32(t.ID), int32(d[0]), int32(d[1]), int32(d[2]), int32(d[3]), t.Stock})
	}
	for q := range int(st.NOrders) {
		o := st.Orders[q]
		bonus := st.OrderPrice(q) - int32(o.Price)
		f.Orders = append(f.Orders, [7]int32{int32(o.ID), int32(o.Cost[0]), int32(o.Cost[1]), int32(o.Cost[2]), int32(o.Cost[3]), st.OrderPrice(q), bonus})
	}
	return f
}

// Watch replays the recorded action lines with the referee: one frame per
// round and one for the end.
func (brewGame) Watch(c contract.Case, out contract.Outcome, seats []string) (*contract.Replay, error) {
	var m brewMoves
	if err := json.Unmarshal(out.Moves, &m); err != nil {
		return nil, fmt.Errorf("brew case %s: moves: %w", c.ID, err)
	}
	var frames []brewFrame
	end, err := brew.Walk(m.Seed, m.League, m.Actions, func(st *brew.State, lines [brew.Players]*string) {
		frames = append(frames, brewFrameOf(st, lines))
	})
	if err != nil {
		return nil, fmt.Errorf("brew case %s: replaying the moves: %w", c.ID, err)
	}
	frames = append(frames, brewFrameOf(&end, [2]*string{}))
	r := &contract.Replay{Game: "brew", Case: c.ID, Seats: seats, Setup: map[string]any{"colours": []string{"#2f7fd6", "#d64a2f"}},
		Frames: frames, Count: len(frames)}
	final := end.Scores()
	if err := finalScores(r, out, final[:]); err != nil {
		return nil, err
	}
	r.Title = fmt.Sprintf("Witches' Brew %s: %s", c.ID, vsTitle(seats))
	return r, nil
}

func (brewGame) Renderer() string { return brewRenderer }

var _ contract.TurnFramer = brewGame{}

// TurnFrame: a bot's k-th input is round k's, drawn in frame k-1; what it
// wrote before its first input goes with the first frame.
func (brewGame) TurnFrame(turn int) int { return max(turn-1, 0) }
