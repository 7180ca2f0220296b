package workflow

import (
	"context"
	"os"

	"gauntlet/harness/cli"
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/harness/runner"
	"gauntlet/internal/botlog"
)

// PlayRequest is one game: a case and the entrants seat by seat.
type PlayRequest struct {
	Options
	Case   string   // a case ID, or a case set of one case
	Lineup string   // entrants seat by seat (--entrants)
	Extra  []string // more entrants after them (--entrant)
	Record string   // file for the game's replayable record ("": none)
}

// PlayResult is a game played.
type PlayResult struct {
	Game     string           `json:"game"`
	Case     string           `json:"case"`
	Entrants []string         `json:"entrants"`
	Outcome  contract.Outcome `json:"outcome"`
	// Logs are the external bots' stderr, seat by seat (those that
	// wrote some), unless --bot-logs none.
	Logs   []SeatLog `json:"logs,omitempty"`
	WallMS float64   `json:"-"`
}

// SeatLog is one seat's stderr in a game.
type SeatLog struct {
	Seat    int           `json:"seat"`
	Entrant string        `json:"entrant"`
	Log     botlog.Record `json:"log"`
}

// seatLogs are the logs of a game's outcome that hold something.
func seatLogs(logs []*botlog.Log, labels []string) []SeatLog {
	var out []SeatLog
	for seat, l := range logs {
		if l != nil && !l.Empty() {
			out = append(out, SeatLog{Seat: seat, Entrant: labels[seat], Log: l.Record()})
		}
	}
	return out
}

// oneCase is the one case --case names in game g.
func oneCase(g contract.Game, id string) (contract.Case, error) {
	if id == "" {
		return contract.Case{}, cli.Usagef("--case is required")
	}
	cases, err := g.Cases(id)
	if err != nil {
		return contract.Case{}, cli.Usagef("--case: %v", err)
	}
	if len(cases) != 1 {
		return contract.Case{}, cli.Usagef("--case %s names %d cases; give one case (the first is %s)", id, len(cases), cases[0].ID)
	}
	return cases[0], nil
}

// Play checks the request and plays its game, writing its record.
func Play(ctx context.Context, req PlayRequest) (res *PlayResult, err error) {
	g, err := req.ResolveGame()
	if err != nil {
		return nil, err
	}
	c, err := oneCase(g, req.Case)
	if err != nil {
		return nil, err
	}
	if err := cli.OutputFile("--record", req.Record); err != nil {
		return nil, err
	}
	var ents []*entrant.Entrant
	if req.Lineup != "" {
		if ents, err = entrant.ParseLineup(contract.Default, req.Game, req.Lineup); err != nil {
			return nil, cli.Usagef("--entrants: %v", err)
		}
	}
	for _, spec := range req.Extra {
		en, err := entrant.Parse(contract.Default, req.Game, spec)
		if err != nil {
			return nil, cli.Usagef("--entrant: %v", err)
		}
		ents = append(ents, en)
	}
	if len(ents) == 0 {
		return nil, cli.Usagef("--entrants is required")
	}
	info := g.Info()
	if len(ents) < info.MinSeats || len(ents) > info.MaxSeats {
		return nil, cli.Usagef("game %s takes %d to %d players, got %d", info.Name, info.MinSeats, info.MaxSeats, len(ents))
	}
	opt := req.PlayOptions()
	if req.Record != "" {
		f, err := os.Create(req.Record)
		if err != nil {
			return nil, err
		}
		defer closeInto(&err, f)
		opt.Record = f
	}
	seats := make([]int, len(ents))
	for i := range seats {
		seats[i] = i
	}
	plan := &runner.Plan{Game: g, Entrants: ents}
	m := runner.Match{Key: c.ID, Case: c, Seats: seats}
	out, wall, err := runner.PlayMatch(ctx, plan, &m, opt)
	if err != nil {
		return nil, err
	}
	res = &PlayResult{Game: info.Name, Case: c.ID, Outcome: out, WallMS: float64(wall) / 1e6}
	for _, en := range ents {
		res.Entrants = append(res.Entrants, en.Label())
	}
	res.Logs = seatLogs(out.Logs, res.Entrants)
	return res, nil
}
