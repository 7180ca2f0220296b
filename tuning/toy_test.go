package tuning

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/strategies/param"
)

// knob is a toy game for the tuning tests: a bot's score is a smooth
// function of its parameters (best at x=7, k=5, mode=c, lr=0.1) plus noise
// from the case seed that is the same for every configuration, so paired
// comparisons are exact. With two seats the higher score wins. A lower knob
// scores costs instead, the mirror image: 200 − quality + noise, the
// lowest being best (and winning).
type knob struct {
	name     string
	seats    int
	minSeats int // fewest seats, if below seats (0: seats)
	delay    time.Duration
	lower    bool
}

type knobBot struct{ quality float64 }

func (g *knob) Info() contract.GameInfo {
	minSeats := g.seats
	if g.minSeats > 0 {
		minSeats = g.minSeats
	}
	return contract.GameInfo{Name: g.name, MinSeats: minSeats, MaxSeats: g.seats, Direction: g.direction(),
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}}}
}

func (g *knob) Cases(set string) ([]contract.Case, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil || !strings.HasPrefix(set, "seeds:") || n < 1 {
		return nil, fmt.Errorf("unknown case set %q (known: seeds:N)", set)
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1), Group: strconv.Itoa(i % 3)}
	}
	return out, nil
}

func (g *knob) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	if g.delay > 0 {
		select {
		case <-time.After(g.delay):
		case <-ctx.Done():
			return contract.Outcome{}, ctx.Err()
		}
	}
	var out contract.Outcome
	for seat, p := range players {
		b := p.Bot
		r := rand.New(rand.NewPCG(c.Seed, uint64(seat)))
		score := b.(*knobBot).quality + 4*r.Float64()
		if g.lower {
			score = 200 - score
		}
		out.Seats = append(out.Seats, contract.SeatResult{Score: score})
	}
	contract.Ranks(out.Seats, g.direction())
	return out, nil
}

// Aggregate is the sum of the group's scores, floored (as hextris does).
func (g *knob) Aggregate(group string, scores map[string]float64) float64 {
	s := 0.0
	for _, x := range scores {
		s += x
	}
	return math.Floor(s)
}

var dialSpecs = param.Specs{
	{Name: "x", Kind: param.Float, Min: 0, Max: 10, Default: 2, Help: "best at 7"},
	{Name: "k", Kind: param.Int, Min: 0, Max: 8, Default: 1, Help: "best at 5"},
	{Name: "mode", Kind: param.Categorical, Choices: []string{"a", "b", "c"}, Default: 0, Help: "c is best"},
	{Name: "lr", Kind: param.LogFloat, Min: 0.001, Max: 1, Default: 0.01, Help: "best at 0.1"},
}

func dialQuality(v param.Values) float64 {
	q := 100 - 3*(v["x"]-7)*(v["x"]-7) - 2*(v["k"]-5)*(v["k"]-5) - 10*math.Pow(math.Log10(v["lr"])+1, 2)
	if v["mode"] == 2 {
		q += 5
	}
	return q
}

// toyRegistry registers knob (single-player), duel (two seats) and party
// (two to four seats), and the lower-is-better mirrors cost and costduel,
// with the strategies dial (tunable) and fixed (an opponent of given
// quality).
func toyRegistry(delay time.Duration) *contract.Registry {
	r := contract.NewRegistry()
	for _, g := range []*knob{{name: "knob", seats: 1, delay: delay}, {name: "duel", seats: 2, delay: delay},
		{name: "cost", seats: 1, delay: delay, lower: true}, {name: "costduel", seats: 2, delay: delay, lower: true},
		{name: "party", seats: 4, minSeats: 2, delay: delay}} {
		r.RegisterGame(g)
		r.RegisterStrategy(&contract.Strategy{Game: g.name, Name: "dial", Params: dialSpecs,
			New: func(v param.Values, seed uint64) (any, error) { return &knobBot{quality: dialQuality(v)}, nil }})
		r.RegisterStrategy(&contract.Strategy{Game: g.name, Name: "fixed",
			Params: param.Specs{{Name: "q", Kind: param.Float, Min: -1000, Max: 1000, Default: 50, Help: "quality"}},
			New:    func(v param.Values, seed uint64) (any, error) { return &knobBot{quality: v["q"]}, nil }})
	}
	return r
}

// Environment of a worker subprocess (the test binary re-executed).
const (
	envWorker    = "GAUNTLET_TUNE_TEST_WORKER" // JSON workerConfig
	envWorkerOut = "GAUNTLET_TUNE_TEST_OUT"    // where the worker writes its summary
)

// workerConfig is what a worker subprocess runs.
type workerConfig struct {
	Storage   string        `json:"storage"`
	Study     string        `json:"study"`
	Trials    int           `json:"trials"`
	Heartbeat time.Duration `json:"heartbeat"`
	Delay     time.Duration `json:"delay"`
	Config    Config        `json:"config"`
	Jobs      int           `json:"jobs"`
	Worker    string        `json:"worker"` // "": the default name
}

func TestMain(m *testing.M) {
	if js := os.Getenv(envWorker); js != "" {
		os.Exit(workerMain(js))
	}
	os.Exit(m.Run())
}

// workerMain is a tuning worker on the toy games.
func workerMain(js string) int {
	var wc workerConfig
	if err := json.Unmarshal([]byte(js), &wc); err != nil {
		fmt.Fprintln(os.Stderr, "worker config:", err)
		return 2
	}
	ctx := context.Background()
	t, err := New(toyRegistry(wc.Delay), wc.Config)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	st, err := OpenStorage(ctx, wc.Storage)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	sum, err := t.Run(ctx, st, RunOptions{Study: wc.Study, Trials: wc.Trials, Jobs: wc.Jobs, Heartbeat: wc.Heartbeat, Worker: wc.Worker, Log: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	if out := os.Getenv(envWorkerOut); out != "" {
		data, err := json.Marshal(sum)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// runStudy runs a study in this process.
func runStudy(t *testing.T, reg *contract.Registry, url, study string, c Config, trials int) *Summary {
	t.Helper()
	tu, err := New(reg, c)
	if err != nil {
		t.Fatal(err)
	}
	st := openStorage(t, url)
	sum, err := tu.Run(context.Background(), st, RunOptions{Study: study, Trials: trials, Jobs: 2, Heartbeat: time.Second,
		Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func openStorage(t *testing.T, url string) *Storage {
	t.Helper()
	st, err := OpenStorage(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// hplay are the play options of the tests.
var hplay contract.PlayOptions

func sqliteURL(t *testing.T) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "tune.db")
}

// direction is the knob game's score direction.
func (g *knob) direction() contract.Direction {
	if g.lower {
		return contract.Lower
	}
	return contract.Higher
}
