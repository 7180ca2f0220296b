package paperio

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Dir is a movement direction. DirNone is a player that has not moved yet
// (and, as a command, "no valid command").
type Dir uint8

// Directions.
const (
	DirNone Dir = iota
	Up
	Down
	Left
	Right
)

var dirNames = [...]string{"", "up", "down", "left", "right"}

// String is the protocol word ("up", ...), "" for DirNone.
func (d Dir) String() string {
	if int(d) < len(dirNames) {
		return dirNames[d]
	}
	return ""
}

// Reverse is the opposite direction (DirNone for DirNone).
func (d Dir) Reverse() Dir {
	switch d {
	case Up:
		return Down
	case Down:
		return Up
	case Left:
		return Right
	case Right:
		return Left
	}
	return DirNone
}

// delta is the unit step of d in cells (dx, dy).
func (d Dir) delta() (int, int) {
	switch d {
	case Up:
		return 0, 1
	case Down:
		return 0, -1
	case Left:
		return -1, 0
	case Right:
		return 1, 0
	}
	return 0, 0
}

// ParseDir reads a protocol command word; ok is false for anything the
// referee ignores (unknown words, empty text).
func ParseDir(s string) (d Dir, ok bool) {
	switch s {
	case "up":
		return Up, true
	case "down":
		return Down, true
	case "left":
		return Left, true
	case "right":
		return Right, true
	}
	return DirNone, false
}

// BonusKind is a bonus type.
type BonusKind uint8

// Bonus kinds, in the referee's order.
const (
	Nitro BonusKind = iota
	Slowdown
	Saw
	numBonusKinds
)

var bonusNames = [...]string{"n", "s", "saw"}

// String is the protocol name: "n", "s" or "saw".
func (k BonusKind) String() string {
	if int(k) < len(bonusNames) {
		return bonusNames[k]
	}
	return "?"
}

// ParseBonusKind reads "n", "s" or "saw".
func ParseBonusKind(s string) (BonusKind, bool) {
	for i, n := range bonusNames {
		if n == s {
			return BonusKind(i), true
		}
	}
	return 0, false
}

// Mode is how the game ends: the server runner processes ticks
// 1..MAX_TICK_COUNT-1, the local runner one tick more.
type Mode uint8

// Modes.
const (
	Server Mode = iota
	Local
)

// String is "server" or "local".
func (m Mode) String() string {
	if m == Local {
		return "local"
	}
	return "server"
}

// ParseMode reads "server" or "local".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "server":
		return Server, nil
	case "local":
		return Local, nil
	}
	return Server, fmt.Errorf("mode %q: want server or local", s)
}

// Limits of the fixed-size state.
const (
	MaxPlayers    = 6  // LR_CLIENTS_MAX_COUNT
	MaxMapBonuses = 12 // largest BONUSES_MAX_COUNT accepted
	maxHeld       = MaxMapBonuses + 2
)

// Rules are the referee's constants (each overridable as in the Python
// runner by the environment variable of the same name, see Override).
// The grid size and cell width are fixed.
type Rules struct {
	Mode                  Mode
	Speed                 int // SPEED, px per tick; must divide Width
	MaxTickCount          int // MAX_TICK_COUNT
	BonusChance           int // BONUS_CHANCE: a bonus may appear with probability 1/BonusChance per tick
	BonusesMaxCount       int // BONUSES_MAX_COUNT
	Available             [numBonusKinds]bool
	NeutralTerritoryScore int // NEUTRAL_TERRITORY_SCORE
	EnemyTerritoryScore   int // ENEMY_TERRITORY_SCORE
	SawScore              int // SAW_SCORE
	LineKillScore         int // LINE_KILL_SCORE
	SawKillScore          int // SAW_KILL_SCORE
	// External bots' limits (REQUEST_MAX_TIME per read, MAX_EXECUTION_TIME in
	// total); zero means no limit.
	RequestMaxTime   time.Duration
	MaxExecutionTime time.Duration
}

// DefaultRules are the official constants of the server runner.
func DefaultRules() Rules {
	return Rules{
		Mode:                  Server,
		Speed:                 5,
		MaxTickCount:          1500,
		BonusChance:           500,
		BonusesMaxCount:       3,
		Available:             [numBonusKinds]bool{true, true, true},
		NeutralTerritoryScore: 1,
		EnemyTerritoryScore:   5,
		SawScore:              30,
		LineKillScore:         50,
		SawKillScore:          150,
		RequestMaxTime:        5 * time.Second,
		MaxExecutionTime:      120 * time.Second,
	}
}

// FinalsRules are the constants of the finals (MAX_TICK_COUNT 2500,
// REQUEST_MAX_TIME 9 s, MAX_EXECUTION_TIME 200 s).
func FinalsRules() Rules {
	r := DefaultRules()
	r.MaxTickCount = 2500
	r.RequestMaxTime = 9 * time.Second
	r.MaxExecutionTime = 200 * time.Second
	return r
}

