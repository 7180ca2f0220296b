package harnesstest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/strategies/param"
)

// Duel is a toy game for the harness tests: every seat scores its bot's
// skill plus seeded noise; an optional delay makes games slow, and a game
// whose seed is HangFrom or more (when set) waits for its context to end, as
// one with a hung bot does.
type Duel struct {
	Seats    int
	Delay    time.Duration
	HangFrom uint64
	Played   atomic.Int64
	GroupOf  func(i int) string
}

type DuelBot struct{ Skill float64 }

func (d *Duel) Info() contract.GameInfo {
	return contract.GameInfo{Name: "duel", MinSeats: 1, MaxSeats: d.Seats, Direction: contract.Higher,
		CaseSets: []contract.CaseSetInfo{{Name: "seeds:N", Doc: "seeds 1..N"}}}
}

func (d *Duel) Cases(set string) ([]contract.Case, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(set, "seeds:"))
	if err != nil || !strings.HasPrefix(set, "seeds:") {
		return nil, fmt.Errorf("unknown case set %q (known: seeds:N)", set)
	}
	out := make([]contract.Case, n)
	for i := range out {
		out[i] = contract.Case{ID: "seed:" + strconv.Itoa(i+1), Seed: uint64(i + 1)}
		if d.GroupOf != nil {
			out[i].Group = d.GroupOf(i)
		}
	}
	return out, nil
}

func (d *Duel) Play(ctx context.Context, c contract.Case, players []contract.Player, opt contract.PlayOptions) (contract.Outcome, error) {
	d.Played.Add(1)
	if d.HangFrom > 0 && c.Seed >= d.HangFrom {
		<-ctx.Done()
		return contract.Outcome{}, ctx.Err()
	}
	if d.Delay > 0 {
		select {
		case <-time.After(d.Delay):
		case <-ctx.Done():
			return contract.Outcome{}, ctx.Err()
		}
	}
	out := contract.Outcome{Turns: int(c.Seed % 7)}
	for _, p := range players {
		b := p.Bot
		r := rand.New(rand.NewPCG(p.Seed, c.Seed))
		out.Seats = append(out.Seats, contract.SeatResult{Score: b.(*DuelBot).Skill + r.Float64()*4})
	}
	contract.RanksByScore(out.Seats)
	return out, nil
}

func DuelRegistry(d *Duel) *contract.Registry {
	r := contract.NewRegistry()
	r.RegisterGame(d)
	specs := param.Specs{{Name: "skill", Kind: param.Float, Min: 0, Max: 10, Default: 5, Help: "how good"}}
	r.RegisterStrategy(&contract.Strategy{Game: "duel", Name: "fixed", Params: specs,
		New: func(v param.Values, seed uint64) (any, error) { return &DuelBot{Skill: v["skill"]}, nil }})
	return r
}

func OpenStore(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func CountGames(t *testing.T, s *store.Store, run string) (rows, distinct int) {
	t.Helper()
	if err := s.DB().QueryRow(`SELECT COUNT(*), COUNT(DISTINCT match_key) FROM games WHERE run_id = ?`, run).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	return
}

// PostgresURL is the test server's URL; CI starts one (see .ci/run).
func PostgresURL(t *testing.T) string {
	url := os.Getenv("GAUNTLET_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GAUNTLET_TEST_POSTGRES is not set: CI must start PostgreSQL (see .ci/run)")
		}
		t.Skip("GAUNTLET_TEST_POSTGRES not set (CI sets it); skipping the PostgreSQL test")
	}
	return url
}

// StoreURLs is a new SQLite file and, when GAUNTLET_TEST_POSTGRES names a
// server, that server: the stores a benchmark or test runs on.
func StoreURLs(tb testing.TB) []string {
	urls := []string{"sqlite:" + filepath.Join(tb.TempDir(), "g.db")}
	if pg := os.Getenv("GAUNTLET_TEST_POSTGRES"); pg != "" {
		urls = append(urls, pg)
	}
	return urls
}

// Dialect names the store of url for a sub-test: "sqlite" or "postgres".
func Dialect(url string) string { return strings.SplitN(url, ":", 2)[0] }
