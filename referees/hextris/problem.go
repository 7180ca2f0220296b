package hextris

import (
	"fmt"
	"slices"
)

// Limits on problems accepted by NewProblem and ParseProblem. The official
// problems are far inside them; they keep a hostile file from exhausting
// memory.
const (
	MaxSide  = 1 << 14 // largest width or height
	MaxCells = 1 << 22 // largest width*height
	MaxCoord = 1 << 16 // largest |x| or |y| of a unit member or pivot
)

// Unit is a unit as the problem file gives it: member cells and a pivot.
// The pivot need not be a member and may lie outside the board.
type Unit struct {
	Members []Cell `json:"members"`
	Pivot   Cell   `json:"pivot"`
}

// Problem is one problem: a board, its initially filled cells, the units,
// the source length and the official seeds. Create one with ParseProblem,
// NewProblem or Official; the exported fields must not be modified after.
type Problem struct {
	ID           int
	Width        int
	Height       int
	Filled       []Cell
	Units        []Unit
	SourceLength int
	SourceSeeds  []uint32

	raw     []byte     // the file it was parsed from, if any
	units   []unitInfo // per unit: spawn, rotations, shapes
	chunks  []chunk    // bit masks of all shapes
	offsets []offset   // member offsets of all shapes
	stride  int        // board words per row: 1 if Width <= 64, else ceil(Width/64)+1 (a zero word)
	histOff int32      // added to a pivot X to index the history bitset
	histLen int        // words of the history bitset
}

// Position is a placement of a unit: its pivot and its rotation index.
// Two positions of the same unit are equal iff pivot and rotation index are
// equal, which is iff pivot and member set are equal: rotation indexes run
// over the unit's distinct rotations only (Problem.Rotations).
type Position struct {
	X, Y int32 // pivot cell
	Rot  uint8 // rotation index, 0 <= Rot < Rotations(unit); 0 is the spawn orientation
}

type offset struct{ dx, dy int32 }

// chunk is up to 64 member cells of one row of a shape: bit i of mask is the
// cell (pivot.X+dx+i, pivot.Y+dy); off is dy*stride, the row's word offset.
type chunk struct {
	dx, dy int32
	off    int32
	mask   uint64
}

// shape is a unit in one rotation, for a pivot on a row of one parity, as
// offsets from the pivot in offset coordinates.
type shape struct {
	minX, maxX, minY, maxY int32 // bounds of the member offsets
	c0, c1                 int32 // chunks[c0:c1]
	m0, m1                 int32 // offsets[m0:m1], distinct members
}

type unitInfo struct {
	size   int32     // number of members as listed (scoring uses it)
	nrot   uint8     // distinct rotations: 1, 2, 3 or 6
	spawn  Position  // centred spawn position
	shapes [12]shape // index rot*2 + parity of the pivot row
}

