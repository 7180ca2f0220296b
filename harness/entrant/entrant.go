package entrant

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gauntlet/harness/contract"
	"gauntlet/harness/store"
	"gauntlet/strategies/param"
)

// Version is the build's version (set with -ldflags "-X
// gauntlet/entrant.Version=..." by the Makefile; "dev" otherwise). It is
// stored with every run as the version of the built-in strategies.
var Version = "dev"

// Entrant is a participant: a built-in strategy with parameter values, or an
// external command speaking the game's native protocol.
type Entrant struct {
	kind     Kind
	Strategy *contract.Strategy // Builtin: the strategy
	// Params holds the values of every declared parameter: the strategy's,
	// or the external command's typed placeholders and spec file.
	Params param.Values

	Template []string          // external: argv with {name} placeholders
	Ext      map[string]string // external: values of the fixed (untyped) placeholders
	Version  string            // build version of the strategy or the command
	// Fingerprint is a hash of the files an external command names (its
	// executable, a script, the spec file): part of a run's identity.
	Fingerprint string
	files       []string // external: the files Fingerprint hashed
	stamp       string   // external: their sizes and modification times then

	cmd    *command       // External: the parsed template
	stored *storedEntrant // Stored: its record and why it cannot play
}

// Kind is what an entrant is.
type Kind int8

const (
	// Builtin is a registered strategy with its parameters' values.
	Builtin Kind = iota
	// External is a cmd: command: a bot run as a process of its own.
	External
	// Stored is an entrant of a stored run that no longer parses to its
	// stored key (a strategy's parameters changed, a strategy was
	// removed): its record names it in the run's tables, and it cannot
	// play.
	Stored
)

// Kind says what the entrant is.
func (e *Entrant) Kind() Kind { return e.kind }

// Specs returns the entrant's tunable parameters: the strategy's declared
// ones, or an external command's typed placeholders and spec file.
func (e *Entrant) Specs() param.Specs {
	switch e.kind {
	case Builtin:
		return e.Strategy.Params
	case External:
		return e.cmd.specs
	}
	return nil
}

// With returns a copy of the entrant with the given values of its declared
// parameters (the others keep theirs); values out of range are an error
// naming the parameter.
func (e *Entrant) With(v param.Values) (*Entrant, error) {
	if e.kind == Stored {
		return nil, e.cannotPlay()
	}
	merged := maps.Clone(e.Params)
	if merged == nil {
		merged = param.Values{}
	}
	maps.Copy(merged, v)
	vals, err := e.Specs().Validate(merged)
	if err != nil {
		return nil, err
	}
	c := *e
	c.Params = vals
	return &c, nil
}

// IsExternal reports whether the entrant is an external command.
func (e *Entrant) IsExternal() bool {
	if e.kind == Stored {
		return e.stored.rec.Strategy == "cmd"
	}
	return e.kind == External
}

// Name is the strategy name, or "cmd" for an external command.
func (e *Entrant) Name() string {
	switch e.kind {
	case Stored:
		return e.stored.rec.Strategy
	case Builtin:
		return e.Strategy.Name
	}
	return "cmd"
}

// Key is the canonical text of the entrant: the strategy with every
// parameter value, or the command template with its values. Runs are
// identified by their entrants' keys, so a resumed run plays exactly the
// same configuration.
func (e *Entrant) Key() string {
	switch e.kind {
	case Stored:
		return e.stored.rec.Key
	case Builtin:
		s := e.Strategy.Params.String(e.Params)
		if s == "" {
			return e.Strategy.Name
		}
		return e.Strategy.Name + ":" + s
	}
	return "cmd:" + JoinCommand(e.Template) + formatExt(e.extValues())
}

// Label is a short display name: the strategy plus the parameters that
// differ from their defaults.
func (e *Entrant) Label() string {
	switch e.kind {
	case Stored:
		return e.stored.rec.Label
	case External:
		return "cmd:" + JoinCommand(e.Template) + formatExt(e.extValues())
	}
	var diff []string
	for _, sp := range e.Strategy.Params {
		if v, ok := e.Params[sp.Name]; ok && v != sp.Default {
			diff = append(diff, sp.Name+"="+sp.FormatValue(v))
		}
	}
	if len(diff) == 0 {
		return e.Strategy.Name
	}
	return e.Strategy.Name + ":" + strings.Join(diff, ",")
}

