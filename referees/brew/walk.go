package brew

import "fmt"

// Walk replays recorded action lines round by round, as the referee plays
// them: before each round it calls visit with the state the players see and
// the round's lines (nil for an inactive player), then parses the lines (a
// line that does not parse disqualifies its player, as on the platform) and
// plays the round. It returns the final state. An action list that ends
// before the game, that goes on after it, or that has no line for an active
// player, is an error naming the round.
func Walk(seed int64, league int, actions [][]*string, visit func(st *State, lines [Players]*string)) (State, error) {
	st, err := New(seed, league)
	if err != nil {
		return st, err
	}
	for !st.Over {
		r := int(st.Round)
		if r >= len(actions) {
			return st, fmt.Errorf("actions end after %d rounds but the game goes on", len(actions))
		}
		if len(actions[r]) != Players {
			return st, fmt.Errorf("actions[%d]: %d entries, want %d", r, len(actions[r]), Players)
		}
		var lines [Players]*string
		for p := range Players {
			if !st.P[p].Active {
				continue
			}
			if actions[r][p] == nil {
				return st, fmt.Errorf("actions[%d][%d]: null for an active player", r, p)
			}
			lines[p] = actions[r][p]
		}
		if visit != nil {
			visit(&st, lines)
		}
		var acts [Players]Action
		var dq [Players]bool
		for p, line := range lines {
			if line == nil {
				continue
			}
			a, err := ParseCommand(*line, int(st.League))
			if err != nil {
				dq[p] = true
				continue
			}
			acts[p] = a
		}
		for p := range dq {
			if dq[p] {
				st.Deactivate(p)
			}
		}
		st.Step(acts)
	}
	if len(actions) > int(st.Round) {
		return st, fmt.Errorf("actions hold %d rounds but the game ended after %d", len(actions), st.Round)
	}
	return st, nil
}
