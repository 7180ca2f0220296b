package towers

import "fmt"

// none marks an empty column in State.top and the floor in State.below.
const none = 0xFF

// State is a position: for every block the block it stands on, and the top
// block of every column. It is a flat value (copy it with =). Which block
// stands on which determines the position up to the order of the columns,
// which does not matter to the game: Key hashes exactly that, so positions
// that differ only by the order of their columns share a key.
type State struct {
	below   [MaxBlocks]uint8  // the block under b, or none for the floor
	top     [MaxColumns]uint8 // the top block of each column, or none
	colours uint8
	ncols   uint8
	left    uint8  // blocks not on their final support
	bound   uint8  // the sum of the blocks' costs (see cost)
	key     uint64 // Zobrist hash of below
}

// Move moves the top run of column From onto column To (indices from 0).
type Move struct{ From, To uint8 }

func (m Move) String() string { return fmt.Sprintf("[%d,%d]", m.From, m.To) }

// zobrist[b][u] is the hash of block b standing on u (u = MaxBlocks: the
// floor). The numbers come from splitmix64 with a fixed seed, so keys are
// the same in every run.
var zobrist = func() (z [MaxBlocks][MaxBlocks + 1]uint64) {
	x := uint64(0x5a120f70e5)
	for b := range z {
		for u := range z[b] {
			x += 0x9e3779b97f4a7c15
			v := x
			v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
			v = (v ^ v>>27) * 0x94d049bb133111eb
			z[b][u] = v ^ v>>31
		}
	}
	return z
}()

func zob(b, under uint8) uint64 {
	if under == none {
		return zobrist[b][MaxBlocks]
	}
	return zobrist[b][under]
}

// final is the support block b stands on when the puzzle is solved: the
// next larger block of its colour, or the floor for a 6.
func final(b uint8) uint8 {
	if b%Sizes == Sizes-1 {
		return none
	}
	return b + 1
}

// glued reports whether block top, standing on under, belongs to under's
// run: the same colour and exactly one size smaller.
func glued(under, top uint8) bool { return under == top+1 && top%Sizes != Sizes-1 }

func (s *State) rehash() {
	s.key, s.left, s.bound = 0, 0, 0
	for b := range s.colours * Sizes {
		s.key ^= zob(b, s.below[b])
		if s.below[b] != final(b) {
			s.left++
		}
		s.bound += s.cost(b)
	}
}

// cost is the number of times block b's support must still change, at
// least: 0 on its final support; 2 when its final support is buried under
// it in its own column (b must leave the column before that block can be
// uncovered, and come back); 1 otherwise.
func (s *State) cost(b uint8) uint8 {
	f := final(b)
	u := s.below[b]
	if u == f {
		return 0
	}
	if f != none {
		for ; u != none; u = s.below[u] {
			if u == f {
				return 2
			}
		}
	}
	return 1
}

// Colours returns the number of colours; Columns the number of columns.
func (s *State) Colours() int { return int(s.colours) }

// Columns returns the number of columns (Colours()+2).
func (s *State) Columns() int { return int(s.ncols) }

// Key returns the position's 64-bit canonical key: a Zobrist hash of which
// block stands on which, the same whatever the order of the columns.
func (s *State) Key() uint64 { return s.key }

// Left returns the number of blocks that do not stand on their final
// support. A move changes the support of one block only (the bottom of the
// moved run), so at least Left moves remain: an admissible and consistent
// heuristic.
func (s *State) Left() int { return int(s.left) }

// Bound returns a lower bound on the number of moves that remain, at
// least Left: every block off its final support must move once, and twice
// when its final support lies under it in its own column (it cannot reach
// that block before leaving the column). A block off its final support is
// always the bottom of its run, so a move changes the support of exactly
// one block (the moved run's bottom) and the bound by at most one: it is
// admissible and consistent.
func (s *State) Bound() int { return int(s.bound) }

// Solved reports whether every colour stands as one column 6..0.
func (s *State) Solved() bool { return s.left == 0 }

// Top returns the top block of column i; ok is false for an empty column.
func (s *State) Top(i int) (Block, bool) {
	t := s.top[i]
	return Block(t), t != none
}

