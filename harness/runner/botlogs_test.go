package runner

import (
	"fmt"
	"testing"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/internal/botlog"
)

// TestLogKeeper: under Errors a game with a forfeit keeps its logs at once,
// the others are held and only the latest DefaultRecent come out at the
// end, oldest first; under All every game keeps them at once. Empty logs
// and built-in seats keep nothing; the outcome drops its logs either way.
func TestLogKeeper(t *testing.T) {
	game := func(i int, forfeit bool) *contract.Outcome {
		l := botlog.New(0)
		fmt.Fprintf(l, "game %d\n", i)
		out := &contract.Outcome{Seats: []contract.SeatResult{{}, {}}, Logs: []*botlog.Log{nil, l}}
		if forfeit {
			out.Seats[0].Forfeit = "crashed"
		}
		return out
	}
	k := logKeeper{policy: botlog.Errors}
	n := botlog.DefaultRecent + 5
	for i := range n {
		out := game(i, i == 3 || i == n-2)
		kept := k.take(fmt.Sprint(i), out)
		switch {
		case out.Logs != nil:
			t.Fatalf("game %d: the outcome keeps its logs", i)
		case i == 3 || i == n-2:
			if len(kept) != 1 || kept[0].Seat != 1 || kept[0].Why != store.KeptForfeit || kept[0].Record.Turns[0][0] != fmt.Sprintf("game %d", i) {
				t.Errorf("game %d with a forfeit: kept %+v", i, kept)
			}
		case kept != nil:
			t.Errorf("game %d: kept at once %+v", i, kept)
		}
	}
	latest := k.latest()
	if len(latest) != botlog.DefaultRecent {
		t.Fatalf("%d latest games, want %d", len(latest), botlog.DefaultRecent)
	}
	want := n - 1
	for j := len(latest) - 1; j >= 0; j-- {
		if want == n-2 {
			want--
		}
		if g := latest[j]; g.Key != fmt.Sprint(want) || g.Logs[0].Why != store.KeptRecent {
			t.Errorf("latest[%d] = %s (%s), want game %d", j, g.Key, g.Logs[0].Why, want)
		}
		want--
	}
	if len(k.latest()) != 0 {
		t.Error("latest twice")
	}

	all := logKeeper{policy: botlog.All}
	if kept := all.take("x", game(0, false)); len(kept) != 1 || kept[0].Why != store.KeptAll {
		t.Errorf("all: kept %+v", kept)
	}
	empty := &contract.Outcome{Seats: []contract.SeatResult{{}}, Logs: []*botlog.Log{botlog.New(0)}}
	if kept := all.take("y", empty); kept != nil {
		t.Errorf("an empty log kept: %+v", kept)
	}
}
