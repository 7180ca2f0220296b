package brew

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// AppendInput appends the exact turn input the referee sends player p
// (lines ending in "\n") to dst and returns the extended buffer. With a
// buffer of sufficient capacity (4 KiB is plenty) nothing is allocated.
func (s *State) AppendInput(dst []byte, p int) []byte {
	me, op := &s.P[p], &s.P[1-p]
	n := int(s.NOrders) + int(s.NTome) + int(me.NSpells) + int(op.NSpells)
	dst = strconv.AppendInt(dst, int64(n), 10)
	dst = append(dst, '\n')
	for q := 0; q < int(s.NOrders); q++ {
		o := &s.Orders[q]
		dst = strconv.AppendInt(dst, int64(o.ID), 10)
		dst = append(dst, " BREW"...)
		for k := 0; k < Tiers; k++ {
			dst = appendSpaceInt(dst, -int32(o.Cost[k]))
		}
		var bv, bu int32
		if q < 2 && s.BonusUses[q] > 0 {
			bv, bu = s.BonusValue[q], s.BonusUses[q]
		}
		dst = appendSpaceInt(dst, int32(o.Price)+bv)
		dst = appendSpaceInt(dst, bv)
		dst = appendSpaceInt(dst, bu)
		dst = append(dst, " 0 0\n"...)
	}
	for k := 0; k < int(s.NTome); k++ {
		t := &s.Tome[k]
		dst = strconv.AppendInt(dst, int64(t.ID), 10)
		dst = append(dst, " LEARN"...)
		rc := &Recipes[t.ID]
		for i := 0; i < Tiers; i++ {
			dst = appendSpaceInt(dst, int32(rc.Delta[i]))
		}
		dst = append(dst, " 0"...)
		dst = appendSpaceInt(dst, int32(k))
		dst = appendSpaceInt(dst, t.Stock)
		dst = append(dst, " 0"...)
		dst = appendFlag(dst, rc.Repeatable)
		dst = append(dst, '\n')
	}
	dst = appendSpells(dst, me, " CAST")
	dst = appendSpells(dst, op, " OPPONENT_CAST")
	dst = appendInventory(dst, me)
	dst = appendInventory(dst, op)
	return dst
}

func appendSpells(dst []byte, pl *PlayerState, verb string) []byte {
	for i := 0; i < int(pl.NSpells); i++ {
		sp := pl.Spells[i]
		rc := &Recipes[sp.Recipe]
		dst = strconv.AppendInt(dst, int64(sp.ID), 10)
		dst = append(dst, verb...)
		for k := 0; k < Tiers; k++ {
			dst = appendSpaceInt(dst, int32(rc.Delta[k]))
		}
		dst = append(dst, " 0 -1 -1"...)
		dst = appendFlag(dst, pl.Castable&(1<<uint(i)) != 0)
		dst = appendFlag(dst, rc.Repeatable)
		dst = append(dst, '\n')
	}
	return dst
}

func appendInventory(dst []byte, pl *PlayerState) []byte {
	dst = strconv.AppendInt(dst, int64(pl.Inv[0]), 10)
	for k := 1; k < Tiers; k++ {
		dst = appendSpaceInt(dst, pl.Inv[k])
	}
	dst = appendSpaceInt(dst, pl.Score)
	return append(dst, '\n')
}

func appendSpaceInt(dst []byte, v int32) []byte {
	dst = append(dst, ' ')
	if v >= 0 && v < 10 {
		return append(dst, byte('0'+v))
	}
	return strconv.AppendInt(dst, int64(v), 10)
}

func appendFlag(dst []byte, b bool) []byte {
	if b {
		return append(dst, " 1"...)
	}
	return append(dst, " 0"...)
}

// ---------------------------------------------------------------------------
// Output lines.

// ParseError is a bot output line the referee rejects: the player is
// disqualified (score -1).
type ParseError struct {
	Line   string
	Reason string
}

