package games

import (
	"fmt"
	"strings"

	"gauntlet/harness/contract"
)

// finalScores fills r.Scores from the outcome and checks that the replayed
// game ends with the same scores: moves that do not reproduce the game
// (a changed referee, a corrupt record) are an error, not a wrong picture.
func finalScores[T int | int64 | float64](r *contract.Replay, out contract.Outcome, replayed []T) error {
	if len(out.Seats) != len(replayed) || len(out.Seats) != len(r.Seats) {
		return fmt.Errorf("%s case %s: %d seat results, %d replayed scores, %d seats", r.Game, r.Case, len(out.Seats), len(replayed), len(r.Seats))
	}
	r.Scores = make([]float64, len(out.Seats))
	for i, s := range out.Seats {
		if float64(replayed[i]) != s.Score {
			return fmt.Errorf("%s case %s: the recorded moves replay to score %v for seat %d, the game scored %v", r.Game, r.Case, replayed[i], i, s.Score)
		}
		r.Scores[i] = s.Score
	}
	return nil
}

// vsTitle joins seat labels: "a vs b vs c".
func vsTitle(seats []string) string { return strings.Join(seats, " vs ") }
