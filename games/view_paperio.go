package games

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"gauntlet/harness/contract"
	"gauntlet/referees/paperio"
)

var _ contract.Viewer = paperioGame{}

//go:embed viewer/paperio.js
var paperioRenderer string

// paperMoves is the Outcome.Moves of a Paper.io game: the trace header (the
// rules and the start), which player each seat played, and per tick one
// letter per player (u, d, l, r; '-' for no command) and the bonus spawns.
type paperMoves struct {
	Header paperio.TraceHeader `json:"header"`
	IDs    []int               `json:"ids"`   // player id of each seat
	Ticks  []string            `json:"ticks"` // per tick, one letter per player id
	Spawns [][5]int            `json:"spawns,omitempty"`
}

var dirLetter = [...]byte{paperio.DirNone: '-', paperio.Up: 'u', paperio.Down: 'd', paperio.Left: 'l', paperio.Right: 'r'}

func letterDir(b byte) paperio.Dir {
	for d, l := range dirLetter {
		if l == b {
			return paperio.Dir(d)
		}
	}
	return paperio.DirNone
}

// paperMovesOf keeps the commands and spawns of a recorded trace (the
// per-tick states in it are left out: the referee rebuilds them). ids maps
// seats to player ids.
func paperMovesOf(trace []byte, ids []int) (json.RawMessage, error) {
	tr, err := paperio.NewTraceReader(bytes.NewReader(trace))
	if err != nil {
		return nil, fmt.Errorf("paperio: reading the game's record: %w", err)
	}
	m := paperMoves{Header: tr.Header, IDs: ids}
	m.Header.Start = nil
	var row paperio.TraceRow
	line := make([]byte, tr.N)
	for {
		err := tr.Next(&row)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("paperio: reading the game's record: %w", err)
		}
		for k := range line {
			line[k] = dirLetter[row.Cmds[k]]
		}
		m.Ticks = append(m.Ticks, string(line))
		if s := row.Spawn; s != nil {
			m.Spawns = append(m.Spawns, [5]int{row.Tick, int(s.Kind), s.X, s.Y, s.Active})
		}
	}
	return json.Marshal(m)
}

// paperFrame is one tick as the viewer draws it. Only what changed since
// the previous frame is set (the renderer carries the rest forward); frame
// 0 sets everything.
type paperFrame struct {
	Tick   int              `json:"t"`
	Heads  [][5]int         `json:"h"`               // per player: x, y, dir, speed, alive (pixels)
	Terr   map[int][]int32  `json:"terr,omitempty"`  // player index → 31 row masks
	Trail  map[int][]int16  `json:"trail,omitempty"` // player index → trail cells in order
	Held   map[int][][2]int `json:"held,omitempty"`  // player index → (kind, cells left)
	Bonus  [][4]int         `json:"b,omitempty"`     // the map's bonuses (kind, x, y, active) when they changed
	NoBon  bool             `json:"nb,omitempty"`    // the map has no bonus any more
	Scores []int            `json:"s,omitempty"`     // per player, when one changed
	Deaths []string         `json:"dead,omitempty"`  // per player: "" or "tick N: cause", when one changed
	Cmds   string           `json:"c"`               // this tick's commands, one letter per player
}

type paperShown struct {
	terr   [paperio.MaxPlayers]paperio.Bits
	trail  [paperio.MaxPlayers][]paperio.Cell
	held   [paperio.MaxPlayers][][2]int
	bonus  [][4]int
	scores []int
	deaths []string
}

