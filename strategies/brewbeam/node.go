package brewbeam

import "math/bits"

// The search state of one line of our own play is two words.
//
// Word a holds what the next actions depend on:
//
//	bits  0..15  inventory, one nibble per tier (0..10 each)
//	bits 16..20  orders brewed, by queue index at the root
//	bits 21..26  tome spells learnt, by tome index at the root
//	bits 27..63  castable spells: own spells 0..30, then the six tome slots
//
// Word b holds the rest of the line's identity:
//
//	bits  0..11  points earned so far (undiscounted)
//	bits 12..14  urgency-bonus uses left on queue slot 0
//	bits 15..17  urgency-bonus uses left on queue slot 1
//	bit  18      the bonus values have shifted to {1, 0}
//	bit  19      the line has ended the game
const (
	invBits     = 4
	invMask     = 1<<invBits - 1
	brewedShift = 16
	learnShift  = 21
	castShift   = 27

	maxOwn    = 31 // own spells the compact state tracks
	tomeBase  = maxOwn
	maxSearch = maxOwn + 6 // castable bits

	scoreMask   = 1<<12 - 1
	uses0Shift  = 12
	uses1Shift  = 15
	shiftedBit  = 1 << 18
	terminalBit = 1 << 19
)

func invOf(a uint64) (inv [4]int32) {
	for t := 0; t < 4; t++ {
		inv[t] = int32(a>>(invBits*t)) & invMask
	}
	return inv
}

func withInv(a uint64, inv *[4]int32) uint64 {
	a &^= 1<<(4*invBits) - 1
	for t := 0; t < 4; t++ {
		a |= uint64(inv[t]) << (invBits * t)
	}
	return a
}

// endPoints is what the state a, b would score were the game to end
// there: the points its line earned plus its tier-1..3 ingredients (tier
// 0 scores nothing).
func endPoints(a, b uint64) int32 {
	inv := invOf(a)
	return int32(b&scoreMask) + inv[1] + inv[2] + inv[3]
}

func brewedOf(a uint64) uint32   { return uint32(a>>brewedShift) & 0x1f }
func learntOf(a uint64) uint32   { return uint32(a>>learnShift) & 0x3f }
func castableOf(a uint64) uint64 { return a >> castShift }

func usesOf(b uint64) (u0, u1 int32) {
	return int32(b>>uses0Shift) & 7, int32(b>>uses1Shift) & 7
}

func withUses(b uint64, u0, u1 int32) uint64 {
	b &^= 7<<uses0Shift | 7<<uses1Shift
	return b | uint64(u0)<<uses0Shift | uint64(u1)<<uses1Shift
}

// node is one state of the beam: its key (a, b), the discounted points of
// its line, its evaluation, the first action of its line and when the line
// brewed each order.
type node struct {
	a, b   uint64
	disc   float32 // discounted, weighted points earned on the line
	eval   float32
	hist   uint32 // per order q, bits 5q..5q+4: 1 + the action index of its brew (0: not brewed)
	first  uint16 // encoded root action
	parent uint16 // index of the state it came from in the layer before (read with trackPath)
}

// histBits is the width of one order's field in node.hist.
const histBits = 5

// brewIndex returns the action index at which the line of hist brewed
// order q, or -1.
func brewIndex(hist uint32, q int) int {
	return int(hist>>(histBits*uint(q))&(1<<histBits-1)) - 1
}

// withBrew records in hist that order q was brewed at action index d.
func withBrew(hist uint32, q, d int) uint32 {
	return hist | uint32(min(d+1, 1<<histBits-1))<<(histBits*uint(q))
}

// Encoded actions: kind in bits 0..2, index in bits 3..8, times in 9..12.
const (
	actRest = iota + 1
	actCast
	actLearn
	actBrew
)

func encodeAct(kind, idx, times int) uint16 {
	return uint16(kind | idx<<3 | times<<9)
}

func decodeAct(e uint16) (kind, idx, times int) {
	return int(e & 7), int(e>>3) & 63, int(e>>9) & 15
}

// nodeSet is an open-addressing hash set from a state key to its index in
// the layer being built. A generation stamp clears it in O(1); the table
// is reused across layers and turns.
type nodeSet struct {
	slots []setSlot
	mask  uint64
	gen   uint32
}

type setSlot struct {
	a, b uint64
	gen  uint32
	idx  int32
}

// reset prepares the set for at least n keys.
func (h *nodeSet) reset(n int) {
	size := 1 << bits.Len(uint(2*n))
	if len(h.slots) < size {
		h.slots = make([]setSlot, size)
		h.gen = 0
	}
	h.mask = uint64(len(h.slots) - 1)
	h.gen++
	if h.gen == 0 { // the stamp wrapped: clear for real
		clear(h.slots)
		h.gen = 1
	}
}

func hashKey(a, b uint64) uint64 {
	x := a*0x9e3779b97f4a7c15 ^ b*0xc2b2ae3d27d4eb4f
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>29
}

// lookup returns the index stored for (a, b), or -1 and the slot where it
// would go.
func (h *nodeSet) lookup(a, b uint64) (idx int32, slot int) {
	i := hashKey(a, b) & h.mask
	for {
		s := &h.slots[i]
		if s.gen != h.gen {
			return -1, int(i)
		}
		if s.a == a && s.b == b {
			return s.idx, int(i)
		}
		i = (i + 1) & h.mask
	}
}

func (h *nodeSet) insert(slot int, a, b uint64, idx int32) {
	h.slots[slot] = setSlot{a: a, b: b, gen: h.gen, idx: idx}
}
