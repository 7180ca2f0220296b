package hextris

import (
	"sync"
	"unicode/utf8"
)

// ErrorKind is the first error of a played solution, if any.
type ErrorKind uint8

// The errors of the replay contract.
const (
	NoError          ErrorKind = iota
	InvalidCommand             // a character that is not a command and not \t\n\r
	RepeatedPosition           // an E/W/CW/CCW move would repeat a position of the live unit
	CommandAfterEnd            // a character follows the command that ended the game
)

var errorNames = [...]string{"", "invalid-command", "repeated-position", "command-after-end"}

// String returns the replay contract's name ("" for NoError).
func (e ErrorKind) String() string {
	if int(e) < len(errorNames) {
		return errorNames[e]
	}
	return "error(?)"
}

// Result is the outcome of playing one solution, with the JSON field names
// of the replay contract.
type Result struct {
	Score         int64    `json:"score"`       // MoveScore+PowerScore without error, else 0
	MoveScore     int64    `json:"move_score"`  // lock points earned before play stopped
	PowerScore    int64    `json:"power_score"` // phrase score of the whole raw text
	EndState      string   `json:"end_state"`   // "playing", "source-exhausted" or "spawn-blocked"
	Error         string   `json:"error"`       // "" or the first error's name
	UnitsLocked   int      `json:"units_locked"`
	MovesExecuted int      `json:"moves_executed"`
	Board         []string `json:"board"` // the board when play stopped (Play fills it; Run leaves it nil)

	// ErrorAt is the byte offset in the solution of the character that
	// caused the error (the invalid character, the repeating command, or
	// the first surplus character), or -1 without error.
	ErrorAt int `json:"-"`
	// Used is how many bytes of the solution the referee read: up to the
	// character that ended the game or caused the error, or the whole
	// text. What follows is ignored (\t, \n and \r after the end of the
	// game) or only the error's cause repeated; solution[:Used] plays the
	// same game with the same error.
	Used int `json:"-"`
	// Kind and End are Error and EndState as values.
	Kind ErrorKind `json:"-"`
	End  EndState  `json:"-"`
}

// Play plays solution on problem p with the given seed and scores its
// phrases with phrases, exactly as the official referee. The seed is used
// as given; whether it belongs to p.SourceSeeds is the caller's concern (see
// ScoreSolutions). Result.Board is filled.
func Play(p *Problem, seed uint32, phrases PhraseSet, solution string) Result {
	g := gamePool.Get().(*Game)
	r := g.Play(p, seed, phrases, solution)
	gamePool.Put(g)
	return r
}

var gamePool = sync.Pool{New: func() any { return new(Game) }}

// Play is the package-level Play on a reusable game: after it, g holds the
// final state. Only the board strings are allocated.
func (g *Game) Play(p *Problem, seed uint32, phrases PhraseSet, solution string) Result {
	r := g.Run(p, seed, phrases, solution)
	r.Board = g.BoardStrings()
	return r
}

// Run is Play without the board strings; it does not allocate. After it, g
// holds the state at which play stopped.
func (g *Game) Run(p *Problem, seed uint32, phrases PhraseSet, solution string) Result {
	g.Reset(p, seed)
	kind, at, used := g.runText(solution)
	r := Result{
		Used:          used,
		MoveScore:     g.moveScore,
		PowerScore:    phrases.Score(solution),
		UnitsLocked:   g.locked,
		MovesExecuted: g.moves,
		ErrorAt:       at,
		Kind:          kind,
		End:           g.end,
		Error:         kind.String(),
		EndState:      g.end.String(),
	}
	if kind == NoError {
		r.Score = r.MoveScore + r.PowerScore
	}
	return r
}

// runText executes the commands of a raw solution text until the first
// error or the end of the text. It returns the error, its offset (-1 for
// none) and how many bytes were read.
func (g *Game) runText(s string) (ErrorKind, int, int) {
	for i := 0; i < len(s); {
		start := i
		var k int8
		if b := s[i]; b < utf8.RuneSelf {
			k = asciiClass[b]
			i++
		} else {
			r, w := utf8.DecodeRuneInString(s[i:])
			k = runeClass(r)
			i += w
		}
		if k < 0 {
			if k == classIgnored {
				continue
			}
			return InvalidCommand, start, i
		}
		switch g.Step(Command(k)) {
		case StepRepeated:
			return RepeatedPosition, start, i
		case StepEnded, StepOver:
			// StepOver only happens when the game was over from the start:
			// the referee then accepts exactly one command.
			if j := nextCommandChar(s, i); j >= 0 {
				_, w := utf8.DecodeRuneInString(s[j:])
				return CommandAfterEnd, j, j + w
			}
			return NoError, -1, i
		}
	}
	return NoError, -1, len(s)
}

// nextCommandChar returns the offset of the first character at or after i
// that is not \t, \n or \r, or -1.
func nextCommandChar(s string, i int) int {
	for ; i < len(s); i++ {
		if b := s[i]; b != '\t' && b != '\n' && b != '\r' {
			return i
		}
	}
	return -1
}
