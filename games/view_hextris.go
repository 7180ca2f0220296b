package games

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"gauntlet/harness/contract"
	"gauntlet/referees/hextris"
)

var _ contract.Viewer = hextrisGame{}

//go:embed viewer/hextris.js
var hextrisRenderer string

// hexLock is what a lock changed, at the frame of the command that locked.
type hexLock struct {
	Rows  map[int]string `json:"rows"`  // board rows that changed: y → hex bits, lowest cell first
	Unit  int            `json:"u"`     // the unit that spawned (-1: the game ended)
	Lines int            `json:"lines"` // lines cleared by this lock
	Move  int64          `json:"ms"`    // move score so far
	Power int64          `json:"ps"`    // phrase points of the text so far
}

// hexFrames is the Replay.Frames of a hextris game: the live unit's
// position after each executed command and what each lock changed. Problem
// 24 runs to some 170,000 commands, so positions are written as steps: one
// letter per frame for a step of at most one cell and one rotation from the
// previous frame (see hexStep), a bracketed "x,y,rot" otherwise (a spawn,
// the end). Text offsets advance by each command's character; frames whose
// command does not follow the previous one directly (after \t, \n, \r)
// are listed in At. Offsets are JavaScript string indices.
type hexFrames struct {
	Steps string          `json:"steps"`
	At    [][2]int32      `json:"at"`    // (frame, byte offset of its command) where not contiguous
	Locks map[int]hexLock `json:"locks"` // frame → lock
}

// hexStep encodes a step of dx in -1..1, dy in 0..1 and drot in -1..1 as
// one of 18 letters; ok is false for a larger step.
func hexStep(dx, dy, dr int32) (byte, bool) {
	if dx < -1 || dx > 1 || dy < 0 || dy > 1 || dr < -1 || dr > 1 {
		return 0, false
	}
	return byte('A' + (dx + 1) + 3*dy + 6*(dr+1)), true
}

// hexSetup is drawn under every frame.
type hexSetup struct {
	Width, Height int
	Board         []string     `json:"board"`  // initial rows as hex bits
	Shapes        [][][][2]int `json:"shapes"` // unit → rot*2+parity of the pivot row → member offsets from the pivot
	Unit          int          `json:"unit"`   // the first live unit (-1: none)
	Text          string       `json:"text"`
	Phrases       [][2]int     `json:"phrases"` // byte ranges of phrase occurrences in the text
	Error         string       `json:"error,omitempty"`
	ErrorAt       int          `json:"error_at"`
	End           string       `json:"end"`
	Final         [3]int64     `json:"final"` // score, move score, power score as the referee scored the whole text
	Forfeit       string       `json:"forfeit,omitempty"`
}

