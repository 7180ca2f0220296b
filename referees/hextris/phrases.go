package hextris

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PhraseSet is a list of phrases of power, compiled for scoring. The zero
// value is the empty set. A PhraseSet is immutable and safe for concurrent
// use; copying it is cheap.
type PhraseSet struct {
	name    string
	phrases []string
	m       *matcher
}

// NewPhraseSet compiles a phrase list. Matching is case-insensitive (both
// sides are lower-cased). A phrase listed twice (after lower-casing) has its
// occurrences counted twice but its 300-point bonus once, as in the
// referee; an empty phrase scores 300 for any non-empty text.
func NewPhraseSet(name string, phrases []string) PhraseSet {
	return PhraseSet{name: name, phrases: append([]string(nil), phrases...), m: newMatcher(phrases)}
}

// ParsePhrases reads a phrase file: one phrase per line; a trailing "\r" is
// dropped and empty lines are skipped.
func ParsePhrases(name string, data []byte) PhraseSet {
	var list []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line != "" {
			list = append(list, line)
		}
	}
	return NewPhraseSet(name, list)
}

// Name returns the set's name ("power", "custom", ...).
func (ps PhraseSet) Name() string { return ps.name }

// Phrases returns a copy of the phrases as given.
func (ps PhraseSet) Phrases() []string { return append([]string(nil), ps.phrases...) }

// Len returns the number of phrases as given.
func (ps PhraseSet) Len() int { return len(ps.phrases) }

// Score returns the power score of a raw solution text: for each distinct
// phrase p that occurs at least once, 300 + 2*len(p)*reps, where reps counts
// overlapping occurrences in the lower-cased text and len is in characters.
// The whole text counts, invalid characters and \t\n\r included (those break
// a phrase). It does not allocate for sets of up to 4096 trie states.
func (ps PhraseSet) Score(text string) int64 {
	if ps.m == nil {
		return 0
	}
	return ps.m.score(text)
}

// maxTable is the largest automaton table (entries) built; longer phrase
// lists are scored by plain search.
const maxTable = 1 << 22

// matcher is an Aho-Corasick automaton over the bytes of the lower-cased
// UTF-8 text. Byte classes fold ASCII upper case onto lower case; other
// characters are lower-cased rune by rune before they are fed.
type matcher struct {
	cls   [256]uint8
	shift uint // log2 of the padded class count
	// delta[row|class]: the next state's row (state<<shift) in the low 32
	// bits, the next state's gain in the high 32 bits. A state's gain is
	// 2*len(p)*mult summed over the phrases p that end there.
	delta    []uint64
	gain     []int64 // per state
	fail     []int32 // per state: failure link
	term     []bool  // per state: spells a whole phrase
	nstates  int
	hasEmpty bool
	naive    []naivePhrase // used instead of the automaton for huge lists
}

type naivePhrase struct {
	text string
	mult int64
}

