package paperpaths

import (
	"math"
	"math/bits"

	"gauntlet/referees/paperio"
)

// samplePath draws one random loop from the head (or, with a script, walks
// the script's cells from the head and then a shortest way home) and scores
// it; ok is false for an unsafe or impossible loop. The cells walked are
// left in b.walk.
func (b *Bot) samplePath(s *paperio.State, p *paperio.Player, head paperio.Cell, trail []paperio.Cell, trailArrive, out int32, pr profile, enemy *paperio.Bits, script []paperio.Cell) (paperio.Dir, float64, bool) {
	b.onPath = paperio.Bits{}
	b.lines = append(b.lines[:0], trail...)
	b.walk = b.walk[:0]
	b.walkAt = b.walkAt[:0]
	b.slack = -unreached
	b.taken = 0
	base := s.Rules.Speed
	cur, dir := head, p.Dir
	first := paperio.DirNone
	var outLen int
	if script != nil {
		outLen = len(script)
	} else {
		outLen = 1 + b.rng.IntN(b.maxLen)
	}
	w := walker{pr: pr, at: head}
	inside := 0
	minArrive := trailArrive
	closed := false
	for i := 0; i < outLen; i++ {
		var d paperio.Dir
		var n paperio.Cell
		if script != nil {
			var ok bool
			n = script[i]
			if d, ok = dirTo(cur, n); !ok || d == dir.Reverse() && dir != paperio.DirNone ||
				p.TrailBits.Has(n) || b.onPath.Has(n) || first == paperio.DirNone && !p.CanTurn(d) {
				return 0, 0, false
			}
		} else if b.safeWalk {
			var ok bool
			d, n, ok = b.safeStep(p, cur, dir, &w, base, minArrive, len(b.lines) > 0, first == paperio.DirNone)
			if !ok {
				if first == paperio.DirNone {
					return 0, 0, false
				}
				break
			}
		} else {
			d = dir
			if d == paperio.DirNone || b.rng.Float64() >= b.forward {
				d = dirs[b.rng.IntN(4)]
			}
			if d == dir.Reverse() && dir != paperio.DirNone {
				d = dir
			}
			var ok bool
			n, ok = cur.Step(d)
			if !ok || p.TrailBits.Has(n) || b.onPath.Has(n) {
				// Try the other turns once before giving up on the walk.
				found := false
				for _, alt := range dirs {
					if alt == dir.Reverse() && dir != paperio.DirNone {
						continue
					}
					if m, ok2 := cur.Step(alt); ok2 && !p.TrailBits.Has(m) && !b.onPath.Has(m) {
						d, n, found = alt, m, true
						break
					}
				}
				if !found {
					return 0, 0, false
				}
			}
			if first == paperio.DirNone && !p.CanTurn(d) {
				return 0, 0, false
			}
		}
		if first == paperio.DirNone {
			first = d
		}
		w.step(b, n, base)
		b.walk = append(b.walk, n)
		b.walkAt = append(b.walkAt, w.t)
		cur, dir = n, d
		if b.ours(p, n, w.t) {
			if len(b.lines) > 0 {
				b.lines = append(b.lines, n)
				closed = true
				break
			}
			inside++
			continue
		}
		b.onPath.Set(n)
		b.lines = append(b.lines, n)
		minArrive = min(minArrive, b.arrive[n])
	}
	if first == paperio.DirNone {
		return 0, 0, false
	}
	if !closed && len(b.lines) > 0 {
		if b.homeDist(p, cur, dir, w.t, w.pr.ticks(base)) < 0 {
			return 0, 0, false
		}
		// Walk the way home with the timing.
		n0 := len(b.lines)
		b.lines = b.appendWay(b.lines, cur, b.goal)
		b.walk = append(b.walk, b.lines[n0:]...)
		for _, x := range b.lines[n0:] {
			w.step(b, x, base)
			b.walkAt = append(b.walkAt, w.t)
			if !b.ours(p, x, w.t) {
				minArrive = min(minArrive, b.arrive[x])
			}
		}
	}
	if len(b.lines) > 0 {
		b.slack = minArrive - w.t
	} else {
		b.slack = unreached
	}
	// A head inside an opponent's capture when it closes is eaten.
	if b.eatGuard && (w.eaten || w.trapped(b, base)) {
		return 0, 0, false
	}
	// A capture beats a cut in the same tick: an arrival at the closing
	// tick itself is safe.
	if len(b.lines) > 0 && float64(minArrive) < float64(w.t)+b.margin {
		return 0, 0, false
	}
	// Heads closer than a cell meet head on: an opponent that can be at
	// the closing cell soon after the loop closes can kill us there
	// (with close_guard_bare, one that comes from its land with no trail).
	guard := &b.arrive
	if b.closeBare {
		guard = &b.bare
	}
	if b.closeGuard > 0 && len(b.lines) > 0 && float64(guard[b.lines[len(b.lines)-1]]) < float64(w.t)+b.closeGuard {
		return 0, 0, false
	}
	if n := len(b.lines); b.closeOut > 0 && n > 1 {
		// The last step runs from the last trail cell to the closing cell.
		tpc := profile{}.ticks(base)
		if b.meetsAtClose(b.lines[n-1], w.t, int32(n-1), tpc) || b.meetsAtClose(b.lines[n-2], w.t, int32(n-1), tpc) {
			return 0, 0, false
		}
	}
	if b.maxOut > 0 && len(b.lines) > 0 && out+w.t > b.maxOut {
		return 0, 0, false
	}
	if b.endClose && len(b.lines) > 0 && w.t > b.left {
		return 0, 0, false
	}
	if b.rush && len(b.lines) > 0 {
		// Home soonest, cutting a trail on the way if one can be cut.
		return first, float64(bits.OnesCount8(w.killed))*killRank - float64(w.t), true
	}
	var value float64
	var got, enemyGot paperio.Bits
	if len(b.lines) >= 2 {
		got = paperio.Capture(&p.Terr, b.lines)
		enemyGot = got
		for j := range enemyGot {
			enemyGot[j] &= enemy[j]
		}
		b.taken = enemyGot.Count()
	}
	if b.estimator > 0 {
		if score, ok := b.ordered(s, &w, &got, &enemyGot, out, len(b.lines) > 0); ok {
			return first, score, true
		}
	}
	if len(b.lines) >= 2 {
		if b.life > 0 {
			value = b.lifeValue(&got, &enemyGot, w.t)
		} else {
			ne := got.Count() - enemyGot.Count()
			value = b.wNeutral*float64(ne) + b.wEnemy*float64(enemyGot.Count())
		}
	}
	for killed := w.killed; killed != 0; killed &= killed - 1 {
		value += b.wKill
	}
	value += b.wNitro*float64(w.nitro) - b.wSlow*float64(w.slow) + b.wSaw*w.saw
	value += b.wHome * float64(inside) / float64(b.maxLen)
	if b.expose > 0 {
		value -= b.expose * float64(b.walkExposure(head))
	}
	t := float64(w.t) + b.timeBias
	if b.approach > 0 && len(b.walk) > 0 {
		if d := b.toEnemy[b.walk[len(b.walk)-1]]; d != unreached {
			t += b.approach * float64(d*profile{}.ticks(base))
		}
	}
	pow := b.timePow
	if b.endTicks > 0 && b.left <= b.endTicks {
		pow = b.endPow // the game's last ticks (end_ticks)
	}
	score := value / t
	if pow != 1 {
		score = value / math.Pow(t, pow)
	}
	if b.estimator > 0 || b.killFirst {
		score += float64(bits.OnesCount8(w.killed)) * killRank
	}
	return first, score, true
}

