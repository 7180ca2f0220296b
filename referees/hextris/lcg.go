package hextris

// LCG is the referee's random source: a 32-bit linear congruential generator
// (multiplier 1103515245, increment 12345). Each step outputs bits 16-30 of
// the state and then advances it, so the first output comes from the seed.
type LCG struct{ s uint32 }

// NewLCG starts the generator at seed.
func NewLCG(seed uint32) LCG { return LCG{seed} }

// Next returns the next output, in [0, 32767].
func (l *LCG) Next() uint32 {
	out := (l.s >> 16) & 0x7FFF
	l.s = l.s*1103515245 + 12345
	return out
}

// State returns the current state (the seed before the first Next).
func (l LCG) State() uint32 { return l.s }

// SourceUnits appends to buf the indexes into p.Units of the game's source
// for seed: units[out_i mod len(units)] for i = 0 .. SourceLength-1.
func SourceUnits(p *Problem, seed uint32, buf []int) []int {
	if len(p.Units) == 0 {
		return buf
	}
	l := NewLCG(seed)
	for i := 0; i < p.SourceLength; i++ {
		buf = append(buf, int(l.Next())%len(p.Units))
	}
	return buf
}
