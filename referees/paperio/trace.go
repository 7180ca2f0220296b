package paperio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gauntlet/internal/bounded"
)

// TraceHeader is the first line of a trace ({"header": {...}}). Absent
// constants keep their defaults.
type TraceHeader struct {
	Name             string            `json:"name"`
	Seed             int64             `json:"seed"`
	Bots             []string          `json:"bots,omitempty"`
	Mode             string            `json:"mode"`
	MaxTickCount     *int              `json:"MAX_TICK_COUNT,omitempty"`
	BonusChance      *int              `json:"BONUS_CHANCE,omitempty"`
	BonusesMaxCount  *int              `json:"BONUSES_MAX_COUNT,omitempty"`
	AvailableBonuses []string          `json:"AVAILABLE_BONUSES"`
	Spawns           string            `json:"spawns,omitempty"`
	Shuffled         bool              `json:"shuffled"`
	Start            []json.RawMessage `json:"start"`
}

// Rules returns the constants the header sets (defaults elsewhere) and the
// number of players (len(start)).
func (h *TraceHeader) Rules() (Rules, int, error) {
	r := DefaultRules()
	if h.Mode != "" {
		m, err := ParseMode(h.Mode)
		if err != nil {
			return r, 0, err
		}
		r.Mode = m
	}
	if h.MaxTickCount != nil {
		r.MaxTickCount = *h.MaxTickCount
	}
	if h.BonusChance != nil {
		r.BonusChance = *h.BonusChance
	}
	if h.BonusesMaxCount != nil {
		r.BonusesMaxCount = *h.BonusesMaxCount
	}
	if h.AvailableBonuses != nil {
		if err := r.SetAvailable(h.AvailableBonuses); err != nil {
			return r, 0, err
		}
	}
	if err := r.Validate(); err != nil {
		return r, 0, err
	}
	n := len(h.Start)
	switch {
	case len(h.Bots) > 0 && (len(h.Bots) < 1 || len(h.Bots) > MaxPlayers):
		return r, 0, fmt.Errorf("bots: %d players (want 1 to %d)", len(h.Bots), MaxPlayers)
	case n == 0 && len(h.Bots) > 0:
		return r, 0, fmt.Errorf("start: missing for the %d bots (one start position per player, 1 to %d)", len(h.Bots), MaxPlayers)
	case n < 1 || n > MaxPlayers:
		return r, 0, fmt.Errorf("start: %d players (want 1 to %d)", n, MaxPlayers)
	case len(h.Bots) > 0 && len(h.Bots) != n:
		return r, 0, fmt.Errorf("bots: %d names for %d start positions", len(h.Bots), n)
	}
	return r, n, nil
}

// TraceRow is what a replay needs from one tick line: the tick number, the
// answers received and the injected spawn. Other fields are ignored.
type TraceRow struct {
	Tick  int
	Cmds  Commands
	Asked [MaxPlayers]bool // which players have a key in cmds
	Spawn *BonusRecord
}

type rawRow struct {
	Tick  *int                       `json:"tick"`
	Cmds  map[string]json.RawMessage `json:"cmds"`
	Spawn *BonusRecord               `json:"spawn"`
}

// TraceReader reads a trace line by line; a line longer than
// bounded.LineSize is an error naming it.
type TraceReader struct {
	r      *bounded.Lines
	Header TraceHeader
	Rules  Rules
	N      int // players
}

// NewTraceReader reads and checks the header line.
func NewTraceReader(r io.Reader) (*TraceReader, error) {
	return newTraceReader(context.Background(), r)
}

// newTraceReader is NewTraceReader whose reads stop when ctx is done.
func newTraceReader(ctx context.Context, r io.Reader) (*TraceReader, error) {
	tr := &TraceReader{r: bounded.NewLines(ctx, r, 0)}
	b, err := tr.next()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("trace: empty input (want a header line)")
		}
		return nil, err
	}
	var hl struct {
		Header *TraceHeader `json:"header"`
	}
	if err := json.Unmarshal(b, &hl); err != nil {
		return nil, fmt.Errorf("trace line %d: %v", tr.Line(), err)
	}
	if hl.Header == nil {
		return nil, fmt.Errorf("trace line %d: no \"header\" object", tr.Line())
	}
	tr.Header = *hl.Header
	tr.Rules, tr.N, err = tr.Header.Rules()
	if err != nil {
		return nil, fmt.Errorf("trace line %d: header: %v", tr.Line(), err)
	}
	return tr, nil
}

// next returns the next non-blank line, valid until the next call.
func (tr *TraceReader) next() ([]byte, error) {
	for tr.r.Scan() {
		if b := bytes.TrimSpace(tr.r.Bytes()); len(b) > 0 {
			return b, nil
		}
	}
	if err := tr.r.Err(); err != nil {
		if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
			return nil, fmt.Errorf("trace %w", err) // "trace line 3: longer than 16 MiB"
		}
		return nil, err
	}
	return nil, io.EOF
}

// Line is the number of the last line read (1 is the header).
func (tr *TraceReader) Line() int { return tr.r.Line() }

// Next reads the next tick row; io.EOF at the end.
func (tr *TraceReader) Next(row *TraceRow) error {
	b, err := tr.next()
	if err != nil {
		return err
	}
	var raw rawRow
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("trace line %d: %v", tr.Line(), err)
	}
	if raw.Tick == nil {
		return fmt.Errorf("trace line %d: no \"tick\"", tr.Line())
	}
	*row = TraceRow{Tick: *raw.Tick, Spawn: raw.Spawn}
	for key, v := range raw.Cmds {
		id, err := strconv.Atoi(key)
		if err != nil || id < 1 || id > tr.N {
			return fmt.Errorf("trace line %d: cmds: bad player id %q (want 1 to %d)", tr.Line(), key, tr.N)
		}
		row.Asked[id-1] = true
		var s string
		if json.Unmarshal(v, &s) == nil {
			row.Cmds[id-1], _ = ParseDir(s)
		}
	}
	return nil
}

// Replay plays a trace (header, then rows with tick, cmds and optional
// spawn) and writes one JSON TickRecord line per processed tick. Bonuses
// appear only where a row injects them; no random spawn is drawn. It stops
// after the last tick the referee would process; a tick row after it is an
// error naming its line. ctx ends the replay even while a read of r blocks.
func Replay(ctx context.Context, r io.Reader, w io.Writer) (err error) {
	tr, err := newTraceReader(ctx, r)
	if err != nil {
		return err
	}
	s, err := NewState(tr.Rules, tr.N)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer func() {
		// The ticks before a malformed line still come out.
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
	}()
	var row TraceRow
	var rec TickRecord
	var buf []byte
	enc := json.NewEncoder(bw)
	for !s.Over() {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := tr.Next(&row)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if row.Tick != s.Tick {
			return fmt.Errorf("trace line %d: tick %d, want %d", tr.Line(), row.Tick, s.Tick)
		}
		s.Step(&row.Cmds)
		if row.Spawn != nil {
			b, err := row.Spawn.MapBonus()
			if err == nil {
				err = s.AddBonus(b)
			}
			if err != nil {
				return fmt.Errorf("trace line %d: spawn: %v", tr.Line(), err)
			}
		}
		t := s.Tick
		s.EndTick()
		buf = s.Record(t, &rec, buf)
		if err := enc.Encode(&rec); err != nil {
			return err
		}
	}
	if s.Over() {
		switch err := tr.Next(&row); {
		case err == nil:
			return fmt.Errorf("trace line %d: tick %d comes after the end of the game", tr.Line(), row.Tick)
		case err != io.EOF:
			return err
		}
	}
	return bw.Flush()
}
