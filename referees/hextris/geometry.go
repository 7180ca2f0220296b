package hextris

// Cell is a board cell in offset coordinates: X is the column, Y the row
// (row 0 is the top). Odd rows are drawn shifted half a cell to the right.
type Cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// floorDiv is integer division rounding towards minus infinity (Haskell's div).
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// axial converts offset coordinates ("odd-r") to axial coordinates (q, r).
func axial(c Cell) (q, r int) { return c.X - floorDiv(c.Y, 2), c.Y }

// fromAxial converts axial coordinates back to offset coordinates.
func fromAxial(q, r int) Cell { return Cell{q + floorDiv(r, 2), r} }

// rotateCW turns an axial offset from the pivot by 60 degrees clockwise
// (E -> SE -> SW -> W -> NW -> NE -> E).
func rotateCW(dq, dr int) (int, int) { return -dr, dq + dr }

// rotateCCW turns an axial offset from the pivot by 60 degrees
// counter-clockwise.
func rotateCCW(dq, dr int) (int, int) { return dq + dr, -dq }

// Neighbour returns the cell one step from c in direction d (a move command:
// MoveW, MoveE, MoveSW or MoveSE). Parity is that of c's row, also for
// negative rows. Rotations return c unchanged.
func Neighbour(c Cell, d Command) Cell {
	odd := c.Y & 1
	switch d {
	case MoveW:
		return Cell{c.X - 1, c.Y}
	case MoveE:
		return Cell{c.X + 1, c.Y}
	case MoveSW:
		return Cell{c.X - 1 + odd, c.Y + 1}
	case MoveSE:
		return Cell{c.X + odd, c.Y + 1}
	}
	return c
}

// Rotate turns member m about pivot by 60 degrees: clockwise when cw is
// true, counter-clockwise otherwise. The pivot stays put.
func Rotate(m, pivot Cell, cw bool) Cell {
	mq, mr := axial(m)
	pq, pr := axial(pivot)
	dq, dr := mq-pq, mr-pr
	if cw {
		dq, dr = rotateCW(dq, dr)
	} else {
		dq, dr = rotateCCW(dq, dr)
	}
	return fromAxial(pq+dq, pr+dr)
}
