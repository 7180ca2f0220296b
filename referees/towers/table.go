package towers

// table maps 64-bit position keys to node indices: open addressing with
// linear probing, kept at most half full. Key 0 marks an empty slot (a key
// that is 0 is stored as 1; see slot).
type table struct {
	keys []uint64
	vals []int32
	n    int
}

func (t *table) reset() {
	if len(t.keys) == 0 {
		t.keys = make([]uint64, 1<<12)
		t.vals = make([]int32, 1<<12)
	} else {
		clear(t.keys)
	}
	t.n = 0
}

func slot(k uint64) uint64 {
	if k == 0 {
		return 1
	}
	return k
}

// get returns the value stored for k.
func (t *table) get(k uint64) (int32, bool) {
	k = slot(k)
	mask := uint64(len(t.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> 20 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// put stores v for k.
func (t *table) put(k uint64, v int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	k = slot(k)
	mask := uint64(len(t.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> 20 & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			t.vals[i] = v
			return
		case 0:
			t.keys[i], t.vals[i] = k, v
			t.n++
			return
		}
	}
}

func (t *table) grow() {
	keys, vals := t.keys, t.vals
	t.keys = make([]uint64, 2*len(keys))
	t.vals = make([]int32, 2*len(keys))
	t.n = 0
	for i, k := range keys {
		if k != 0 {
			t.put(k, vals[i])
		}
	}
}
