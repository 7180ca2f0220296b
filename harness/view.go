package harness

import (
	"context"
	"fmt"
	"strings"
)

// Replay is one played game made watchable: what the viewer page draws. The
// game writes the frames in its own terms (Viewer.Watch) and draws them with
// its own script (Viewer.Renderer); the page around them (controls, slider,
// keyboard, the score line) is the same for every game.
type Replay struct {
	Game  string `json:"game"`
	Case  string `json:"case"`
	Title string `json:"title"`
	// Seats labels each seat (the entrant's label), in seat order.
	Seats []string `json:"seats"`
	// Scores are the final scores per seat as the referee computed them
	// (the Outcome's): the last frame shows exactly these.
	Scores []float64 `json:"scores"`
	// Setup is drawn under every frame (board size, fixed cells, names).
	Setup any `json:"setup,omitempty"`
	// Frames is the game's frame list, or compact differences between
	// frames where a full frame would be large (the renderer knows which).
	// Frames only carry what the referee computed; the page never applies a
	// rule of the game.
	Frames any `json:"frames"`
	// Count is the number of frames the page steps through.
	Count int `json:"count"`
}

// Viewer is implemented by games whose played games can be watched
// (`gauntlet view`, the replays linked from reports).
type Viewer interface {
	// Watch rebuilds the frames of a played game of case c from its
	// Outcome, whose Moves hold what Play recorded with
	// PlayOptions.RecordMoves (a bot's moves, never the states). seats
	// labels the seats in order.
	Watch(c Case, out Outcome, seats []string) (*Replay, error)
	// Renderer returns the page script that draws this game's frames (its
	// contract is reports.WriteReplay's).
	Renderer() string
}

// WatchStored rebuilds the replay of one stored game of a run, given its
// match key (an eval's case ID; an ab game's "CASE/ab" or "CASE/ba"): from
// its recorded moves, or, where the run kept none (built-in strategies, which
// play the same game again from the same seeds), by playing it again with
// its moves recorded — which must give the stored scores.
func WatchStored(ctx context.Context, st *Store, reg *Registry, runID, key string) (*Replay, Viewer, error) {
	rs, rec, err := LoadResults(ctx, st, reg, runID)
	if err != nil {
		return nil, nil, err
	}
	v, ok := rs.Plan.Game.(Viewer)
	if !ok {
		return nil, nil, fmt.Errorf("game %s has no replay viewer", rec.Game)
	}
	idx := -1
	var keys []string
	for i, m := range rs.Plan.Matches {
		if m.Key == key {
			idx = i
		}
		if rs.Results[i] != nil && len(keys) < 6 {
			keys = append(keys, m.Key)
		}
	}
	if idx < 0 {
		return nil, nil, fmt.Errorf("run %s has no game %q (its games: %s ...)", runID, key, strings.Join(keys, ", "))
	}
	res := rs.Results[idx]
	if res == nil {
		return nil, nil, fmt.Errorf("run %s: game %s was not played", runID, key)
	}
	m := &rs.Plan.Matches[idx]
	labels := make([]string, len(m.Seats))
	for seat, ei := range m.Seats {
		labels[seat] = rs.Plan.Entrants[ei].Label()
		if ei < len(rec.Entrants) {
			labels[seat] = rec.Entrants[ei].Label
		}
	}
	out := res.Outcome
	if out.Moves, err = st.GameMoves(ctx, runID, key); err != nil {
		return nil, nil, err
	}
	if len(out.Moves) == 0 {
		for _, ei := range m.Seats {
			if rs.Plan.Entrants[ei].IsExternal() {
				return nil, nil, fmt.Errorf("run %s game %s: no moves were recorded for its external bot", runID, key)
			}
		}
		again, _, err := PlayMatch(ctx, rs.Plan, m, PlayOptions{RecordMoves: true, NoTimeLimit: true})
		if err != nil {
			return nil, nil, err
		}
		for seat := range again.Seats {
			if again.Seats[seat].Score != out.Seats[seat].Score {
				return nil, nil, fmt.Errorf("run %s game %s: played again, seat %d scores %v where the run stored %v (a strategy with a time budget?)",
					runID, key, seat, again.Seats[seat].Score, out.Seats[seat].Score)
			}
		}
		out.Moves = again.Moves
	}
	r, err := v.Watch(m.Case, out, labels)
	if err != nil {
		return nil, nil, err
	}
	return r, v, nil
}