// Column appends the blocks of column i to buf, bottom to top.
func (s *State) Column(i int, buf []Block) []Block {
	n := len(buf)
	for b := s.top[i]; b != none; b = s.below[b] {
		buf = append(buf, Block(b))
	}
	for l, r := n, len(buf)-1; l < r; l, r = l+1, r-1 {
		buf[l], buf[r] = buf[r], buf[l]
	}
	return buf
}

// runBottom returns the bottom block of the top run whose top is t.
func (s *State) runBottom(t uint8) uint8 {
	r := t
	for u := s.below[r]; u != none && glued(u, r); u = s.below[r] {
		r = u
	}
	return r
}

// Run returns the bottom and the top block of column i's top run (ok false
// for an empty column).
func (s *State) Run(i int) (bottom, top Block, ok bool) {
	t := s.top[i]
	if t == none {
		return 0, 0, false
	}
	return Block(s.runBottom(t)), Block(t), true
}

// Legal reports whether m is a legal move, and if not why.
func (s *State) Legal(m Move) error {
	if int(m.From) >= int(s.ncols) || int(m.To) >= int(s.ncols) {
		return fmt.Errorf("move %v: a column is not 0..%d", m, s.ncols-1)
	}
	if m.From == m.To {
		return fmt.Errorf("move %v: from and to are the same column", m)
	}
	t := s.top[m.From]
	if t == none {
		return fmt.Errorf("move %v: column %d is empty", m, m.From)
	}
	r := s.runBottom(t)
	if u := s.top[m.To]; u != none && (u/Sizes != r/Sizes || u < r) {
		return fmt.Errorf("move %v: run %s..%s cannot stand on %s", m, Block(r), Block(t), Block(u))
	}
	return nil
}

// Apply plays m, which must be legal (see Legal), and returns the bottom
// block of the moved run.
func (s *State) Apply(m Move) Block {
	t := s.top[m.From]
	r := s.runBottom(t)
	old, under := s.below[r], s.top[m.To]
	s.bound -= s.cost(r)
	s.top[m.From] = old
	s.below[r] = under
	s.top[m.To] = t
	s.key ^= zob(r, old) ^ zob(r, under)
	f := final(r)
	if old == f {
		s.left++
	}
	if under == f {
		s.left--
	}
	s.bound += s.cost(r)
	return Block(r)
}

// OnFinal reports whether block b stands on its final support.
func (s *State) OnFinal(b Block) bool { return s.below[b] == final(uint8(b)) }

// Moves appends the legal moves of the position to buf, leaving out those
// that give a position already among them: of several empty columns only
// the first is a target, and a run that is a whole column never moves to
// an empty one (the same position).
func (s *State) Moves(buf []Move) []Move {
	empty := -1
	for i := range int(s.ncols) {
		if s.top[i] == none {
			empty = i
			break
		}
	}
	for f := range s.ncols {
		t := s.top[f]
		if t == none {
			continue
		}
		r := s.runBottom(t)
		if empty >= 0 && s.below[r] != none {
			buf = append(buf, Move{f, uint8(empty)})
		}
		// Targets: tops of the run's colour larger than its bottom.
		for to := range s.ncols {
			u := s.top[to]
			if u != none && to != f && u/Sizes == r/Sizes && u > r {
				buf = append(buf, Move{f, to})
			}
		}
	}
	return buf
}

// SafeGlue returns a move that glues a run whose top block is a 0 or a 1
// onto the block one size larger than its bottom, if the position has one.
// Such a move loses no landing place (on a 0 nothing can land, on a 1 only
// the 0, which can land on the run's own top), which is why the write-up's
// robot always played it at once; ok is false when there is none.
func (s *State) SafeGlue() (m Move, ok bool) {
	for f := range s.ncols {
		t := s.top[f]
		if t == none || t%Sizes > 1 {
			continue
		}
		r := s.runBottom(t)
		if r%Sizes == Sizes-1 {
			continue
		}
		for to := range s.ncols {
			if s.top[to] == r+1 {
				return Move{f, to}, true
			}
		}
	}
	return Move{}, false
}
