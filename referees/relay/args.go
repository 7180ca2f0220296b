package relay

import (
	"fmt"
	"strconv"
	"strings"
)

// Argument templates of a direct referee or a play command. A word may hold
// these placeholders:
//
//	{p1} ... {p9}   player 1's ... 9's command, as one shell command line
//	{players}       (a whole word) every player's command, one word each
//	{n}             the number of players
//	{seed}          the game's seed
//	{log}           the path of a file for the referee's game log (direct)
//
// Other text is kept as it is.

// DirectArgs is the argument template of an SDK referee (cg-brutaltester's
// new mode) for n players: -p1 {p1} ... -pN {pN} -d seed={seed} -l {log}.
func DirectArgs(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, "-p"+strconv.Itoa(i), "{p"+strconv.Itoa(i)+"}")
	}
	return append(out, "-d", "seed={seed}", "-l", "{log}")
}

// PlayArgs is the default argument template of a play command: every
// player's command, in seat order.
func PlayArgs() []string { return []string{"{players}"} }

// CheckArgs refuses a template with an unknown placeholder or a player
// beyond maxPlayers.
func CheckArgs(template []string, maxPlayers int) error {
	for _, w := range template {
		if w == "{players}" {
			continue
		}
		err := scan(w, func(name string) error {
			switch {
			case name == "seed", name == "log", name == "n":
				return nil
			case name == "players":
				return fmt.Errorf("{players} must be a whole word, not part of %q", w)
			}
			if k, ok := playerNum(name); ok {
				if k > maxPlayers {
					return fmt.Errorf("{%s}: the game has at most %d players", name, maxPlayers)
				}
				return nil
			}
			return fmt.Errorf("unknown placeholder {%s} (want {p1}..{p9}, {players}, {n}, {seed} or {log})", name)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Expand fills a template for one game; a player beyond len(players) is
// an empty word.
func Expand(template []string, players []string, seed int64, log string) []string {
	out := make([]string, 0, len(template)+len(players))
	for _, w := range template {
		if w == "{players}" {
			out = append(out, players...)
			continue
		}
		var b strings.Builder
		last := 0
		// CheckArgs has accepted the template: every placeholder is known.
		_ = scanAt(w, func(name string, lo, hi int) error {
			b.WriteString(w[last:lo])
			last = hi
			switch name {
			case "seed":
				b.WriteString(strconv.FormatInt(seed, 10))
			case "log":
				b.WriteString(log)
			case "n":
				b.WriteString(strconv.Itoa(len(players)))
			default:
				if k, ok := playerNum(name); ok && k <= len(players) {
					b.WriteString(players[k-1])
				}
			}
			return nil
		})
		b.WriteString(w[last:])
		out = append(out, b.String())
	}
	return out
}

func playerNum(name string) (int, bool) {
	if len(name) != 2 || name[0] != 'p' || name[1] < '1' || name[1] > '9' {
		return 0, false
	}
	return int(name[1] - '0'), true
}

func scan(w string, each func(name string) error) error {
	return scanAt(w, func(name string, _, _ int) error { return each(name) })
}

// scanAt calls each for every {name} of w with its position [lo, hi).
func scanAt(w string, each func(name string, lo, hi int) error) error {
	for i := 0; i < len(w); i++ {
		if w[i] != '{' {
			continue
		}
		end := strings.IndexByte(w[i:], '}')
		if end < 0 {
			return fmt.Errorf("%q: { is not closed", w)
		}
		if err := each(w[i+1:i+end], i, i+end+1); err != nil {
			return err
		}
		i += end
	}
	return nil
}
