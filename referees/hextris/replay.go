package hextris

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"gauntlet/internal/bounded"
)

// Replay runs the conformance replay contract: one JSON object per input
// line ({"problemId", "seed", "solution", "phrases"}; other keys are
// ignored) and one Result line per input line, in order, on w. Blank lines
// are skipped. The first malformed line (bad JSON, a missing or mistyped
// field, an unknown problem or phrase set) stops the replay with an error
// naming its line number; the results of the lines before it are written.
// A line longer than bounded.LineSize is such an error; ctx ends the replay
// even while a read of r blocks.
func Replay(ctx context.Context, r io.Reader, w io.Writer) (err error) {
	sc := bounded.NewLines(ctx, r, 0)
	bw := bufio.NewWriterSize(w, 1<<16)
	defer func() {
		// The results before a malformed line still come out.
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
	}()
	var g Game
	sets := map[string]PhraseSet{}
	for sc.Scan() {
		line := sc.Line()
		if line&255 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		p, seed, ps, sol, err := replayInput(text, sets)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		res := g.Play(p, seed, ps, sol)
		out, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if _, err := bw.Write(append(out, '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

func replayInput(text []byte, sets map[string]PhraseSet) (*Problem, uint32, PhraseSet, string, error) {
	var none PhraseSet
	obj, err := jsonObject(text, "case")
	if err != nil {
		return nil, 0, none, "", err
	}
	r, err := field(obj, "problemId", "case")
	if err != nil {
		return nil, 0, none, "", err
	}
	id, err := jsonInt(r, "problemId", 0, math.MaxInt32)
	if err != nil {
		return nil, 0, none, "", err
	}
	p, err := Official(int(id))
	if err != nil {
		return nil, 0, none, "", fmt.Errorf("problemId: %w", err)
	}
	if r, err = field(obj, "seed", "case"); err != nil {
		return nil, 0, none, "", err
	}
	seed, err := jsonInt(r, "seed", 0, math.MaxUint32)
	if err != nil {
		return nil, 0, none, "", err
	}
	if r, err = field(obj, "solution", "case"); err != nil {
		return nil, 0, none, "", err
	}
	var sol string
	if err := json.Unmarshal(r, &sol); err != nil {
		return nil, 0, none, "", fmt.Errorf("solution: want a string, got %s", jsonKind(bytes.TrimSpace(r)))
	}
	name := "power"
	if r, ok := obj["phrases"]; ok {
		if err := json.Unmarshal(r, &name); err != nil {
			return nil, 0, none, "", fmt.Errorf("phrases: want a phrase set name, got %s", jsonKind(bytes.TrimSpace(r)))
		}
	}
	ps, ok := sets[name]
	if !ok {
		if ps, err = OfficialPhrases(name); err != nil {
			return nil, 0, none, "", fmt.Errorf("phrases: %w", err)
		}
		sets[name] = ps
	}
	return p, uint32(seed), ps, sol, nil
}
