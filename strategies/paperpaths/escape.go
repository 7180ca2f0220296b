package paperpaths

import "gauntlet/referees/paperio"

// escapeStep is, with a trail out and no safe loop, the allowed first move
// whose shortest way home leaves the most ticks between closing the loop
// and the earliest opponent arrival on the trail, or DirNone.
func (b *Bot) escapeStep(s *paperio.State, p *paperio.Player, head paperio.Cell, trail []paperio.Cell, trailArrive, out int32, pr profile, enemy *paperio.Bits) paperio.Dir {
	best, bestSlack := paperio.DirNone, -unreached
	var step [1]paperio.Cell
	for _, d := range dirs {
		if b.forbiddn[d] || !legalMove(p, d) {
			continue
		}
		step[0], _ = head.Step(d)
		b.samplePath(s, p, head, trail, trailArrive, out, pr, enemy, step[:])
		if b.slack > bestSlack {
			best, bestSlack = d, b.slack
		}
	}
	return best
}
