package entrant

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gauntlet/internal/bounded"
	"gauntlet/internal/owner"
	"gauntlet/strategies/param"
)

// An external entrant's command line is a template. Its placeholders:
//
//	{seed}                      the bot's seed for the game
//	{name}                      a fixed value, given with --param name=VALUE
//	{name=default}              a fixed value with a default
//	{name:int[1,12]=6}          a tunable parameter: kind, range, default
//	{name:float[0,5]=1.5}       (kinds: int, float, log for a log scale,
//	{name:log[1e-4,1e-1]=1e-3}   cat for a choice among names)
//	{name:cat[fast|safe]=safe}
//	{params}                    the path of a JSON file of every value
//	{params@spec.json}          the same, with parameters declared in spec.json
//	{@weights.bin}              the path as written, its file part of the
//	                            bot's fingerprint
//
// A parameter declared once (with a kind, or in the spec file) may appear
// again as {name}. Every value is also given in the environment as
// GAUNTLET_PARAM_<NAME>.
//
// A "{" opens a placeholder unless it is followed by whitespace, a quote,
// "}" or the end of the word ({"a": 1} and {} are text); "{{" is a literal
// "{". A placeholder runs to the next "}", and one whose name is not a name
// is an error naming it, never text.

// opensPlaceholder reports whether the "{" at s[i] opens a placeholder
// (the caller has seen that it is not "{{").
func opensPlaceholder(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	switch s[i+1] {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', '}':
		return false
	}
	return true
}

// placeholderKind is what a {...} of a template stands for.
type placeholderKind int8

const (
	fixedPH  placeholderKind = iota // {name} or {name=default}: a value given with the command
	typedPH                         // {name:KIND[...]=default}: a declared, tunable parameter
	seedPH                          // {seed}: the game's seed for the seat
	valuesPH                        // {params} or {params@FILE}: the values file (path: its spec file)
	filePH                          // {@FILE}: a file's path, the file part of the fingerprint
)

// placeholder is one parsed {...} of a template word.
type placeholder struct {
	kind placeholderKind
	name string
	spec param.Spec // typedPH: the declaration
	def  *string    // fixedPH, typedPH: the default as text, if one is given ("" is one)
	path string     // filePH: the file; valuesPH: the spec file, if any
}

// scanPlaceholders splits a template word into literal text and
// placeholders ("{{" is given as the literal "{").
func scanPlaceholders(word string, each func(lit string, ph *placeholder) error) error {
	for i := 0; i < len(word); {
		j := i
		for j < len(word) && !(word[j] == '{' && (j+1 < len(word) && word[j+1] == '{' || opensPlaceholder(word, j))) {
			j++
		}
		if j == len(word) {
			if j > i {
				return each(word[i:j], nil)
			}
			return nil
		}
		if word[j+1] == '{' { // "{{": the text up to and with one "{"
			if err := each(word[i:j+1], nil); err != nil {
				return err
			}
			i = j + 2
			continue
		}
		if j > i {
			if err := each(word[i:j], nil); err != nil {
				return err
			}
		}
		end := strings.IndexByte(word[j:], '}')
		if end < 0 {
			return fmt.Errorf("placeholder %s is not closed (want {name}, {name=default} or {name:kind[range]=default}; write {{ for a literal {)", word[j:])
		}
		ph, err := parsePlaceholder(word[j+1 : j+end])
		if err != nil {
			return fmt.Errorf("placeholder {%s}: %w", word[j+1:j+end], err)
		}
		if err := each("", ph); err != nil {
			return err
		}
		i = j + end + 1
	}
	return nil
}

// escapeBraces writes literal template text: every "{" doubled.
func escapeBraces(lit string) string { return strings.ReplaceAll(lit, "{", "{{") }

