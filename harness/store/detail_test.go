package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gauntlet/harness/contract"
)

// detailCases are stored details: the form appendDetail writes (scanned
// without the decoder) and other JSON, which the decoder reads.
var detailCases = []struct {
	in      string
	scanned bool
}{
	{`{}`, true},
	{`{"deliveries":[6,2]}`, true},
	{`{"a":1,"b":-17,"c":true,"d":false,"e":"x y","f":[],"g":["p","q"],"h":[true,false]}`, true},
	{`{"big":123456789012345}`, true},
	{`{"x":0}`, true},
	{`{"x":1.5e3}`, true},
	{`{"x":-2.25}`, true},
	{`{"big":1234567890123456789}`, false},
	{`{"x":-0}`, false},
	{`{"x":null}`, false},
	{`{"x":{"y":1}}`, false},
	{`{"x":[[1]]}`, false},
	{`{"s":"a\"b"}`, false},
	{`{"s":"é"}`, false},
	{`{"a":1,"a":2}`, false},
	{`{ "a": 1 }`, false},
	{`null`, false},
	{`{"a":01}`, false},
	{`{"a":1,}`, false},
	{`{"a":1} x`, false},
	{`{"a"}`, false},
	{`{"a":-}`, false},
	{`{"a":1.}`, false},
	{`{"a":tru}`, false},
	{`{`, false},
	{`[1]`, false},
}

// TestParseDetailAsJSON holds parseDetail to json.Unmarshal's result on
// every case, and checks which cases it reads itself.
func TestParseDetailAsJSON(t *testing.T) {
	for _, c := range detailCases {
		sameAsJSON(t, []byte(c.in))
		if _, ok := scanDetail([]byte(c.in)); ok != c.scanned {
			t.Errorf("%s: scanned %v, want %v", c.in, ok, c.scanned)
		}
	}
}

// TestDetailRoundTrip writes random details as appendDetail does and reads
// them back without the decoder, as the decoder would.
func TestDetailRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return []string{"", "a", "deliveries", "x_y", "Forfeit: time"}[rng.IntN(5)] }
	for range 2000 {
		d := map[string]any{}
		for range rng.IntN(8) {
			var v any
			switch rng.IntN(6) {
			case 0:
				v = rng.IntN(1<<20) - 1<<19
			case 1:
				v = rng.IntN(2) == 1
			case 2:
				v = word()
			case 3:
				v = []int{rng.IntN(100), -rng.IntN(1 << 40)}
			case 4:
				v = []bool{rng.IntN(2) == 1}
			case 5:
				v = []string{word(), word()}
			}
			d[word()+fmt.Sprint(rng.IntN(3))] = v
		}
		buf, err := appendDetail(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := scanDetail(buf); !ok {
			t.Fatalf("%s: not scanned", buf)
		}
		sameAsJSON(t, buf)
	}
}

// FuzzParseDetail: on any text parseDetail fails where json.Unmarshal
// fails and otherwise gives what it gives.
func FuzzParseDetail(f *testing.F) {
	for _, c := range detailCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(sameAsJSON)
}

func sameAsJSON(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]any
	wantErr := json.Unmarshal(b, &want)
	got, err := parseDetail(b)
	switch {
	case (err == nil) != (wantErr == nil):
		t.Fatalf("%q: error %v, json.Unmarshal's %v", b, err, wantErr)
	case err == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: %#v, json.Unmarshal gives %#v", b, got, want)
	}
}

