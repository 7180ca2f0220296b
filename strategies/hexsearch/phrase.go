package hexsearch

import (
	"slices"
	"strings"

	"gauntlet/referees/hextris"
)

// phrase is one phrase of power that can be typed: its text and commands.
type phrase struct {
	text   string
	cmds   []hextris.Command
	downs  int     // SW and SE moves in it
	after  []int   // after[k]: SW and SE moves in cmds[k:]
	border int     // longest proper prefix that is also a suffix
	rate   float64 // points per down move when repeated
}

// planner writes a unit's path to a chosen lock target with as many
// phrases of power as it can fit: it walks from the spawn, and at every
// position types the most valuable word (a few sideways commands, then a
// phrase, possibly continuing a phrase the text already ends with) after
// which the target stays reachable; unused phrases come first, then the
// points per row descended count. Where no word fits it takes one step of a
// shortest path to the target.
type planner struct {
	g       *geom
	rc      *reach
	phrases []phrase
	used    []bool
	hist    []int32
	hist2   []int32
	hist3   [maxPrefix + 1][]int32 // histories after a down move in a prefix
	memo    []uint32               // failed-descent marks of feasible, by state
	memoGen uint32
}

func newPlanner(g *geom, rc *reach, ps hextris.PhraseSet) *planner {
	pl := &planner{g: g, rc: rc, memo: make([]uint32, g.numStates())}
	seen := map[string]bool{}
	for _, t := range ps.Phrases() {
		t = strings.ToLower(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		ph := phrase{text: t}
		ok := true
		for _, r := range t {
			c, valid, _ := hextris.DecodeChar(r)
			if !valid {
				ok = false
				break
			}
			ph.cmds = append(ph.cmds, c)
			if c == hextris.MoveSW || c == hextris.MoveSE {
				ph.downs++
			}
		}
		if !ok {
			continue
		}
		ph.after = make([]int, len(ph.cmds)+1)
		for k := len(ph.cmds) - 1; k >= 0; k-- {
			ph.after[k] = ph.after[k+1]
			if c := ph.cmds[k]; c == hextris.MoveSW || c == hextris.MoveSE {
				ph.after[k]++
			}
		}
		ph.rate = 2 * float64(len(t)) / float64(max(ph.downs, 1))
		for k := len(t) - 1; k > 0; k-- {
			if t[:k] == t[len(t)-k:] {
				ph.border = k
				break
			}
		}
		pl.phrases = append(pl.phrases, ph)
	}
	pl.used = make([]bool, len(pl.phrases))
	return pl
}

// reset forgets which phrases were used (a new game).
func (pl *planner) reset() {
	clear(pl.used)
}

func inHist(h []int32, s int32) bool {
	return slices.Contains(h, s)
}

// feasible reports whether the target (of the latest toTarget) can be
// reached from cur with row history hist, along a shortest path; it returns
// the first command of such a path (meaningless when cur is the target).
func (pl *planner) feasible(b *board, u int, cur int32, hist []int32) (hextris.Command, bool) {
	d := pl.rc.distTo(cur)
	if d < 0 {
		return 0, false
	}
	if d == 0 {
		return 0, true
	}
	pl.memoGen++
	if pl.memoGen == 0 {
		clear(pl.memo)
		pl.memoGen = 1
	}
	return pl.descend(b, u, cur, d, hist)
}

func (pl *planner) descend(b *board, u int, cur, d int32, hist []int32) (hextris.Command, bool) {
	g := pl.g
	for c := range hextris.NumCommands {
		t, ok := g.next(u, cur, c)
		if !ok || t == cur || pl.rc.distTo(t) != d-1 {
			continue // distTo >= 0 implies t fits
		}
		if c == hextris.MoveSW || c == hextris.MoveSE {
			return c, true // a fresh row: a shortest path never repeats
		}
		if inHist(hist, t) || pl.memo[t] == pl.memoGen {
			continue
		}
		if d == 1 {
			return c, true
		}
		if _, ok := pl.descend(b, u, t, d-1, hist); ok {
			return c, true
		}
		pl.memo[t] = pl.memoGen
	}
	return 0, false
}

// maxPrefix is the longest run of plain commands tried before a phrase;
// at most one of them may move down (sideways ones cost no row of the
// unit's fall, a down move costs one).
const maxPrefix = 3

var prefixDown = true

var prefixCmds = [6]hextris.Command{hextris.MoveW, hextris.MoveE, hextris.RotCW, hextris.RotCCW, hextris.MoveSW, hextris.MoveSE}

// word is a candidate for the next characters: a run of plain commands,
// then phrase ph typed from character skip on (the earlier characters are
// already at the end of the text).
type word struct {
	prefix [maxPrefix]hextris.Command
	np     int
	downs  int // down moves in the prefix
	ph     int
	skip   int
	value  float64
	end    int32
}

// phraseValue is what typing phrase i (from character skip) after a prefix
// with pdowns down moves is worth per row descended: a first use earns its
// 300 bonus, which outranks any repeat.
func (pl *planner) phraseValue(i, skip, pdowns int) float64 {
	ph := &pl.phrases[i]
	v := 2 * float64(len(ph.text))
	if !pl.used[i] {
		v += 300 * 1000
	}
	if skip == 0 {
		skip = ph.border // a self-overlapping phrase starts a chain of repeats
	}
	return v / float64(max(pdowns+ph.after[skip], 1))
}

// overlap returns the longest proper prefix of phrase p that the text ends
// with.
func overlap(text []byte, p string) int {
	for k := min(len(p)-1, len(text)); k > 0; k-- {
		if string(text[len(text)-k:]) == p[:k] {
			return k
		}
	}
	return 0
}

// best finds the most valuable feasible word from cur.
func (pl *planner) best(b *board, u int, cur int32, text []byte) (word, bool) {
	var w, bw word
	bw.value = -1
	// Room for the prefix's states, so that extending a history in
	// prefixes does not allocate.
	if cap(pl.hist)-len(pl.hist) <= maxPrefix {
		pl.hist = append(make([]int32, 0, 2*len(pl.hist)+maxPrefix+1), pl.hist...)
	}
	for i := range pl.hist3 {
		if cap(pl.hist3[i]) <= maxPrefix+1 {
			pl.hist3[i] = make([]int32, 0, maxPrefix+2)
		}
	}
	pl.prefixes(b, u, cur, pl.hist, text, &w, &bw)
	return bw, bw.value >= 0
}

// prefixes tries the words that start with w.prefix[:w.np] (already typed,
// reaching cur with history hist), then extends the prefix.
func (pl *planner) prefixes(b *board, u int, cur int32, hist []int32, text []byte, w, bw *word) {
	for i := range pl.phrases {
		skip := 0
		if w.np == 0 {
			skip = overlap(text, pl.phrases[i].text)
		}
		v := pl.phraseValue(i, skip, w.downs)
		if v <= bw.value {
			continue
		}
		end, ok := pl.tryCmds(b, u, cur, hist, pl.phrases[i].cmds[skip:])
		if !ok {
			continue
		}
		if _, ok := pl.feasible(b, u, end, pl.hist2); !ok {
			continue
		}
		*bw = *w
		bw.ph, bw.skip, bw.value, bw.end = i, skip, v, end
	}
	if w.np == maxPrefix {
		return
	}
	// Extend the prefix by one command.
	g := pl.g
	h0 := len(hist)
	for _, c := range prefixCmds {
		down := c == hextris.MoveSW || c == hextris.MoveSE
		if down && (w.downs > 0 || !prefixDown) {
			continue
		}
		t, ok := g.next(u, cur, c)
		if !ok || t == cur || !b.fits(g, u, t) || (!down && inHist(hist, t)) {
			continue
		}
		if pl.rc.distTo(t) < 0 {
			continue
		}
		w.prefix[w.np] = c
		w.np++
		var h []int32
		if down {
			w.downs++
			h = pl.hist3[w.np][:0]
			h = append(h, t)
			pl.hist3[w.np] = h
		} else {
			hist = append(hist[:h0], t)
			h = hist
		}
		pl.prefixes(b, u, t, h, text, w, bw)
		if down {
			w.downs--
		}
		w.np--
	}
}

// tryCmds types cmds from state cur with row history hist. It returns the
// end state and the history there (in pl.hist2), or false if a command would
// lock the unit or repeat a position.
func (pl *planner) tryCmds(b *board, u int, cur int32, hist []int32, cmds []hextris.Command) (int32, bool) {
	g := pl.g
	pl.hist2 = append(pl.hist2[:0], hist...)
	for _, c := range cmds {
		t, ok := g.next(u, cur, c)
		if !ok || t == cur || !b.fits(g, u, t) {
			return 0, false
		}
		if c == hextris.MoveSW || c == hextris.MoveSE {
			pl.hist2 = append(pl.hist2[:0], t)
		} else {
			if inHist(pl.hist2, t) {
				return 0, false
			}
			pl.hist2 = append(pl.hist2, t)
		}
		cur = t
	}
	return cur, true
}

// step moves cur by c, appending its character and keeping the history.
func (pl *planner) step(u int, cur int32, c hextris.Command, out []byte) (int32, []byte) {
	t, _ := pl.g.next(u, cur, c)
	if c == hextris.MoveSW || c == hextris.MoveSE {
		pl.hist = append(pl.hist[:0], t)
	} else {
		pl.hist = append(pl.hist, t)
	}
	return t, append(out, c.Char())
}

// plan appends to out the characters that take unit u from state from to
// state target and lock it there with lockCmd. text0 is where the text of
// the whole game starts in out (overlaps with earlier units count).
func (pl *planner) plan(b *board, u int, from, target int32, lockCmd hextris.Command, out []byte) ([]byte, bool) {
	pl.rc.toTarget(b, u, target)
	if pl.rc.distTo(from) < 0 {
		return out, false
	}
	pl.hist = append(pl.hist[:0], from)
	return pl.planFrom(b, u, from, lockCmd, out)
}

// planFrom is plan from state cur with the row history in pl.hist, after
// toTarget has run for the target.
func (pl *planner) planFrom(b *board, u int, cur int32, lockCmd hextris.Command, out []byte) ([]byte, bool) {
	for guard := 0; guard < 1<<20; guard++ {
		if w, ok := pl.best(b, u, cur, out[max(0, len(out)-64):]); ok {
			for _, c := range w.prefix[:w.np] {
				cur, out = pl.step(u, cur, c, out)
			}
			ph := &pl.phrases[w.ph]
			for j, c := range ph.cmds[w.skip:] {
				cur, out = pl.step(u, cur, c, out)
				out[len(out)-1] = ph.text[w.skip+j]
			}
			if cur != w.end {
				return out, false
			}
			if !pl.used[w.ph] {
				pl.used[w.ph] = true
			}
			continue
		}
		if pl.rc.distTo(cur) == 0 {
			return append(out, lockCmd.Char()), true
		}
		c, ok := pl.feasible(b, u, cur, pl.hist)
		if !ok {
			return out, false
		}
		cur, out = pl.step(u, cur, c, out)
	}
	return out, false
}

// spanResult is how typing a text from a position ends.
type spanResult uint8

const (
	spanFails  spanResult = iota // a repeated position (or a step off the grid)
	spanLocks                    // a character locks the unit
	spanFinish                   // the text ends with the unit still live
)

// simulate types cmds from state cur with row history hist (copied into
// pl.hist2). It returns how it ends: for spanLocks, the index of the
// locking command and the state where the unit locks; for spanFinish, the
// end state (pl.hist2 holds the history there).
func (pl *planner) simulate(b *board, u int, cur int32, hist []int32, cmds []hextris.Command) (spanResult, int, int32) {
	g := pl.g
	pl.hist2 = append(pl.hist2[:0], hist...)
	for j, c := range cmds {
		t, ok := g.next(u, cur, c)
		if t == cur && ok {
			return spanFails, j, cur // rotating onto itself repeats
		}
		if !ok || !b.fits(g, u, t) {
			return spanLocks, j, cur
		}
		if c == hextris.MoveSW || c == hextris.MoveSE {
			pl.hist2 = append(pl.hist2[:0], t)
		} else {
			if inHist(pl.hist2, t) {
				return spanFails, j, cur
			}
			pl.hist2 = append(pl.hist2, t)
		}
		cur = t
	}
	return spanFinish, len(cmds), cur
}
