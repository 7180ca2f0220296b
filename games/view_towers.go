package games

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"gauntlet/harness/contract"
	"gauntlet/referees/towers"
)

var _ contract.Viewer = towersGame{}

//go:embed viewer/towers.js
var towersRenderer string

// towersFrame is the position after a move (the first frame: the deal),
// each column as its blocks bottom to top (colour*7 + size), with the move
// that led to it and the number of blocks it moved.
type towersFrame struct {
	Columns [][]int `json:"c"`
	Move    *[2]int `json:"m,omitempty"`
	Run     int     `json:"r,omitempty"`
	Left    int     `json:"left"` // blocks off their final support
}

// towersSetup is drawn under every frame.
type towersSetup struct {
	Colours int    `json:"colours"`
	Optimum int    `json:"optimum"` // -1: unknown (the search's budget ran out)
	Level   string `json:"level"`
	Forfeit string `json:"forfeit,omitempty"`
	Solved  bool   `json:"solved"`
}

func towersFrameOf(st *towers.State) towersFrame {
	f := towersFrame{Columns: make([][]int, st.Columns()), Left: st.Left()}
	var buf [towers.MaxBlocks]towers.Block
	for i := range f.Columns {
		col := st.Column(i, buf[:0])
		f.Columns[i] = make([]int, len(col))
		for k, b := range col {
			f.Columns[i][k] = int(b)
		}
	}
	return f
}

// Watch replays the recorded moves with the referee: one frame for the
// deal and one after each legal move.
func (towersGame) Watch(c contract.Case, out contract.Outcome, seats []string) (*contract.Replay, error) {
	d, err := towersTypes.data(c)
	if err != nil {
		return nil, err
	}
	var raw [][2]int
	if err := json.Unmarshal(out.Moves, &raw); err != nil {
		return nil, fmt.Errorf("towers case %s: moves: %w", c.ID, err)
	}
	st := d.Start
	frames := []towersFrame{towersFrameOf(&st)}
	for _, mv := range raw {
		if mv[0] < 0 || mv[1] < 0 || mv[0] >= st.Columns() || mv[1] >= st.Columns() {
			break
		}
		m := towers.Move{From: uint8(mv[0]), To: uint8(mv[1])}
		if st.Legal(m) != nil {
			break
		}
		before := st
		bottom := st.Apply(m)
		f := towersFrameOf(&st)
		f.Move = &mv
		top, _ := before.Top(mv[0])
		f.Run = int(bottom) - int(top) + 1
		frames = append(frames, f)
	}
	best, ok, err := d.optimum(context.Background())
	if err != nil || !ok {
		best = -1
	}
	setup := towersSetup{Colours: d.Start.Colours(), Optimum: best, Level: d.Level, Solved: st.Solved()}
	replayed := float64(len(frames) - 1)
	if f := out.Seats[0].Forfeit; f != "" {
		setup.Forfeit, replayed = f, towersForfeit
	}
	r := &contract.Replay{Game: "towers", Case: c.ID, Seats: seats, Setup: setup, Frames: frames, Count: len(frames)}
	if err := finalScores(r, out, []float64{replayed}); err != nil {
		return nil, err
	}
	r.Title = fmt.Sprintf("Sarov towers %s (%d colours, optimum %d): %s", c.ID, setup.Colours, setup.Optimum, seats[0])
	return r, nil
}

func (towersGame) Renderer() string { return towersRenderer }
