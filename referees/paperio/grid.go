package paperio

import "math/bits"

// Map geometry. The grid is fixed at the official 31×31 cells of 30 px;
// pixel coordinates have their origin at the bottom-left corner, "up" is +y.
const (
	Cols     = 31           // cells along x
	Rows     = 31           // cells along y
	NumCells = Cols * Rows  // 961
	Width    = 30           // cell size in pixels (WIDTH)
	Half     = Width / 2    // offset of a cell centre inside its cell
	MapSize  = Cols * Width // 930 px
	rowMask  = 1<<Cols - 1  // the valid bits of a Bits row
	maxTrail = NumCells + 1 // a trail holds distinct cells plus the fatal repeat
)

// Cell is a cell index j*Cols+i (i = column along x, j = row along y).
// NoCell marks "none".
type Cell int16

// NoCell is the absent cell.
const NoCell Cell = -1

// CellAt returns the cell in column i, row j (both 0..30).
func CellAt(i, j int) Cell { return Cell(j*Cols + i) }

// CellOf returns the cell whose centre is the pixel point (x, y); ok is false
// when (x, y) is not a cell centre inside the map.
func CellOf(x, y int) (c Cell, ok bool) {
	if !AtCentre(x, y) || x < 0 || y < 0 || x >= MapSize || y >= MapSize {
		return NoCell, false
	}
	return CellAt(x/Width, y/Width), true
}

// I is the cell's column (0..30).
func (c Cell) I() int { return int(c) % Cols }

// J is the cell's row (0..30).
func (c Cell) J() int { return int(c) / Cols }

// X is the pixel x of the cell centre.
func (c Cell) X() int { return c.I()*Width + Half }

// Y is the pixel y of the cell centre.
func (c Cell) Y() int { return c.J()*Width + Half }

// Step returns the 4-neighbour in direction d; ok is false off the map or for
// DirNone.
func (c Cell) Step(d Dir) (Cell, bool) {
	if c < 0 || c >= NumCells {
		return NoCell, false
	}
	i, j := c.I(), c.J()
	switch d {
	case Up:
		j++
	case Down:
		j--
	case Left:
		i--
	case Right:
		i++
	default:
		return NoCell, false
	}
	if i < 0 || j < 0 || i >= Cols || j >= Rows {
		return NoCell, false
	}
	return CellAt(i, j), true
}

// AtCentre reports whether the pixel point (x, y) is a cell centre (the only
// places where a player is asked for a command).
func AtCentre(x, y int) bool { return pmod(x-Half, Width) == 0 && pmod(y-Half, Width) == 0 }

func pmod(a, m int) int {
	r := a % m
	if r < 0 {
		r += m
	}
	return r
}

// Neighbour order used everywhere by the referee: up, left, down, right,
// up-right, up-left, down-right, down-left.
var nbDI = [8]int8{0, -1, 0, 1, 1, -1, 1, -1}
var nbDJ = [8]int8{1, 0, -1, 0, 1, 1, -1, -1}

// neighbours8 fills out with the in-map 8-neighbours of c in referee order
// and returns how many there are.
func neighbours8(c Cell, out *[8]Cell) int {
	i, j := c.I(), c.J()
	n := 0
	for k := 0; k < 8; k++ {
		ni, nj := i+int(nbDI[k]), j+int(nbDJ[k])
		if ni < 0 || nj < 0 || ni >= Cols || nj >= Rows {
			continue
		}
		out[n] = CellAt(ni, nj)
		n++
	}
	return n
}

// adjacent4 reports whether a and b share a side.
func adjacent4(a, b Cell) bool {
	di := a.I() - b.I()
	dj := a.J() - b.J()
	return (di == 0 && (dj == 1 || dj == -1)) || (dj == 0 && (di == 1 || di == -1))
}

// Bits is a set of cells: row j is word j, column i is bit i. It is a plain
// value (124 bytes); copying it copies the set.
type Bits [Rows]uint32

// Has reports whether c is in the set.
func (b *Bits) Has(c Cell) bool { return b[c/Cols]>>(uint(c)%Cols)&1 != 0 }

// Set adds c.
func (b *Bits) Set(c Cell) { b[c/Cols] |= 1 << (uint(c) % Cols) }

// Clear removes c.
func (b *Bits) Clear(c Cell) { b[c/Cols] &^= 1 << (uint(c) % Cols) }

// Count is the number of cells in the set.
func (b *Bits) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount32(w)
	}
	return n
}

// Empty reports whether the set has no cell.
func (b *Bits) Empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// Or adds every cell of o.
func (b *Bits) Or(o *Bits) {
	for j := range b {
		b[j] |= o[j]
	}
}

// AndNot removes every cell of o.
func (b *Bits) AndNot(o *Bits) {
	for j := range b {
		b[j] &^= o[j]
	}
}

// Intersects reports whether b and o share a cell.
func (b *Bits) Intersects(o *Bits) bool {
	for j := range b {
		if b[j]&o[j] != 0 {
			return true
		}
	}
	return false
}

// Boundary returns the cells of b having at least one 8-neighbour outside b
// (cells off the map count as outside).
func (b *Bits) Boundary() Bits {
	var out Bits
	for j := 0; j < Rows; j++ {
		row := b[j]
		if row == 0 {
			continue
		}
		var up, down uint32
		if j+1 < Rows {
			up = b[j+1]
		}
		if j > 0 {
			down = b[j-1]
		}
		in := row & (row << 1) & (row >> 1)
		in &= up & (up << 1) & (up >> 1)
		in &= down & (down << 1) & (down >> 1)
		out[j] = row &^ in
	}
	return out
}

// AppendCells appends the cells of b sorted by x then y (column-major), the
// order of the trace hash.
func (b *Bits) AppendCells(dst []Cell) []Cell {
	for i := 0; i < Cols; i++ {
		for j := 0; j < Rows; j++ {
			if b[j]>>uint(i)&1 != 0 {
				dst = append(dst, CellAt(i, j))
			}
		}
	}
	return dst
}

func popcount(w uint32) int { return bits.OnesCount32(w) }
