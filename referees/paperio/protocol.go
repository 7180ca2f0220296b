package paperio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// The runner's JSON protocol (RULES.md section 9): one message per line,
// written as Python's json.dumps writes it (", " and ": " separators).

// AppendStartGame appends the start_game message (with its newline).
func AppendStartGame(dst []byte, r *Rules) []byte {
	dst = append(dst, `{"type": "start_game", "params": {"x_cells_count": `...)
	dst = strconv.AppendInt(dst, Cols, 10)
	dst = append(dst, `, "y_cells_count": `...)
	dst = strconv.AppendInt(dst, Rows, 10)
	dst = append(dst, `, "speed": `...)
	dst = strconv.AppendInt(dst, int64(r.Speed), 10)
	dst = append(dst, `, "width": `...)
	dst = strconv.AppendInt(dst, Width, 10)
	return append(dst, "}}\n"...)
}

// AppendEndGame appends the end_game message (with its newline).
func AppendEndGame(dst []byte) []byte {
	return append(dst, `{"type": "end_game", "params": {}}`+"\n"...)
}

// AppendTick appends the tick message the player with the given id
// receives before tick s.Tick (with its newline): every live player in list
// order, the receiver last under "i", the map bonuses and the tick number.
// Territories are listed by x, then y (the runner lists them in its hash
// set's order).
func (s *State) AppendTick(dst []byte, id int) []byte {
	dst = append(dst, `{"type": "tick", "params": {"players": {`...)
	first := true
	for k := 0; k < s.N; k++ {
		p := &s.Players[k]
		if !p.Alive || p.ID == id {
			continue
		}
		if !first {
			dst = append(dst, ", "...)
		}
		first = false
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(p.ID), 10)
		dst = append(dst, `": `...)
		dst = p.appendState(dst)
	}
	if me := s.Player(id); me != nil && me.Alive {
		if !first {
			dst = append(dst, ", "...)
		}
		dst = append(dst, `"i": `...)
		dst = me.appendState(dst)
	}
	dst = append(dst, `}, "bonuses": [`...)
	for i, b := range s.MapBonuses() {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, `{"type": "`...)
		dst = append(dst, b.Kind.String()...)
		dst = append(dst, `", "position": `...)
		dst = appendPyXY(dst, b.Cell.X(), b.Cell.Y())
		dst = append(dst, `, "active_ticks": `...)
		dst = strconv.AppendInt(dst, int64(b.Active), 10)
		dst = append(dst, '}')
	}
	dst = append(dst, `], "tick_num": `...)
	dst = strconv.AppendInt(dst, int64(s.Tick), 10)
	return append(dst, "}}\n"...)
}

func appendPyXY(dst []byte, x, y int) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(x), 10)
	dst = append(dst, ", "...)
	dst = strconv.AppendInt(dst, int64(y), 10)
	return append(dst, ']')
}

