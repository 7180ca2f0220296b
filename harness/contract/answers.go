package contract

import (
	"encoding/json"
	"math"
	"slices"
	"time"
)

// Answers are a seat's answers in a game beyond its score: how many the
// rules ignored (invalid commands that changed nothing) with the first one
// described, and an external bot's answer times.
type Answers struct {
	Ignored      int          `json:"ignored,omitempty"`
	IgnoredFirst string       `json:"ignored_first,omitempty"`
	Times        *AnswerTimes `json:"times,omitempty"`
}

// IsZero reports whether a holds nothing.
func (a Answers) IsZero() bool { return a.Ignored == 0 && a.IgnoredFirst == "" && a.Times == nil }

// AnswersDetailKey is the Outcome.Detail key under which a game keeps its
// seats' Answers (Outcome.KeepAnswers), so that they come back with a game
// loaded from the results store, which keeps Detail.
const AnswersDetailKey = "answers"

// KeepAnswers copies the seats' Answers into Detail (a game's Play calls it
// once the seats are filled); nothing when no seat has any.
func (o *Outcome) KeepAnswers() {
	if !slices.ContainsFunc(o.Seats, func(s SeatResult) bool { return !s.Answers.IsZero() }) {
		return
	}
	all := make([]Answers, len(o.Seats))
	for i := range o.Seats {
		all[i] = o.Seats[i].Answers
	}
	if o.Detail == nil {
		o.Detail = map[string]any{}
	}
	o.Detail[AnswersDetailKey] = all
}

// SeatAnswers returns seat i's Answers: the seat's own, or for a game
// loaded from the store those kept in Detail.
func (o *Outcome) SeatAnswers(i int) Answers {
	if i < 0 || i >= len(o.Seats) {
		return Answers{}
	}
	if a := o.Seats[i].Answers; !a.IsZero() {
		return a
	}
	v, ok := o.Detail[AnswersDetailKey]
	if !ok {
		return Answers{}
	}
	var all []Answers
	switch x := v.(type) {
	case []Answers:
		all = x
	default:
		// Decoded from JSON as []any: take it back through JSON. A value
		// that does not decode is no answers (nothing else is stored there).
		data, err := json.Marshal(x)
		if err != nil || json.Unmarshal(data, &all) != nil {
			return Answers{}
		}
	}
	if i >= len(all) {
		return Answers{}
	}
	return all[i]
}

// SeatString is seat's entry of the per-seat list of strings in
// Detail[key], as played ([]string) or as read back from the store ([]any);
// "" when there is none.
func (o *Outcome) SeatString(key string, seat int) string {
	switch d := o.Detail[key].(type) {
	case []string:
		if seat >= 0 && seat < len(d) {
			return d[seat]
		}
	case []any:
		if seat >= 0 && seat < len(d) {
			s, _ := d[seat].(string) // anything else is no string of ours
			return s
		}
	}
	return ""
}

// AnswerTimes are an external bot's answer times, per kind of turn: the
// first answer of a game (which includes starting the bot's process) and
// the others, with the limits they were held to (0: none) to see how close
// to a forfeit the bot plays. For a game answered once (hextris), First is
// the whole run.
type AnswerTimes struct {
	First TimeStats `json:"first"`
	Later TimeStats `json:"later"`
	// GameMaxMS is the most time the answers of one game took in all.
	GameMaxMS float64 `json:"game_max_ms"`
	// The limits and margins, in milliseconds.
	FirstLimitMS  float64 `json:"first_limit_ms,omitempty"`
	FirstMarginMS float64 `json:"first_margin_ms,omitempty"`
	LimitMS       float64 `json:"limit_ms,omitempty"`
	MarginMS      float64 `json:"margin_ms,omitempty"`
	TotalLimitMS  float64 `json:"total_limit_ms,omitempty"`
}