func hexRow(g *hextris.Game, y int) string {
	var b strings.Builder
	for _, w := range g.Row(y) {
		b.WriteString(strconv.FormatUint(w, 16))
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

// hexShapes lists each unit's member offsets per rotation and pivot-row
// parity, as the referee places them.
func hexShapes(p *hextris.Problem) [][][][2]int {
	out := make([][][][2]int, len(p.Units))
	var buf []hextris.Cell
	for i := range p.Units {
		out[i] = make([][][2]int, 2*p.Rotations(i))
		for r := range p.Rotations(i) {
			for par := range 2 {
				pos := hextris.Position{X: 0, Y: int32(par), Rot: uint8(r)}
				buf = p.Cells(i, pos, buf[:0])
				for _, c := range buf {
					out[i][r*2+par] = append(out[i][r*2+par], [2]int{c.X, c.Y - par})
				}
			}
		}
	}
	return out
}

// utf16Index maps the byte offsets of text to the indices of a JavaScript
// string (UTF-16 code units), which the page uses.
func utf16Index(text string) []int {
	idx := make([]int, len(text)+1)
	u := 0
	for i, r := range text {
		for k := i; k < i+utf8.RuneLen(r) && k < len(text); k++ {
			idx[k] = u
		}
		u += len(utf16.Encode([]rune{r}))
	}
	idx[len(text)] = u
	return idx
}

// phraseRanges finds every occurrence of every phrase in the text, ASCII
// letters compared case-insensitively (occurrences may overlap, as the
// scoring counts them), as ranges of JavaScript string indices. The marks
// are for the eye; the score is the referee's.
func phraseRanges(text string, phrases []string, idx []int) [][2]int {
	low := []byte(text)
	for i, b := range low {
		if 'A' <= b && b <= 'Z' {
			low[i] = b + 'a' - 'A'
		}
	}
	var out [][2]int
	for _, ph := range phrases {
		ph = strings.ToLower(ph)
		if ph == "" {
			continue
		}
		for i := 0; ; {
			j := bytes.Index(low[i:], []byte(ph))
			if j < 0 {
				break
			}
			out = append(out, [2]int{idx[i+j], idx[i+j+len(ph)]})
			i += j + 1
		}
	}
	return out
}

// Watch replays the solution text with the referee: one frame for the
// spawn of the first unit and one per executed command.
func (hextrisGame) Watch(c contract.Case, out contract.Outcome, seats []string) (*contract.Replay, error) {
	d, err := hexTypes.data(c)
	if err != nil {
		return nil, err
	}
	var text string
	if err := json.Unmarshal(out.Moves, &text); err != nil {
		return nil, fmt.Errorf("hextris case %s: moves: %w", c.ID, err)
	}
	p := d.Problem
	res := hextris.Play(p, d.Seed, d.Phrases, text)
	idx := utf16Index(text)
	g := hextris.NewGame(p, d.Seed)
	setup := hexSetup{Width: p.Width, Height: p.Height, Shapes: hexShapes(p), Unit: -1, Text: text,
		Phrases: phraseRanges(text, d.Phrases.Phrases(), idx), Error: res.Error, ErrorAt: res.ErrorAt, End: res.EndState,
		Final: [3]int64{res.Score, res.MoveScore, res.PowerScore}}
	for y := range p.Height {
		setup.Board = append(setup.Board, hexRow(g, y))
	}
	fr := hexFrames{Locks: map[int]hexLock{}}
	var steps strings.Builder
	var prev hextris.Position
	frames, next := 0, -1 // next: the offset a contiguous command would have
	addPos := func(at int) {
		_, pos, ok := g.Live()
		if !ok {
			pos = hextris.Position{X: -1, Y: -1}
		}
		if b, ok := hexStep(pos.X-prev.X, pos.Y-prev.Y, int32(pos.Rot)-int32(prev.Rot)); ok && frames > 0 {
			steps.WriteByte(b)
		} else {
			fmt.Fprintf(&steps, "(%d,%d,%d)", pos.X, pos.Y, pos.Rot)
		}
		if at >= 0 {
			at = idx[at]
		}
		if at != next {
			fr.At = append(fr.At, [2]int32{int32(frames), int32(at)})
		}
		prev, next = pos, at+1
		frames++
	}
	if u, _, ok := g.Live(); ok {
		setup.Unit = u
	}
	addPos(-1)
	board := slices.Clone(setup.Board)
	stop := len(text)
	if res.ErrorAt >= 0 {
		stop = res.ErrorAt
	}
	for i := 0; i < stop && !g.Over(); {
		r, w := utf8.DecodeRuneInString(text[i:])
		at := i
		i += w
		cmd, ok, _ := hextris.DecodeChar(r)
		if !ok {
			continue
		}
		locked := g.UnitsLocked()
		if step := g.Step(cmd); step == hextris.StepRepeated || step == hextris.StepOver {
			break
		}
		addPos(at)
		if g.UnitsLocked() == locked {
			continue
		}
		lk := hexLock{Rows: map[int]string{}, Unit: -1, Lines: g.LastLines(), Move: g.MoveScore(), Power: d.Phrases.Score(text[:i])}
		for y := range p.Height {
			if row := hexRow(g, y); row != board[y] {
				lk.Rows[y] = row
				board[y] = row
			}
		}
		if u, _, ok := g.Live(); ok {
			lk.Unit = u
		}
		fr.Locks[frames-1] = lk
	}
	replayed := res.Score
	if f := out.Seats[0].Forfeit; f != "" {
		setup.Forfeit = f
		replayed = 0
	}
	fr.Steps = steps.String()
	r := &contract.Replay{Game: "hextris", Case: c.ID, Seats: seats, Setup: setup, Frames: fr, Count: frames}
	if err := finalScores(r, out, []int64{replayed}); err != nil {
		return nil, err
	}
	r.Title = fmt.Sprintf("hextris problem %d seed %d (%s phrases): %s", p.ID, d.Seed, d.Phrases.Name(), seats[0])
	return r, nil
}

func (hextrisGame) Renderer() string { return hextrisRenderer }