func (e *ParseError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("unparseable line %q", e.Line)
	}
	return fmt.Sprintf("unparseable line %q (%s)", e.Line, e.Reason)
}

// ParseCommand reads one bot output line as the referee of the given
// league does (Java regexes, ASCII-only case folding, \s including the
// vertical tab, Integer.valueOf range). A line no pattern of the league
// accepts, or whose id or count exceeds 2147483647, is a *ParseError: the
// player is disqualified. The message part is ignored. ParseCommand does not
// allocate for accepted lines.
func ParseCommand(line string, league int) (Action, error) {
	lg := uint8(MaxLeague)
	if league >= 1 && league < MaxLeague {
		lg = uint8(league)
	}
	r := &rulesByLeague[lg]
	// Each verb's pattern is tried in the referee's order; the verbs have
	// distinct spellings, so at most one can match the start of the line.
	if r.spells {
		if rest, ok := cutVerb(line, "REST"); ok {
			if messageTail(rest) {
				return Action{Kind: Rest}, nil
			}
			return Action{}, &ParseError{Line: line}
		}
		if rest, ok := cutVerb(line, "CAST"); ok {
			return parseCast(line, rest)
		}
	}
	if r.tome {
		if rest, ok := cutVerb(line, "LEARN"); ok {
			return parseIDCommand(line, rest, Learn)
		}
	}
	if rest, ok := cutVerb(line, "BREW"); ok {
		return parseIDCommand(line, rest, Brew)
	}
	if rest, ok := cutVerb(line, "WAIT"); ok && messageTail(rest) {
		return Action{Kind: Wait}, nil
	}
	return Action{}, &ParseError{Line: line}
}

