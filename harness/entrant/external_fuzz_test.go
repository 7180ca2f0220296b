package entrant

import (
	"slices"
	"strings"
	"testing"

	"gauntlet/strategies/param"
)

// piece is one part of a scanned template word: literal text or a
// placeholder.
type piece struct {
	lit string
	ph  *placeholder
}

// scanPieces scans a word into its pieces, adjacent literal text merged.
func scanPieces(word string) ([]piece, error) {
	var out []piece
	err := scanPlaceholders(word, func(lit string, ph *placeholder) error {
		if n := len(out); ph == nil && n > 0 && out[n-1].ph == nil {
			out[n-1].lit += lit
			return nil
		}
		out = append(out, piece{lit, ph})
		return nil
	})
	return out, err
}

// renderPieces writes pieces back as a template word.
func renderPieces(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		if p.ph == nil {
			b.WriteString(escapeBraces(p.lit))
		} else {
			b.WriteString(renderPlaceholder(p.ph))
		}
	}
	return b.String()
}

var kindWords = map[param.Kind]string{param.Int: "int", param.Float: "float", param.LogFloat: "log", param.Categorical: "cat"}

// renderPlaceholder writes a parsed placeholder in its canonical form.
func renderPlaceholder(ph *placeholder) string {
	switch {
	case ph.kind == filePH:
		return "{@" + ph.path + "}"
	case ph.kind == valuesPH && ph.path != "":
		return "{params@" + ph.path + "}"
	}
	body := ph.name
	if ph.kind == typedPH {
		sp := ph.spec
		rng := fmtNum(sp.Min) + "," + fmtNum(sp.Max)
		if sp.Kind == param.Categorical {
			rng = strings.Join(sp.Choices, "|")
		}
		body += ":" + kindWords[sp.Kind] + "[" + rng + "]"
	}
	if ph.def != nil {
		body += "=" + *ph.def
	}
	return "{" + body + "}"
}

// samePlaceholder compares two parsed placeholders (numbers by their text,
// so that NaN bounds compare equal).
func samePlaceholder(a, b *placeholder) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	if a == nil {
		return true
	}
	if a.kind != b.kind || a.name != b.name || a.path != b.path || (a.def == nil) != (b.def == nil) || a.def != nil && *a.def != *b.def {
		return false
	}
	return a.kind != typedPH || specText(a.spec) == specText(b.spec)
}

// specText is a spec as comparable text.
func specText(sp param.Spec) string {
	return strings.Join([]string{sp.Name, sp.Kind.String(), fmtNum(sp.Min), fmtNum(sp.Max), fmtNum(sp.Default), strings.Join(sp.Choices, "|")}, "\x00")
}

// FuzzCommandTemplate: SplitCommand, the placeholder scanner and
// parseCommand never panic; the words SplitCommand reads join back
// (JoinCommand) into the same words; a word the scanner accepts, written
// back from its pieces, scans to the same pieces; and a template
// parseCommand accepts, written back, declares the same parameters.
func FuzzCommandTemplate(f *testing.F) {
	for _, s := range []string{
		`./bot --depth {depth:int[1,12]=6} --seed {seed}`,
		`sh -c 'echo {depth:int[1,12]=6} {w:float[0,5]=1.5} {lr:log[1e-4,1e-1]=1e-3} {mode:cat[fast|safe]=safe} {name=x} {seed} {depth}'`,
		`sh -c "echo argc=\$# >&2; exit 3" x "a b" {w:float[0,1]=0.5}`,
		`./bot --tag "it's" {params} {@weights.bin}`,
		`sh -c 'echo {"a": 1} {} {{x} a{{2,3}'`,
		`sh -c 'echo {../x:int[1,2]=1}'`,
		`echo {n:int[1000,5000000]=1000000} {w:float[-1e308,1e308]=0}`,
		`echo {w:float[NaN,1]=0} {x=a=b} {y={z}`,
		`echo '' "" \ \\ '\''`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := SplitCommand(line)
		if err != nil {
			return
		}
		joined := JoinCommand(words)
		if back, err := SplitCommand(joined); err != nil || !slices.Equal(back, words) {
			t.Fatalf("%q: words %q join as %q and split back as %q, %v", line, words, joined, back, err)
		}
		canon := make([]string, len(words))
		scanned := true
		for i, w := range words {
			ps, err := scanPieces(w)
			if err != nil {
				scanned = false
				continue
			}
			canon[i] = renderPieces(ps)
			again, err := scanPieces(canon[i])
			if err != nil || len(again) != len(ps) {
				t.Fatalf("word %q written back as %q scans as %d pieces, %v; want %d", w, canon[i], len(again), err, len(ps))
			}
			for j := range ps {
				if ps[j].lit != again[j].lit || !samePlaceholder(ps[j].ph, again[j].ph) {
					t.Fatalf("word %q written back as %q: piece %d %+v became %+v", w, canon[i], j, ps[j], again[j])
				}
			}
		}
		if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "params@") }) {
			return // parseCommand would read the spec file it names
		}
		c, err := parseCommand(words)
		if err != nil {
			return
		}
		if !scanned {
			t.Fatalf("%q: parseCommand accepts words the scanner refuses", line)
		}
		c2, err := parseCommand(canon)
		if err != nil {
			t.Fatalf("%q accepted, written back as %q refused: %v", line, canon, err)
		}
		if !slices.Equal(specTexts(c.specs), specTexts(c2.specs)) || !slices.Equal(c.fixed, c2.fixed) || !slices.Equal(c.files, c2.files) || c.valuesAt != c2.valuesAt {
			t.Fatalf("%q written back as %q declares %+v, was %+v", line, canon, c2, c)
		}
	})
}

func specTexts(s param.Specs) []string {
	out := make([]string, len(s))
	for i, sp := range s {
		out[i] = specText(sp)
	}
	return out
}
