package brewbeam

import (
	"cmp"
	"math/bits"
	"slices"

	"gauntlet/referees/brew"
)

// With learn_pick 1, an opening LEARN is chosen by reach rather than by the
// main search: a spell book is worth what it brings within reach. From an
// empty inventory, a small beam of CASTs and RESTs (no brews) finds how
// many turns away each of the 1,001 inventories is; the book's reach is
// the mean over them of the inventory's tier-weighted value divided by that
// distance (nothing for one out of reach). The main search sees a few turns
// of a spell's use; reach sees what the whole book makes of nothing, which
// is what the spells learnt in the opening are for: turning tier-0
// ingredients into the tier-2 and tier-3 ones the dear orders need.

const (
	reachDepth = 14  // turns searched from the empty inventory
	reachWidth = 200 // states kept per turn
	reachInvs  = 1001
)

// reachValue is an inventory's worth to the reach measure: an ingredient of
// tier t counts t+1 (the tier-0 ingredients it stands for) plus a half for
// being held at all.
var reachValue [reachInvs]float32

// invIndex numbers the inventories (at most 10 ingredients in all);
// invList is its inverse.
var (
	invIndex [11][11][11][11]int16
	invList  [reachInvs][4]int8
)

func init() {
	n := 0
	for a := range 11 {
		for b := range 11 - a {
			for c := range 11 - a - b {
				for d := range 11 - a - b - c {
					invIndex[a][b][c][d] = int16(n)
					invList[n] = [4]int8{int8(a), int8(b), int8(c), int8(d)}
					reachValue[n] = 1.5*float32(a) + 2.5*float32(b) + 3.5*float32(c) + 4.5*float32(d)
					n++
				}
			}
		}
	}
}

// reachNode is a state of the reach beam: an inventory and the castable
// spells of the book.
type reachNode struct {
	inv   int16
	mask  uint32
	value float32
}

// reacher holds the reach beam's buffers, reused from turn to turn.
type reacher struct {
	delta [][4]int8
	rep   []bool
	cur   []reachNode
	next  []reachNode
	seen  map[uint64]struct{}
	dist  [reachInvs]uint8
}

// reach returns the reach of the book of own spells plus tome slot k.
func (b *Beam) reach(k int) float32 {
	r := &b.r
	rc := &b.rch
	if rc.seen == nil {
		rc.seen = make(map[uint64]struct{}, reachWidth*32)
	}
	rc.delta, rc.rep = rc.delta[:0], rc.rep[:0]
	add := func(i int) {
		d := &r.delta[i]
		rc.delta = append(rc.delta, [4]int8{int8(d[0]), int8(d[1]), int8(d[2]), int8(d[3])})
		rc.rep = append(rc.rep, r.rep[i])
	}
	for i := 0; i < r.nOwn && len(rc.delta) < 31; i++ {
		add(i)
	}
	add(tomeBase + k)
	all := uint32(1)<<uint(len(rc.delta)) - 1

	for i := range rc.dist {
		rc.dist[i] = 0xff
	}
	rc.dist[0] = 0
	rc.cur = append(rc.cur[:0], reachNode{inv: 0, mask: all})
	for d := 1; d <= reachDepth; d++ {
		rc.next = rc.next[:0]
		clear(rc.seen)
		push := func(inv int16, mask uint32) {
			key := uint64(inv) | uint64(mask)<<16
			if _, dup := rc.seen[key]; dup {
				return
			}
			rc.seen[key] = struct{}{}
			rc.next = append(rc.next, reachNode{inv: inv, mask: mask, value: reachValue[inv]})
			if rc.dist[inv] > uint8(d) {
				rc.dist[inv] = uint8(d)
			}
		}
		for _, n := range rc.cur {
			if n.mask != all {
				push(n.inv, all) // REST
			}
			have := invList[n.inv]
			for m := n.mask; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				dl := &rc.delta[i]
				inv := have
				for times := 1; ; times++ {
					total := 0
					ok := true
					for t := range 4 {
						inv[t] += dl[t]
						ok = ok && inv[t] >= 0
						total += int(inv[t])
					}
					if !ok || total > 10 {
						break
					}
					push(invIndex[inv[0]][inv[1]][inv[2]][inv[3]], n.mask&^(1<<uint(i)))
					if !rc.rep[i] {
						break
					}
				}
			}
		}
		if len(rc.next) > reachWidth {
			// The most valuable inventories go on; ties keep their order.
			slices.SortStableFunc(rc.next, func(x, y reachNode) int { return cmp.Compare(y.value, x.value) })
			rc.next = rc.next[:reachWidth]
		}
		rc.cur, rc.next = rc.next, rc.cur
	}
	var sum float32
	for i, d := range rc.dist {
		if d != 0 && d != 0xff {
			sum += reachValue[i] / float32(d)
		}
	}
	return sum / reachInvs
}

// reachPick chooses the tome slot to learn now by reach, less the tier-0
// ingredients the LEARN costs and plus those it brings (w_learn_tier0 each,
// within the inventory's room). It reports false when no slot is
// affordable.
func (b *Beam) reachPick(s *brew.State, me int) (int, bool) {
	pl := &s.P[me]
	total := pl.Inv[0] + pl.Inv[1] + pl.Inv[2] + pl.Inv[3]
	best, bestScore := -1, float32(0)
	for k := 0; k < int(s.NTome); k++ {
		if pl.Inv[0] < int32(k) {
			continue
		}
		got := min(s.Tome[k].Stock, brew.MaxInventory-(total-int32(k)))
		v := b.reach(k) + b.cfg.wLearn0*float32(got-int32(k))
		if best < 0 || v > bestScore {
			best, bestScore = k, v
		}
	}
	return best, best >= 0
}
