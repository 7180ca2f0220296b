package paperio

import "math/bits"

// MT is the Mersenne Twister MT19937 as CPython's random module uses it:
// the same seeding of integers (init_by_array over the 32-bit words of the
// absolute value), the same derived draws (getrandbits, randbelow, randint,
// choice, shuffle, random). The referee's only source of randomness.
//
// The zero value is not seeded; call Seed first. An MT is a plain value:
// copying it forks the stream.
type MT struct {
	state [624]uint32
	index int
}

// NewMT returns a generator seeded as Python's random.seed(seed).
func NewMT(seed int64) *MT {
	m := new(MT)
	m.Seed(seed)
	return m
}

func (m *MT) initGenrand(s uint32) {
	m.state[0] = s
	for i := 1; i < 624; i++ {
		prev := m.state[i-1]
		m.state[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	m.index = 624
}

// Seed seeds the generator as Python's random.seed(n) does for an int n:
// the key is the 32-bit little-endian words of |n| (a single word 0 for 0).
func (m *MT) Seed(n int64) {
	u := uint64(n)
	if n < 0 {
		u = uint64(-n) // also right for math.MinInt64
	}
	var key [2]uint32
	key[0] = uint32(u)
	key[1] = uint32(u >> 32)
	klen := 1
	if key[1] != 0 {
		klen = 2
	}
	m.seedArray(key[:klen])
}

// seedArray is the reference init_by_array.
func (m *MT) seedArray(key []uint32) {
	m.initGenrand(19650218)
	mt := &m.state
	i, j := 1, 0
	k := 624
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		prev := mt[i-1]
		mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			mt[0] = mt[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		prev := mt[i-1]
		mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			mt[0] = mt[623]
			i = 1
		}
	}
	mt[0] = 0x80000000
	m.index = 624
}

func (m *MT) twist() {
	mt := &m.state
	for i := 0; i < 624; i++ {
		y := (mt[i] & 0x80000000) | (mt[(i+1)%624] & 0x7fffffff)
		v := mt[(i+397)%624] ^ (y >> 1)
		if y&1 != 0 {
			v ^= 0x9908b0df
		}
		mt[i] = v
	}
	m.index = 0
}

// Uint32 returns the next raw 32-bit output (Python's getrandbits(32)).
func (m *MT) Uint32() uint32 {
	if m.index >= 624 {
		m.twist()
	}
	y := m.state[m.index]
	m.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns a float in [0, 1) as Python's random.random().
func (m *MT) Random() float64 {
	a := m.Uint32() >> 5
	b := m.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// Getrandbits returns k random bits, 0 < k <= 32, as Python does.
func (m *MT) Getrandbits(k int) uint32 {
	return m.Uint32() >> (32 - uint(k))
}

// Randbelow returns a uniform int in [0, n) by rejection sampling on
// bit_length(n) bits, as Python's _randbelow. n must be in [1, 2^31].
func (m *MT) Randbelow(n int) int {
	if n <= 0 {
		return 0
	}
	k := bits.Len(uint(n))
	for {
		r := int(m.Getrandbits(k))
		if r < n {
			return r
		}
	}
}

// Randint returns a uniform int in [a, b] as Python's random.randint.
func (m *MT) Randint(a, b int) int { return a + m.Randbelow(b-a+1) }

// Choice returns the index Python's random.choice would pick from a
// sequence of length n.
func (m *MT) Choice(n int) int { return m.Randbelow(n) }

// Shuffle permutes n items as Python's random.shuffle, calling swap(i, j)
// for each exchange.
func (m *MT) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := m.Randbelow(i + 1)
		swap(i, j)
	}
}