func (sh *paperShown) frame(s *paperio.State, tick int, cmds string, first bool) paperFrame {
	f := paperFrame{Tick: tick, Cmds: cmds}
	scores := make([]int, s.N)
	deaths := make([]string, s.N)
	for k := range s.N {
		p := &s.Players[k]
		f.Heads = append(f.Heads, [5]int{p.X, p.Y, int(p.Dir), p.Speed, boolInt(p.Alive)})
		if first || p.Terr != sh.terr[k] {
			if f.Terr == nil {
				f.Terr = map[int][]int32{}
			}
			rows := make([]int32, paperio.Rows)
			for j, w := range p.Terr {
				rows[j] = int32(w)
			}
			f.Terr[k] = rows
			sh.terr[k] = p.Terr
		}
		if trail := p.Trail(); first || !slices.Equal(trail, sh.trail[k]) {
			if f.Trail == nil {
				f.Trail = map[int][]int16{}
			}
			cells := make([]int16, len(trail))
			for i, c := range trail {
				cells[i] = int16(c)
			}
			f.Trail[k] = cells
			sh.trail[k] = append(sh.trail[k][:0], trail...)
		}
		var held [][2]int
		for _, h := range p.Bonuses() {
			held = append(held, [2]int{int(h.Kind), h.Remaining()})
		}
		if first || !slices.Equal(held, sh.held[k]) {
			if f.Held == nil {
				f.Held = map[int][][2]int{}
			}
			f.Held[k] = held
			sh.held[k] = held
		}
		scores[k] = p.Score
		if !p.Alive {
			deaths[k] = fmt.Sprintf("tick %d: %s", p.DeathTick, p.Death)
		}
	}
	var bonus [][4]int
	for _, b := range s.MapBonuses() {
		bonus = append(bonus, [4]int{int(b.Kind), b.Cell.X(), b.Cell.Y(), int(b.Active)})
	}
	if first || !slices.Equal(bonus, sh.bonus) {
		f.Bonus, f.NoBon = bonus, len(bonus) == 0
		sh.bonus = bonus
	}
	if first || !slices.Equal(scores, sh.scores) {
		f.Scores, sh.scores = scores, scores
	}
	if first || !slices.Equal(deaths, sh.deaths) {
		f.Deaths, sh.deaths = deaths, deaths
	}
	return f
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Watch replays the recorded commands and spawns with the referee: one
// frame for the start and one per tick.
func (g paperioGame) Watch(c contract.Case, out contract.Outcome, seats []string) (*contract.Replay, error) {
	var m paperMoves
	if err := json.Unmarshal(out.Moves, &m); err != nil {
		return nil, fmt.Errorf("%s case %s: moves: %w", g.name(), c.ID, err)
	}
	m.Header.Start = make([]json.RawMessage, len(m.IDs))
	rules, n, err := m.Header.Rules()
	if err != nil {
		return nil, fmt.Errorf("%s case %s: moves: %w", g.name(), c.ID, err)
	}
	s, err := paperio.NewState(rules, n)
	if err != nil {
		return nil, err
	}
	var sh paperShown
	frames := []paperFrame{sh.frame(s, 0, "", true)}
	spawns := m.Spawns
	for _, line := range m.Ticks {
		if s.Over() {
			break
		}
		if len(line) != n {
			return nil, fmt.Errorf("%s case %s: tick %d has %d commands for %d players", g.name(), c.ID, s.Tick, len(line), n)
		}
		var cmds paperio.Commands
		for k := range n {
			cmds[k] = letterDir(line[k])
		}
		t := s.Tick
		s.Step(&cmds)
		for len(spawns) > 0 && spawns[0][0] == t {
			sp := spawns[0]
			spawns = spawns[1:]
			cell, ok := paperio.CellOf(sp[2], sp[3])
			if !ok {
				return nil, fmt.Errorf("%s case %s: tick %d: spawn at (%d, %d) is not a cell centre", g.name(), c.ID, t, sp[2], sp[3])
			}
			if err := s.AddBonus(paperio.MapBonus{Kind: paperio.BonusKind(sp[1]), Cell: cell, Active: int32(sp[4])}); err != nil {
				return nil, fmt.Errorf("%s case %s: tick %d: %w", g.name(), c.ID, t, err)
			}
		}
		s.EndTick()
		frames = append(frames, sh.frame(s, t, line, false))
	}
	replayed := make([]int, len(m.IDs))
	for seat, id := range m.IDs {
		replayed[seat] = s.Players[id-1].Score
	}
	colours := []string{"#d6402f", "#2f7fd6", "#3fae49", "#b049c9", "#e98b2a", "#2bb5b0"}
	seatColour := make([]string, len(m.IDs))
	for seat, id := range m.IDs {
		seatColour[seat] = colours[id-1]
	}
	r := &contract.Replay{Game: g.name(), Case: c.ID, Seats: seats, Frames: frames, Count: len(frames),
		Setup: map[string]any{"colours": seatColour, "ids": m.IDs, "players": n, "cols": paperio.Cols, "width": paperio.Width,
			"playerColours": colours[:n], "bonusNames": []string{"nitro", "slowdown", "saw"}, "dirs": []string{"", "up", "down", "left", "right"}}}
	if err := finalScores(r, out, replayed); err != nil {
		return nil, err
	}
	r.Title = fmt.Sprintf("Paper.io %s: %s", c.ID, vsTitle(seats))
	return r, nil
}

func (paperioGame) Renderer() string { return paperioRenderer }