// formatExt writes an external entrant's values as the last word of its
// key: " [k=v,...]" in name order (quoted as one word when a value needs
// it, so that the key splits back into the same words).
func formatExt(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return " " + quoteWord("["+strings.Join(parts, ",")+"]")
}

// Bot builds the entrant's in-process bot for one game.
func (e *Entrant) Bot(seed uint64) (any, error) {
	switch e.kind {
	case Stored:
		return nil, e.cannotPlay()
	case External:
		return nil, fmt.Errorf("entrant %s is an external command", e.Label())
	}
	return e.Strategy.New(e.Params, seed)
}

// Argv returns the external command line for one game: the placeholders
// filled with the entrant's values, {seed} with the bot's seed and {params}
// with the path of a JSON file of every value (written once).
func (e *Entrant) Argv(seed uint64) ([]string, error) {
	if e.kind == Stored {
		return nil, e.cannotPlay()
	}
	vals := e.extValues()
	out := make([]string, len(e.Template))
	for i, w := range e.Template {
		x, err := e.expand(w, seed, vals)
		if err != nil {
			return nil, fmt.Errorf("entrant %s: %w", e.Label(), err)
		}
		out[i] = x
	}
	return out, nil
}

// Environ returns the environment entries given to an external command:
// GAUNTLET_SEED and GAUNTLET_PARAM_<NAME> for every parameter.
func (e *Entrant) Environ(seed uint64) []string {
	env := []string{"GAUNTLET_SEED=" + strconv.FormatUint(seed, 10)}
	vals := e.extValues()
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		env = append(env, "GAUNTLET_PARAM_"+strings.ToUpper(k)+"="+vals[k])
	}
	return env
}

// Player makes the entrant ready to play one game in a seat: its bot built
// with seed, or its command line and environment for seed. name is the
// label the player goes by (Label, which a caller playing many games
// computes once).
func (e *Entrant) Player(seed uint64, name string) (contract.Player, error) {
	if e.IsExternal() {
		argv, err := e.Argv(seed)
		if err != nil {
			return contract.Player{}, err
		}
		return contract.Player{Name: name, Command: contract.Command{Argv: argv, Env: e.Environ(seed)}, Seed: seed}, nil
	}
	bot, err := e.Bot(seed)
	if err != nil {
		return contract.Player{}, err
	}
	return contract.Player{Name: name, Bot: bot, Seed: seed}, nil
}

// JoinCommand writes words as one command line that SplitCommand reads
// back into the same words: a word that holds whitespace, a quote or a
// backslash, or is empty, is single-quoted; any other word is written as
// it is, so a command without such words reads as it was typed.
func JoinCommand(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteWord(w))
	}
	return b.String()
}

// quoteWord quotes one word for SplitCommand when it needs it: inside
// single quotes every character is itself, and a single quote is written
// by closing the quotes, a backslash and the quote, and opening them again.
func quoteWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// SplitCommand splits a command line into words: whitespace separates,
// single and double quotes group, backslash escapes the next character
// outside single quotes. No other shell syntax is interpreted.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, c := range s {
		switch {
		case escaped:
			cur.WriteRune(c)
			escaped = false
		case c == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if escaped {
		return nil, fmt.Errorf("trailing backslash")
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// Record returns the stored form of the entrant.
func (e *Entrant) Record() store.EntrantRecord {
	if e.kind == Stored {
		return e.stored.rec
	}
	rec := store.EntrantRecord{Key: e.Key(), Label: e.Label(), Strategy: e.Name(), Version: e.Version}
	if e.kind == Builtin {
		rec.Params = e.Strategy.Params.Map(e.Params)
	} else {
		rec.Params = map[string]any{}
		for k, v := range e.Ext {
			rec.Params[k] = v
		}
	}
	return rec
}