func validName(n string) bool {
	if n == "" {
		return false
	}
	for i, c := range n {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// parsePlaceholder reads the text between the braces.
func parsePlaceholder(body string) (*placeholder, error) {
	if f, ok := strings.CutPrefix(body, "@"); ok {
		if f == "" {
			return nil, errors.New("no file after @ (want {@PATH}: the path, its file part of the bot's fingerprint)")
		}
		return &placeholder{kind: filePH, path: f}, nil
	}
	head, def, hasDef := strings.Cut(body, "=")
	if ref, ok := strings.CutPrefix(head, "params@"); ok && !hasDef {
		if ref == "" {
			return nil, errors.New("no spec file after params@")
		}
		return &placeholder{kind: valuesPH, name: "params", path: ref}, nil
	}
	name, kind, typed := strings.Cut(head, ":")
	if !validName(name) {
		return nil, fmt.Errorf("bad name %q (letters, digits and _, not starting with a digit; write {{ for a literal {)", name)
	}
	ph := &placeholder{name: name}
	if hasDef {
		ph.def = &def
	}
	if (name == "seed" || name == "params") && (typed || hasDef) {
		return nil, fmt.Errorf("{%s} is given by gauntlet and takes no kind or default", name)
	}
	if !typed {
		switch name {
		case "seed":
			ph.kind = seedPH
		case "params":
			ph.kind = valuesPH
		}
		return ph, nil
	}
	k, rng, ok := strings.Cut(kind, "[")
	if !ok || !strings.HasSuffix(rng, "]") {
		return nil, fmt.Errorf("kind %q: want KIND[LOW,HIGH] or cat[A|B|...]", kind)
	}
	rng = strings.TrimSuffix(rng, "]")
	sp := param.Spec{Name: name}
	switch k {
	case "int":
		sp.Kind = param.Int
	case "float":
		sp.Kind = param.Float
	case "log", "log-float":
		sp.Kind = param.LogFloat
	case "cat", "categorical":
		sp.Kind = param.Categorical
	default:
		return nil, fmt.Errorf("unknown kind %q (want int, float, log or cat)", k)
	}
	if sp.Kind == param.Categorical {
		sp.Choices = strings.Split(rng, "|")
		for _, c := range sp.Choices {
			if c == "" {
				return nil, fmt.Errorf("cat[%s]: an empty choice", rng)
			}
		}
	} else {
		lo, hi, ok := strings.Cut(rng, ",")
		if !ok {
			return nil, fmt.Errorf("%s[%s]: want LOW,HIGH", k, rng)
		}
		var err error
		if sp.Min, err = strconv.ParseFloat(strings.TrimSpace(lo), 64); err != nil {
			return nil, fmt.Errorf("%s[%s]: low %q is not a number", k, rng, lo)
		}
		if sp.Max, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return nil, fmt.Errorf("%s[%s]: high %q is not a number", k, rng, hi)
		}
		if sp.Min > sp.Max {
			return nil, fmt.Errorf("%s[%s]: low %s is above high %s", k, rng, strings.TrimSpace(lo), strings.TrimSpace(hi))
		}
		if err := sp.CheckRange(); err != nil {
			return nil, err
		}
	}
	ph.kind, ph.spec = typedPH, sp
	return ph, nil
}

// specFile is the JSON a bot with many constants declares them in: a list
// of parameters, or {"params": [...]}.
type specFile struct {
	Params []specEntry `json:"params"`
}

type specEntry struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Min     *float64 `json:"min"`
	Max     *float64 `json:"max"`
	Choices []string `json:"choices"`
	Default any      `json:"default"`
	Help    string   `json:"help"`
}

// readSpecFile reads the parameter declarations of a spec file.
func readSpecFile(path string) (param.Specs, error) {
	data, err := bounded.ReadFile(context.Background(), path, bounded.SettingsSize)
	if err != nil {
		return nil, fmt.Errorf("spec file: %w", err)
	}
	var f specFile
	if trimmed := strings.TrimSpace(string(data)); strings.HasPrefix(trimmed, "[") {
		err = json.Unmarshal(data, &f.Params)
	} else {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		return nil, fmt.Errorf("spec file %s: not JSON of the expected shape: %w", path, err)
	}
	if len(f.Params) == 0 {
		return nil, fmt.Errorf("spec file %s declares no parameter", path)
	}
	var specs param.Specs
	for i, e := range f.Params {
		sp, err := e.spec()
		if err != nil {
			return nil, fmt.Errorf("spec file %s, parameter %d (%q): %w", path, i+1, e.Name, err)
		}
		specs = append(specs, sp)
	}
	if err := specs.Check(); err != nil {
		return nil, fmt.Errorf("spec file %s: %w", path, err)
	}
	return specs, nil
}

