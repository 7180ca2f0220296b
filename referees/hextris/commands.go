package hextris

import (
	"unicode"
	"unicode/utf8"
)

// Command is one of the six unit commands.
type Command uint8

// The six commands, in the order of the rules' table.
const (
	MoveW  Command = iota // move W
	MoveE                 // move E
	MoveSW                // move SW
	MoveSE                // move SE
	RotCW                 // rotate clockwise
	RotCCW                // rotate counter-clockwise
	NumCommands
)

var commandNames = [NumCommands]string{"move W", "move E", "move SW", "move SE", "rotate CW", "rotate CCW"}

// String names the command ("move SW", "rotate CW").
func (c Command) String() string {
	if c < NumCommands {
		return commandNames[c]
	}
	return "command(?)"
}

// commandChars are the characters of each command (lower case).
var commandChars = [NumCommands]string{
	MoveW:  "p'!.03",
	MoveE:  "bcefy2",
	MoveSW: "aghij4",
	MoveSE: "lmno 5",
	RotCW:  "dqrvz1",
	RotCCW: "kstuwx",
}

// Chars returns the lower-case characters that spell c.
func (c Command) Chars() string {
	if c < NumCommands {
		return commandChars[c]
	}
	return ""
}

// Char returns the canonical (first) character of c.
func (c Command) Char() byte { return commandChars[c][0] }

// Character classes for the byte table: a command, a deleted character or an
// invalid one.
const (
	classIgnored int8 = -1 // \t \n \r: deleted before anything else
	classInvalid int8 = -2 // not a command
)

// asciiClass maps every ASCII byte to its command, classIgnored or
// classInvalid. Upper-case letters map like their lower-case forms.
var asciiClass = func() (t [utf8.RuneSelf]int8) {
	for i := range t {
		t[i] = classInvalid
	}
	t['\t'], t['\n'], t['\r'] = classIgnored, classIgnored, classIgnored
	for c := Command(0); c < NumCommands; c++ {
		for _, ch := range []byte(commandChars[c]) {
			t[ch] = int8(c)
			if 'a' <= ch && ch <= 'z' {
				t[ch-'a'+'A'] = int8(c)
			}
		}
	}
	return t
}()

// runeClass classifies one character: its lower-case form (Unicode simple
// case mapping, as the referee's toLower) is looked up in the table.
func runeClass(r rune) int8 {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	l := unicode.ToLower(r)
	if l < utf8.RuneSelf {
		return asciiClass[l]
	}
	return classInvalid
}

// DecodeChar returns the command a character spells. ok is false for the
// deleted characters \t, \n, \r and for invalid characters; invalid tells
// them apart.
func DecodeChar(r rune) (c Command, ok, invalid bool) {
	switch k := runeClass(r); k {
	case classIgnored:
		return 0, false, false
	case classInvalid:
		return 0, false, true
	default:
		return Command(k), true, false
	}
}
