package paperio

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// MarshalJSON writes the protocol word, null for DirNone.
func (d Dir) MarshalJSON() ([]byte, error) {
	if d == DirNone {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}

// UnmarshalJSON reads null or a direction word.
func (d *Dir) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*d = DirNone
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("direction: %v", err)
	}
	v, ok := ParseDir(s)
	if !ok {
		return fmt.Errorf("direction %q: want up, down, left, right or null", s)
	}
	*d = v
	return nil
}

// HeldRecord is a held bonus as traces write it: [type, remaining].
type HeldRecord struct {
	Kind      BonusKind
	Remaining int
}

// MarshalJSON writes [type, remaining].
func (h HeldRecord) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `[%q,%d]`, h.Kind.String(), h.Remaining), nil
}

// UnmarshalJSON reads [type, remaining].
func (h *HeldRecord) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 2 {
		return fmt.Errorf("held bonus %s: want [type, remaining]", b)
	}
	k, err := unmarshalKind(raw[0])
	if err != nil {
		return err
	}
	h.Kind = k
	return json.Unmarshal(raw[1], &h.Remaining)
}

// BonusRecord is a map bonus as traces write it: [type, x, y, active_ticks].
type BonusRecord struct {
	Kind   BonusKind
	X, Y   int
	Active int
}

// MarshalJSON writes [type, x, y, active_ticks].
func (b BonusRecord) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `[%q,%d,%d,%d]`, b.Kind.String(), b.X, b.Y, b.Active), nil
}

// UnmarshalJSON reads [type, x, y, active_ticks].
func (b *BonusRecord) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || len(raw) != 4 {
		return fmt.Errorf("bonus %s: want [type, x, y, active_ticks]", data)
	}
	k, err := unmarshalKind(raw[0])
	if err != nil {
		return err
	}
	b.Kind = k
	for i, dst := range []*int{&b.X, &b.Y, &b.Active} {
		if err := json.Unmarshal(raw[i+1], dst); err != nil {
			return fmt.Errorf("bonus %s: field %d: %v", data, i+1, err)
		}
	}
	return nil
}

// MapBonus converts the record to a map bonus; the position must be a cell
// centre and active_ticks positive.
func (b BonusRecord) MapBonus() (MapBonus, error) {
	c, ok := CellOf(b.X, b.Y)
	if !ok {
		return MapBonus{}, fmt.Errorf("bonus position (%d,%d) is not a cell centre", b.X, b.Y)
	}
	if b.Active < 0 || b.Active > 1<<20 {
		return MapBonus{}, fmt.Errorf("bonus active_ticks %d out of range", b.Active)
	}
	return MapBonus{Kind: b.Kind, Cell: c, Active: int32(b.Active)}, nil
}

func unmarshalKind(raw json.RawMessage) (BonusKind, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("bonus type %s: not a string", raw)
	}
	k, ok := ParseBonusKind(s)
	if !ok {
		return 0, fmt.Errorf("bonus type %q: want n, s or saw", s)
	}
	return k, nil
}

// PlayerRecord is one player's state in a trace tick line.
type PlayerRecord struct {
	ID      int          `json:"id"`
	Alive   bool         `json:"alive"`
	X       int          `json:"x"`
	Y       int          `json:"y"`
	Dir     Dir          `json:"dir"`
	Speed   int          `json:"speed"`
	Terr    int          `json:"terr"`
	Lines   int          `json:"lines"`
	Score   int          `json:"score"`
	Bonuses []HeldRecord `json:"bonuses"`
}

// TickRecord is the state after one tick as the conformance traces and
// `gauntlet replay paperio` write it.
type TickRecord struct {
	Tick    int            `json:"tick"`
	Players []PlayerRecord `json:"players"`
	Bonuses []BonusRecord  `json:"bonuses"`
	Hash    string         `json:"hash"`
}

// Record fills rec with the state after tick t (reusing its slices).
func (s *State) Record(t int, rec *TickRecord, buf []byte) []byte {
	rec.Tick = t
	rec.Players = rec.Players[:0]
	for k := 0; k < s.N; k++ {
		p := &s.Players[k]
		pr := PlayerRecord{ID: p.ID, Alive: p.Alive, X: p.X, Y: p.Y, Dir: p.Dir, Speed: p.Speed,
			Terr: p.Terr.Count(), Lines: p.NLines, Score: p.Score, Bonuses: make([]HeldRecord, 0, p.NHeld)}
		for _, h := range p.Bonuses() {
			pr.Bonuses = append(pr.Bonuses, HeldRecord{Kind: h.Kind, Remaining: h.Remaining()})
		}
		rec.Players = append(rec.Players, pr)
	}
	if rec.Bonuses == nil {
		rec.Bonuses = []BonusRecord{}
	}
	rec.Bonuses = rec.Bonuses[:0]
	for _, b := range s.MapBonuses() {
		rec.Bonuses = append(rec.Bonuses, BonusRecord{Kind: b.Kind, X: b.Cell.X(), Y: b.Cell.Y(), Active: int(b.Active)})
	}
	var h string
	buf, h = s.Hash(buf)
	rec.Hash = h
	return buf
}

// AppendCanonical appends the canonical text the trace hash is computed on:
// [canon, bonuses] without whitespace (see the conformance README).
func (s *State) AppendCanonical(dst []byte) []byte {
	dst = append(dst, '[', '[')
	var cells [NumCells]Cell
	for k := 0; k < s.N; k++ {
		p := &s.Players[k]
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(p.ID), 10)
		dst = append(dst, ',')
		dst = strconv.AppendBool(dst, p.Alive)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(p.X), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(p.Y), 10)
		dst = append(dst, ',')
		if p.Dir == DirNone {
			dst = append(dst, "null"...)
		} else {
			dst = append(dst, '"')
			dst = append(dst, p.Dir.String()...)
			dst = append(dst, '"')
		}
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(p.Speed), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(p.Score), 10)
		dst = append(dst, ',', '[')
		if p.Alive {
			for i, c := range p.Terr.AppendCells(cells[:0]) {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendXY(dst, c.X(), c.Y())
			}
		}
		dst = append(dst, ']', ',', '[')
		if p.Alive {
			for i, c := range p.Trail() {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendXY(dst, c.X(), c.Y())
			}
		}
		dst = append(dst, ']', ',', '[')
		for i, h := range p.Bonuses() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[', '"')
			dst = append(dst, h.Kind.String()...)
			dst = append(dst, '"', ',')
			dst = strconv.AppendInt(dst, int64(h.Remaining()), 10)
			dst = append(dst, ']')
		}
		dst = append(dst, ']', ']')
	}
	dst = append(dst, ']', ',', '[')
	for i, b := range s.MapBonuses() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[', '"')
		dst = append(dst, b.Kind.String()...)
		dst = append(dst, '"', ',')
		dst = strconv.AppendInt(dst, int64(b.Cell.X()), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(b.Cell.Y()), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(b.Active), 10)
		dst = append(dst, ']')
	}
	return append(dst, ']', ']')
}

func appendXY(dst []byte, x, y int) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(x), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(y), 10)
	return append(dst, ']')
}

// Hash returns the trace hash of the state: the first 16 hex digits of the
// SHA-1 of the canonical text. buf is scratch space, returned for reuse.
func (s *State) Hash(buf []byte) ([]byte, string) {
	buf = s.AppendCanonical(buf[:0])
	sum := sha1.Sum(buf)
	return buf, hex.EncodeToString(sum[:8])
}
