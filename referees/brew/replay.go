package brew

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"gauntlet/internal/bounded"
)

// ReplayInput is what a replay needs from one games.jsonl line; other fields
// are ignored.
type ReplayInput struct {
	Name    json.RawMessage `json:"name"`
	Seed    *int64          `json:"seed"`
	League  *int            `json:"league"`
	Actions Actions         `json:"actions"`
}

// Actions are a game's recorded action lines, one entry per round with one
// line per player (null for an inactive one). Decoding stops at the first
// round past MaxRounds and at the first line past Players in a round, so
// that a list longer than any game uses costs no memory: a game lasts at
// most MaxRounds rounds.
type Actions [][]*string

// UnmarshalJSON decodes an array of rounds, each an array of strings or
// nulls, refusing more rounds or lines than a game has.
func (a *Actions) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	rounds, err := openArray(dec)
	if err != nil || !rounds {
		*a = nil
		return err
	}
	out := Actions{}
	for dec.More() {
		if len(out) == MaxRounds {
			return fmt.Errorf("actions: more than %d rounds; a game lasts at most %d", MaxRounds, MaxRounds)
		}
		lines, err := openArray(dec)
		if err != nil {
			return fmt.Errorf("actions[%d]: %w", len(out), err)
		}
		var round []*string
		for lines && dec.More() {
			if len(round) == Players {
				return fmt.Errorf("actions[%d]: more than %d entries, want one per player", len(out), Players)
			}
			var s *string
			if err := dec.Decode(&s); err != nil {
				return fmt.Errorf("actions[%d][%d]: want a string or null: %w", len(out), len(round), err)
			}
			round = append(round, s)
		}
		if lines {
			if _, err := dec.Token(); err != nil { // the round's ']'
				return err
			}
		}
		out = append(out, round)
	}
	*a = out
	return nil
}

// openArray reads the '[' that opens an array, or a null (false).
func openArray(dec *json.Decoder) (bool, error) {
	tok, err := dec.Token()
	switch {
	case err != nil:
		return false, err
	case tok == nil:
		return false, nil
	case tok != json.Delim('['):
		return false, fmt.Errorf("want an array, got %v", tok)
	}
	return true, nil
}

// ReplayResult is one line of the replay output.
type ReplayResult struct {
	Name         json.RawMessage    `json:"name"`
	Rounds       int                `json:"rounds"`
	Scores       [Players]int       `json:"scores"`
	Active       [Players]bool      `json:"active"`
	InputsSHA256 [][Players]*string `json:"inputs_sha256"`
	Inputs       [][Players]*string `json:"inputs,omitempty"`
}

// ReplayGame replays recorded action lines: each round every active player
// gets its input (hashed, and kept when withInputs) and its recorded line is
// parsed and played. An action list that ends before the game, or that has
// no line for an active player, is an error naming the round.
func ReplayGame(seed int64, league int, actions [][]*string, withInputs bool) (ReplayResult, error) {
	var res ReplayResult
	buf := make([]byte, 0, 4096)
	res.InputsSHA256 = make([][Players]*string, 0, MaxRounds)
	st, err := Walk(seed, league, actions, func(st *State, lines [Players]*string) {
		var hashes, texts [Players]*string
		for p, line := range lines {
			if line == nil {
				continue
			}
			buf = st.AppendInput(buf[:0], p)
			hashes[p] = ptr(hashText(buf))
			if withInputs {
				texts[p] = ptr(string(buf))
			}
		}
		res.InputsSHA256 = append(res.InputsSHA256, hashes)
		if withInputs {
			res.Inputs = append(res.Inputs, texts)
		}
	})
	if err != nil {
		return res, err
	}
	res.Rounds = int(st.Round)
	res.Scores = st.Scores()
	res.Active = st.ActiveFlags()
	return res, nil
}

// Replay reads games as JSON lines from r and writes one result line per
// game to w, in order (the `gauntlet replay brew` contract). Blank lines
// are skipped. A malformed game is an error naming its line and name, as
// is a line longer than bounded.LineSize. ctx ends the replay even while a
// read of r blocks.
func Replay(ctx context.Context, r io.Reader, w io.Writer, withInputs bool) error {
	lines := bounded.NewLines(ctx, r, 0)
	bw := bufio.NewWriterSize(w, 1<<16)
	for lines.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := lines.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		out, err := replayLine(line, withInputs)
		if err != nil {
			return fmt.Errorf("input line %d: %w", lines.Line(), err)
		}
		if _, err := bw.Write(out); err != nil {
			return err
		}
	}
	if err := lines.Err(); err != nil {
		if tl := (*bounded.TooLargeError)(nil); errors.As(err, &tl) {
			return fmt.Errorf("input %w", err) // "input line 3: longer than 16 MiB"
		}
		return err
	}
	return bw.Flush()
}

func replayLine(line []byte, withInputs bool) ([]byte, error) {
	var in ReplayInput
	if err := json.Unmarshal(line, &in); err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	label := "game"
	if len(in.Name) > 0 && string(in.Name) != "null" {
		label = "game " + string(in.Name)
	}
	if in.Seed == nil {
		return nil, fmt.Errorf("%s: missing seed", label)
	}
	if in.League == nil {
		return nil, fmt.Errorf("%s: missing league", label)
	}
	if in.Actions == nil {
		return nil, fmt.Errorf("%s: missing actions", label)
	}
	res, err := ReplayGame(*in.Seed, *in.League, in.Actions, withInputs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	res.Name = in.Name
	if len(res.Name) == 0 {
		res.Name = json.RawMessage("null")
	}
	out, err := json.Marshal(&res)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
