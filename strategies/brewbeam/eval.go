package brewbeam

import "math/bits"

func popcount32(x uint32) int      { return bits.OnesCount32(x) }
func trailingZeros64(x uint64) int { return bits.TrailingZeros64(x) }

// evaluate scores a state reached after depth own actions whose brews
// earned disc (discounted and weighted).
//
// A line that ends the game is worth its points plus the ingredient
// points the game pays, plus or minus w_win as it wins or loses against the
// opponent's current final score. Any other state adds the value of its
// ingredients (tier weights, or the end-phase weight), of the spells it
// learnt, of its castable spells and of its progress towards the best
// remaining order, all discounted like a brew at that depth.
//
// With eval_sum, disc is instead the sum of the values of the line's earlier
// states, and a state's value also counts the points it holds and the
// potions it brewed; a line that ends the game keeps its final value for
// every depth left to search.
func (b *Beam) evaluate(a, bb uint64, disc float32, depth int, f *forecast) float32 {
	cfg := &b.cfg
	r := &b.r
	inv := invOf(a)
	if bb&terminalBit != 0 {
		pts := inv[1] + inv[2] + inv[3]
		final := r.myScore + int32(bb&scoreMask) + pts
		v := cfg.wEnd * float32(pts)
		switch {
		case final > f.finalAt[depth]:
			v += cfg.wWin
		case final < f.finalAt[depth]:
			v -= cfg.wWin
		}
		if cfg.evalSum {
			// The game is over: its final value holds for every depth left.
			v += cfg.wScore * float32(bb&scoreMask)
			return disc + b.tailPow[depth]*v
		}
		if cfg.winDisc {
			v *= b.discPow[depth]
		}
		return disc + v
	}
	var h float32
	if r.endPhase {
		h = cfg.wEnd * float32(inv[1]+inv[2]+inv[3])
	} else {
		h = cfg.wTier[0]*float32(inv[0]) + cfg.wTier[1]*float32(inv[1]) +
			cfg.wTier[2]*float32(inv[2]) + cfg.wTier[3]*float32(inv[3])
	}
	for l := learntOf(a); l != 0; l &= l - 1 {
		h += r.tomeValue[bits.TrailingZeros32(l)]
	}
	h += cfg.wCastable * float32(bits.OnesCount64(castableOf(a)))
	if cfg.wOrder > 0 {
		gone := brewedOf(a) | f.goneAt[depth]
		var best float32
		for q := 0; q < r.nOrders; q++ {
			if gone&(1<<uint(q)) != 0 || r.costW[q] == 0 {
				continue
			}
			c := &r.cost[q]
			held := int32(0)
			for t := 0; t < 4; t++ {
				held += min(inv[t], c[t]) * int32(t+1)
			}
			f := float32(held) / float32(r.costW[q])
			if v := float32(r.price[q]) * f * f; v > best {
				best = v
			}
		}
		h += cfg.wOrder * best
	}
	if cfg.evalSum {
		h += cfg.wScore*float32(bb&scoreMask) + cfg.wBrew*float32(popcount32(brewedOf(a)))
	}
	return disc + b.discPow[depth]*h
}

// selectTop reorders ns so that its k best states (by eval) come first.
// It is a deterministic quickselect; ties are kept in no particular but
// reproducible order.
func selectTop(ns []node, k int) {
	lo, hi := 0, len(ns)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// median of three as the pivot, moved to hi
		if ns[mid].eval > ns[lo].eval {
			ns[mid], ns[lo] = ns[lo], ns[mid]
		}
		if ns[hi].eval > ns[lo].eval {
			ns[hi], ns[lo] = ns[lo], ns[hi]
		}
		if ns[mid].eval > ns[hi].eval {
			ns[mid], ns[hi] = ns[hi], ns[mid]
		}
		pivot := ns[hi].eval
		// three-way partition: [lo,gt) > pivot, [gt,i) == pivot, (lt,hi] < pivot
		gt, i, lt := lo, lo, hi
		for i <= lt {
			switch e := ns[i].eval; {
			case e > pivot:
				ns[i], ns[gt] = ns[gt], ns[i]
				gt++
				i++
			case e < pivot:
				ns[i], ns[lt] = ns[lt], ns[i]
				lt--
			default:
				i++
			}
		}
		switch {
		case k < gt:
			hi = gt - 1
		case k > lt+1:
			lo = lt + 1
		default:
			return
		}
	}
}
