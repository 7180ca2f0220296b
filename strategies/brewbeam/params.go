package brewbeam

import (
	"time"

	"gauntlet/strategies/param"
)

// Params are the parameters of brewbeam: the search shape and budget, the
// evaluation weights and the opponent model.
var Params = param.Specs{
	{Name: "width", Kind: param.Int, Min: 1, Max: 5000, Default: 400,
		Help: "beam width: states kept per depth"},
	{Name: "depth", Kind: param.Int, Min: 1, Max: 40, Default: 14,
		Help: "own actions searched ahead (the game's round limit caps it)"},
	{Name: "nodes", Kind: param.Int, Min: 100, Max: 10000000, Default: 60000,
		Help: "search budget per turn in generated states; deeper levels are skipped once spent"},
	{Name: "time_ms", Kind: param.Int, Min: 0, Max: 10000, Default: 0,
		Help: "per-turn wall-clock limit in milliseconds on top of the node budget (0 = none, reproducible)", Clock: true},
	{Name: "discount", Kind: param.Float, Min: 0.5, Max: 1, Default: 0.95,
		Help: "factor applied per depth to the points of a brew (sooner is surer); disc_ahead replaces it in turns where we lead"},
	{Name: "disc_ahead", Kind: param.Float, Min: 0, Max: 1, Default: 0,
		Help: "discount in turns where we have brewed more potions than the opponent, so that a lead buys patience (0: the discount in every turn)"},
	{Name: "w_score", Kind: param.Float, Min: 0, Max: 5, Default: 1,
		Help: "weight of the points earned by brewing"},
	{Name: "w_brew", Kind: param.Float, Min: 0, Max: 50, Default: 5,
		Help: "bonus per potion brewed, discounted like its price (pace: the sixth potion ends the game)"},
	{Name: "w_urgency", Kind: param.Float, Min: 0, Max: 5, Default: 0.5,
		Help: "extra weight of the urgency-bonus part of a brew's price"},
	{Name: "w_tier0", Kind: param.Float, Min: 0, Max: 5, Default: 0.8,
		Help: "value of a held tier-0 ingredient before the end phase"},
	{Name: "w_tier1", Kind: param.Float, Min: 0, Max: 5, Default: 2,
		Help: "value of a held tier-1 ingredient before the end phase"},
	{Name: "w_tier2", Kind: param.Float, Min: 0, Max: 5, Default: 3,
		Help: "value of a held tier-2 ingredient before the end phase"},
	{Name: "w_tier3", Kind: param.Float, Min: 0, Max: 5, Default: 4,
		Help: "value of a held tier-3 ingredient before the end phase"},
	{Name: "w_end_tier", Kind: param.Float, Min: 0, Max: 5, Default: 1,
		Help: "value of a held tier-1..3 ingredient in the end phase (the game pays 1 point each; tier 0 is worth nothing)"},
	{Name: "end_round", Kind: param.Int, Min: 0, Max: 100, Default: 85,
		Help: "round from which the end phase starts (it also starts once a player is one brew from the goal)"},
	{Name: "w_spell", Kind: param.Float, Min: 0, Max: 20, Default: 1,
		Help: "value of a spell learnt during the search"},
	{Name: "w_spell_gain", Kind: param.Float, Min: 0, Max: 5, Default: 0.5,
		Help: "extra value per unit of a learnt spell's net gain (ingredient change weighted 1, 2, 3, 4 by tier)"},
	{Name: "w_castable", Kind: param.Float, Min: 0, Max: 5, Default: 0.565,
		Help: "value of each castable (not exhausted) spell"},
	{Name: "w_order", Kind: param.Float, Min: 0, Max: 5, Default: 0.346,
		Help: "weight of the progress towards the best remaining order (its price scaled by the share of its tier-weighted cost held)"},
	{Name: "w_win", Kind: param.Float, Min: 0, Max: 1000, Default: 100,
		Help: "bonus (or penalty) for a line that ends the game ahead (or behind)"},
	{Name: "w_win_disc", Kind: param.Int, Min: 0, Max: 1, Default: 1,
		Help: "1: the ingredient points and w_win of a line that ends the game are discounted by its depth like a brew (an earlier win is worth more)"},
	{Name: "eval_sum", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "1: a line is worth the discounted sum of the values of every state on it (points held, potions brewed, the state's evaluation), not its last state's alone, so what comes sooner counts at more depths"},
	{Name: "learn_turns", Kind: param.Int, Min: 0, Max: 100, Default: 19,
		Help: "LEARN is searched only while the round is below this"},
	{Name: "learn_first", Kind: param.Int, Min: 0, Max: 100, Default: 8,
		Help: "in rounds below this the turn's action is a LEARN (the search picks which) while the tome has spells"},
	{Name: "learn_pick", Kind: param.Int, Min: 0, Max: 1, Default: 1,
		Help: "1: the LEARNs of the learn_first rounds are chosen by reach (what the spell book makes of an empty inventory in 14 turns of casting), not by the search"},
	{Name: "w_learn_tier0", Kind: param.Float, Min: 0, Max: 5, Default: 0.3,
		Help: "learn_pick 1: value of each tier-0 ingredient a LEARN costs or brings"},
	{Name: "opp_model", Kind: param.Int, Min: 0, Max: 2, Default: 2,
		Help: "1: the order the opponent can brew now is assumed gone after the first turn, and a game-ending brew of the opponent ends the search; " +
			"2: a search from the opponent's seat (opp_nodes, opp_width, opp_depth) predicts its brews turn by turn, they are gone for us from the next turn, and its game-ending brew ends our lines there"},
	{Name: "opp_nodes", Kind: param.Int, Min: 100, Max: 10000000, Default: 30000,
		Help: "opp_model 2: search budget of the opponent's search in generated states (at most half of nodes)"},
	{Name: "opp_width", Kind: param.Int, Min: 1, Max: 5000, Default: 200,
		Help: "opp_model 2: beam width of the opponent's search (at most width)"},
	{Name: "opp_depth", Kind: param.Int, Min: 1, Max: 40, Default: 14,
		Help: "opp_model 2: the opponent's actions searched ahead (at most depth)"},
	{Name: "opp_deny", Kind: param.Int, Min: 0, Max: 1, Default: 1,
		Help: "opp_model 2: 1: when the opponent's predicted line ends the game, a second search predicts its play without the order its last brew takes, for our lines that brew that order first (they go on past that turn)"},
	{Name: "opp_lines", Kind: param.Int, Min: 1, Max: maxAlt + 1, Default: 3,
		Help: "opp_model 2: forecasts of the opponent's play our move is judged against: its search's best line and, above 1, its best lines with another first brew (order or turn) or another game-ending turn, one search of ours each"},
	{Name: "opp_final", Kind: param.Int, Min: 0, Max: 1, Default: 0,
		Help: "opp_model 2: the opponent's final score our game-ending lines are judged against, were the game to end after d actions: " +
			"0: its points and ingredients now plus its forecast line's brews, net of their cost; 1: its forecast line's points and tier-1..3 ingredients after d actions, its casts included"},
	{Name: "opp_judge", Kind: param.Int, Min: 0, Max: 2, Default: 2,
		Help: "opp_model 2: what the opponent's search judges its game-ending lines against, as won or lost: " +
			"0: our points and tier-1..3 ingredients now; 1: our points now alone; 2: nothing (every end of its own is won: an opponent that ends the game as soon as it can)"},
	{Name: "opp_spread", Kind: param.Float, Min: 0, Max: 1, Default: 0.25,
		Help: "opp_lines above 1: weight of each other forecast's best line for a first action, beside 1 for the best forecast's"},
}

