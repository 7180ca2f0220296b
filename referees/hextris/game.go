package hextris

// EndState says whether a game is running and, if not, why it ended.
type EndState uint8

// The end states.
const (
	Playing         EndState = iota // a unit is live
	SourceExhausted                 // a lock used up the last unit of the source
	SpawnBlocked                    // the next unit could not be placed
)

var endStateNames = [...]string{"playing", "source-exhausted", "spawn-blocked"}

// String returns the replay contract's name ("playing", "source-exhausted",
// "spawn-blocked").
func (e EndState) String() string {
	if int(e) < len(endStateNames) {
		return endStateNames[e]
	}
	return "end-state(?)"
}

// StepResult is what one command did.
type StepResult uint8

// The step results.
const (
	StepMoved    StepResult = iota // the unit moved or turned
	StepLocked                     // the unit locked and the next one spawned
	StepEnded                      // the unit locked and the game ended
	StepRepeated                   // repeated-position error: nothing changed
	StepOver                       // the game had already ended: nothing changed
)

// Game is the state of one game: the board as bit rows, the live unit and
// the history of its positions since its last SW/SE move, the random
// source, and the score so far. It is reusable: Reset starts a new game
// without allocating once the buffers are large enough. A Game must not be
// used from several goroutines at once.
type Game struct {
	p      *Problem
	stride int      // words per board row (Problem.stride)
	rows   []uint64 // Height*stride words; bit x of row y is cell (x, y)
	full   []uint64 // stride words: the pattern of a full row
	top    int32    // rows above top are empty

	hist           []uint64 // positions of the live unit since its last SW/SE move
	histLo, histHi int      // words of hist that may be non-zero

	unit int32 // index into Problem.Units of the live unit, -1 when none
	pos  Position
	rng  LCG

	taken     int   // units taken from the source, the live one included
	moveScore int64 // sum of lock points
	lastLines int   // lines cleared by the previous lock (ls_old)
	locked    int
	moves     int
	end       EndState
}

// NewGame returns a game of p with the given seed, ready to play.
func NewGame(p *Problem, seed uint32) *Game {
	g := &Game{}
	g.Reset(p, seed)
	return g
}

// Reset starts a new game of p with the given seed: the initial board, and
// the first unit of the source spawned (or the game already over if the
// source is empty or the first spawn is blocked).
func (g *Game) Reset(p *Problem, seed uint32) {
	g.p = p
	g.stride = p.stride
	g.rows = grow(g.rows, p.Height*g.stride)
	clear(g.rows)
	g.full = grow(g.full, g.stride)
	clear(g.full)
	for x := 0; x < p.Width; x++ {
		g.full[x>>6] |= 1 << uint(x&63)
	}
	g.top = int32(p.Height)
	for _, c := range p.Filled {
		g.rows[c.Y*g.stride+c.X>>6] |= 1 << uint(c.X&63)
		g.top = min(g.top, int32(c.Y))
	}
	g.hist = grow(g.hist, p.histLen)
	clear(g.hist)
	g.histLo, g.histHi = len(g.hist), 0
	g.rng = NewLCG(seed)
	g.taken, g.moveScore, g.lastLines, g.locked, g.moves = 0, 0, 0, 0, 0
	g.end = Playing
	g.spawn()
}