func (p *Player) appendState(dst []byte) []byte {
	dst = append(dst, `{"score": `...)
	dst = strconv.AppendInt(dst, int64(p.Score), 10)
	dst = append(dst, `, "direction": `...)
	if p.Dir == DirNone {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		dst = append(dst, p.Dir.String()...)
		dst = append(dst, '"')
	}
	dst = append(dst, `, "territory": [`...)
	n := 0
	for i := 0; i < Cols; i++ {
		for j := 0; j < Rows; j++ {
			if p.Terr[j]>>uint(i)&1 == 0 {
				continue
			}
			if n > 0 {
				dst = append(dst, ", "...)
			}
			n++
			dst = appendPyXY(dst, i*Width+Half, j*Width+Half)
		}
	}
	dst = append(dst, `], "lines": [`...)
	for i, c := range p.Trail() {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendPyXY(dst, c.X(), c.Y())
	}
	dst = append(dst, `], "position": `...)
	dst = appendPyXY(dst, p.X, p.Y)
	dst = append(dst, `, "bonuses": [`...)
	for i, h := range p.Bonuses() {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, `{"type": "`...)
		dst = append(dst, h.Kind.String()...)
		dst = append(dst, `", "ticks": `...)
		dst = strconv.AppendInt(dst, int64(h.Remaining()), 10)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// Message is one runner message as a bot reads it: the type and its raw
// params.
type Message struct {
	Type   string          `json:"type"`
	Params json.RawMessage `json:"params"`
}

// StartParams are the params of start_game.
type StartParams struct {
	XCells int `json:"x_cells_count"`
	YCells int `json:"y_cells_count"`
	Speed  int `json:"speed"`
	Width  int `json:"width"`
}

// PlayerMsg is one player's state in a tick message.
type PlayerMsg struct {
	Score     int       `json:"score"`
	Direction *string   `json:"direction"`
	Territory [][2]int  `json:"territory"`
	Lines     [][2]int  `json:"lines"`
	Position  [2]int    `json:"position"`
	Bonuses   []HeldMsg `json:"bonuses"`
}

// HeldMsg is a held bonus in a tick message.
type HeldMsg struct {
	Type  string `json:"type"`
	Ticks int    `json:"ticks"`
}

// BonusMsg is a map bonus in a tick message.
type BonusMsg struct {
	Type        string `json:"type"`
	Position    [2]int `json:"position"`
	ActiveTicks int    `json:"active_ticks"`
}

// TickParams are the params of a tick message. Players are keyed by id,
// the receiver by "i".
type TickParams struct {
	Players map[string]PlayerMsg `json:"players"`
	Bonuses []BonusMsg           `json:"bonuses"`
	TickNum int                  `json:"tick_num"`
}

// ParseMessage reads one runner message line.
func ParseMessage(line []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return m, fmt.Errorf("message: %v", err)
	}
	switch m.Type {
	case "start_game", "tick", "end_game":
	default:
		return m, fmt.Errorf("message: unknown type %q", m.Type)
	}
	return m, nil
}

// ParseTick reads the params of a tick message.
func ParseTick(params []byte) (TickParams, error) {
	var tp TickParams
	if err := json.Unmarshal(params, &tp); err != nil {
		return tp, fmt.Errorf("tick params: %v", err)
	}
	if _, ok := tp.Players["i"]; !ok {
		return tp, fmt.Errorf("tick params: no player \"i\"")
	}
	return tp, nil
}

// cellOfMsg reads a cell centre of a message.
func cellOfMsg(what string, xy [2]int) (Cell, error) {
	c, ok := CellOf(xy[0], xy[1])
	if !ok {
		return NoCell, fmt.Errorf("%s [%d, %d]: not a cell centre on the map", what, xy[0], xy[1])
	}
	return c, nil
}

// speedOf is the speed a player has with the given held bonuses.
func speedOf(base int, held []Held) int {
	p := Player{Speed: base}
	for _, h := range held {
		switch h.Kind {
		case Nitro:
			p.speedUp()
		case Slowdown:
			p.speedDown()
		}
	}
	return p.Speed
}

