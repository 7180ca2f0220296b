package refgame

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"gauntlet/harness/contract"
	"gauntlet/harness/entrant"
	"gauntlet/internal/bounded"
	"gauntlet/referees/relay"
)

// File is a game file: everything about a game whose rules live in a
// referee program. Only Referee is required; the rest has defaults (a
// two-player relayed game at CodinGame's limits).
type File struct {
	// Name names the game in runs and tables (letters, digits, '-', '_').
	Name  string `json:"name"`
	Title string `json:"title"`
	// Protocol is "relayed" (default), "direct" or "play".
	Protocol string `json:"protocol"`
	// Referee is the referee's (or play command's) command line; {seed} in
	// it is the game's seed.
	Referee string `json:"referee"`
	// Args are the arguments after the referee command (see relay.Expand):
	// by default -p1 {p1} ... -d seed={seed} -l {log} for direct and
	// {players} for play; none for relayed.
	Args []string `json:"args"`
	// Players fixes the number of players; MinPlayers and MaxPlayers give
	// a range instead (default 2).
	Players    int `json:"players"`
	MinPlayers int `json:"min_players"`
	MaxPlayers int `json:"max_players"`
	// Scores says the referee gives scores (direct: default true); a game
	// of ranks only scores a player n - place (first of 2: 1).
	Scores *bool `json:"scores"`
	// Direction is Lower for scores that are costs (lower_is_better: true).
	Direction contract.Direction `json:"lower_is_better"`
	// Time limits of a relayed player's answers, in milliseconds (default
	// CodinGame's: 1,000 the first, 50 the others, margins 750 and 30).
	FirstTurnMS       *int `json:"first_turn_ms"`
	TurnMS            *int `json:"turn_ms"`
	FirstTurnMarginMS *int `json:"first_turn_margin_ms"`
	MarginMS          *int `json:"margin_ms"`
	// GameSeconds bounds a whole game's wall-clock time (default 300).
	GameSeconds float64 `json:"game_seconds"`
	// MaxLineBytes is the longest line a relayed player may print
	// (default 10,000).
	MaxLineBytes int `json:"max_line_bytes"`
	// Cases is the case set of eval, ab and tune when --cases is not given.
	Cases string `json:"cases"`
	// Opponents is the default lineup of eval's other seats.
	Opponents string `json:"opponents"`
}

// maxFile bounds a game file.
const maxFile = 1 << 20

// CodinGame's limits on a player, with gauntlet's margins (those of brew).
const (
	cgFirstTurn       = 1000 * time.Millisecond
	cgTurn            = 50 * time.Millisecond
	cgFirstTurnMargin = 750 * time.Millisecond
	cgMargin          = 30 * time.Millisecond
)

