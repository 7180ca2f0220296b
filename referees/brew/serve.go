package brew

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gauntlet/internal/bounded"
)

// Tracker rebuilds, turn after turn, the State a player can know from its
// inputs alone: what each input shows, plus the round and both players'
// delivery counts (a score only rises when its player brews). For the same
// game it equals what State.Observe gives an in-process bot, so a bot plays
// the same whether it runs in process or as a CodinGame process.
type Tracker struct {
	round     int32
	league    uint8
	me        int
	lastScore [Players]int32
	delivered [Players]int32
}

// Seat returns the seat the tracked player plays (0 or 1), as told by its
// starting spell ids. League 1 shows no spells, so there the seat is
// unknown: Seat is 0 and the rebuilt state puts the tracked player in seat
// 0 whichever seat it really plays (the game is symmetric, so only a bot
// that treats the seats differently can tell).
func (t *Tracker) Seat() int { return t.me }

// Update reads the next turn's view into dst. The first view fixes the
// league and the seat. It fails when the view contradicts the game's decks
// (an unknown id, a delta that is not that spell's).
func (t *Tracker) Update(v *View, dst *State) error {
	if t.round == 0 {
		t.league = 1
		for _, e := range v.Entries {
			switch e.Type {
			case EntryLearn:
				t.league = 3
			case EntryCast, EntryOpponentCast:
				t.league = max(t.league, 2)
			}
			if e.Type == EntryCast && e.ID >= FirstSpellID+StartSpells && e.ID < FirstLearnID {
				t.me = 1
			}
		}
	} else {
		for i := 0; i < Players; i++ {
			if v.Score[i] > t.lastScore[i] {
				t.delivered[i]++
			}
		}
	}
	t.lastScore = v.Score
	if err := t.build(v, dst); err != nil {
		return err
	}
	t.round++
	return nil
}

func (t *Tracker) build(v *View, s *State) error {
	*s = State{League: t.league, Round: t.round, NextID: FirstLearnID}
	me, op := t.me, 1-t.me
	s.P[me].Inv, s.P[op].Inv = v.Inv[0], v.Inv[1]
	s.P[me].Score, s.P[op].Score = v.Score[0], v.Score[1]
	s.P[me].Deliveries, s.P[op].Deliveries = t.delivered[0], t.delivered[1]
	s.P[me].Active, s.P[op].Active = true, true
	var shownUses, shownValue [2]int32
	for n, e := range v.Entries {
		switch e.Type {
		case EntryBrew:
			if int(s.NOrders) == QueueSize {
				return fmt.Errorf("entry %d: more than %d orders", n+1, QueueSize)
			}
			if e.ID < FirstOrderID || e.ID >= FirstSpellID {
				return fmt.Errorf("entry %d: order id %d outside %d..%d", n+1, e.ID, FirstOrderID, FirstSpellID-1)
			}
			o := s.makeOrder(uint8(e.ID))
			for k := 0; k < Tiers; k++ {
				if e.Delta[k] != -int32(o.Cost[k]) {
					return fmt.Errorf("entry %d: order %d has delta %v, not the league's cost", n+1, e.ID, e.Delta)
				}
			}
			q := int(s.NOrders)
			if q < 2 && e.TaxCount > 0 {
				shownUses[q], shownValue[q] = e.TaxCount, e.TomeIndex
			}
			s.Orders[q] = o
			s.NOrders++
		case EntryLearn:
			if int(s.NTome) == TomeSize {
				return fmt.Errorf("entry %d: more than %d tome spells", n+1, TomeSize)
			}
			if e.ID < 0 || e.ID >= TomeDeckSize || e.Delta != widen(Recipes[e.ID].Delta) {
				return fmt.Errorf("entry %d: %d is not a tome spell with delta %v", n+1, e.ID, e.Delta)
			}
			s.Tome[s.NTome] = TomeSlot{ID: uint8(e.ID), Stock: e.TaxCount}
			s.NTome++
		case EntryCast, EntryOpponentCast:
			p := me
			if e.Type == EntryOpponentCast {
				p = op
			}
			pl := &s.P[p]
			if int(pl.NSpells) == MaxSpells {
				return fmt.Errorf("entry %d: more than %d spells", n+1, MaxSpells)
			}
			rc, ok := spellRecipe(e.ID, e.Delta)
			if !ok {
				return fmt.Errorf("entry %d: spell %d with delta %v is not in the game", n+1, e.ID, e.Delta)
			}
			pl.Spells[pl.NSpells] = Spell{ID: uint8(e.ID), Recipe: rc}
			if e.Castable {
				pl.Castable |= 1 << uint(pl.NSpells)
			}
			pl.NSpells++
			if e.ID >= FirstLearnID {
				s.NextID = max(s.NextID, e.ID+1)
			}
		}
	}
	if s.NOrders == 0 {
		return errors.New("no orders")
	}
	// Urgency bonus: uses are shown while positive. Before any slide the
	// values are {3, 1}; a slide makes them {1, 0} and leaves slot 1 empty.
	s.BonusUses = shownUses
	switch {
	case shownUses[0] > 0 && shownValue[0] == 3:
		s.BonusValue = [2]int32{3, 1}
	case shownUses[0] > 0 || t.round > 0:
		s.BonusValue = [2]int32{1, 0}
	default:
		s.BonusValue = [2]int32{3, 1}
	}
	return nil
}

