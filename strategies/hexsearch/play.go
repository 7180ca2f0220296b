package hexsearch

import (
	"context"
	"fmt"
	"time"

	"gauntlet/referees/hextris"
)

// solveOne plays the game with the solver's own settings.
func (s *Solver) solveOne(ctx context.Context, p *hextris.Problem, seed uint32, phrases hextris.PhraseSet) (string, error) {
	s.ctx = ctx
	defer func() { s.ctx = nil }()
	s.prepare(p, phrases)
	s.game.Reset(p, seed)
	s.src = hextris.SourceUnits(p, seed, s.src[:0])
	s.out = s.out[:0]
	s.chosen = s.chosen[:0]
	s.acState = 0
	s.spanPh = -1
	s.tries = append(s.tries[:0], make([]int, len(s.pl.phrases))...)
	// Under a deadline the phrase search, a unit's costliest part, is left
	// out for the rest of the game once the units left would not all be
	// played in half the time left at the pace so far (units cost more as
	// the stack grows, and the search for their locks remains): a whole
	// game with plainer text scores more than a prefix of one.
	deadline, timed := ctx.Deadline()
	start, fast := time.Now(), false
	defer func() {
		if fast {
			s.dpOff = false
		}
	}()
	for !s.game.Over() {
		if ctx.Err() != nil {
			break
		}
		if k := s.game.SourceIndex(); timed && s.dp != nil && !s.dpOff && k > 0 {
			per := time.Since(start) / time.Duration(k)
			if time.Until(deadline) < 2*per*time.Duration(len(s.src)-k) {
				fast, s.dpOff = true, true
			}
		}
		if err := s.placeOne(); err != nil {
			return string(s.out), err
		}
	}
	return string(s.out), nil
}

// placeOne chooses the live unit's lock, writes its commands and plays them.
func (s *Solver) placeOne() error {
	u, pos, _ := s.game.Live()
	k := s.game.SourceIndex()
	s.cur.loadGame(&s.game)
	from := s.g.state(int(pos.X), int(pos.Y), int(pos.Rot))
	s.nodes = 0
	best, ok := s.choose(&s.cur, u, k, from)
	if !ok {
		return fmt.Errorf("hexsearch: unit %d of the source has no lock placement", k)
	}
	n0 := len(s.out)
	if s.cfg.Phrases && s.cfg.Span && s.trySpan(u, k, from, best) {
		return nil
	}
	if s.cfg.Phrases {
		s.used = append(s.used[:0], s.pl.used...)
		out, ok := s.pl.plan(&s.cur, u, from, best.State, best.Cmd, s.out)
		if ok && s.replays(out[n0:]) {
			s.out = out
		} else {
			copy(s.pl.used, s.used)
			s.out = s.out[:n0]
		}
		if s.dp != nil && !s.dpOff {
			s.phraseSearch(u, from, best.State, n0)
		}
	}
	if len(s.out) == n0 {
		// Plain path: redo the search from the spawn (choose may have run
		// later searches on this reach).
		s.rcs[0].searchTree(&s.cur, u, from)
		if err := s.plainPath(best); err != nil {
			return err
		}
	}
	s.play(n0)
	return nil
}

// plainPath appends to s.out the commands of the shortest path to lock
// l that the latest searchTree of s.rcs[0] found, and checks that they
// lock the live unit there.
func (s *Solver) plainPath(l lockAt) error {
	n0 := len(s.out)
	s.cmds = s.rcs[0].path(l.State, l.Cmd, s.cmds[:0])
	for _, c := range s.cmds {
		s.out = append(s.out, c.Char())
	}
	if !s.replays(s.out[n0:]) {
		return fmt.Errorf("hexsearch: internal error: the path of unit %d does not lock where planned", s.game.SourceIndex())
	}
	return nil
}

// play steps the game through s.out[n0:], and follows the text with the
// automaton, marking the phrases that occur as used.
func (s *Solver) play(n0 int) {
	a := s.acState
	for _, ch := range s.out[n0:] {
		c, _, _ := hextris.DecodeChar(rune(ch))
		s.game.Step(c)
		a = s.ac.step(a, ch)
		for _, i := range s.ac.ends(a) {
			s.pl.used[i] = true
		}
	}
	s.acState = a
}

// phraseSearch runs the phrase search for the path of unit u from state
// from to the lock at target (the planner's distances are set for it) and
// replaces the unit's text s.out[n0:] by its text if that scores more
// power points (a partial phrase at the end counted at DPPotential per
// character) and replays.
//
// The search counts the 300 points of an unused phrase at each of its
// occurrences in the unit's text; the exact count decides between the
// two texts. (Searching again without the bonus of a phrase it typed
// twice was tried: it made no difference on the qualifier problems.)
func (s *Solver) phraseSearch(u int, from, target int32, n0 int) {
	s.pl.rc.toTarget(&s.cur, u, target)
	text, _, ok := s.dp.solve(&s.cur, u, from, target, s.acState, s.used, s.dpBuf[:0])
	s.dpBuf = text
	if !ok {
		return
	}
	if len(s.out) > n0 && s.textValue(s.out[n0:]) >= s.textValue(text) {
		return
	}
	if !s.replays(text) {
		return
	}
	copy(s.pl.used, s.used)
	s.out = append(s.out[:n0], text...)
}

// textValue is what text earns in power points when typed after s.out's
// units so far (the used flags of before the current unit), plus
// DPPotential per character of a phrase it leaves partly typed.
func (s *Solver) textValue(text []byte) float64 {
	pts, a := s.ac.score(s.acState, text, s.used, s.seen)
	return s.endValue(pts, a, s.cfg.DPPotential)
}

// endValue is the value of a text that earns pts and leaves the automaton
// at state a, pot a character of a phrase left partly typed (see
// textValue).
func (s *Solver) endValue(pts int, a int32, pot float64) float64 {
	v := float64(pts) + pot*float64(s.ac.cont[a])
	if s.cfg.DPSpan > 0 {
		// A phrase still unused, begun at the lock, as the search values it.
		for n := a; n != 0; n = s.ac.fail[n] {
			if m := s.ac.longer[n]; m != 0 {
				for i := range s.used {
					if m&(1<<uint(i)) != 0 && !s.used[i] {
						v = max(v, float64(pts)+s.cfg.DPSpanPot*float64(s.ac.depth[n]))
						break
					}
				}
				break
			}
		}
	}
	return v
}

// replays checks on a copy of the game that text moves the live unit
// without error and locks it with its last command, and no sooner.
func (s *Solver) replays(text []byte) bool {
	s.check.CopyFrom(&s.game)
	locked := s.game.UnitsLocked()
	for i, ch := range text {
		c, ok, _ := hextris.DecodeChar(rune(ch))
		if !ok {
			return false
		}
		r := s.check.Step(c)
		switch r {
		case hextris.StepMoved:
			if i == len(text)-1 {
				return false
			}
		case hextris.StepLocked, hextris.StepEnded:
			if i != len(text)-1 || s.check.UnitsLocked() != locked+1 {
				return false
			}
		default:
			return false
		}
	}
	return len(text) > 0
}
