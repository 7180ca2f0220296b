package brew

// JavaRandom reproduces java.util.Random bit for bit: a 48-bit linear
// congruential generator seeded from a signed 64-bit value. The game uses it
// only to shuffle its two decks.
type JavaRandom struct {
	state uint64
}

const (
	javaMult = 0x5DEECE66D
	javaAdd  = 0xB
	javaMask = 1<<48 - 1
)

// NewJavaRandom returns the generator java.util.Random(seed) would be. Only
// the low 48 bits of seed matter.
func NewJavaRandom(seed int64) JavaRandom {
	return JavaRandom{state: (uint64(seed) ^ javaMult) & javaMask}
}

// Next advances the generator and returns its top bits (1..32) as Java's
// protected next(bits) does, including the sign of a 32-bit result.
func (r *JavaRandom) Next(bits uint) int32 {
	r.state = (r.state*javaMult + javaAdd) & javaMask
	return int32(int64(r.state) >> (48 - bits))
}

// NextInt returns a value in [0, n) exactly as Random.nextInt(n). n must be
// positive; otherwise it returns 0 without advancing (Java would throw).
func (r *JavaRandom) NextInt(n int32) int32 {
	if n <= 0 {
		return 0
	}
	bits := r.Next(31)
	m := n - 1
	if n&m == 0 {
		return int32((int64(n) * int64(bits)) >> 31)
	}
	for {
		val := bits % n
		if bits-val+m >= 0 { // int32 wrap-around is the rejection test
			return val
		}
		bits = r.Next(31)
	}
}

// ShuffleBytes permutes s in place as Collections.shuffle(list, rnd) does.
func (r *JavaRandom) ShuffleBytes(s []uint8) {
	for i := len(s); i > 1; i-- {
		j := r.NextInt(int32(i))
		s[i-1], s[j] = s[j], s[i-1]
	}
}