func grow(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

// CopyFrom makes g an independent copy of src (copy-make for search). It
// allocates only when g's buffers are too small.
func (g *Game) CopyFrom(src *Game) {
	rows, full, hist := g.rows, g.full, g.hist
	*g = *src
	g.rows = append(rows[:0], src.rows...)
	g.full = append(full[:0], src.full...)
	g.hist = append(hist[:0], src.hist...)
}

// spawn takes the next unit from the source and places it.
func (g *Game) spawn() {
	g.unit = -1
	if g.taken >= g.p.SourceLength || len(g.p.units) == 0 {
		g.end = SourceExhausted
		return
	}
	idx := int32(g.rng.Next() % uint32(len(g.p.units)))
	g.taken++
	u := &g.p.units[idx]
	if !g.fits(u, u.spawn) {
		g.end = SpawnBlocked
		return
	}
	g.unit = idx
	g.pos = u.spawn
	g.clearHist()
	g.mark(u.spawn)
}

// fits reports whether every member of unit u at pos is on the board and on
// an empty cell.
func (g *Game) fits(u *unitInfo, pos Position) bool {
	sh := &u.shapes[int(pos.Rot)*2+int(pos.Y&1)]
	if pos.X+sh.minX < 0 || pos.X+sh.maxX >= int32(g.p.Width) ||
		pos.Y+sh.minY < 0 || pos.Y+sh.maxY >= int32(g.p.Height) {
		return false
	}
	if pos.Y+sh.maxY < g.top {
		return true // clear of every filled row
	}
	rows, base := g.rows, int(pos.Y)*g.stride
	chunks := g.p.chunks[sh.c0:sh.c1]
	if g.stride == 1 {
		for _, c := range chunks {
			if rows[base+int(c.off)]&(c.mask<<uint(pos.X+c.dx)) != 0 {
				return false
			}
		}
		return true
	}
	for _, c := range chunks {
		x := int(pos.X + c.dx)
		s := uint(x & 63)
		i := base + int(c.off) + x>>6
		if rows[i]&(c.mask<<s)|rows[i+1]&(c.mask>>(64-s)) != 0 {
			return false
		}
	}
	return true
}

func (g *Game) histBit(pos Position) (int, uint64) {
	idx := int(pos.X+g.p.histOff)*6 + int(pos.Rot)
	return idx >> 6, 1 << uint(idx&63)
}

func (g *Game) mark(pos Position) {
	w, bit := g.histBit(pos)
	g.hist[w] |= bit
	g.histLo = min(g.histLo, w)
	g.histHi = max(g.histHi, w+1)
}

func (g *Game) clearHist() {
	if g.histLo < g.histHi {
		clear(g.hist[g.histLo:g.histHi])
	}
	g.histLo, g.histHi = len(g.hist), 0
}

// Step executes one command. If the candidate position is invalid the unit
// locks where it is (lines clear, points are scored, the next unit spawns).
// A valid SW or SE move resets the history; a valid E, W, CW or CCW move
// onto a position already in the history is a repeated-position error and
// changes nothing. Every command that does not return StepRepeated or
// StepOver counts as an executed move.
func (g *Game) Step(c Command) StepResult {
	if g.unit < 0 {
		return StepOver
	}
	u := &g.p.units[g.unit]
	np := g.pos
	par := np.Y & 1
	np.X += stepDX[c][par]
	np.Y += stepDY[c]
	np.Rot = rotNext[u.nrot][np.Rot][c]
	if !g.fits(u, np) {
		g.moves++
		g.lock(u)
		if g.unit < 0 {
			return StepEnded
		}
		return StepLocked
	}
	if c == MoveSW || c == MoveSE {
		g.clearHist()
	} else {
		w, bit := g.histBit(np)
		if g.hist[w]&bit != 0 {
			return StepRepeated
		}
	}
	g.mark(np)
	g.pos = np
	g.moves++
	return StepMoved
}

// lock fixes the live unit on the board, clears full rows, scores, and
// spawns the next unit.
func (g *Game) lock(u *unitInfo) {
	pos := g.pos
	sh := &u.shapes[int(pos.Rot)*2+int(pos.Y&1)]
	rows, base := g.rows, int(pos.Y)*g.stride
	for _, c := range g.p.chunks[sh.c0:sh.c1] {
		x := int(pos.X + c.dx)
		s := uint(x & 63)
		i := base + int(c.off) + x>>6
		rows[i] |= c.mask << s
		if g.stride > 1 {
			rows[i+1] |= c.mask >> (64 - s)
		}
	}
	y0, y1 := int(pos.Y+sh.minY), int(pos.Y+sh.maxY)
	g.top = min(g.top, int32(y0))
	ls := 0
	for y := y0; y <= y1; y++ {
		if g.rowFull(y) {
			ls++
		}
	}
	if ls > 0 {
		g.clearLines(y0, y1, ls)
	}
	points := int64(u.size) + 100*int64((1+ls)*ls/2)
	if g.lastLines > 1 {
		points += int64(g.lastLines-1) * points / 10
	}
	g.moveScore += points
	g.lastLines = ls
	g.locked++
	g.spawn()
}

func (g *Game) rowFull(y int) bool {
	row := g.rows[y*g.stride : (y+1)*g.stride]
	for i, w := range g.full {
		if row[i] != w {
			return false
		}
	}
	return true
}

// clearLines removes the ls full rows, all within [y0, y1], moving the rows
// above down and adding empty rows at the top.
func (g *Game) clearLines(y0, y1, ls int) {
	st := g.stride
	dst := y1
	for y := y1; y >= y0; y-- {
		if g.rowFull(y) {
			continue
		}
		if dst != y {
			copy(g.rows[dst*st:(dst+1)*st], g.rows[y*st:(y+1)*st])
		}
		dst--
	}
	// Rows [0, y0) move down by ls, to end at dst.
	copy(g.rows[ls*st:(dst+1)*st], g.rows[:y0*st])
	clear(g.rows[:ls*st])
	// Rows [0, top) were empty (top <= y0 here) and moved down by ls below
	// ls new empty rows: rows [0, top+ls) are empty.
	y := int(g.top) + ls
	for y < g.p.Height && g.rowEmpty(y) {
		y++
	}
	g.top = int32(y)
}

func (g *Game) rowEmpty(y int) bool {
	for _, w := range g.rows[y*g.stride : (y+1)*g.stride] {
		if w != 0 {
			return false
		}
	}
	return true
}

// Problem returns the problem being played.
func (g *Game) Problem() *Problem { return g.p }

// Width returns the board width.
func (g *Game) Width() int { return g.p.Width }

// Height returns the board height.
func (g *Game) Height() int { return g.p.Height }

// Filled reports whether cell (x, y) is filled (locked or initially filled);
// cells off the board count as filled. The live unit is not included.
func (g *Game) Filled(x, y int) bool {
	if x < 0 || x >= g.p.Width || y < 0 || y >= g.p.Height {
		return true
	}
	return g.rows[y*g.stride+x>>6]&(1<<uint(x&63)) != 0
}

// Row returns the bit words of row y (bit x is cell x; words past the board
// width are zero). The slice aliases the board: read it, do not keep it.
func (g *Game) Row(y int) []uint64 { return g.rows[y*g.stride : (y+1)*g.stride : (y+1)*g.stride] }

// Live returns the live unit (an index into Problem.Units) and its
// position; ok is false when the game has ended.
func (g *Game) Live() (unit int, pos Position, ok bool) {
	if g.unit < 0 {
		return -1, Position{}, false
	}
	return int(g.unit), g.pos, true
}

// Fits reports whether unit at pos would be valid on the current board.
func (g *Game) Fits(unit int, pos Position) bool { return g.fits(&g.p.units[unit], pos) }

// Visited reports whether pos is in the live unit's history, i.e. whether
// moving onto it with E, W, CW or CCW would be a repeated-position error.
func (g *Game) Visited(pos Position) bool {
	if g.unit < 0 || pos.Y != g.pos.Y {
		return false
	}
	idx := int(pos.X+g.p.histOff)*6 + int(pos.Rot)
	if idx < 0 || idx>>6 >= len(g.hist) {
		return false
	}
	return g.hist[idx>>6]&(1<<uint(idx&63)) != 0
}

// SourceIndex returns the index in the source of the live unit (0 for the
// first), or the number of units taken when the game has ended.
func (g *Game) SourceIndex() int {
	if g.unit < 0 {
		return g.taken
	}
	return g.taken - 1
}

// SourceLeft returns the number of units still to come after the live one.
func (g *Game) SourceLeft() int { return g.p.SourceLength - g.taken }

// MoveScore returns the sum of lock points so far.
func (g *Game) MoveScore() int64 { return g.moveScore }

// LastLines returns the lines cleared by the latest lock (ls_old).
func (g *Game) LastLines() int { return g.lastLines }

// UnitsLocked returns the number of locks so far.
func (g *Game) UnitsLocked() int { return g.locked }

// Moves returns the number of commands executed so far.
func (g *Game) Moves() int { return g.moves }

// End returns Playing while a unit is live, otherwise why the game ended.
func (g *Game) End() EndState { return g.end }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.unit < 0 }