// readFile reads and checks a game file.
func readFile(path string) (*Game, error) {
	data, err := bounded.ReadFile(context.Background(), path, maxFile)
	if err != nil {
		return nil, err
	}
	g, err := parseFile(path, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// parseFile checks the content of a game file and builds its game; path is
// its source.
func parseFile(path string, data []byte) (*Game, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the game's JSON object")
	}
	return f.game(path, data)
}

// game checks a file and builds its game; source is what resolves to it
// again, content the bytes fingerprinted with the referee's files.
func (f File) game(source string, content []byte) (*Game, error) {
	if f.Name == "" || strings.Trim(f.Name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" || len(f.Name) > 40 {
		return nil, fmt.Errorf("name %q: want 1 to 40 letters, digits, '-' or '_'", f.Name)
	}
	g := &Game{file: f, source: source}
	switch f.Protocol {
	case "", "relayed":
		g.protocol = "relayed"
	case "direct", "play":
		g.protocol = f.Protocol
	default:
		return nil, fmt.Errorf("protocol %q: want relayed, direct or play", f.Protocol)
	}
	g.minSeats, g.maxSeats = 2, 2
	switch {
	case f.Players != 0 && (f.MinPlayers != 0 || f.MaxPlayers != 0):
		return nil, fmt.Errorf("give players, or min_players and max_players, not both")
	case f.Players != 0:
		g.minSeats, g.maxSeats = f.Players, f.Players
	case f.MinPlayers != 0 || f.MaxPlayers != 0:
		g.minSeats, g.maxSeats = f.MinPlayers, f.MaxPlayers
	}
	if g.minSeats < 1 || g.maxSeats < g.minSeats || g.maxSeats > 9 {
		return nil, fmt.Errorf("players %d to %d: want 1 <= min <= max <= 9", g.minSeats, g.maxSeats)
	}
	g.scores = g.protocol == "direct"
	if f.Scores != nil {
		g.scores = *f.Scores
	}
	if g.scores && g.protocol != "direct" {
		return nil, fmt.Errorf("scores: only a direct referee gives scores (relayed and play give ranks)")
	}
	if f.Direction == contract.Lower && !g.scores {
		return nil, fmt.Errorf("lower_is_better: a game of ranks only scores n - place, higher being better")
	}
	words, err := entrant.SplitCommand(f.Referee)
	if err != nil || len(words) == 0 {
		return nil, fmt.Errorf("referee %q: want a command line (%v)", f.Referee, err)
	}
	ref, err := entrant.Parse(contract.Default, "", "cmd:"+f.Referee)
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	if len(ref.Specs()) > 0 || len(ref.Ext) > 0 {
		return nil, fmt.Errorf("referee %q: a referee command takes no placeholder but {seed}", f.Referee)
	}
	g.referee = ref
	g.args = f.Args
	if g.args == nil {
		switch g.protocol {
		case "direct":
			g.args = relay.DirectArgs(g.maxSeats)
		case "play":
			g.args = relay.PlayArgs()
		}
	}
	if err := relay.CheckArgs(g.args, g.maxSeats); err != nil {
		return nil, fmt.Errorf("args: %w", err)
	}
	if g.limits, err = f.timeLimits(g.protocol); err != nil {
		return nil, err
	}
	if f.GameSeconds < 0 || f.GameSeconds > 24*3600 {
		return nil, fmt.Errorf("game_seconds %v: want 0 (default %v) to 86400", f.GameSeconds, relay.DefaultGameTime)
	}
	g.gameTime = time.Duration(f.GameSeconds * float64(time.Second))
	if f.MaxLineBytes < 0 {
		return nil, fmt.Errorf("max_line_bytes %d: must not be negative", f.MaxLineBytes)
	}
	if f.Cases != "" {
		if _, err := g.Cases(f.Cases); err != nil {
			return nil, fmt.Errorf("cases: %w", err)
		}
	}
	h := sha256.New()
	h.Write(content)
	h.Write([]byte(ref.Fingerprint))
	g.fingerprint = hex.EncodeToString(h.Sum(nil)[:6])
	return g, nil
}

// timeLimits are a relayed game's limits on its players; a direct referee
// or play command times its players itself.
func (f File) timeLimits(protocol string) (contract.TimeLimits, error) {
	ms := func(field string, p *int, def time.Duration) (time.Duration, error) {
		if p == nil {
			return def, nil
		}
		if *p < 0 || *p > 86_400_000 {
			return 0, fmt.Errorf("%s %d: want 0 to 86400000", field, *p)
		}
		return time.Duration(*p) * time.Millisecond, nil
	}
	if protocol != "relayed" {
		if f.FirstTurnMS != nil || f.TurnMS != nil || f.FirstTurnMarginMS != nil || f.MarginMS != nil {
			return contract.TimeLimits{}, fmt.Errorf("time limits: a %s referee times its players itself", protocol)
		}
		return contract.TimeLimits{}, nil
	}
	var l contract.TimeLimits
	var err error
	if l.FirstTurn, err = ms("first_turn_ms", f.FirstTurnMS, cgFirstTurn); err != nil {
		return l, err
	}
	if l.Turn, err = ms("turn_ms", f.TurnMS, cgTurn); err != nil {
		return l, err
	}
	if l.FirstTurnMargin, err = ms("first_turn_margin_ms", f.FirstTurnMarginMS, cgFirstTurnMargin); err != nil {
		return l, err
	}
	if l.Margin, err = ms("margin_ms", f.MarginMS, cgMargin); err != nil {
		return l, err
	}
	if l.Turn == 0 && l.FirstTurn > 0 {
		return l, fmt.Errorf("first_turn_ms without turn_ms")
	}
	l.Measured = "from the end of the write of the player's input to the arrival of the last line of its answer"
	return l, nil
}