// AvailableList returns the allowed bonus kinds in the referee's order
// (n, s, saw): the list random.choice draws from.
func (r *Rules) AvailableList() []BonusKind {
	var out []BonusKind
	for k := BonusKind(0); k < numBonusKinds; k++ {
		if r.Available[k] {
			out = append(out, k)
		}
	}
	return out
}

// SetAvailable sets the allowed kinds from names ("n", "s", "saw").
func (r *Rules) SetAvailable(names []string) error {
	var av [numBonusKinds]bool
	for _, n := range names {
		k, ok := ParseBonusKind(n)
		if !ok {
			return fmt.Errorf("AVAILABLE_BONUSES: unknown bonus %q (want n, s, saw)", n)
		}
		av[k] = true
	}
	r.Available = av
	return nil
}

// Validate checks that the constants are usable.
func (r *Rules) Validate() error {
	switch {
	case r.Speed <= 0 || r.Speed > Width || Width%r.Speed != 0:
		return fmt.Errorf("SPEED %d: must divide %d", r.Speed, Width)
	case r.MaxTickCount < 1:
		return fmt.Errorf("MAX_TICK_COUNT %d: must be at least 1", r.MaxTickCount)
	case r.BonusChance < 1 || r.BonusChance > 1<<30:
		return fmt.Errorf("BONUS_CHANCE %d: must be in [1, 2^30]", r.BonusChance)
	case r.BonusesMaxCount < 0 || r.BonusesMaxCount > MaxMapBonuses:
		return fmt.Errorf("BONUSES_MAX_COUNT %d: must be in [0, %d]", r.BonusesMaxCount, MaxMapBonuses)
	case r.Mode != Server && r.Mode != Local:
		return fmt.Errorf("mode %d: unknown", r.Mode)
	case r.RequestMaxTime < 0 || r.MaxExecutionTime < 0:
		return fmt.Errorf("time limits must not be negative")
	}
	return nil
}

// OverrideNames lists the constants Override accepts.
var OverrideNames = []string{"SPEED", "MAX_TICK_COUNT", "BONUS_CHANCE", "BONUSES_MAX_COUNT",
	"AVAILABLE_BONUSES", "NEUTRAL_TERRITORY_SCORE", "ENEMY_TERRITORY_SCORE", "SAW_SCORE",
	"LINE_KILL_SCORE", "SAW_KILL_SCORE", "REQUEST_MAX_TIME", "MAX_EXECUTION_TIME", "MODE"}

// Override sets one constant by its Python name, value written as the
// runner's environment variable would be: an integer, AVAILABLE_BONUSES as a
// JSON list (["n","saw"]) or a comma-separated list, times in seconds,
// MODE as server or local.
func (r *Rules) Override(name, value string) error {
	value = strings.TrimSpace(value)
	if name == "AVAILABLE_BONUSES" {
		var names []string
		if strings.HasPrefix(value, "[") {
			if err := json.Unmarshal([]byte(value), &names); err != nil {
				return fmt.Errorf("AVAILABLE_BONUSES %q: %v", value, err)
			}
		} else if value != "" {
			names = strings.Split(value, ",")
			for i := range names {
				names[i] = strings.TrimSpace(names[i])
			}
		}
		return r.SetAvailable(names)
	}
	if name == "MODE" {
		m, err := ParseMode(value)
		if err != nil {
			return err
		}
		r.Mode = m
		return nil
	}
	if name == "REQUEST_MAX_TIME" || name == "MAX_EXECUTION_TIME" {
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || f < 0 {
			return fmt.Errorf("%s %q: want seconds >= 0", name, value)
		}
		d := time.Duration(f * float64(time.Second))
		if name == "REQUEST_MAX_TIME" {
			r.RequestMaxTime = d
		} else {
			r.MaxExecutionTime = d
		}
		return nil
	}
	n, err := strconv.Atoi(value)
	if err != nil {
		return fmt.Errorf("%s %q: not an integer", name, value)
	}
	switch name {
	case "SPEED":
		r.Speed = n
	case "MAX_TICK_COUNT":
		r.MaxTickCount = n
	case "BONUS_CHANCE":
		r.BonusChance = n
	case "BONUSES_MAX_COUNT":
		r.BonusesMaxCount = n
	case "NEUTRAL_TERRITORY_SCORE":
		r.NeutralTerritoryScore = n
	case "ENEMY_TERRITORY_SCORE":
		r.EnemyTerritoryScore = n
	case "SAW_SCORE":
		r.SawScore = n
	case "LINE_KILL_SCORE":
		r.LineKillScore = n
	case "SAW_KILL_SCORE":
		r.SawKillScore = n
	default:
		return fmt.Errorf("unknown constant %q (known: %s)", name, strings.Join(OverrideNames, ", "))
	}
	return r.Validate()
}

// OverrideFrom applies every constant of OverrideNames that lookup finds
// (os.LookupEnv gives the runner's environment-variable behaviour).
func (r *Rules) OverrideFrom(lookup func(string) (string, bool)) error {
	for _, name := range OverrideNames {
		if v, ok := lookup(name); ok {
			if err := r.Override(name, v); err != nil {
				return err
			}
		}
	}
	return r.Validate()
}