// Fill sets s to the game as the tick message shows it: players 1..n (me
// is the receiver's id), those absent from the message dead, the map
// bonuses and the tick number. Speeds follow from the held bonuses; held
// bonuses get tick 0 and active_ticks = their remaining cells.
func (tp *TickParams) Fill(s *State, rules Rules, n, me int) error {
	if n < 1 || n > MaxPlayers || me < 1 || me > n {
		return fmt.Errorf("tick: players %d, me %d out of range", n, me)
	}
	*s = State{Rules: rules, Tick: tp.TickNum, N: n}
	for k := 0; k < n; k++ {
		s.Players[k].ID = k + 1
	}
	for key, pm := range tp.Players {
		id := me
		if key != "i" {
			v, err := strconv.Atoi(key)
			if err != nil || v < 1 || v > n || v == me {
				return fmt.Errorf("tick: bad player key %q", key)
			}
			id = v
		}
		p := &s.Players[id-1]
		p.Alive = true
		p.X, p.Y = pm.Position[0], pm.Position[1]
		p.Score = pm.Score
		if pm.Direction != nil {
			d, ok := ParseDir(*pm.Direction)
			if !ok {
				return fmt.Errorf("tick: player %q: bad direction %q", key, *pm.Direction)
			}
			p.Dir = d
		}
		for _, xy := range pm.Territory {
			c, err := cellOfMsg("territory", xy)
			if err != nil {
				return fmt.Errorf("tick: player %q: %v", key, err)
			}
			p.Terr.Set(c)
		}
		if len(pm.Lines) > len(p.Lines) {
			return fmt.Errorf("tick: player %q: %d line cells (at most %d)", key, len(pm.Lines), len(p.Lines))
		}
		for _, xy := range pm.Lines {
			c, err := cellOfMsg("lines", xy)
			if err != nil {
				return fmt.Errorf("tick: player %q: %v", key, err)
			}
			p.Lines[p.NLines] = c
			p.NLines++
			p.TrailBits.Set(c)
		}
		if len(pm.Bonuses) > len(p.Held) {
			return fmt.Errorf("tick: player %q: %d bonuses (at most %d)", key, len(pm.Bonuses), len(p.Held))
		}
		for _, hm := range pm.Bonuses {
			k, ok := ParseBonusKind(hm.Type)
			if !ok || hm.Ticks < 0 || hm.Ticks > 1<<20 {
				return fmt.Errorf("tick: player %q: bad bonus %q %d", key, hm.Type, hm.Ticks)
			}
			p.Held[p.NHeld] = Held{Kind: k, Active: int32(hm.Ticks)}
			p.NHeld++
		}
		p.Speed = speedOf(rules.Speed, p.Bonuses())
	}
	if len(tp.Bonuses) > MaxMapBonuses {
		return fmt.Errorf("tick: %d map bonuses (at most %d)", len(tp.Bonuses), MaxMapBonuses)
	}
	for _, bm := range tp.Bonuses {
		k, ok := ParseBonusKind(bm.Type)
		if !ok || bm.ActiveTicks < 0 || bm.ActiveTicks > 1<<20 {
			return fmt.Errorf("tick: bad map bonus %q %d", bm.Type, bm.ActiveTicks)
		}
		c, err := cellOfMsg("bonus", bm.Position)
		if err != nil {
			return fmt.Errorf("tick: %v", err)
		}
		_ = s.AddBonus(MapBonus{Kind: k, Cell: c, Active: int32(bm.ActiveTicks)})
	}
	return nil
}

// AppendCommand appends the answer line {"command": "<dir>"} (null for
// DirNone, which the runner ignores).
func AppendCommand(dst []byte, d Dir) []byte {
	dst = append(dst, `{"command": `...)
	if d == DirNone {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		dst = append(dst, d.String()...)
		dst = append(dst, '"')
	}
	return append(dst, "}\n"...)
}

// ErrUnreadable marks an answer line that is not JSON. The runner ignores
// such an answer (no command this tick) and keeps asking the bot.
var ErrUnreadable = errors.New("unreadable answer")

// ParseAnswer reads a bot's answer line as the runner's TCP client does.
// word is the command when it is a string ("" otherwise) and d its
// direction (DirNone when the referee would ignore it). err wraps
// ErrUnreadable for a line that is not JSON (the runner ignores it); any
// other error is what makes the runner disconnect the bot: a JSON value
// other than an object (Python's .get fails on it) or a "debug" / "error"
// field that cannot be cut to 200 characters.
func ParseAnswer(line []byte) (word string, d Dir, err error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", DirNone, fmt.Errorf("%w %q", ErrUnreadable, clip(string(line), 80))
	}
	if dec.More() {
		return "", DirNone, fmt.Errorf("%w %q (extra data)", ErrUnreadable, clip(string(line), 80))
	}
	if !truthy(v) {
		return "", DirNone, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", DirNone, fmt.Errorf("answer %q is not a JSON object", clip(string(line), 80))
	}
	for _, k := range []string{"debug", "error"} {
		if f, ok := m[k]; ok && truthy(f) {
			switch f.(type) {
			case string, []any:
			default:
				return "", DirNone, fmt.Errorf("answer field %q is not text: %q", k, clip(string(line), 80))
			}
		}
	}
	word, _ = m["command"].(string)
	d, _ = ParseDir(word)
	return word, d, nil
}

// truthy is Python's truth value of a decoded JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
