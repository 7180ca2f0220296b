package contract

import (
	"testing"
)

func TestRanksFollowTheDirection(t *testing.T) {
	seats := []SeatResult{{Score: 5}, {Score: 9}, {Score: 5}}
	RanksByScore(seats)
	if seats[0].Rank != 2 || seats[1].Rank != 1 || seats[2].Rank != 2 {
		t.Fatalf("higher is better: ranks %v", seats)
	}
	Ranks(seats, false)
	if seats[0].Rank != 1 || seats[1].Rank != 3 || seats[2].Rank != 1 {
		t.Fatalf("lower is better: ranks %v", seats)
	}
	lo, hi := GameInfo{HigherIsBetter: false}, GameInfo{HigherIsBetter: true}
	if !lo.Better(1, 2) || lo.Better(2, 1) || lo.Better(2, 2) || !hi.Better(2, 1) || hi.Better(1, 2) {
		t.Fatal("GameInfo.Better")
	}
}
