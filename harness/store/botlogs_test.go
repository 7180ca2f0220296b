package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/internal/botlog"
)

func testLog(lines ...string) botlog.Record {
	l := botlog.New(0)
	for i, s := range lines {
		if i > 0 {
			l.NextTurn()
		}
		fmt.Fprintln(l, s)
	}
	return l.Record()
}

// TestBotLogsRoundTrip: logs stored with their games read back by seat;
// the latest games' logs (KeptRecent) are pruned to the newest keep games
// of the run, those kept for a forfeit stay; a game without logs reads
// as none.
func TestBotLogsRoundTrip(t *testing.T) {
	for _, url := range storeURLs(t) {
		t.Run(dialectOf(url), func(t *testing.T) {
			ctx := context.Background()
			st, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			run := fmt.Sprintf("logs-%d", time.Now().UnixNano())
			game := GameRecord{Key: "g/ab", CaseID: "g", Seats: []int{0, 1}, Finished: time.Now(),
				Outcome: contract.Outcome{Seats: []contract.SeatResult{{Forfeit: "crashed"}, {}}},
				BotLogs: []BotLog{{Seat: 1, Why: KeptForfeit, Record: testLog("start", "turn 1 ✓")}, {Seat: 0, Why: KeptForfeit, Record: testLog("x")}}}
			if _, err := st.SaveBatch(ctx, run, []GameRecord{game}, nil); err != nil {
				t.Fatal(err)
			}
			got, err := st.BotLogs(ctx, run, "g/ab")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Seat != 0 || got[1].Seat != 1 || got[1].Why != KeptForfeit ||
				!slices.Equal(got[1].Record.Turns[1], []string{"turn 1 ✓"}) || got[1].Record.Cap != botlog.DefaultCap {
				t.Fatalf("read back %+v", got)
			}
			for round := range 3 {
				var recent []GameBotLogs
				for i := range 4 {
					recent = append(recent, GameBotLogs{Key: fmt.Sprintf("r%d-%d", round, i), Logs: []BotLog{{Seat: 0, Why: KeptRecent, Record: testLog("r")}}})
				}
				if err := st.SaveRecentBotLogs(ctx, run, recent, 3); err != nil {
					t.Fatal(err)
				}
			}
			keys, err := st.BotLogKeys(ctx, run)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"g/ab", "r2-1", "r2-2", "r2-3"}; !slices.Equal(keys, want) {
				t.Errorf("kept logs of %q, want %q", keys, want)
			}
			if none, err := st.BotLogs(ctx, run, "nope"); err != nil || len(none) != 0 {
				t.Errorf("a game without logs: %v, %v", none, err)
			}
		})
	}
}