// NewProblem validates a problem and precomputes what the engine needs. The
// slices are kept (not copied) and must not be modified afterwards.
func NewProblem(id, width, height int, filled []Cell, units []Unit, sourceLength int, sourceSeeds []uint32) (*Problem, error) {
	p := &Problem{ID: id, Width: width, Height: height, Filled: filled, Units: units,
		SourceLength: sourceLength, SourceSeeds: sourceSeeds}
	if err := p.compile(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Problem) compile() error {
	if p.Width < 1 || p.Width > MaxSide {
		return fmt.Errorf("problem %d: width: must be in [1, %d], got %d", p.ID, MaxSide, p.Width)
	}
	if p.Height < 1 || p.Height > MaxSide {
		return fmt.Errorf("problem %d: height: must be in [1, %d], got %d", p.ID, MaxSide, p.Height)
	}
	if p.Width*p.Height > MaxCells {
		return fmt.Errorf("problem %d: width*height: must be at most %d, got %dx%d", p.ID, MaxCells, p.Width, p.Height)
	}
	if p.SourceLength < 0 || p.SourceLength > 1<<30 {
		return fmt.Errorf("problem %d: sourceLength: must be in [0, %d], got %d", p.ID, 1<<30, p.SourceLength)
	}
	if len(p.Units) == 0 {
		return fmt.Errorf("problem %d: units: none (a problem needs at least one unit to play)", p.ID)
	}
	for i, c := range p.Filled {
		if c.X < 0 || c.X >= p.Width || c.Y < 0 || c.Y >= p.Height {
			return fmt.Errorf("problem %d: filled[%d]: cell (%d,%d) is outside the %dx%d board", p.ID, i, c.X, c.Y, p.Width, p.Height)
		}
	}
	p.stride = 1
	if p.Width > 64 {
		p.stride = (p.Width+63)/64 + 1
	}
	p.units = make([]unitInfo, len(p.Units))
	p.chunks, p.offsets = nil, nil
	lo, hi := int32(1<<30), int32(-1<<30)
	for i := range p.Units {
		if err := p.compileUnit(i); err != nil {
			return err
		}
		u := &p.units[i]
		for s := 0; s < 2*int(u.nrot); s++ {
			sh := &u.shapes[s]
			lo = min(lo, -sh.minX)
			hi = max(hi, int32(p.Width)-1-sh.maxX)
		}
	}
	slots := 1
	if hi >= lo {
		slots = int(hi-lo) + 1
		p.histOff = -lo
	}
	p.histLen = (slots*6 + 63) / 64
	return nil
}

func (p *Problem) compileUnit(i int) error {
	u := p.Units[i]
	if len(u.Members) == 0 {
		return fmt.Errorf("problem %d: units[%d].members: a unit needs at least one member", p.ID, i)
	}
	bad := func(c Cell) bool { return c.X < -MaxCoord || c.X > MaxCoord || c.Y < -MaxCoord || c.Y > MaxCoord }
	if bad(u.Pivot) {
		return fmt.Errorf("problem %d: units[%d].pivot: coordinate out of range [-%d, %d]", p.ID, i, MaxCoord, MaxCoord)
	}
	mx, my := u.Members[0].X, u.Members[0].Y
	for j, m := range u.Members {
		if bad(m) {
			return fmt.Errorf("problem %d: units[%d].members[%d]: coordinate out of range [-%d, %d]", p.ID, i, j, MaxCoord, MaxCoord)
		}
		mx, my = min(mx, m.X), min(my, m.Y)
	}
	// Normalise by plain coordinate subtraction, then centre on the top row
	// rounding to the left.
	w := 0
	for _, m := range u.Members {
		w = max(w, m.X-mx+1)
	}
	left := floorDiv(p.Width-w, 2)
	pivot := Cell{u.Pivot.X - mx + left, u.Pivot.Y - my}
	pq, pr := axial(pivot)
	// Distinct axial offsets from the pivot, sorted: the canonical member set.
	rel := make([][2]int, 0, len(u.Members))
	for _, m := range u.Members {
		q, r := axial(Cell{m.X - mx + left, m.Y - my})
		rel = append(rel, [2]int{q - pq, r - pr})
	}
	canon := func(s [][2]int) [][2]int {
		slices.SortFunc(s, func(a, b [2]int) int {
			if a[1] != b[1] {
				return a[1] - b[1]
			}
			return a[0] - b[0]
		})
		return slices.Compact(s)
	}
	rel = canon(rel)
	rots := [6][][2]int{rel}
	for k := 1; k < 6; k++ {
		next := make([][2]int, len(rel))
		for j, o := range rots[k-1] {
			next[j][0], next[j][1] = rotateCW(o[0], o[1])
		}
		rots[k] = canon(next)
	}
	nrot := 6
	for _, k := range []int{1, 2, 3} {
		if slices.Equal(rots[k], rel) {
			nrot = k
			break
		}
	}
	ui := &p.units[i]
	ui.size = int32(len(u.Members))
	ui.nrot = uint8(nrot)
	ui.spawn = Position{X: int32(pivot.X), Y: int32(pivot.Y)}
	for r := 0; r < nrot; r++ {
		for par := 0; par < 2; par++ {
			ui.shapes[r*2+par] = p.addShape(rots[r], par)
		}
	}
	return nil
}

// addShape stores the offsets and row chunks of one rotation for a pivot on
// a row of parity par.
func (p *Problem) addShape(rel [][2]int, par int) shape {
	sh := shape{minX: 1 << 30, maxX: -1 << 30, minY: 1 << 30, maxY: -1 << 30}
	sh.m0 = int32(len(p.offsets))
	for _, o := range rel {
		dx, dy := int32(o[0]+floorDiv(par+o[1], 2)), int32(o[1])
		p.offsets = append(p.offsets, offset{dx, dy})
		sh.minX, sh.maxX = min(sh.minX, dx), max(sh.maxX, dx)
		sh.minY, sh.maxY = min(sh.minY, dy), max(sh.maxY, dy)
	}
	sh.m1 = int32(len(p.offsets))
	// rel is sorted by row then column, so each row's cells are consecutive
	// and ascending: cut them into chunks of at most 64 columns.
	sh.c0 = int32(len(p.chunks))
	for _, o := range p.offsets[sh.m0:sh.m1] {
		n := len(p.chunks)
		if n > int(sh.c0) {
			last := &p.chunks[n-1]
			if last.dy == o.dy && o.dx-last.dx < 64 {
				last.mask |= 1 << uint(o.dx-last.dx)
				continue
			}
		}
		p.chunks = append(p.chunks, chunk{dx: o.dx, dy: o.dy, off: o.dy * int32(p.stride), mask: 1})
	}
	sh.c1 = int32(len(p.chunks))
	return sh
}

// Rotations returns the number of distinct rotations of unit i (1, 2, 3 or
// 6): rotating a symmetric unit onto its own cells gives the same position.
func (p *Problem) Rotations(i int) int { return int(p.units[i].nrot) }

// Size returns the number of members of unit i as listed (the lock points).
func (p *Problem) Size(i int) int { return int(p.units[i].size) }

// Spawn returns the spawn position of unit i: normalised and centred on the
// top row. It may be invalid on a given board (spawn-blocked).
func (p *Problem) Spawn(i int) Position { return p.units[i].spawn }

// Cells appends the member cells of unit i at pos to buf.
func (p *Problem) Cells(i int, pos Position, buf []Cell) []Cell {
	sh := &p.units[i].shapes[int(pos.Rot)*2+int(pos.Y&1)]
	for _, o := range p.offsets[sh.m0:sh.m1] {
		buf = append(buf, Cell{int(pos.X + o.dx), int(pos.Y + o.dy)})
	}
	return buf
}

// Next returns the position that command c gives from pos for unit i,
// without looking at any board.
func (p *Problem) Next(i int, pos Position, c Command) Position {
	switch c {
	case MoveW:
		pos.X--
	case MoveE:
		pos.X++
	case MoveSW:
		pos.X += pos.Y&1 - 1
		pos.Y++
	case MoveSE:
		pos.X += pos.Y & 1
		pos.Y++
	case RotCW:
		pos.Rot++
		if pos.Rot == p.units[i].nrot {
			pos.Rot = 0
		}
	case RotCCW:
		if pos.Rot == 0 {
			pos.Rot = p.units[i].nrot
		}
		pos.Rot--
	}
	return pos
}

// HasSeed reports whether seed is one of the problem's sourceSeeds.
func (p *Problem) HasSeed(seed uint32) bool { return slices.Contains(p.SourceSeeds, seed) }
