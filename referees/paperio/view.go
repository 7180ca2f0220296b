package paperio

// ViewRules are the rules a bot knows in a game played under r: known, the
// constants it was built for (DefaultRules for the server's games,
// FinalsRules for the finals'), with the speed r's start_game message
// gives. The runner's messages say nothing else: not the tick count, not
// the clock.
func ViewRules(known, r *Rules) Rules {
	v := *known
	if startSpeed(r.Speed) {
		v.Speed = r.Speed
	}
	return v
}

// startSpeed reports whether a start_game message's speed is one a bot
// takes: a whole number of ticks to cross a cell. Anything else leaves
// the speed the bot knows.
func startSpeed(speed int) bool {
	return speed > 0 && speed <= Width && Width%speed == 0
}

// View sets dst to the game as player id's tick message shows it to a bot
// built for the rules known: what a bot speaking the runner's protocol
// reconstructs (TickParams.Fill of s.AppendTick(id), with ViewRules),
// without the text. Dead players are
// absent, held bonuses show their remaining cells (tick 0), and nothing
// the messages leave out (death causes, the local-mode stop) is carried.
// Built-in bots get this view, so that they know what a submitted bot
// knows.
func (s *State) View(dst *State, id int, known *Rules) {
	*dst = State{Rules: ViewRules(known, &s.Rules), Tick: s.Tick, N: s.N}
	for k := 0; k < s.N; k++ {
		p := &dst.Players[k]
		p.ID = k + 1
		src := &s.Players[k]
		if !src.Alive {
			continue
		}
		p.Alive = true
		p.X, p.Y = src.X, src.Y
		p.Score = src.Score
		p.Dir = src.Dir
		p.Terr = src.Terr
		for _, c := range src.Trail() {
			p.Lines[p.NLines] = c
			p.NLines++
			p.TrailBits.Set(c)
		}
		for _, h := range src.Bonuses() {
			p.Held[p.NHeld] = Held{Kind: h.Kind, Active: int32(h.Remaining())}
			p.NHeld++
		}
		p.Speed = speedOf(dst.Rules.Speed, p.Bonuses())
	}
	for _, b := range s.MapBonuses() {
		dst.Bonuses[dst.NBonuses] = b
		dst.NBonuses++
	}
}