func (e specEntry) spec() (param.Spec, error) {
	if !validName(e.Name) {
		return param.Spec{}, fmt.Errorf("bad name %q", e.Name)
	}
	body := e.Name + ":" + e.Kind
	switch e.Kind {
	case "cat", "categorical":
		body += "[" + strings.Join(e.Choices, "|") + "]"
	default:
		if e.Min == nil || e.Max == nil {
			return param.Spec{}, fmt.Errorf("kind %q needs min and max", e.Kind)
		}
		body += "[" + fmtNum(*e.Min) + "," + fmtNum(*e.Max) + "]"
	}
	ph, err := parsePlaceholder(body)
	if err != nil {
		return param.Spec{}, err
	}
	sp := ph.spec
	sp.Help = e.Help
	switch d := e.Default.(type) {
	case nil:
		return param.Spec{}, errors.New("no default")
	case float64:
		sp.Default = d
		if sp.Kind == param.Categorical {
			return param.Spec{}, fmt.Errorf("default %v: want one of %s", d, strings.Join(sp.Choices, "|"))
		}
	case string:
		v, err := sp.ParseValue(d)
		if err != nil {
			return param.Spec{}, fmt.Errorf("default: %w", err)
		}
		sp.Default = v
	default:
		return param.Spec{}, fmt.Errorf("default %v: want a number or a choice", d)
	}
	return sp, nil
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// command is a parsed external template: its words, the declared
// parameters (typed placeholders and spec file), the fixed placeholders,
// and whether it takes a values file.
type command struct {
	words    []string
	specs    param.Specs       // tunable parameters, in order of appearance
	fixed    []string          // untyped placeholders (not declared anywhere), in order
	defaults map[string]string // defaults of the fixed ones ("" when none)
	valuesAt bool              // the template has {params} or {params@...}
	specFile string            // the spec file named by {params@...}
	files    []string          // the files named by {@FILE}, in order
	// plain holds each word's text when it has no placeholder (its "{{"
	// read as "{"), and plainOK whether it has none.
	plain   []string
	plainOK []bool
}

// parseCommand reads a template's placeholders and spec file.
func parseCommand(words []string) (*command, error) {
	c := &command{words: words, defaults: map[string]string{}, plain: make([]string, len(words)), plainOK: make([]bool, len(words))}
	declared := map[string]bool{}
	var typedDefaults []struct {
		name, text string
	}
	var refs []string // names used bare, resolved after the spec file
	for i, w := range words {
		var text strings.Builder
		c.plainOK[i] = true
		err := scanPlaceholders(w, func(lit string, ph *placeholder) error {
			if ph == nil {
				text.WriteString(lit)
				return nil
			}
			c.plainOK[i] = false
			switch ph.kind {
			case seedPH:
			case filePH:
				if !slices.Contains(c.files, ph.path) {
					c.files = append(c.files, ph.path)
				}
			case valuesPH:
				if ph.path != "" {
					if c.specFile != "" && c.specFile != ph.path {
						return fmt.Errorf("two spec files: %s and %s", c.specFile, ph.path)
					}
					c.specFile = ph.path
				}
				c.valuesAt = true
			case typedPH:
				if declared[ph.name] {
					return fmt.Errorf("parameter %q declared twice", ph.name)
				}
				declared[ph.name] = true
				c.specs = append(c.specs, ph.spec)
				if ph.def != nil {
					typedDefaults = append(typedDefaults, struct{ name, text string }{ph.name, *ph.def})
				} else {
					typedDefaults = append(typedDefaults, struct{ name, text string }{ph.name, ""})
				}
			default:
				refs = append(refs, ph.name)
				if ph.def != nil {
					if old, ok := c.defaults[ph.name]; ok && old != "" && old != *ph.def {
						return fmt.Errorf("placeholder {%s}: two defaults, %q and %q", ph.name, old, *ph.def)
					}
					c.defaults[ph.name] = *ph.def
				} else if _, ok := c.defaults[ph.name]; !ok {
					c.defaults[ph.name] = ""
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if c.plainOK[i] {
			c.plain[i] = text.String()
		}
	}
	if c.specFile != "" {
		fileSpecs, err := readSpecFile(c.specFile)
		if err != nil {
			return nil, err
		}
		for _, sp := range fileSpecs {
			if declared[sp.Name] {
				return nil, fmt.Errorf("parameter %q declared twice (in the command and in %s)", sp.Name, c.specFile)
			}
			declared[sp.Name] = true
		}
		c.specs = append(c.specs, fileSpecs...)
	}
	// Typed defaults, checked against their ranges.
	for i, td := range typedDefaults {
		sp := &c.specs[i]
		if td.text == "" {
			return nil, fmt.Errorf("parameter %q: no default (write {%s:...=DEFAULT})", sp.Name, sp.Name)
		}
		v, err := sp.ParseValue(td.text)
		if err != nil {
			return nil, fmt.Errorf("default of %w", err)
		}
		sp.Default = v
	}
	if err := c.specs.Check(); err != nil {
		return nil, err
	}
	for _, n := range refs {
		if declared[n] {
			if d := c.defaults[n]; d != "" {
				return nil, fmt.Errorf("placeholder {%s=%s}: %q is a declared parameter; its default is declared with it", n, d, n)
			}
			delete(c.defaults, n)
			continue
		}
		if !slices.Contains(c.fixed, n) {
			c.fixed = append(c.fixed, n)
		}
	}
	return c, nil
}

// parseExternal reads "cmd:COMMAND LINE" with assignments (--param k=v):
// values of declared parameters are checked against their kind and range,
// fixed placeholders take any text.
func parseExternal(cmdline string, assignments []string) (*Entrant, error) {
	argv, err := SplitCommand(cmdline)
	if err != nil {
		return nil, fmt.Errorf("command %q: %w", cmdline, err)
	}
	// A stored run's entrant key ends with its values: " [k=v,...]".
	if n := len(argv); n > 1 && strings.HasPrefix(argv[n-1], "[") && strings.HasSuffix(argv[n-1], "]") && strings.Contains(argv[n-1], "=") {
		assignments = append([]string{strings.Trim(argv[n-1], "[]")}, assignments...)
		argv = argv[:n-1]
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("empty command in entrant %q", "cmd:"+cmdline)
	}
	c, err := parseCommand(argv)
	if err != nil {
		return nil, fmt.Errorf("command %q: %w", cmdline, err)
	}
	path, err := lookBot(argv[0])
	if err != nil {
		return nil, err
	}
	e := &Entrant{kind: External, Template: argv, cmd: c, Params: c.specs.Defaults(), Ext: map[string]string{}}
	for _, n := range c.fixed {
		if d := c.defaults[n]; d != "" {
			e.Ext[n] = d
		}
	}
	for _, a := range assignments {
		for _, item := range splitAssignments(a) {
			k, v, ok := strings.Cut(item, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" {
				return nil, fmt.Errorf("param %q: %w", item, param.ErrSyntax)
			}
			if sp, ok := c.specs.Lookup(k); ok {
				x, err := sp.ParseValue(v)
				if err != nil {
					return nil, err
				}
				e.Params[k] = x
				continue
			}
			if !slices.Contains(c.fixed, k) {
				return nil, fmt.Errorf("unknown param %q for command %q (its parameters: %s)", k, cmdline, listOrNone(c.names()))
			}
			e.Ext[k] = v
		}
	}
	for _, n := range c.fixed {
		if _, ok := e.Ext[n]; !ok {
			return nil, fmt.Errorf("command %q: placeholder {%s} has no value (give --param %s=... or write {%s=default})", cmdline, n, n, n)
		}
	}
	for _, f := range c.files {
		if st, err := os.Stat(f); err != nil || !st.Mode().IsRegular() {
			return nil, fmt.Errorf("command %q: placeholder {@%s}: %s", cmdline, f, notAFile(err))
		}
	}
	e.Version = commandVersion(path)
	e.files = c.botFiles(path)
	e.stamp = statStamp(e.files) // before the hash: a change while hashing shows later
	if e.Fingerprint, err = fingerprint(e.files); err != nil {
		return nil, fmt.Errorf("command %q: %w", cmdline, err)
	}
	return e, nil
}

// notAFile says why a path named for the fingerprint is not a file.
func notAFile(statErr error) string {
	switch {
	case statErr == nil:
		return "not a regular file (want a file whose contents are part of the bot)"
	case errors.Is(statErr, fs.ErrNotExist):
		return "no such file"
	}
	return statErr.Error()
}

// splitAssignments splits "k=v,k=v" into its items. An item without "="
// continues the value before it ("tag=a,b" sets tag to "a,b"), so that a
// value with a comma (a fixed value, a choice) reads back from an
// entrant's key.
func splitAssignments(a string) []string {
	var out []string
	for _, item := range strings.Split(a, ",") {
		switch {
		case strings.TrimSpace(item) == "":
		case !strings.Contains(item, "=") && len(out) > 0:
			out[len(out)-1] += "," + item
		default:
			out = append(out, item)
		}
	}
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// lookBot finds a bot's executable, saying whether it is missing or not
// executable.
func lookBot(name string) (string, error) {
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("bot command %q: not executable (permission denied)", name)
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("bot command %q not found (no such file, or not on PATH)", name)
	}
	return "", fmt.Errorf("bot command %q: %w", name, err)
}

// names lists every placeholder name a user may set.
func (c *command) names() []string { return append(c.specs.Names(), c.fixed...) }

// botFiles lists the files whose contents identify the bot a command
// runs: its executable (exe, found on PATH), the script an interpreter
// runs (see script), the spec file ({params@FILE}) and the files the user
// names with {@FILE}. Other arguments are not read, even when they name
// files: a bot may write into them (a log), and the fingerprint of a run
// must not change while it plays.
func (c *command) botFiles(exe string) []string {
	files := []string{exe}
	if isInterpreter(exe) {
		if s := c.script(); s != "" {
			files = append(files, s)
		}
	}
	if c.specFile != "" {
		files = append(files, c.specFile)
	}
	return append(files, c.files...)
}

// script is the file an interpreter's arguments name first: the first
// argument without placeholders that is an existing regular file, options
// ("-u", "-W ignore") passed over. Code given on the command line ("-c",
// "-e", "-m", "--eval", "-" for standard input) means there is none.
func (c *command) script() string {
	for i := 1; i < len(c.words); i++ {
		if !c.plainOK[i] {
			continue
		}
		a := c.plain[i]
		switch a {
		case "-c", "-e", "-E", "-m", "--eval", "--command", "-":
			return ""
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() {
			return a
		}
	}
	return ""
}

// interpreters are the programs whose first file argument is the program
// they run (compared without a version suffix: python3.12 is python).
var interpreters = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"env": true, "python": true, "pypy": true, "node": true, "nodejs": true, "deno": true, "bun": true,
	"ruby": true, "perl": true, "php": true, "lua": true, "luajit": true, "tclsh": true, "rscript": true,
	"julia": true, "java": true, "dotnet": true, "mono": true, "go": true, "runghc": true, "runhaskell": true,
	"swift": true, "kotlin": true, "scala": true, "elixir": true, "escript": true, "racket": true,
	"guile": true, "sbcl": true, "ocaml": true, "dart": true, "pwsh": true, "awk": true, "gawk": true,
}

// isInterpreter reports whether the executable is a known interpreter.
func isInterpreter(exe string) bool {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(exe), ".exe"))
	return interpreters[strings.TrimRight(base, "0123456789.-_")]
}

// FilesMoved reports whether the files behind an external entrant's
// Fingerprint look different from when it was parsed: a size or a
// modification time changed, or a file is gone. It costs a stat a file,
// cheap enough to ask between blocks of games; whether the contents
// changed is the fingerprint's to say (Parse the entrant's key again).
func (e *Entrant) FilesMoved() bool {
	return e.kind == External && statStamp(e.files) != e.stamp
}

// statStamp is the sizes and modification times of files, "-" for one
// that cannot be read.
func statStamp(files []string) string {
	var b strings.Builder
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d:%d;", st.Size(), st.ModTime().UnixNano())
	}
	return b.String()
}

// fingerprint hashes files (their base names and contents): a rebuilt bot
// has another fingerprint, so its runs are new runs.
func fingerprint(files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return "", fmt.Errorf("fingerprint: %w", err)
		}
		fmt.Fprintf(h, "%s\x00", filepath.Base(f))
		_, err = io.Copy(h, fh)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("fingerprint of %s: %w", f, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:6]), nil
}