// meetsAtClose reports whether an opponent can stand on cell c, one end of
// our last step (the last trail cell or the closing cell), within
// close_guard_out ticks of our closing at tick t with a trail no longer than
// ours (lines cells) when it gets there. Heads closer than a cell in both
// axes kill the longer trail (both when equal): in the last cell's time
// before the capture clears our trail our head is within a cell of both
// ends, and so is the head of one coming to either end within a cell's time
// after the closing, whichever side it comes from (a trail cell reached
// later than that is cut after the capture, which is safe). An opponent
// away from home meets us with its trail now and a cell more for each
// cell's time (tpc ticks) on the way before c; one that has been home on
// the way may have almost none.
func (b *Bot) meetsAtClose(c paperio.Cell, t, lines, tpc int32) bool {
	limit := float64(t) + b.closeOut
	for k := 0; k < b.st.N; k++ {
		o := &b.st.Players[k]
		if !o.Alive || o.ID == b.me {
			continue
		}
		n := int32(o.NLines)
		if float64(b.oppArr[k][1][c]) < limit {
			return true
		}
		if a := b.oppArr[k][0][c]; float64(a) < limit && n+a/tpc-1 <= lines {
			return true
		}
	}
	return false
}

// walker times a path cell by cell and counts what it meets.
type walker struct {
	t           int32        // ticks from now to reach the last cell
	pr          profile      // own speed profile from there
	at          paperio.Cell // the last cell reached
	nitro, slow int          // bonuses picked up
	saw         float64      // points the saws picked up are expected to score (w_saw > 0)
	killed      uint8        // opponents (bit k-1) whose trail the path cuts before they can be home
	eaten       bool         // the path stands in an opponent's capture when it is made (eat_guard)
}

// trapped reports whether the head at the walk's last cell, reached at
// w.t, stands in an opponent's capture when it is made: it cannot walk out
// of the capture's cells in time.
func (w *walker) trapped(b *Bot, base int) bool {
	out := b.eatOut[w.at]
	if out >= unreached {
		return b.eaten(w.at, w.t, unreached, w.killed)
	}
	return b.eaten(w.at, w.t, w.t+out*w.pr.ticks(base), w.killed)
}

// step moves to the next cell n.
func (w *walker) step(b *Bot, n paperio.Cell, base int) {
	tick := w.pr.ticks(base)
	if b.eatGuard && b.eaten(w.at, w.t, w.t+tick, w.killed) {
		w.eaten = true
	}
	w.t += tick
	w.pr = w.pr.arrive(b.bonus[n])
	switch b.bonus[n].kind {
	case bonusNitro:
		w.nitro++
	case bonusSlow:
		w.slow++
	case bonusSaw:
		if d, ok := dirTo(w.at, n); ok && b.wSaw > 0 && w.t < b.arrive[n] {
			w.saw += b.sawPoints(n, d, w.t, tick)
		}
	}
	w.at = n
	if o := b.owner[n]; o > 0 && w.t < b.homeAt[o-1] {
		w.killed |= 1 << (o - 1)
	}
}
