// Package untrusted shows text that a bot, a referee or a file handed us
// (a forfeit reason, a bot's stderr, a run name read from a store) without
// letting it act on the terminal or the file it is shown in.
//
// A character is shown as it is when strconv.Quote would leave it as it is:
// letters, marks, numbers, punctuation, symbols and the ASCII space. Every
// other one is escaped the way Go writes it in a quoted string: C0 controls
// (\x00, \n, \x1b, ...), DEL (\x7f), C1 controls (\u009b), bidirectional
// and other format characters (\u202e, \u2066) and separators other than
// the space (\u2028, \u00a0); a byte that is not UTF-8 becomes \xff. Unlike
// strconv.Quote no quotes are added and neither the backslash nor the
// double quote is escaped, so that text already quoted (an answer shown as
// %q) reads the same: the escapes are for safety, not to be decoded.
package untrusted

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line returns s with every character that is not safe to show escaped,
// the newline and the tab included: the result is one line of plain text.
// It returns s itself, without allocating, when nothing needs escaping.
func Line(s string) string { return escape(s, false) }

// Text is Line but keeps newlines and tabs, for text of several lines (an
// error message, a page) whose line breaks are the program's own and whose
// untrusted parts came through Line.
func Text(s string) string { return escape(s, true) }

// escape escapes what is not safe in s; lines keeps '\n' and '\t'.
func escape(s string, lines bool) string {
	i := unsafeAt(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[s[i]>>4])
			b.WriteByte("0123456789abcdef"[s[i]&0xf])
		case safe(r, lines):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// unsafeAt is the index of the first byte of s that needs escaping, or -1.
func unsafeAt(s string, lines bool) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
		if !safe(r, lines) {
			return i
		}
	}
	return -1
}

// safe reports whether r may be shown as it is.
func safe(r rune, lines bool) bool {
	if r < utf8.RuneSelf {
		return ' ' <= r && r < 0x7f || lines && (r == '\n' || r == '\t')
	}
	return strconv.IsPrint(r)
}

// LastLines is the last n lines of s (a program's stderr), each through
// Line with a trailing carriage return dropped, joined by " | ": a crashed
// program's last words on one safe line.
func LastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = Line(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, " | ")
}
