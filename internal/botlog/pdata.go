package botlog

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"gauntlet/internal/untrusted"
)

// PDATA lines: "[PDATA] key = value", one a line, anywhere in a bot's
// stderr (psyleague's convention for per-game metadata). Keys are 1 to
// maxKey letters, digits, '_', '-' and '.'; a value is what follows the
// first '=' with the spaces around it trimmed, a number when it reads as
// one. A bot keeps at most maxKeys keys a game (later new keys are
// ignored; a key written again takes its last value), and a line longer
// than maxPLine is not read.
const (
	pdataPrefix = "[PDATA]"
	maxKeys     = 32
	maxKey      = 40
	maxPLine    = 512
)

// pdataScanner reads the PDATA lines of a stream written in pieces. It
// holds at most maxPLine bytes: a line that does not start with the prefix
// is skipped as soon as that shows.
type pdataScanner struct {
	line []byte
	skip bool // the rest of this line is not a PDATA line
	vals map[string]any
}

// write reads p, which continues what came before.
func (s *pdataScanner) write(p []byte) {
	for len(p) > 0 {
		nl := bytes.IndexByte(p, '\n')
		chunk := p
		if nl >= 0 {
			chunk = p[:nl]
		}
		if !s.skip {
			if len(s.line)+len(chunk) > maxPLine {
				s.skip = true
			} else {
				s.line = append(s.line, chunk...)
				n := min(len(s.line), len(pdataPrefix))
				s.skip = string(s.line[:n]) != pdataPrefix[:n]
			}
			if s.skip {
				s.line = s.line[:0]
			}
		}
		if nl < 0 {
			return
		}
		if !s.skip && len(s.line) > len(pdataPrefix) {
			s.parse(string(bytes.TrimSuffix(s.line[len(pdataPrefix):], []byte{'\r'})))
		}
		s.line, s.skip = s.line[:0], false
		p = p[nl+1:]
	}
}

// parse reads " key = value".
func (s *pdataScanner) parse(kv string) {
	k, v, ok := strings.Cut(kv, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || !validKey(k) {
		return
	}
	if _, have := s.vals[k]; !have && len(s.vals) >= maxKeys {
		return
	}
	if s.vals == nil {
		s.vals = map[string]any{}
	}
	if x, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
		s.vals[k] = x
		return
	}
	s.vals[k] = untrusted.Line(v)
}

// validKey reports whether k may name a PDATA column.
func validKey(k string) bool {
	if k == "" || len(k) > maxKey {
		return false
	}
	for _, c := range []byte(k) {
		if !(c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// DetailKey is the Outcome.Detail key of a PDATA key of the bot in seat:
// "pdata.KEY" for seat 0 (the evaluated entrant in eval), "pdata.sN.KEY"
// for seat N > 0.
func DetailKey(seat int, key string) string {
	if seat == 0 {
		return "pdata." + key
	}
	return "pdata.s" + strconv.Itoa(seat) + "." + key
}

// IsDetailKey reports whether a detail key holds a PDATA value.
func IsDetailKey(k string) bool { return strings.HasPrefix(k, "pdata.") }
