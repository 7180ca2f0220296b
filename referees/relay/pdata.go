package relay

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"gauntlet/internal/untrusted"
)

// Bounds on what a player's metadata lines may hold: keys and values are
// cut, and keys past the cap are not kept.
const (
	pdataKeys     = 32
	pdataKeyBytes = 64
	pdataValBytes = 200
)

// pdata collects the players' metadata lines from their stderr, as
// psyleague reads them: "[PDATA] key = value" sets key for the game (the
// last value stands), "[PDATA+] key = value" adds a number to it. A value
// that reads as a number is a float64, any other one a string.
type pdata struct {
	seats []map[string]any
}

func newPData(players int) *pdata { return &pdata{seats: make([]map[string]any, players)} }

// add reads player i's stderr lines.
func (p *pdata) add(i int, lines []string) {
	for _, l := range lines {
		sum := false
		rest, ok := strings.CutPrefix(l, "[PDATA] ")
		if !ok {
			if rest, ok = strings.CutPrefix(l, "[PDATA+] "); !ok {
				continue
			}
			sum = true
		}
		k, v, ok := strings.Cut(rest, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			continue
		}
		k, v = untrusted.Line(cutTo(k, pdataKeyBytes)), untrusted.Line(cutTo(v, pdataValBytes))
		m := p.seats[i]
		if m == nil {
			m = map[string]any{}
			p.seats[i] = m
		}
		if _, had := m[k]; !had && len(m) >= pdataKeys {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		switch {
		case err != nil:
			if !sum {
				m[k] = v
			}
		case sum:
			old, _ := m[k].(float64)
			m[k] = old + x
		default:
			m[k] = x
		}
	}
}

// playerData is one object per player, nil when no player wrote a line.
func (p *pdata) playerData() []map[string]any {
	for _, m := range p.seats {
		if m != nil {
			out := make([]map[string]any, len(p.seats))
			for i, s := range p.seats {
				out[i] = s
				if out[i] == nil {
					out[i] = map[string]any{}
				}
			}
			return out
		}
	}
	return nil
}

// cutTo cuts s to at most n bytes, on a rune boundary.
func cutTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
