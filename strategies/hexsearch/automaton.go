package hexsearch

import "gauntlet/referees/hextris"

// automaton is an Aho–Corasick automaton over the (lower-case) phrases of
// power, compiled into a full transition table over bytes, so that the
// phrase occurrences of a text are counted in one pass, and a text can be
// continued from any state (the text of a game is continuous across units).
type automaton struct {
	next  []int32                     // next[node<<8|ch]: the state after character ch
	depth []int32                     // length of the node's string
	fail  []int32                     // the longest proper suffix that is a node
	order []int32                     // the nodes, shallowest first
	chars [hextris.NumCommands][]byte // the characters worth typing per command
	// through[n] marks (bit i) the phrases that n's string is a prefix of,
	// longer[n] those it is a proper prefix of; all ones when there are
	// more than 64 phrases.
	through []uint64
	longer  []uint64
	cont    []int32 // length of the longest suffix that a phrase continues past
	outAt   []int32 // phrases that end at node: outPh[outAt[node]:outAt[node+1]]
	outPh   []int32
	plen    []int32 // phrase lengths
	edges   []acEdge
	edgeAt  []int32 // edges of (node, command): edges[edgeAt[node*6+c]:edgeAt[node*6+c+1]]
}

// acEdge is one character worth typing for a command from a node: the
// characters of the command that lead to the same node are merged.
type acEdge struct {
	ch byte
	to int32
}

// newAutomaton compiles the phrases (lower case, every character a command
// character).
func newAutomaton(phrases []phrase) *automaton {
	a := &automaton{next: make([]int32, 256), depth: []int32{0}}
	var children [][256]int32 // trie children, 0 = none (the root is never a child)
	children = append(children, [256]int32{})
	var ends [][]int32
	ends = append(ends, nil)
	for i, ph := range phrases {
		a.plen = append(a.plen, int32(len(ph.text)))
		n := int32(0)
		for j := 0; j < len(ph.text); j++ {
			ch := ph.text[j]
			if children[n][ch] == 0 {
				children = append(children, [256]int32{})
				ends = append(ends, nil)
				a.depth = append(a.depth, a.depth[n]+1)
				children[n][ch] = int32(len(children) - 1)
			}
			n = children[n][ch]
		}
		ends[n] = append(ends[n], int32(i))
	}
	nn := len(children)
	a.next = make([]int32, nn*256)
	fail := make([]int32, nn)
	a.through = make([]uint64, nn)
	a.longer = make([]uint64, nn)
	for i, ph := range phrases {
		bit := uint64(1) << uint(i)
		if i >= 64 {
			bit = ^uint64(0)
		}
		n := int32(0)
		for j := 0; j < len(ph.text); j++ {
			a.longer[n] |= bit
			n = children[n][ph.text[j]]
			a.through[n] |= bit
		}
	}
	a.cont = make([]int32, nn)
	outs := make([][]int32, nn)
	// Breadth-first: a node's failure link is shallower, so it is done.
	queue := []int32{0}
	for qi := 0; qi < len(queue); qi++ {
		n := queue[qi]
		outs[n] = append(append(outs[n], ends[n]...), outs[fail[n]]...)
		hasChild := false
		for ch := range 256 {
			c := children[n][ch]
			if c == 0 {
				if n != 0 {
					a.next[int(n)<<8|ch] = a.next[int(fail[n])<<8|ch]
				}
				continue
			}
			hasChild = true
			a.next[int(n)<<8|ch] = c
			if n != 0 {
				fail[c] = a.next[int(fail[n])<<8|ch]
			}
			queue = append(queue, c)
		}
		if hasChild {
			a.cont[n] = a.depth[n]
		} else {
			a.cont[n] = a.cont[fail[n]]
		}
	}
	a.fail, a.order = fail, queue
	a.outAt = make([]int32, nn+1)
	for n := range nn {
		a.outAt[n] = int32(len(a.outPh))
		a.outPh = append(a.outPh, outs[n]...)
	}
	a.outAt[nn] = int32(len(a.outPh))

	// The characters worth trying per command: those of the phrases, and
	// one that is in no phrase (it leads to the root from anywhere).
	var inPhrase [256]bool
	for _, ph := range phrases {
		for j := 0; j < len(ph.text); j++ {
			inPhrase[ph.text[j]] = true
		}
	}
	chars := &a.chars
	for c := range hextris.NumCommands {
		other := false
		for _, ch := range []byte(c.Chars()) {
			if inPhrase[ch] {
				chars[c] = append(chars[c], ch)
			} else if !other {
				chars[c] = append(chars[c], ch)
				other = true
			}
		}
	}
	a.edgeAt = make([]int32, nn*int(hextris.NumCommands)+1)
	for n := range nn {
		for c := range hextris.NumCommands {
			a.edgeAt[n*int(hextris.NumCommands)+int(c)] = int32(len(a.edges))
			e0 := len(a.edges)
			for _, ch := range chars[c] {
				to := a.next[n<<8|int(ch)]
				dup := false
				for _, e := range a.edges[e0:] {
					if e.to == to {
						dup = true
						break
					}
				}
				if !dup {
					a.edges = append(a.edges, acEdge{ch, to})
				}
			}
		}
	}
	a.edgeAt[nn*int(hextris.NumCommands)] = int32(len(a.edges))
	return a
}

// numNodes is the number of states.
func (a *automaton) numNodes() int { return len(a.depth) }

// step returns the state after character ch (lower-cased).
func (a *automaton) step(n int32, ch byte) int32 {
	if 'A' <= ch && ch <= 'Z' {
		ch += 'a' - 'A'
	}
	return a.next[int(n)<<8|int(ch)]
}

// ends returns the phrases (indexes) that end at state n.
func (a *automaton) ends(n int32) []int32 { return a.outPh[a.outAt[n]:a.outAt[n+1]] }

// score returns the power points text earns when typed from state n after
// a text where the phrases marked used already occur: 2*len per
// occurrence, plus 300 per phrase whose first occurrence it holds. seen is
// scratch of one flag per phrase. It returns the end state too.
func (a *automaton) score(n int32, text []byte, used, seen []bool) (int, int32) {
	clear(seen)
	pts := 0
	for _, ch := range text {
		n = a.step(n, ch)
		for _, i := range a.ends(n) {
			pts += 2 * int(a.plen[i])
			if !used[i] && !seen[i] {
				seen[i] = true
				pts += 300
			}
		}
	}
	return pts, n
}
