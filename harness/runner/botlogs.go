package runner

import (
	"context"
	"fmt"
	"slices"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/botlog"
)

// captureLogs gives each external seat of a game a log of its stderr when
// opt.BotLogs captures them (nil otherwise: nothing is allocated).
func captureLogs(opt contract.PlayOptions, p *Plan, m *Match, players []contract.Player) []*botlog.Log {
	if !opt.BotLogs.Capture() {
		return nil
	}
	var logs []*botlog.Log
	for seat, ei := range m.Seats {
		if !p.Entrants[ei].IsExternal() {
			continue
		}
		if logs == nil {
			logs = make([]*botlog.Log, len(m.Seats))
		}
		logs[seat] = botlog.New(botlog.DefaultCap)
		players[seat].Command.Stderr = logs[seat]
	}
	return logs
}

// attachLogs puts a game's logs in its outcome, and their PDATA values in
// its detail (botlog.DetailKey).
func attachLogs(out *contract.Outcome, logs []*botlog.Log) {
	if logs == nil {
		return
	}
	out.Logs = logs
	for seat, l := range logs {
		if l == nil {
			continue
		}
		for k, v := range l.PData() {
			if out.Detail == nil {
				out.Detail = map[string]any{}
			}
			out.Detail[botlog.DetailKey(seat, k)] = v
		}
	}
}

// logKeeper decides which stored games keep their bots' logs (the
// policy's): a game with a forfeit at once, with it; under botlog.Errors
// the latest botlog.DefaultRecent others too, held here until the run's
// end (a worker killed meanwhile loses those).
type logKeeper struct {
	policy botlog.Policy
	recent []store.GameBotLogs // a ring of the latest games
	next   int                 // where the next one goes in recent
}

// take returns the logs a finished game keeps with it, and drops them from
// its outcome (a run's results hold no logs).
func (k *logKeeper) take(key string, out *contract.Outcome) []store.BotLog {
	logs := out.Logs
	out.Logs = nil
	if logs == nil {
		return nil
	}
	why := store.KeptRecent
	switch {
	case k.policy == botlog.All:
		why = store.KeptAll
	case forfeited(out):
		why = store.KeptForfeit
	}
	kept := records(logs, why)
	if why != store.KeptRecent || kept == nil {
		return kept
	}
	g := store.GameBotLogs{Key: key, Logs: kept}
	if len(k.recent) < botlog.DefaultRecent {
		k.recent = append(k.recent, g)
	} else {
		k.recent[k.next] = g
	}
	k.next = (k.next + 1) % botlog.DefaultRecent
	return nil
}

// latest returns the recent games' logs, oldest first, and forgets them.
func (k *logKeeper) latest() []store.GameBotLogs {
	out := k.recent
	if len(out) == botlog.DefaultRecent {
		out = append(slices.Clone(out[k.next:]), out[:k.next]...)
	}
	k.recent, k.next = nil, 0
	return out
}

// forfeited reports whether a seat of the game forfeited.
func forfeited(out *contract.Outcome) bool {
	for _, s := range out.Seats {
		if s.Forfeit != "" {
			return true
		}
	}
	return false
}

// records are the logs that hold something, as stored.
func records(logs []*botlog.Log, why string) []store.BotLog {
	var out []store.BotLog
	for seat, l := range logs {
		if l == nil || l.Empty() {
			continue
		}
		out = append(out, store.BotLog{Seat: seat, Why: why, Record: l.Record()})
	}
	return out
}

// saveRecentLogs stores the logs of the latest games this worker played
// that keep them as recent ones (see logKeeper).
func (rn *Runner) saveRecentLogs(ctx context.Context, p *Plan, k *logKeeper) error {
	latest := k.latest()
	if rn.Store == nil || len(latest) == 0 {
		return nil
	}
	if err := rn.Store.SaveRecentBotLogs(context.WithoutCancel(ctx), p.Run.ID, latest, botlog.DefaultRecent); err != nil {
		return fmt.Errorf("bots' logs of the latest games: %w", err)
	}
	return nil
}
