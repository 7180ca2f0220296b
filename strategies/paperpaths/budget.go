package paperpaths

import (
	"time"

	"gauntlet/referees/paperio"
)

// decisionLimit is the time this decision may take (0: no limit): the
// per-decision limit, and with a game budget the budget left shared out
// over the decisions left (one a cell at nitro speed, so an upper count),
// doubled while a trail is out, where a choice costs most.
func (b *Bot) decisionLimit(s *paperio.State, p *paperio.Player) time.Duration {
	limit, game := b.timeLimit, b.gameBudget
	if game < 0 {
		game = s.Rules.MaxExecutionTime
		if limit == 0 {
			limit = s.Rules.RequestMaxTime
		}
	}
	if game <= 0 {
		return limit
	}
	cells := max(1, (s.Rules.MaxTickCount-s.Tick)/int(profile{nitro: 1}.ticks(s.Rules.Speed)))
	// A tenth of the budget is kept for the referee's side and the maps.
	share := max(game*9/10-b.spent, 0) / time.Duration(cells)
	if p.NLines > 0 {
		share *= 2
	}
	share = max(share, time.Microsecond)
	if limit == 0 || share < limit {
		limit = share
	}
	return limit
}
