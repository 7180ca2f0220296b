package contract

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
	// Logs are the external bots' stderr, shown beside the board (see
	// AddLog); LogsURL, when set, links the whole logs as text.
	Logs    []ReplayLog `json:"logs,omitempty"`
	LogsURL string      `json:"logs_url,omitempty"`
}

// ReplayLog is one seat's stderr in a replay.
type ReplayLog struct {
	Seat int `json:"seat"`
	// Turns are its lines by turn, escaped (botlog.Record.Turns): turn 0
	// what the bot wrote before its first input, turn k what it wrote
	// from its k-th input on.
	Turns [][]string `json:"turns"`
	// Frames holds the frame each turn is shown with when the game's
	// frames follow its inputs (TurnFramer); nil otherwise: the page
	// shows the whole log.
	Frames []int `json:"frames,omitempty"`
}

// TurnFramer is implemented by viewers whose frames follow an external
// bot's inputs, so that its stderr can be shown turn by turn.
type TurnFramer interface {
	// TurnFrame is the frame showing the game as the bot saw it at its
	// input turn (1 for its first; 0: before it), in a replay of the
	// game's frames.
	TurnFrame(turn int) int
}

// AddLog adds seat's stderr (lines by turn) to the replay, mapped to its
// frames when v is a TurnFramer.
func (r *Replay) AddLog(seat int, turns [][]string, v Viewer) {
	l := ReplayLog{Seat: seat, Turns: turns}
	if tf, ok := v.(TurnFramer); ok {
		l.Frames = make([]int, len(turns))
		for t := range turns {
			l.Frames[t] = min(max(tf.TurnFrame(t), 0), max(r.Count-1, 0))
		}
	}
	r.Logs = append(r.Logs, l)
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
