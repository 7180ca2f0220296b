package contract

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/internal/testjson"
)

// TestTimeStatsQuantiles: the histogram's quantiles are within 2% of the
// exact ones, merging games gives the same figures as one sample, and a
// JSON round trip keeps them.
func TestTimeStatsQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var all []float64
	var whole, merged TimeStats
	for range 30 {
		var game TimeStats
		for range 200 {
			d := time.Duration(math.Exp(rng.NormFloat64()+3) * float64(time.Millisecond))
			all = append(all, float64(d)/1e6)
			game.Add(d)
			whole.Add(d)
		}
		data := testjson.Marshal(t, game)
		var back TimeStats
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		merged.Merge(back)
	}
	slices.Sort(all)
	for _, q := range []float64{0.5, 0.9, 0.99, 1} {
		exact := all[int(math.Ceil(q*float64(len(all))))-1]
		got := merged.QuantileMS(q)
		if got < exact || got > exact*1.0201 {
			t.Errorf("q %v: %v, exact %v", q, got, exact)
		}
		if whole.QuantileMS(q) != got {
			t.Errorf("q %v: merged %v, whole %v", q, got, whole.QuantileMS(q))
		}
	}
	if merged.N != len(all) || math.Abs(merged.MeanMS()-whole.MeanMS()) > 1e-9 || merged.MaxMS != all[len(all)-1] {
		t.Errorf("merged %d %v %v", merged.N, merged.MeanMS(), merged.MaxMS)
	}
	var empty TimeStats
	if empty.QuantileMS(0.99) != 0 || empty.MeanMS() != 0 {
		t.Error("empty stats")
	}
}

// TestTimeLimitOptions: every option applies or is refused with the reason;
// Applied and LimitKey give what a run is held to.
func TestTimeLimitOptions(t *testing.T) {
	paper := TimeLimits{Turn: 5 * time.Second, Total: 120 * time.Second, Margin: time.Second, NoFirstTurnTime: "no first-turn limit"}
	hex := TimeLimits{Turn: 10 * time.Minute, Margin: time.Second, Step: time.Second}
	for _, c := range []struct {
		l    TimeLimits
		o    PlayOptions
		want string
	}{
		{faultyLimits, PlayOptions{TurnTime: 60 * time.Millisecond, FirstTurnTime: 2 * time.Second, TimeMargin: 0, MarginSet: true}, ""},
		{faultyLimits, PlayOptions{TurnTime: -time.Second}, "--turn-time -1s: must not be negative"},
		{faultyLimits, PlayOptions{TimeMargin: -time.Millisecond, MarginSet: true}, "--time-margin -1ms: must not be negative"},
		{faultyLimits, PlayOptions{NoTimeLimit: true, TurnTime: time.Second}, "--turn-time 1s with --no-time-limit"},
		{faultyLimits, PlayOptions{NoTimeLimit: true}, ""},
		{faultyLimits, PlayOptions{TurnTime: time.Microsecond}, "--turn-time 1µs: must be between 1ms and 24h0m0s"},
		{paper, PlayOptions{FirstTurnTime: time.Second}, "--first-turn-time 1s: no first-turn limit"},
		{paper, PlayOptions{TurnTime: time.Second}, ""},
		{hex, PlayOptions{TurnTime: 1500 * time.Millisecond}, "--turn-time 1.5s: this game's limit is in whole multiples of 1s"},
		{TimeLimits{}, PlayOptions{TurnTime: time.Second}, "the game declares no time limit"},
		{TimeLimits{}, PlayOptions{}, ""},
	} {
		err := c.l.Check(c.o)
		if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	a := PlayOptions{TurnTime: 60 * time.Millisecond, TimeMargin: 5 * time.Millisecond, MarginSet: true}.Applied(faultyLimits)
	if a.Turn != 60*time.Millisecond || a.FirstTurn != time.Second || a.Margin != 5*time.Millisecond || a.FirstTurnMargin != 5*time.Millisecond {
		t.Errorf("applied %+v", a)
	}
	if a := (PlayOptions{NoTimeLimit: true}).Applied(paper); a.Turn != 0 || a.Total != 0 || a.Margin != 0 {
		t.Errorf("no limit applied %+v", a)
	}
	keys := map[string]bool{}
	for _, o := range []PlayOptions{{}, {TurnTime: 60 * time.Millisecond}, {FirstTurnTime: 2 * time.Second}, {MarginSet: true}, {NoTimeLimit: true},
		{GameTimeout: time.Minute}, {BotMemory: 1 << 30}, {BotProcs: 8}, {NoTimeLimit: true, BotMemory: 1 << 30}} {
		keys[o.LimitKey(faultyLimits)] = true
	}
	if len(keys) != 9 {
		t.Errorf("limit keys not distinct: %v", keys)
	}
	for _, o := range []PlayOptions{{}, {BotProcs: DefaultBotProcs}} {
		if got := o.LimitKey(faultyLimits); got != "turn=50ms first=1s total=0s margin=20ms first-margin=250ms" {
			t.Errorf("default key %q", got)
		}
	}
	if got := paper.String(); got != "5,000 ms an answer + 1,000 ms margin, 120,000 ms all answers of a game + 1,000 ms margin" {
		t.Errorf("String %q", got)
	}
}

// faultyLimits are a game's time limits for TestTimeLimitOptions.
var faultyLimits = TimeLimits{Turn: 50 * time.Millisecond, FirstTurn: time.Second, Margin: 20 * time.Millisecond, FirstTurnMargin: 250 * time.Millisecond}

// TestSeatString: a per-seat list of strings reads the same as played and
// after a trip through JSON; a missing key, another type, another element
// type or a seat out of range is "".
func TestSeatString(t *testing.T) {
	played := Outcome{Detail: map[string]any{"deaths": []string{"", "faced the border"}, "n": 3, "mixed": []any{"a", 7}}}
	data, err := json.Marshal(played)
	if err != nil {
		t.Fatal(err)
	}
	var stored Outcome
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	for _, o := range []*Outcome{&played, &stored} {
		for _, c := range []struct {
			key  string
			seat int
			want string
		}{{"deaths", 1, "faced the border"}, {"deaths", 0, ""}, {"deaths", 2, ""}, {"deaths", -1, ""},
			{"none", 0, ""}, {"n", 0, ""}, {"mixed", 0, "a"}, {"mixed", 1, ""}} {
			if got := o.SeatString(c.key, c.seat); got != c.want {
				t.Errorf("SeatString(%q, %d) = %q; want %q", c.key, c.seat, got, c.want)
			}
		}
	}
}
