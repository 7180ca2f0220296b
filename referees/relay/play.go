package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// playOutput is the JSON object a play command prints (psyleague's
// cmd_play_game contract).
type playOutput struct {
	Ranks      []json.RawMessage `json:"ranks"`
	Errors     []json.RawMessage `json:"errors"`
	TestData   map[string]any    `json:"test_data"`
	PlayerData []map[string]any  `json:"player_data"`
}

// Play plays one game with a play command (psyleague's cmd_play_game): it
// runs command with args (see PlayArgs and Expand; the seed is also in the
// environment as GAUNTLET_SEED) and reads the one JSON object it prints:
//
//	{"ranks": [0, 1], "errors": [false, "timeout"], "test_data": {...}, "player_data": [{...}, {...}]}
//
// ranks has one number per player, lower being better, equal being a tie;
// errors one bool or string per player (true or a non-empty string: that
// player's error, its forfeit, placed after the others); test_data and
// player_data are optional. Output that is not that object, a command that
// exits non-zero or runs past the game's wall-clock limit is a
// *RefereeError.
//
// The result's Transcript holds what gauntlet sees of such a game: the
// command's output and stderr (up to TranscriptLines and TranscriptBytes).
func Play(ctx context.Context, command, args []string, seed int64, players []Player, lim Limits, log io.Writer) (*Result, error) {
	rec := newRecorder("play", seed, len(players))
	out, stderr, err := run(ctx, command, args, seed, players, "", lim, stderrTo(rec.referee, log))
	if err != nil {
		return nil, err
	}
	rec.output(out)
	rec.drainReferee(true)
	var po playOutput
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&po); err != nil {
		return nil, refErr(stderr, "output %s is not one JSON object with ranks and errors: %v", Quote(string(out), 200), err)
	}
	if dec.More() {
		return nil, refErr(stderr, "output %s: text after the JSON object", Quote(string(out), 200))
	}
	n := len(players)
	if len(po.Ranks) != n {
		return nil, refErr(stderr, "output %s: %d ranks for %d players", Quote(string(out), 200), len(po.Ranks), n)
	}
	if po.Errors != nil && len(po.Errors) != n {
		return nil, refErr(stderr, "output %s: %d errors for %d players", Quote(string(out), 200), len(po.Errors), n)
	}
	if po.PlayerData != nil && len(po.PlayerData) != n {
		return nil, refErr(stderr, "output %s: %d player_data objects for %d players", Quote(string(out), 200), len(po.PlayerData), n)
	}
	res := newResult(n)
	ranks := make([]float64, n)
	for i, raw := range po.Ranks {
		var x float64
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, refErr(stderr, "rank %d %s is not a number", i, Quote(string(raw), 40))
		}
		ranks[i] = x
	}
	for i, raw := range po.Errors {
		why, err := playError(raw)
		if err != nil {
			return nil, refErr(stderr, "error %d %s: %v", i, Quote(string(raw), 80), err)
		}
		res.Forfeit[i] = why
	}
	places := make([]int, n)
	for i := range n {
		places[i] = 1
		for j := range n {
			if ranks[j] < ranks[i] {
				places[i]++
			}
		}
	}
	res.Places = faultPlaces(places, res.Forfeit)
	res.TestData, res.PlayerData = po.TestData, po.PlayerData
	res.Transcript = rec.transcript()
	return res, nil
}

// playError reads one entry of errors: false, null or "" is none.
func playError(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case nil:
		return "", nil
	case bool:
		if x {
			return "the play command reported an error", nil
		}
		return "", nil
	case string:
		if x == "" {
			return "", nil
		}
		return "the play command reported an error: " + Quote(x, 300), nil
	}
	return "", fmt.Errorf("want a bool or a string")
}