// extValues are every placeholder value as text, for the environment and
// the values file: declared parameters formatted by their kind, then the
// fixed ones.
func (e *Entrant) extValues() map[string]string {
	out := make(map[string]string, len(e.Ext)+len(e.Params))
	for k, v := range e.Ext {
		out[k] = v
	}
	if e.kind == External {
		for _, sp := range e.cmd.specs {
			out[sp.Name] = sp.FormatValue(e.Params[sp.Name])
		}
	}
	return out
}

// paramsFiles holds the values files of this process ({params}), one per
// distinct content, in a directory removed by RemoveParamsFiles (or, after
// a crash, by the next run's sweep of dead owners' directories).
var paramsFiles struct {
	sync.Mutex
	dir   string
	files map[string]string // content hash → path
}

const paramsPrefix = "gauntlet-params-"

// valuesFile writes the entrant's values as JSON ({"depth": 6, "mode":
// "safe", ...}) once and returns the file's path.
func (e *Entrant) valuesFile() (string, error) {
	m := map[string]any{}
	for k, v := range e.Ext {
		m[k] = v
	}
	if e.kind == External {
		for k, v := range e.cmd.specs.Map(e.Params) {
			m[k] = v
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:8])
	paramsFiles.Lock()
	defer paramsFiles.Unlock()
	if p, ok := paramsFiles.files[key]; ok {
		return p, nil
	}
	if paramsFiles.dir == "" {
		dir, err := owner.MkdirTemp(paramsPrefix)
		if err != nil {
			return "", fmt.Errorf("values file: %w", err)
		}
		paramsFiles.dir, paramsFiles.files = dir, map[string]string{}
	}
	p := filepath.Join(paramsFiles.dir, key+".json")
	if err := os.WriteFile(p, append(data, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("values file: %w", err)
	}
	paramsFiles.files[key] = p
	return p, nil
}

// RemoveParamsFiles removes the values files this process wrote for
// external bots ({params}); call it when the process ends.
func RemoveParamsFiles() error {
	paramsFiles.Lock()
	defer paramsFiles.Unlock()
	if paramsFiles.dir == "" {
		return nil
	}
	err := os.RemoveAll(paramsFiles.dir)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	paramsFiles.dir, paramsFiles.files = "", nil
	return err
}

// expand fills one template word for a game.
func (e *Entrant) expand(word string, seed uint64, vals map[string]string) (string, error) {
	var b strings.Builder
	err := scanPlaceholders(word, func(lit string, ph *placeholder) error {
		switch {
		case ph == nil:
			b.WriteString(lit)
		case ph.kind == seedPH:
			b.WriteString(strconv.FormatUint(seed, 10))
		case ph.kind == valuesPH:
			p, err := e.valuesFile()
			if err != nil {
				return err
			}
			b.WriteString(p)
		case ph.kind == filePH:
			b.WriteString(ph.path)
		default:
			b.WriteString(vals[ph.name])
		}
		return nil
	})
	return b.String(), err
}