func widen(d [Tiers]int8) [Tiers]int32 {
	return [Tiers]int32{int32(d[0]), int32(d[1]), int32(d[2]), int32(d[3])}
}

// spellRecipe finds the recipe of a player spell from its id and delta.
func spellRecipe(id int32, delta [Tiers]int32) (uint8, bool) {
	if id >= FirstSpellID && id < FirstLearnID {
		rc := uint8(TomeDeckSize + (id-FirstSpellID)%StartSpells)
		return rc, widen(Recipes[rc].Delta) == delta
	}
	if id < FirstLearnID || id > 255 {
		return 0, false
	}
	for i := 0; i < TomeDeckSize; i++ {
		if widen(Recipes[i].Delta) == delta {
			return uint8(i), true
		}
	}
	return 0, false
}

// Serve runs bot as a CodinGame process: it reads turn inputs from r, and
// for each prints the bot's command line to w, until r ends. The context is
// checked between turns, and ends a read of r that blocks.
func Serve(ctx context.Context, r io.Reader, w io.Writer, bot Bot) error {
	br := bufio.NewReader(bounded.Reader(ctx, r))
	bw := bufio.NewWriter(w)
	var (
		tr    Tracker
		view  View
		st    State
		text  []byte
		out   []byte
		turns int
	)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		text, err = readTurn(br, text[:0])
		if err != nil {
			if errors.Is(err, io.EOF) && len(text) == 0 {
				return nil
			}
			return fmt.Errorf("turn %d: %w", turns+1, err)
		}
		turns++
		if _, err := ParseInput(text, &view); err != nil {
			return fmt.Errorf("turn %d input: %w", turns, err)
		}
		if err := tr.Update(&view, &st); err != nil {
			return fmt.Errorf("turn %d input: %w", turns, err)
		}
		a := bot.Act(&st, tr.Seat())
		out = a.AppendText(out[:0])
		out = append(out, '\n')
		if _, err := bw.Write(out); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
}

// readTurn appends one turn's lines (the count line, the action lines and
// two inventory lines) to dst.
func readTurn(br *bufio.Reader, dst []byte) ([]byte, error) {
	start := len(dst)
	dst, err := readLine(br, dst)
	if err != nil {
		if errors.Is(err, io.EOF) && len(dst) > start {
			return dst, io.ErrUnexpectedEOF
		}
		return dst, err
	}
	first := dst[start : len(dst)-1]
	n, err := strconv.Atoi(string(first))
	if err != nil || n < 0 || n > MaxActionCount {
		return dst, fmt.Errorf("line 1: bad actionCount %q", first)
	}
	for i := 0; i < n+Players; i++ {
		if dst, err = readLine(br, dst); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return dst, err
		}
	}
	return dst, nil
}

// readLine appends one line, with its newline, to dst without allocating
// once dst has grown to a turn's size. A line longer than bounded.LineSize
// is an error.
func readLine(br *bufio.Reader, dst []byte) ([]byte, error) {
	start := len(dst)
	for {
		chunk, err := br.ReadSlice('\n')
		dst = append(dst, chunk...)
		if len(dst)-start > bounded.LineSize {
			return dst, &bounded.TooLargeError{Name: "an input line", Limit: bounded.LineSize, Line: true}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return dst, err
		}
	}
}