func newMatcher(phrases []string) *matcher {
	m := &matcher{}
	var list []naivePhrase
	index := map[string]int{}
	total := 1
	for _, p := range phrases {
		var b strings.Builder
		for _, r := range p {
			b.WriteRune(unicode.ToLower(r))
		}
		lp := b.String()
		if lp == "" {
			m.hasEmpty = true
			continue
		}
		if i, ok := index[lp]; ok {
			list[i].mult++
			continue
		}
		index[lp] = len(list)
		list = append(list, naivePhrase{lp, 1})
		total += len(lp)
	}
	if len(list) == 0 {
		return m
	}
	// Byte classes: 0 for bytes in no phrase.
	nc := 1
	for _, e := range list {
		for i := 0; i < len(e.text); i++ {
			if m.cls[e.text[i]] == 0 {
				m.cls[e.text[i]] = uint8(nc)
				nc++
			}
		}
	}
	for c := byte('A'); c <= 'Z'; c++ {
		m.cls[c] = m.cls[c-'A'+'a']
	}
	m.shift = uint(bits.Len(uint(nc - 1)))
	width := 1 << m.shift
	if total*width > maxTable {
		// Far beyond any real phrase list: count by plain search instead.
		m.naive = list
		return m
	}
	// Trie.
	next := make([]int32, total*width)
	for i := range next {
		next[i] = -1
	}
	m.gain = make([]int64, total)
	termStates := []int32{}
	n := 1
	for _, e := range list {
		s := 0
		for i := 0; i < len(e.text); i++ {
			c := int(m.cls[e.text[i]])
			if next[s*width+c] < 0 {
				next[s*width+c] = int32(n)
				n++
			}
			s = int(next[s*width+c])
		}
		m.gain[s] += 2 * int64(utf8.RuneCountInString(e.text)) * e.mult
		termStates = append(termStates, int32(s))
	}
	m.nstates = n
	m.gain = m.gain[:n]
	m.fail = make([]int32, n)
	m.term = make([]bool, n)
	for _, s := range termStates {
		m.term[s] = true
	}
	// Breadth-first: failure links, gains along them, full transitions.
	queue := make([]int32, 0, n)
	for c := 0; c < width; c++ {
		t := next[c]
		if t < 0 {
			next[c] = 0
		} else {
			m.fail[t] = 0
			queue = append(queue, t)
		}
	}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		m.gain[s] += m.gain[m.fail[s]]
		for c := 0; c < width; c++ {
			t := next[int(s)*width+c]
			f := next[int(m.fail[s])*width+c]
			if t < 0 {
				next[int(s)*width+c] = f
			} else {
				m.fail[t] = f
				queue = append(queue, t)
			}
		}
	}
	for _, g := range m.gain {
		if g >= 1<<31 {
			m.naive = list
			return m
		}
	}
	m.delta = make([]uint64, n*width)
	for i := range m.delta {
		t := next[i]
		m.delta[i] = uint64(t)<<m.shift | uint64(m.gain[t])<<32
	}
	return m
}

func (m *matcher) score(text string) int64 {
	var total int64
	if m.hasEmpty && len(text) > 0 {
		total += 300
	}
	if m.naive != nil {
		return total + m.naiveScore(text)
	}
	if m.delta == nil {
		return total
	}
	// vis[s] is 1 once state s was reached, 2 once its failure chain is
	// marked.
	var stack [4096]byte
	var vis []byte
	if m.nstates <= len(stack) {
		vis = stack[:m.nstates]
	} else {
		vis = make([]byte, m.nstates)
	}
	delta, cls, shift := m.delta, &m.cls, m.shift
	var row uint64
	for i := 0; i < len(text); i++ {
		b := text[i]
		if b < utf8.RuneSelf {
			e := delta[row|uint64(cls[b])]
			row = uint64(uint32(e))
			total += int64(e >> 32)
			vis[row>>shift] = 1
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		i += w - 1
		var buf [utf8.UTFMax]byte
		k := utf8.EncodeRune(buf[:], unicode.ToLower(r))
		for _, b := range buf[:k] {
			e := delta[row|uint64(cls[b])]
			row = uint64(uint32(e))
			total += int64(e >> 32)
			vis[row>>shift] = 1
		}
	}
	// 300 once per distinct phrase seen: a phrase occurred iff its state is
	// on the failure chain of a reached state.
	for s, v := range vis {
		if v != 1 || m.gain[s] == 0 {
			continue
		}
		for t := int32(s); t > 0 && vis[t] != 2; t = m.fail[t] {
			vis[t] = 2
			if m.term[t] {
				total += 300
			}
		}
	}
	return total
}

func (m *matcher) naiveScore(text string) int64 {
	var b strings.Builder
	for _, r := range text {
		b.WriteRune(unicode.ToLower(r))
	}
	lt := b.String()
	var total int64
	for _, p := range m.naive {
		reps := int64(0)
		for i := 0; i < len(lt); {
			j := strings.Index(lt[i:], p.text)
			if j < 0 {
				break
			}
			reps++
			i += j + 1
		}
		if reps > 0 {
			total += 300 + 2*int64(utf8.RuneCountInString(p.text))*reps*p.mult
		}
	}
	return total
}
