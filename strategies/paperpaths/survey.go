package paperpaths

import "gauntlet/referees/paperio"

// horizon is how far ahead, in ticks, arrival maps are computed.
const horizon = 800

// cellMaps are what the survey of a decision finds: per cell, the earliest
// opponent arrival, the trail owners, the bonuses, and the distance maps.
type cellMaps struct {
	toHome  [paperio.NumCells]int32 // cells from the own territory, trails ignored
	toEnemy [paperio.NumCells]int32 // cells from the nearest enemy cell (approach, exposed)
	// Own cells left exposed with the head at each cell (exposed), by
	// the tick our head is there (exposed_timed: exposure[k] for ticks
	// k<<exposureShift on; untimed, exposure[0]), and the own cells that
	// map is built from.
	exposure [exposureSteps][paperio.NumCells]int32
	guarded  [paperio.NumCells]guardCell
	tickMin  int32 // fewest ticks a cell can take (nitro)
	left     int32 // ticks left in the game

	st     *paperio.State // the state of this decision (survey), read only
	me     int            // our player ID
	arr    *arrivals
	arrive [paperio.NumCells]int32 // earliest opponent arrival in ticks
	bare   [paperio.NumCells]int32 // the same, of the opponents with no trail now (kept with close_guard_bare only)
	homeAt [paperio.MaxPlayers]int32
	// Per opponent, the earliest arrival on each cell before it has been
	// home (index 0) and after (1) (close_guard_out only).
	oppArr  [paperio.MaxPlayers][2][paperio.NumCells]int32
	terrEnd [paperio.NumCells]int32 // tick from now an own cell may be lost (terr_life), else unreached
	eatAt   [paperio.NumCells]int32 // tick from now an opponent's capture may take the cell (eat_guard), else unreached
	eatBy   [paperio.NumCells]uint8 // the opponents (bit k) whose capture takes it
	eatOut  [paperio.NumCells]int32 // cells from the nearest cell no capture takes
	owner   [paperio.NumCells]int8  // 1 + index of the player whose trail holds the cell
	bonus   [paperio.NumCells]bonusCell
}

// survey fills the arrival map (earliest tick any live opponent can stand
// on each cell), each opponent's earliest way home, the trail owners and
// the map bonuses.
func (b *Bot) survey(s *paperio.State, me int) {
	b.st, b.me = s, me
	for i := range b.arrive {
		b.arrive[i] = unreached
		b.owner[i] = 0
		b.bonus[i] = bonusCell{}
	}
	if b.closeBare { // the map is read by the closing guard only
		for i := range b.bare {
			b.bare[i] = unreached
		}
	}
	for _, mb := range s.MapBonuses() {
		k := bonusNone
		switch mb.Kind {
		case paperio.Nitro:
			k = bonusNitro
		case paperio.Slowdown:
			k = bonusSlow
		case paperio.Saw:
			k = bonusSaw
		}
		b.bonus[mb.Cell] = bonusCell{kind: k, active: int16(mb.Active)}
	}
	for k := 0; k < s.N; k++ {
		o := &s.Players[k]
		b.homeAt[k] = unreached
		if !o.Alive || o.ID == me {
			continue
		}
		for _, c := range o.Trail() {
			b.owner[c] = int8(k + 1)
		}
		b.homeAt[k] = b.arr.run(o, s.Rules.Speed, &b.bonus, horizon)
		b.arr.minInto(&b.arrive)
		if b.closeBare && o.NLines == 0 {
			b.arr.minInto(&b.bare)
		}
		if b.closeOut > 0 {
			b.arr.splitInto(&b.oppArr[k][0], &b.oppArr[k][1])
		}
	}
	if b.terrLife || b.eatGuard || b.threat > 0 {
		b.territoryLife(s, me)
	}
}
