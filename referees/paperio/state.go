package paperio

import (
	"fmt"
	"strings"
)

// Held is a bonus a player carries. Durations count cells: Tick goes up by
// one at every cell centre the player reaches.
type Held struct {
	Kind   BonusKind
	Active int32 // active_ticks (saw: 0)
	Tick   int32 // cells counted so far
}

// Remaining is active_ticks - tick, the figure the bots and traces show.
func (h Held) Remaining() int { return int(h.Active - h.Tick) }

// MapBonus is a bonus lying on the map at a cell centre.
type MapBonus struct {
	Kind   BonusKind
	Cell   Cell
	Active int32 // active_ticks it will give
}

// Cause is a set of reasons a player lost (a player can collect several in
// one tick).
type Cause uint8

// Loss causes, named as the referee's events.
const (
	CauseBorder      Cause = 1 << iota // faced the border
	CauseLineCrossed                   // line crossed by other player
	CauseFaced                         // faced with other player
	CauseNoTerritory                   // has no territory
	CauseEaten                         // eaten by other player
	CauseSaw                           // killed by saw
)

var causeNames = [...]string{"faced the border", "line crossed by other player", "faced with other player",
	"has no territory", "eaten by other player", "killed by saw"}

// String joins the referee's event names of the causes ("" for none).
func (c Cause) String() string {
	var parts []string
	for i, n := range causeNames {
		if c&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "; ")
}

// Player is one player's full state. It is a plain value.
type Player struct {
	ID    int  // 1..N
	Alive bool // false once removed (its fields then stay as they were at the end of that tick)
	X, Y  int  // pixel position
	Dir   Dir
	Speed int
	Score int
	Terr  Bits // territory
	// Lines is the trail in order (Lines[:NLines]); TrailBits holds the same
	// cells as a set.
	Lines     [maxTrail]Cell
	NLines    int
	TrailBits Bits
	Held      [maxHeld]Held // held bonuses in order (Held[:NHeld])
	NHeld     int
	Death     Cause // why it lost (0 while alive)
	DeathTick int   // the tick it lost on (0 while alive)

	tickScore int
}

// Trail returns the trail cells in order (a view into the player).
func (p *Player) Trail() []Cell { return p.Lines[:p.NLines] }

// Bonuses returns the held bonuses in order (a view into the player).
func (p *Player) Bonuses() []Held { return p.Held[:p.NHeld] }

// AtCentre reports whether the player stands on a cell centre (and is then
// asked for a command).
func (p *Player) AtCentre() bool { return AtCentre(p.X, p.Y) }

// Cell is the cell whose centre the player stands on, or the last centre it
// passed (the cell it is leaving). Players off the map give NoCell.
func (p *Player) Cell() Cell {
	x, y := p.lastCentre()
	c, _ := CellOf(x, y)
	return c
}

// lastCentre is the last cell centre at or behind the player along its
// direction.
func (p *Player) lastCentre() (int, int) {
	x, y := p.X, p.Y
	switch p.Dir {
	case Right:
		x -= pmod(x-Half, Width)
	case Left:
		x += pmod(Half-x, Width)
	case Up:
		y -= pmod(y-Half, Width)
	case Down:
		y += pmod(Half-y, Width)
	}
	return x, y
}

// CanTurn reports whether d is a legal new direction: reversing is ignored by
// the referee, anything is legal before the first move.
func (p *Player) CanTurn(d Dir) bool {
	return d != DirNone && (p.Dir == DirNone || d != p.Dir.Reverse())
}

// Has reports whether the player holds a bonus of kind k.
func (p *Player) Has(k BonusKind) bool {
	for _, h := range p.Held[:p.NHeld] {
		if h.Kind == k {
			return true
		}
	}
	return false
}

