package tuning

import (
	"context"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/strategies/param"
)

// mortal is the duel knob in which a seat scoring below 60 is out of the
// game (contract.Eliminator), as its detail says.
type mortal struct{ *knob }

var _ contract.Eliminator = mortal{}

func (g mortal) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	out, err := g.knob.Play(ctx, c, players, opt)
	causes := make([]string, len(out.Seats))
	for i, s := range out.Seats {
		if s.Score < 60 {
			causes[i] = "fell"
		}
	}
	out.Detail = map[string]any{"out": causes}
	return out, err
}

func (mortal) Eliminated(o *contract.Outcome, seat int) string { return o.SeatString("out", seat) }

// TestTrialsCountEliminations: in a game with eliminations every trial of
// a built-in strategy records the games it played, how often the tuned
// entrant was out and how often the other seats were; a trial that takes
// its scores from an earlier one records nothing it did not play.
func TestTrialsCountEliminations(t *testing.T) {
	r := contract.NewRegistry()
	r.RegisterGame(mortal{&knob{name: "mortal", seats: 2}})
	r.RegisterStrategy(&contract.Strategy{Game: "mortal", Name: "dial", Params: dialSpecs,
		New: func(v param.Values, seed uint64) (any, error) { return &knobBot{quality: dialQuality(v)}, nil }})
	r.RegisterStrategy(&contract.Strategy{Game: "mortal", Name: "fixed",
		Params: param.Specs{{Name: "q", Kind: param.Float, Min: -1000, Max: 1000, Default: 50, Help: "quality"}},
		New:    func(v param.Values, seed uint64) (any, error) { return &knobBot{quality: v["q"]}, nil }})
	sum := runStudy(t, r, sqliteURL(t), "mortal", Config{Game: "mortal", Strategy: "dial", Space: []string{"x", "k"},
		Opponents: "fixed", Cases: "seeds:4", Sampler: "random"}, 6)
	played := 0
	for _, tr := range sum.Trials {
		c := tr.Conduct
		if tr.RepeatOf != nil {
			if c != nil {
				t.Errorf("trial %d repeats trial %d and records games %+v", tr.Number, *tr.RepeatOf, *c)
			}
			continue
		}
		if c == nil || !c.Eliminations || c.Games != 8 || c.OthersEliminated != 8 {
			t.Fatalf("trial %d: conduct %+v; want 8 games, the opponent (quality 50) out of each", tr.Number, c)
		}
		v := param.Values{"x": toFloat(tr.Params["x"]), "k": toFloat(tr.Params["k"]), "mode": 0, "lr": 0.01}
		want := -1
		switch q := dialQuality(v); {
		case q+4 < 60:
			want = 8
		case q >= 60:
			want = 0
		}
		if want >= 0 && c.Eliminated != want {
			t.Errorf("trial %d (quality %.1f): eliminated in %d of 8 games; want %d", tr.Number, dialQuality(v), c.Eliminated, want)
		}
		played++
	}
	if played == 0 {
		t.Fatal("no trial played")
	}
}

func toFloat(x any) float64 {
	switch v := x.(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}
