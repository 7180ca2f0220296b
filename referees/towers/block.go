package towers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Sizes is the number of blocks of one colour (sizes 0..6).
const Sizes = 7

// MinColours and MaxColours bound the number of colours of a layout.
const (
	MinColours = 2
	MaxColours = 8
	// MaxBlocks and MaxColumns are the sizes of the largest layout.
	MaxBlocks  = MaxColours * Sizes
	MaxColumns = MaxColours + 2
)

// Block is one block: colour*Sizes + size. Blocks of one colour are
// numbered by size, so a larger block of the same colour has a larger
// number.
type Block uint8

// NewBlock returns the block of colour (0 = 'a') and size.
func NewBlock(colour, size int) Block { return Block(colour*Sizes + size) }

// Colour returns the block's colour, 0 for 'a'.
func (b Block) Colour() int { return int(b) / Sizes }

// Size returns the block's size, 0..6.
func (b Block) Size() int { return int(b) % Sizes }

// String is the text form: the colour letter and the size digit, "c4".
func (b Block) String() string {
	return string([]byte{byte('a' + b.Colour()), byte('0' + b.Size())})
}

// Layout is the text form of a position: one string per column, its
// blocks from bottom to top separated by spaces ("b1 a3 b0"), "" for an
// empty column.
type Layout []string

// UnmarshalJSON decodes an array of column strings (null for none). More
// than MaxColumns columns is an error as soon as the next one starts: no
// layout has more, and a longer list costs no memory.
func (l *Layout) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	switch {
	case err != nil:
		return err
	case tok == nil:
		*l = nil
		return nil
	case tok != json.Delim('['):
		return fmt.Errorf("columns: want an array of strings, got %v", tok)
	}
	out := Layout{}
	for dec.More() {
		if len(out) == MaxColumns {
			return fmt.Errorf("columns: more than %d; a layout has at most %d (%d colours and 2 more)", MaxColumns, MaxColumns, MaxColours)
		}
		var s string
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("columns[%d]: %w", len(out), err)
		}
		out = append(out, s)
	}
	*l = out
	return nil
}

// ParseBlock reads one block, a colour letter a..h and a size digit 0..6.
func ParseBlock(s string) (Block, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] >= 'a'+MaxColours || s[1] < '0' || s[1] >= '0'+Sizes {
		return 0, fmt.Errorf("block %q: want a colour letter a..%c and a size 0..%d", s, 'a'+MaxColours-1, Sizes-1)
	}
	return NewBlock(int(s[0]-'a'), int(s[1]-'0')), nil
}

// Parse reads a layout: with c colours (the letters a.. used), exactly one
// block of each colour and size and c+2 columns. Any other layout is an
// error saying what is wrong.
func Parse(l Layout) (State, error) {
	var st State
	var seen [MaxBlocks]bool
	var cols [][]Block
	n, maxColour := 0, -1
	if len(l) > MaxColumns {
		return st, fmt.Errorf("layout has %d columns; want at most %d", len(l), MaxColumns)
	}
	for i, col := range l {
		var blocks []Block
		// Lazily: a long column stops at its first bad or repeated block.
		for f := range strings.FieldsSeq(col) {
			b, err := ParseBlock(f)
			if err != nil {
				return st, fmt.Errorf("column %d: %w", i, err)
			}
			if seen[b] {
				return st, fmt.Errorf("column %d: block %s appears twice", i, b)
			}
			seen[b] = true
			maxColour = max(maxColour, b.Colour())
			blocks = append(blocks, b)
			n++
		}
		cols = append(cols, blocks)
	}
	c := maxColour + 1
	if c < MinColours {
		return st, fmt.Errorf("layout has %d colours; want %d..%d", c, MinColours, MaxColours)
	}
	for b := range Block(c * Sizes) {
		if !seen[b] {
			return st, fmt.Errorf("layout of %d colours (a..%c) lacks block %s", c, 'a'+c-1, b)
		}
	}
	if len(l) != c+2 {
		return st, fmt.Errorf("layout of %d colours has %d columns; want %d", c, len(l), c+2)
	}
	return fromColumns(c, cols), nil
}

// fromColumns builds a state from valid columns of blocks, bottom to top.
func fromColumns(c int, cols [][]Block) State {
	var st State
	st.colours = uint8(c)
	st.ncols = uint8(len(cols))
	for i := range st.top {
		st.top[i] = none
	}
	for i, col := range cols {
		under := uint8(none)
		for _, b := range col {
			st.below[b] = under
			under = uint8(b)
		}
		st.top[i] = under
	}
	st.rehash()
	return st
}

// Layout returns the text form of the state.
func (s *State) Layout() Layout {
	out := make(Layout, s.ncols)
	var buf [MaxBlocks]Block
	for i := range int(s.ncols) {
		col := s.Column(i, buf[:0])
		var b strings.Builder
		for k, bl := range col {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(bl.String())
		}
		out[i] = b.String()
	}
	return out
}
