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