// BoardStrings draws the board, one string per row, top row first: '.'
// empty, '#' filled, 'u' a cell of the live unit. Odd rows are not indented.
func (g *Game) BoardStrings() []string {
	w, h := g.p.Width, g.p.Height
	buf := make([]byte, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if g.rows[y*g.stride+x>>6]&(1<<uint(x&63)) != 0 {
				buf[y*w+x] = '#'
			} else {
				buf[y*w+x] = '.'
			}
		}
	}
	if g.unit >= 0 {
		sh := &g.p.units[g.unit].shapes[int(g.pos.Rot)*2+int(g.pos.Y&1)]
		for _, o := range g.p.offsets[sh.m0:sh.m1] {
			buf[int(g.pos.Y+o.dy)*w+int(g.pos.X+o.dx)] = 'u'
		}
	}
	all := string(buf)
	out := make([]string, h)
	for y := range out {
		out[y] = all[y*w : (y+1)*w]
	}
	return out
}

// stepDX and stepDY move a pivot by a command (by the parity of its row);
// rotNext[n][r][c] is the rotation index after command c from index r of a
// unit with n distinct rotations.
var (
	stepDX = [NumCommands][2]int32{MoveW: {-1, -1}, MoveE: {1, 1}, MoveSW: {-1, 0}, MoveSE: {0, 1}}
	stepDY = [NumCommands]int32{MoveSW: 1, MoveSE: 1}

	rotNext = func() (t [7][6][NumCommands]uint8) {
		for n := 1; n <= 6; n++ {
			for r := 0; r < 6; r++ {
				for c := range NumCommands {
					t[n][r][c] = uint8(r)
				}
				t[n][r][RotCW] = uint8((r + 1) % n)
				t[n][r][RotCCW] = uint8((r + n - 1) % n)
			}
		}
		return t
	}()
)