// cutVerb matches verb (upper case) at the start of line with ASCII-only
// case folding.
func cutVerb(line, verb string) (string, bool) {
	if len(line) < len(verb) {
		return "", false
	}
	for i := 0; i < len(verb); i++ {
		c := line[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != verb[i] {
			return "", false
		}
	}
	return line[len(verb):], true
}

// isJavaSpace is Java's \s: [ \t\n\x0B\f\r].
func isJavaSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

// skipSpace returns s without its leading Java whitespace and whether there
// was any.
func skipSpace(s string) (string, bool) {
	i := 0
	for i < len(s) && isJavaSpace(s[i]) {
		i++
	}
	return s[i:], i > 0
}

// messageTail reports whether rest matches (?:\s+(?<message>.*))?$ : empty,
// or whitespace followed by text without line terminators.
func messageTail(rest string) bool {
	if rest == "" {
		return true
	}
	msg, ok := skipSpace(rest)
	return ok && !hasLineTerminator(msg)
}

// hasLineTerminator reports whether s holds a character Java's '.' does not
// match: \n, \r, U+0085, U+2028, U+2029.
func hasLineTerminator(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r':
			return true
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// cutDigits splits s into its leading ASCII digits and the rest.
func cutDigits(s string) (string, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// javaInt converts decimal digits as Integer.valueOf does.
func javaInt(digits string) (int32, bool) {
	var v int64
	for i := 0; i < len(digits); i++ {
		v = v*10 + int64(digits[i]-'0')
		if v > 1<<31-1 {
			return 0, false
		}
	}
	return int32(v), true
}

// parseIDCommand matches \s+(?<id>\d+)(?:\s+(?<message>.*))? after the verb.
func parseIDCommand(line, rest string, k Kind) (Action, error) {
	rest, ok := skipSpace(rest)
	if !ok {
		return Action{}, &ParseError{Line: line}
	}
	digits, tail := cutDigits(rest)
	if digits == "" || !messageTail(tail) {
		return Action{}, &ParseError{Line: line}
	}
	id, ok := javaInt(digits)
	if !ok {
		return Action{}, &ParseError{Line: line, Reason: "id " + digits + " exceeds 2147483647"}
	}
	return Action{Kind: k, ID: id}, nil
}

// parseCast matches \s+(?<id>\d+)(?:\s+(?<param>\d+))?(?:\s+(?<message>.*))?
// after CAST; the optional count is tried first, as the regex does.
func parseCast(line, rest string) (Action, error) {
	rest, ok := skipSpace(rest)
	if !ok {
		return Action{}, &ParseError{Line: line}
	}
	digits, tail := cutDigits(rest)
	if digits == "" {
		return Action{}, &ParseError{Line: line}
	}
	var times string
	if after, sp := skipSpace(tail); sp {
		if d, t := cutDigits(after); d != "" && messageTail(t) {
			times = d
			tail = ""
		}
	}
	if times == "" && !messageTail(tail) {
		return Action{}, &ParseError{Line: line}
	}
	id, ok := javaInt(digits)
	if !ok {
		return Action{}, &ParseError{Line: line, Reason: "id " + digits + " exceeds 2147483647"}
	}
	a := Action{Kind: Cast, ID: id, Times: 1}
	if times != "" {
		if a.Times, ok = javaInt(times); !ok {
			return Action{}, &ParseError{Line: line, Reason: "repeat count " + times + " exceeds 2147483647"}
		}
	}
	return a, nil
}

// ---------------------------------------------------------------------------
// Input text.

// EntryType is the second word of an input line.
type EntryType uint8

// The entry types of the turn input.
const (
	EntryBrew EntryType = iota
	EntryLearn
	EntryCast
	EntryOpponentCast
)

var entryNames = [...]string{"BREW", "LEARN", "CAST", "OPPONENT_CAST"}

func (t EntryType) String() string {
	if int(t) < len(entryNames) {
		return entryNames[t]
	}
	return "EntryType(" + strconv.Itoa(int(t)) + ")"
}

// Entry is one action line of the turn input, all fields as printed.
type Entry struct {
	ID         int32
	Type       EntryType
	Delta      [Tiers]int32
	Price      int32 // BREW: price including the urgency bonus
	TomeIndex  int32 // LEARN: tome index; BREW: bonus value; spells: -1
	TaxCount   int32 // LEARN: stock; BREW: bonus uses; spells: -1
	Castable   bool
	Repeatable bool
}

// View is one parsed turn input: the action lines in order, then the
// receiving player's inventory and score (index 0) and the opponent's (1).
type View struct {
	Entries []Entry
	Inv     [Players][Tiers]int32
	Score   [Players]int32
}

// MaxActionCount is the largest actionCount ParseInput accepts (the
// statement's bound).
const MaxActionCount = 100

// ParseInput reads one turn input (as AppendInput writes it) into v, reusing
// v.Entries. It returns the number of bytes consumed, so a stream of turns
// can be read from one buffer. Errors name the line and field.
func ParseInput(text []byte, v *View) (int, error) {
	v.Entries = v.Entries[:0]
	pos, lineNo := 0, 0
	next := func() ([]byte, error) {
		lineNo++
		if pos >= len(text) {
			return nil, fmt.Errorf("line %d: missing (input ends early)", lineNo)
		}
		end := pos
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if end == len(text) {
			return nil, fmt.Errorf("line %d: no newline at the end", lineNo)
		}
		line := text[pos:end]
		pos = end + 1
		return line, nil
	}
	line, err := next()
	if err != nil {
		return 0, err
	}
	var f fields
	if err := f.split(line, 1); err != nil {
		return 0, fmt.Errorf("line %d (actionCount): %w", lineNo, err)
	}
	count, err := f.int(0, "actionCount")
	if err != nil {
		return 0, fmt.Errorf("line %d: %w", lineNo, err)
	}
	if count < 0 || count > MaxActionCount {
		return 0, fmt.Errorf("line %d: actionCount %d outside 0..%d", lineNo, count, MaxActionCount)
	}
	for i := int32(0); i < count; i++ {
		line, err := next()
		if err != nil {
			return 0, err
		}
		e, err := parseEntry(line)
		if err != nil {
			return 0, fmt.Errorf("line %d: %w", lineNo, err)
		}
		v.Entries = append(v.Entries, e)
	}
	for p := 0; p < Players; p++ {
		line, err := next()
		if err != nil {
			return 0, err
		}
		if err := f.split(line, 5); err != nil {
			return 0, fmt.Errorf("line %d (inventory): %w", lineNo, err)
		}
		for k := 0; k < Tiers; k++ {
			if v.Inv[p][k], err = f.int(k, invNames[k]); err != nil {
				return 0, fmt.Errorf("line %d: %w", lineNo, err)
			}
		}
		if v.Score[p], err = f.int(4, "score"); err != nil {
			return 0, fmt.Errorf("line %d: %w", lineNo, err)
		}
	}
	return pos, nil
}

// Field names for error messages (constants, so parsing allocates nothing).
var (
	invNames   = [Tiers]string{"inv0", "inv1", "inv2", "inv3"}
	deltaNames = [Tiers]string{"delta0", "delta1", "delta2", "delta3"}
)

// fields splits a line on single spaces into at most 11 words.
type fields struct {
	w [11][]byte
	n int
}

var errFieldCount = errors.New("wrong number of fields")

func (f *fields) split(line []byte, want int) error {
	f.n = 0
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == ' ' {
			if f.n == len(f.w) {
				return fmt.Errorf("%w: more than %d", errFieldCount, len(f.w))
			}
			f.w[f.n] = line[start:i]
			f.n++
			start = i + 1
		}
	}
	if f.n != want {
		return fmt.Errorf("%w: %d, want %d", errFieldCount, f.n, want)
	}
	return nil
}

func (f *fields) int(i int, name string) (int32, error) {
	w := f.w[i]
	neg := false
	if len(w) > 0 && w[0] == '-' {
		neg, w = true, w[1:]
	}
	if len(w) == 0 || len(w) > 10 {
		return 0, fmt.Errorf("field %d (%s): %q is not an int", i+1, name, f.w[i])
	}
	var v int64
	for _, c := range w {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("field %d (%s): %q is not an int", i+1, name, f.w[i])
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, fmt.Errorf("field %d (%s): %q is out of the int range", i+1, name, f.w[i])
	}
	return int32(v), nil
}

func (f *fields) flag(i int, name string) (bool, error) {
	v, err := f.int(i, name)
	if err != nil {
		return false, err
	}
	if v != 0 && v != 1 {
		return false, fmt.Errorf("field %d (%s): %d is not 0 or 1", i+1, name, v)
	}
	return v == 1, nil
}

func parseEntry(line []byte) (Entry, error) {
	var f fields
	var e Entry
	if err := f.split(line, 11); err != nil {
		return e, err
	}
	var err error
	if e.ID, err = f.int(0, "actionId"); err != nil {
		return e, err
	}
	switch string(f.w[1]) {
	case "BREW":
		e.Type = EntryBrew
	case "LEARN":
		e.Type = EntryLearn
	case "CAST":
		e.Type = EntryCast
	case "OPPONENT_CAST":
		e.Type = EntryOpponentCast
	default:
		return e, fmt.Errorf("field 2 (actionType): unknown type %q", f.w[1])
	}
	for k := 0; k < Tiers; k++ {
		if e.Delta[k], err = f.int(2+k, deltaNames[k]); err != nil {
			return e, err
		}
	}
	if e.Price, err = f.int(6, "price"); err != nil {
		return e, err
	}
	if e.TomeIndex, err = f.int(7, "tomeIndex"); err != nil {
		return e, err
	}
	if e.TaxCount, err = f.int(8, "taxCount"); err != nil {
		return e, err
	}
	if e.Castable, err = f.flag(9, "castable"); err != nil {
		return e, err
	}
	if e.Repeatable, err = f.flag(10, "repeatable"); err != nil {
		return e, err
	}
	return e, nil
}