// State is the whole game state after some ticks. It is a plain value:
// copying it (s2 := *s) gives an independent game that Advance can play on.
// The game's random generator is not part of it (see Game).
type State struct {
	Rules    Rules
	Tick     int // the next tick to process, starting at 1
	N        int // number of players
	Players  [MaxPlayers]Player
	Bonuses  [MaxMapBonuses]MapBonus // map bonuses in map order (Bonuses[:NBonuses])
	NBonuses int
	stop     uint8 // 0 running, 1 one more tick (local mode), 2 over
}

// StartCells are the official start cells (i, j) for 1..6 players.
var StartCells = [MaxPlayers + 1][][2]int{
	1: {{14, 14}},
	2: {{9, 14}, {19, 14}},
	3: {{9, 9}, {9, 19}, {19, 9}},
	4: {{9, 9}, {9, 19}, {19, 9}, {19, 19}},
	5: {{5, 8}, {5, 22}, {15, 25}, {15, 5}, {25, 8}},
	6: {{5, 8}, {5, 22}, {15, 25}, {15, 5}, {25, 8}, {25, 22}},
}

// NewState places n players (ids 1..n) at the official start cells, each
// with its 3×3 block of territory, no direction and base speed.
func NewState(rules Rules, n int) (*State, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if n < 1 || n > MaxPlayers {
		return nil, fmt.Errorf("players: %d (want 1 to %d)", n, MaxPlayers)
	}
	s := &State{Rules: rules, Tick: 1, N: n}
	for k := 0; k < n; k++ {
		st := StartCells[n][k]
		c := CellAt(st[0], st[1])
		p := &s.Players[k]
		p.ID = k + 1
		p.Alive = true
		p.X, p.Y = c.X(), c.Y()
		p.Speed = rules.Speed
		for dj := -1; dj <= 1; dj++ {
			for di := -1; di <= 1; di++ {
				p.Terr.Set(CellAt(st[0]+di, st[1]+dj))
			}
		}
	}
	return s, nil
}

// Live returns the number of players still in the game.
func (s *State) Live() int {
	n := 0
	for k := 0; k < s.N; k++ {
		if s.Players[k].Alive {
			n++
		}
	}
	return n
}

// Over reports whether the game has ended (no player left or the tick limit
// reached, with the local runner's extra tick in local mode).
func (s *State) Over() bool { return s.stop == 2 }

// Player returns the player with the given id (1..N), nil if there is none.
func (s *State) Player(id int) *Player {
	if id < 1 || id > s.N {
		return nil
	}
	return &s.Players[id-1]
}

// MapBonuses returns the map bonuses in map order (a view into the state).
func (s *State) MapBonuses() []MapBonus { return s.Bonuses[:s.NBonuses] }

// AddBonus appends a bonus to the map (as the spawn of step 12 does).
func (s *State) AddBonus(b MapBonus) error {
	if s.NBonuses >= MaxMapBonuses {
		return fmt.Errorf("too many map bonuses (at most %d)", MaxMapBonuses)
	}
	if b.Kind >= numBonusKinds || b.Cell < 0 || int(b.Cell) >= NumCells {
		return fmt.Errorf("bad bonus %v", b)
	}
	s.Bonuses[s.NBonuses] = b
	s.NBonuses++
	return nil
}

// removeBonus deletes map bonus i keeping the order.
func (s *State) removeBonus(i int) {
	copy(s.Bonuses[i:s.NBonuses], s.Bonuses[i+1:s.NBonuses])
	s.NBonuses--
}

// EndTick finishes the current tick (after Step and the bonus spawn): the
// tick counter advances and the end of the game is decided.
func (s *State) EndTick() {
	s.Tick++
	if s.stop == 1 {
		s.stop = 2
		return
	}
	if s.Live() == 0 || s.Tick >= s.Rules.MaxTickCount {
		if s.Rules.Mode == Local {
			s.stop = 1
		} else {
			s.stop = 2
		}
	}
}

// Advance plays one tick without bonus spawns: Step then EndTick. It is the
// cheap way for a search to play on a copy of the state.
func (s *State) Advance(cmds *Commands) {
	s.Step(cmds)
	s.EndTick()
}
