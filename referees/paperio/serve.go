package paperio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gauntlet/internal/bounded"
)

// Serve runs an in-process bot as a runner-protocol process under the
// server runner's rules: ServeRules with DefaultRules.
func Serve(ctx context.Context, r io.Reader, w io.Writer, bot Bot) error {
	return ServeRules(ctx, DefaultRules(), r, w, bot)
}

// ServeRules runs an in-process bot as a runner-protocol process: it reads
// the runner's messages from r (start_game, tick, end_game), shows each
// tick to the bot as a State under rules (see TickParams.Fill) and writes
// {"command": ...} lines to w. The runner's messages carry the speed, which
// replaces rules.Speed, but not the tick count or the time limits: those
// are rules' (FinalsRules for the finals). The player count and the bot's
// own id are taken from the first tick: every player is alive then, and the
// receiver ("i") has the id the others lack. It returns nil after end_game
// or at the end of r.
func ServeRules(ctx context.Context, rules Rules, r io.Reader, w io.Writer, bot Bot) error {
	if bot == nil {
		return errors.New("serve: nil bot")
	}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	lines := bounded.NewLines(ctx, r, 0)
	bw := bufio.NewWriter(w)
	n, me := 0, 0
	s := new(State)
	var out []byte
	for line := 1; ; line++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !lines.Scan() {
			if err := lines.Err(); err != nil {
				return fmt.Errorf("serve: %w", err) // "serve: line 3: longer than 16 MiB"
			}
			return bw.Flush()
		}
		m, perr := ParseMessage(lines.Bytes())
		if perr != nil {
			return fmt.Errorf("serve: line %d: %v", line, perr)
		}
		switch m.Type {
		case "start_game":
			var sp StartParams
			if err := json.Unmarshal(m.Params, &sp); err != nil {
				return fmt.Errorf("serve: line %d: start_game: %v", line, err)
			}
			if startSpeed(sp.Speed) {
				rules.Speed = sp.Speed
			}
		case "end_game":
			return bw.Flush()
		case "tick":
			tp, err := ParseTick(m.Params)
			if err != nil {
				return fmt.Errorf("serve: line %d: %v", line, err)
			}
			if n == 0 {
				n, me = identify(&tp)
				if n == 0 {
					return fmt.Errorf("serve: line %d: cannot tell the players apart", line)
				}
			}
			if err := tp.Fill(s, rules, n, me); err != nil {
				return fmt.Errorf("serve: line %d: %v", line, err)
			}
			d, reason := safeCommand(bot, s, me)
			if reason != "" {
				return fmt.Errorf("serve: tick %d: bot %s", tp.TickNum, reason)
			}
			out = AppendCommand(out[:0], d)
			if _, err := bw.Write(out); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// identify returns the player count and the receiver's id from a tick
// where every player is present (0, 0 when the keys do not allow it).
func identify(tp *TickParams) (n, me int) {
	n = len(tp.Players)
	if n < 1 || n > MaxPlayers {
		return 0, 0
	}
	var seen [MaxPlayers + 1]bool
	for key := range tp.Players {
		if key == "i" {
			continue
		}
		id, err := strconv.Atoi(key)
		if err != nil || id < 1 || id > n {
			return 0, 0
		}
		seen[id] = true
	}
	for id := 1; id <= n; id++ {
		if !seen[id] {
			return n, id
		}
	}
	return 0, 0
}