// TestOutcomesMatchGames reads a run's games through Outcomes and through
// Games on each store: the same outcomes and game times, and only the
// games pick keeps.
func TestOutcomesMatchGames(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			st, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			run := fmt.Sprintf("outcomes-%d", time.Now().UnixNano())
			gs := brewLikeGames(40)
			for i := range gs {
				o := &gs[i].Outcome
				switch i % 4 {
				case 1:
					o.Seats = append(o.Seats, contract.SeatResult{Score: -3.5, Rank: 3, Forfeit: `timeout: "x" [2]`})
					gs[i].Seats = []int{0, 1, 2}
				case 2:
					o.Detail = nil
				case 3:
					o.Detail = map[string]any{"error": "bad \u00e9", "nested": map[string]any{"a": 1}}
				}
			}
			if _, err := st.SaveBatch(ctx, run, gs, nil); err != nil {
				t.Fatal(err)
			}
			all, err := st.Games(ctx, run)
			if err != nil {
				t.Fatal(err)
			}
			byIndex := map[int]GameRecord{} // SaveBatch orders gs by key
			for _, g := range all {
				byIndex[g.Index] = g
			}
			got := map[int]bool{}
			err = st.Outcomes(ctx, run, nil, func(key []byte) (int, bool) {
				g, ok := all[string(key)]
				return g.Index, ok && g.Index%3 != 0 && !got[g.Index]
			}, func(i int, o contract.Outcome, wall time.Duration) {
				g := byIndex[i]
				if !reflect.DeepEqual(o, g.Outcome) || wall != g.Wall {
					t.Errorf("%s: %+v %v, Games gives %+v %v", g.Key, o, wall, g.Outcome, g.Wall)
				}
				got[i] = true
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range gs {
				if got[i] != (i%3 != 0) {
					t.Errorf("game %d: read %v", i, got[i])
				}
			}
			if !strings.Contains(fmt.Sprint(byIndex[3].Outcome.Detail), "nested") {
				t.Fatalf("detail of game 3: %v", byIndex[3].Outcome.Detail)
			}
		})
	}
}

// BenchmarkOutcomes is BenchmarkGames through the runner's read: a worker
// picking up the others' games at the end of a run.
func BenchmarkOutcomes(b *testing.B) {
	for _, url := range storeURLs(b) {
		b.Run(dialectOf(url), func(b *testing.B) {
			ctx := context.Background()
			const n = 10000
			st, run := storedRun(b, url, "read", n)
			b.ReportAllocs()
			for b.Loop() {
				got := 0
				err := st.Outcomes(ctx, run, nil, func([]byte) (int, bool) { return got, true }, func(int, contract.Outcome, time.Duration) { got++ })
				if err != nil || got != n {
					b.Fatalf("%d games, %v", got, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1e3, "µs/game")
		})
	}
}

// NewKeys returns the keys of a run's games that known does not report,
// of that run alone, and the run's count.
func TestNewKeys(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			st, run := storedRun(t, url, "keys", 6)
			if _, err := st.SaveBatch(ctx, run+"-other", brewLikeGames(9), nil); err != nil {
				t.Fatal(err)
			}
			known := map[string]bool{"seed:1": true, "seed:4": true, "seed:9": true}
			keys, total, err := st.NewKeys(ctx, run, func(k []byte) bool { return known[string(k)] })
			slices.Sort(keys)
			if err != nil || total != 6 || !slices.Equal(keys, []string{"seed:2", "seed:3", "seed:5", "seed:6"}) {
				t.Errorf("NewKeys: %q of %d, %v; want seed:2, 3, 5 and 6 of 6", keys, total, err)
			}
			keys, total, err = st.NewKeys(ctx, "no-such-run", func([]byte) bool { return false })
			if err != nil || total != 0 || len(keys) != 0 {
				t.Errorf("NewKeys of no run: %q of %d, %v", keys, total, err)
			}
		})
	}
}

// BenchmarkNewKeys is what a follower of a run pays to learn that none of
// its games is new: the keys alone, against BenchmarkOutcomes' outcomes.
func BenchmarkNewKeys(b *testing.B) {
	for _, url := range storeURLs(b) {
		b.Run(dialectOf(url), func(b *testing.B) {
			ctx := context.Background()
			const n = 10000
			st, run := storedRun(b, url, "keys", n)
			b.ReportAllocs()
			for b.Loop() {
				keys, total, err := st.NewKeys(ctx, run, func([]byte) bool { return true })
				if err != nil || total != n || len(keys) != 0 {
					b.Fatalf("%d games, %d new, %v", total, len(keys), err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1e3, "µs/game")
		})
	}
}
