package hextris

import (
	"strings"
	"testing"
)

type benchCase struct {
	p   *Problem
	ps  PhraseSet
	c   confCase
	cmd int // commands in the solution
}

func benchCases(b *testing.B) []benchCase {
	b.Helper()
	var out []benchCase
	for _, c := range loadCases(b) {
		out = append(out, benchCase{mustOfficial(b, c.ProblemID), mustPhrases(b, c.Phrases), c, countCommands(c.Solution)})
	}
	return out
}

func countCommands(s string) int {
	n := 0
	for _, r := range s {
		if r != '\t' && r != '\n' && r != '\r' {
			n++
		}
	}
	return n
}

// BenchmarkReplayCases plays every shared conformance case once per
// iteration, without the board strings (Run) and with them (Play).
func BenchmarkReplayCases(b *testing.B) {
	cases := benchCases(b)
	for _, withBoard := range []bool{false, true} {
		name := "Run"
		if withBoard {
			name = "Play"
		}
		b.Run(name, func(b *testing.B) {
			g := new(Game)
			b.ReportAllocs()
			for b.Loop() {
				for i := range cases {
					c := &cases[i]
					if withBoard {
						g.Play(c.p, c.c.Seed, c.ps, c.c.Solution)
					} else {
						g.Run(c.p, c.c.Seed, c.ps, c.c.Solution)
					}
				}
			}
			b.ReportMetric(float64(len(cases))*float64(b.N)/b.Elapsed().Seconds(), "cases/s")
			b.ReportMetric(float64(len(cases)), "cases/op")
		})
	}
}

// longest returns the longest team solution (natsubate/hackthepool) on
// problem id.
func longest(b *testing.B, cases []benchCase, id int) benchCase {
	var best benchCase
	for _, c := range cases {
		if c.c.ProblemID == id && !strings.HasPrefix(c.c.Name, "random/") && len(c.c.Solution) > len(best.c.Solution) {
			best = c
		}
	}
	if best.p == nil {
		b.Fatalf("no team solution for problem %d", id)
	}
	return best
}

// BenchmarkLongest scores the longest team solution on problems 8, 14 and
// 24 (the goal is at most 1.2 ms for a ~56k-command solution), and reports
// commands and locks per second.
func BenchmarkLongest(b *testing.B) {
	cases := benchCases(b)
	for _, id := range []int{8, 14, 24} {
		c := longest(b, cases, id)
		b.Run(c.c.Name, func(b *testing.B) {
			g := new(Game)
			var r Result
			b.ReportAllocs()
			for b.Loop() {
				r = g.Run(c.p, c.c.Seed, c.ps, c.c.Solution)
			}
			if r.Score != c.c.Score {
				b.Fatalf("score %d, want %d", r.Score, c.c.Score)
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(c.cmd), "commands/op")
			b.ReportMetric(float64(c.cmd)*float64(b.N)/sec, "commands/s")
			b.ReportMetric(float64(r.UnitsLocked)*float64(b.N)/sec, "locks/s")
		})
	}
}

// BenchmarkEngine isolates the engine (no phrase scoring) on the longest
// solution of problem 24.
func BenchmarkEngine(b *testing.B) {
	c := longest(b, benchCases(b), 24)
	g := new(Game)
	b.ReportAllocs()
	locks := 0
	for b.Loop() {
		g.Reset(c.p, c.c.Seed)
		g.runText(c.c.Solution)
		locks = g.UnitsLocked()
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(c.cmd)*float64(b.N)/sec, "commands/s")
	b.ReportMetric(float64(locks)*float64(b.N)/sec, "locks/s")
}

// BenchmarkPowerScore scores the phrases of the longest solution of
// problem 24.
func BenchmarkPowerScore(b *testing.B) {
	c := longest(b, benchCases(b), 24)
	b.ReportAllocs()
	b.SetBytes(int64(len(c.c.Solution)))
	for b.Loop() {
		c.ps.Score(c.c.Solution)
	}
}