// NewAnswerTimes summarises one game's answer times in order (times[0] the
// first answer), held to the applied limits a (see PlayOptions.Applied);
// nil when there is none.
func NewAnswerTimes(times []time.Duration, a TimeLimits) *AnswerTimes {
	if len(times) == 0 {
		return nil
	}
	t := &AnswerTimes{LimitMS: ms(a.Turn), MarginMS: ms(a.Margin), TotalLimitMS: ms(a.Total)}
	t.FirstLimitMS, t.FirstMarginMS = t.LimitMS, t.MarginMS
	if a.FirstTurn > 0 {
		t.FirstLimitMS, t.FirstMarginMS = ms(a.FirstTurn), ms(a.FirstTurnMargin)
	}
	var sum time.Duration
	for i, d := range times {
		if i == 0 {
			t.First.Add(d)
		} else {
			t.Later.Add(d)
		}
		sum += d
	}
	t.GameMaxMS = ms(sum)
	return t
}

// Merge adds the times of o (more games) to t; the limits are t's, or o's
// when t has none.
func (t *AnswerTimes) Merge(o *AnswerTimes) {
	if o == nil {
		return
	}
	t.First.Merge(o.First)
	t.Later.Merge(o.Later)
	t.GameMaxMS = max(t.GameMaxMS, o.GameMaxMS)
	if t.LimitMS == 0 && t.FirstLimitMS == 0 && t.TotalLimitMS == 0 {
		t.FirstLimitMS, t.FirstMarginMS = o.FirstLimitMS, o.FirstMarginMS
		t.LimitMS, t.MarginMS, t.TotalLimitMS = o.LimitMS, o.MarginMS, o.TotalLimitMS
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Histogram buckets of TimeStats: bucket b holds the times in
// [histBase·histGrowth^b, histBase·histGrowth^(b+1)) ms, bucket 0 also
// everything shorter. 2% wide buckets give quantiles to 2%, and a game's
// few hundred answers fill a few dozen of them. (A hand-written sparse
// histogram: it must merge across games and go into the stored JSON of each
// game, which the HDR and t-digest libraries' encodings do far less
// compactly for a few hundred values.)
const (
	histBase   = 0.01 // ms
	histGrowth = 1.02
)

// TimeStats summarises durations so that summaries of games merge exactly:
// count, sum, maximum and a sparse log-scale histogram for quantiles.
type TimeStats struct {
	N     int     `json:"n"`
	SumMS float64 `json:"sum_ms"`
	MaxMS float64 `json:"max_ms"`
	// Hist holds [bucket, count] pairs in bucket order (see histBase).
	Hist [][2]int `json:"hist,omitempty"`
}

// Add counts one duration.
func (s *TimeStats) Add(d time.Duration) {
	x := ms(max(d, 0))
	s.N++
	s.SumMS += x
	s.MaxMS = max(s.MaxMS, x)
	s.addBucket(bucketOf(x), 1)
}

func bucketOf(x float64) int {
	if x <= histBase {
		return 0
	}
	return int(math.Log(x/histBase) / math.Log(histGrowth))
}

func (s *TimeStats) addBucket(b, n int) {
	i, found := slices.BinarySearchFunc(s.Hist, b, func(e [2]int, b int) int { return e[0] - b })
	if found {
		s.Hist[i][1] += n
		return
	}
	s.Hist = slices.Insert(s.Hist, i, [2]int{b, n})
}

// Merge adds o's durations to s.
func (s *TimeStats) Merge(o TimeStats) {
	s.N += o.N
	s.SumMS += o.SumMS
	s.MaxMS = max(s.MaxMS, o.MaxMS)
	for _, e := range o.Hist {
		s.addBucket(e[0], e[1])
	}
}

// MeanMS is the mean duration (0 for none).
func (s TimeStats) MeanMS() float64 {
	if s.N == 0 {
		return 0
	}
	return s.SumMS / float64(s.N)
}

// QuantileMS estimates the q-quantile (0 < q <= 1): the upper edge of the
// bucket that holds it, at most the maximum; within 2% of the true value.
func (s TimeStats) QuantileMS(q float64) float64 {
	if s.N == 0 {
		return 0
	}
	rank := int(math.Ceil(q * float64(s.N)))
	seen := 0
	for _, e := range s.Hist {
		seen += e[1]
		if seen >= rank {
			return min(histBase*math.Pow(histGrowth, float64(e[0]+1)), s.MaxMS)
		}
	}
	return s.MaxMS
}
