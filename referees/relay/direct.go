package relay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"gauntlet/referees/internal/lineproc"
)

// Direct plays one game with an SDK referee (cg-brutaltester's new mode):
// it runs referee with args (see DirectArgs and Expand), the players' command
// lines in it, and reads one integer score per player from the first lines
// of its standard output. The referee starts and times the players itself;
// a negative score is that player's error (its forfeit). The log file the
// referee writes is removed after the game.
//
// A referee that exits non-zero, runs past the game's wall-clock limit or
// prints fewer scores than players is a *RefereeError.
//
// The result's Transcript holds what gauntlet sees of such a game: the
// referee's output, stderr and log file (up to TranscriptLines and
// TranscriptBytes); the turns are the referee's own.
func Direct(ctx context.Context, referee, args []string, seed int64, players []Player, lim Limits, log io.Writer) (*Result, error) {
	f, err := os.CreateTemp("", "gauntlet-referee-log-*")
	if err != nil {
		return nil, fmt.Errorf("referee log: %w", err)
	}
	path := f.Name()
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("referee log: %w", err)
	}
	defer func() { _ = os.Remove(path) }() // a temporary file: a failed removal leaves only it
	rec := newRecorder("direct", seed, len(players))
	out, stderr, err := run(ctx, referee, args, seed, players, path, lim, stderrTo(rec.referee, log))
	if err != nil {
		return nil, err
	}
	rec.output(out)
	rec.drainReferee(true)
	if err := rec.log(path); err != nil {
		return nil, fmt.Errorf("referee log: %w", err)
	}
	res := newResult(len(players))
	res.Scores = make([]float64, len(players))
	k := 0
	for _, line := range strings.Split(string(out), "\n") {
		if k == len(players) {
			break
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		v, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, refErr(stderr, "output line %s is not a score (want one integer per player, player 1's first)", Quote(line, 80))
		}
		res.Scores[k] = float64(v)
		if v < 0 {
			res.Forfeit[k] = fmt.Sprintf("the referee reported an error (score %d)", v)
		}
		k++
	}
	if k < len(players) {
		return nil, refErr(stderr, "%d scores for %d players (want one integer per player on its own line)", k, len(players))
	}
	res.Transcript = rec.transcript()
	return res, nil
}

// run runs a referee or play command to its end under the game's
// wall-clock limit: its output, the tail of its stderr, and a
// *RefereeError when it failed.
func run(ctx context.Context, command, args []string, seed int64, players []Player, log string, lim Limits, stderr io.Writer) ([]byte, string, error) {
	shells := make([]string, len(players))
	for i, p := range players {
		shells[i] = ShellQuote(p)
	}
	argv := append(append([]string(nil), command...), Expand(args, shells, seed, log)...)
	tail := lineproc.NewTailBuffer(4096)
	var w io.Writer = tail
	if stderr != nil {
		w = io.MultiWriter(tail, stderr)
	}
	env := []string{"GAUNTLET_SEED=" + strconv.FormatInt(seed, 10)}
	out, _, err := lineproc.Run(ctx, argv, lineproc.Options{Env: env, Stderr: w}, nil, lim.game(), 0, maxOutput)
	var capErr *lineproc.CapError
	switch {
	case err == nil:
		return out, tail.String(), nil
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case errors.As(err, &capErr):
		return nil, "", refErr(tail.String(), "still running at the game's wall-clock cap of %s (--game-timeout)", lineproc.Millis(capErr.Cap))
	case errors.Is(err, lineproc.ErrTimeout):
		return nil, "", refErr(tail.String(), "still running after the game's time limit of %s", lineproc.Millis(lim.game()))
	case errors.Is(err, lineproc.ErrOutputLimit):
		return nil, "", refErr(tail.String(), "more than %d bytes of output", maxOutput)
	case errors.Is(err, lineproc.ErrExited):
		msg := strings.TrimPrefix(err.Error(), argv[0]+": ")
		return nil, "", refErr(tail.String(), "%s", exitStatus(errors.New(msg)))
	}
	return nil, "", fmt.Errorf("referee: %w", err)
}
