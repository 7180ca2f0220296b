package contract

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRanksFollowTheDirection(t *testing.T) {
	seats := []SeatResult{{Score: 5}, {Score: 9}, {Score: 5}}
	RanksByScore(seats)
	if seats[0].Rank != 2 || seats[1].Rank != 1 || seats[2].Rank != 2 {
		t.Fatalf("higher is better: ranks %v", seats)
	}
	Ranks(seats, Lower)
	if seats[0].Rank != 1 || seats[1].Rank != 3 || seats[2].Rank != 1 {
		t.Fatalf("lower is better: ranks %v", seats)
	}
	lo, hi := GameInfo{Direction: Lower}, GameInfo{Direction: Higher}
	if !lo.Better(1, 2) || lo.Better(2, 1) || lo.Better(2, 2) || !hi.Better(2, 1) || hi.Better(1, 2) {
		t.Fatal("GameInfo.Better")
	}
}

// TestDirectionJSONKeepsTheStoredForm: a direction is the boolean "lower is
// better" in JSON, as stored summaries (lower_is_better), studies
// (minimize) and game files hold it: the old form reads back, and the new
// writes exactly the old bytes, the default left out.
func TestDirectionJSONKeepsTheStoredForm(t *testing.T) {
	type summary struct {
		Game      string    `json:"game"`
		Direction Direction `json:"lower_is_better,omitempty"`
	}
	for _, c := range []struct {
		stored string
		want   Direction
	}{
		{`{"game":"towers","lower_is_better":true}`, Lower},
		{`{"game":"brew"}`, Higher},
	} {
		var s summary
		if err := json.Unmarshal([]byte(c.stored), &s); err != nil || s.Direction != c.want {
			t.Fatalf("%s: read %v (%v), want %v", c.stored, s.Direction, err, c.want)
		}
		if b, err := json.Marshal(s); err != nil || string(b) != c.stored {
			t.Fatalf("%v: wrote %s (%v), want %s", c.want, b, err, c.stored)
		}
	}
	var s summary
	if err := json.Unmarshal([]byte(`{"lower_is_better":"yes"}`), &s); err == nil || !strings.Contains(err.Error(), `score direction "\"yes\""`) {
		t.Fatalf("a direction that is no boolean: %v", err)
	}
	if Lower.String() != "lower is better" || !Lower.Better(1, 2) || Higher.Better(1, 2) {
		t.Fatal("Lower and Higher order scores the wrong way")
	}
}