// config is the validated settings of one bot.
type config struct {
	width, depth, nodes int
	timeLimit           time.Duration
	discount            float32
	discAhead           float32
	wScore, wUrgency    float32
	wBrew               float32
	wTier               [4]float32
	wEnd                float32
	endRound            int32
	wSpell, wSpellGain  float32
	wCastable, wOrder   float32
	wWin                float32
	winDisc             bool
	evalSum             bool
	learnTurns          int32
	learnFirst          int32
	learnPick           bool
	wLearn0             float32
	oppModel            int
	oppNodes, oppWidth  int
	oppDepth            int
	oppDeny             bool
	oppLines            int
	oppSpread           float32
	oppFinal            bool
	oppJudge            int
	trackPath           bool // keep each layer's points and parents (the opponent's search with opp_final)
}

func configFrom(v param.Values) (config, error) {
	v, err := Params.Validate(v)
	if err != nil {
		return config{}, err
	}
	f := func(name string) float32 { return float32(Params.Float(v, name)) }
	return config{
		width:      Params.Int(v, "width"),
		depth:      Params.Int(v, "depth"),
		nodes:      Params.Int(v, "nodes"),
		timeLimit:  time.Duration(Params.Int(v, "time_ms")) * time.Millisecond,
		discount:   f("discount"),
		discAhead:  f("disc_ahead"),
		wScore:     f("w_score"),
		wUrgency:   f("w_urgency"),
		wBrew:      f("w_brew"),
		wTier:      [4]float32{f("w_tier0"), f("w_tier1"), f("w_tier2"), f("w_tier3")},
		wEnd:       f("w_end_tier"),
		endRound:   int32(Params.Int(v, "end_round")),
		wSpell:     f("w_spell"),
		wSpellGain: f("w_spell_gain"),
		wCastable:  f("w_castable"),
		wOrder:     f("w_order"),
		wWin:       f("w_win"),
		winDisc:    Params.Int(v, "w_win_disc") != 0,
		evalSum:    Params.Int(v, "eval_sum") != 0,
		learnTurns: int32(Params.Int(v, "learn_turns")),
		learnFirst: int32(Params.Int(v, "learn_first")),
		learnPick:  Params.Int(v, "learn_pick") != 0,
		wLearn0:    f("w_learn_tier0"),
		oppModel:   Params.Int(v, "opp_model"),
		oppNodes:   Params.Int(v, "opp_nodes"),
		oppWidth:   Params.Int(v, "opp_width"),
		oppDepth:   Params.Int(v, "opp_depth"),
		oppDeny:    Params.Int(v, "opp_deny") != 0,
		oppLines:   Params.Int(v, "opp_lines"),
		oppSpread:  f("opp_spread"),
		oppFinal:   Params.Int(v, "opp_final") != 0,
		oppJudge:   Params.Int(v, "opp_judge"),
	}, nil
}
