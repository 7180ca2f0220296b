package spsa

import (
	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/strategies/param"
)

// Target is what a study tunes: an entrant with declared parameters. SPSA
// needs nothing else of it, so a built-in strategy (StrategyTarget) and an
// external command whose placeholders declare kinds and ranges are tuned
// the same way.
type Target interface {
	// Name is a short name for study names and tables ("greedy", "cmd").
	Name() string
	// Key identifies the target in the study definition: a study resumed
	// with another key is refused.
	Key() string
	// Specs declares every parameter (the tuned ones among them).
	Specs() param.Specs
	// Entrant returns the entrant playing with values v, which hold every
	// declared parameter, each valid for its spec. It is called for every
	// game, so it should be cheap.
	Entrant(v param.Values) (*entrant.Entrant, error)
}

// StrategyTarget adapts a registered built-in strategy.
type StrategyTarget struct{ Strategy *contract.Strategy }

var _ Target = StrategyTarget{}

// Name is the strategy's name.
func (t StrategyTarget) Name() string { return t.Strategy.Name }

// Key is the strategy's name (its game is part of the study definition).
func (t StrategyTarget) Key() string { return t.Strategy.Name }

// Specs are the strategy's declared parameters.
func (t StrategyTarget) Specs() param.Specs { return t.Strategy.Params }

// Entrant is the strategy with values v.
func (t StrategyTarget) Entrant(v param.Values) (*entrant.Entrant, error) {
	return &entrant.Entrant{Strategy: t.Strategy, Params: v, Version: entrant.Version}, nil
}

// EntrantTarget adapts an entrant with declared parameters, such as an
// external command whose placeholders declare kinds and ranges
// ({w:float[0,5]=1.5}); its other values (fixed placeholders) stay as
// they are.
type EntrantTarget struct{ Base *entrant.Entrant }

var _ Target = EntrantTarget{}

// Name is "cmd" for an external command, else the strategy's name.
func (t EntrantTarget) Name() string {
	if t.Base.IsExternal() {
		return "cmd"
	}
	return t.Base.Name()
}

// Key is the entrant's key with the fingerprint of an external command's
// files: a rebuilt bot is another target.
func (t EntrantTarget) Key() string {
	if t.Base.IsExternal() {
		return t.Base.Key() + " @" + t.Base.Fingerprint
	}
	return t.Base.Key()
}

// Specs are the entrant's declared parameters.
func (t EntrantTarget) Specs() param.Specs { return t.Base.Specs() }

// Entrant is the entrant with values v.
func (t EntrantTarget) Entrant(v param.Values) (*entrant.Entrant, error) { return t.Base.With(v) }
