package towers

// table maps 64-bit position keys to node indices: open addressing with
// linear probing, kept at most half full, a key and its value side by side
// (one cache line per probe). Key 0 marks an empty slot (a key that is 0
// is stored as 1; see slot).
type table struct {
	slots []tableSlot
	n     int
}

type tableSlot struct {
	key uint64
	val int32
}

func (t *table) reset() {
	if len(t.slots) == 0 {
		t.slots = make([]tableSlot, 1<<12)
	} else {
		clear(t.slots)
	}
	t.n = 0
}

func slot(k uint64) uint64 {
	if k == 0 {
		return 1
	}
	return k
}

// home is the first slot probed for k: the key's high bits (Zobrist keys
// are uniform already).
func (t *table) home(k uint64) uint64 { return (k >> 20) & uint64(len(t.slots)-1) }

// get returns the value stored for k.
func (t *table) get(k uint64) (int32, bool) {
	k = slot(k)
	mask := uint64(len(t.slots) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		switch t.slots[i].key {
		case k:
			return t.slots[i].val, true
		case 0:
			return 0, false
		}
	}
}

// put stores v for k.
func (t *table) put(k uint64, v int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	k = slot(k)
	mask := uint64(len(t.slots) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		switch t.slots[i].key {
		case k:
			t.slots[i].val = v
			return
		case 0:
			t.slots[i] = tableSlot{k, v}
			t.n++
			return
		}
	}
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]tableSlot, 2*len(old))
	t.n = 0
	for _, s := range old {
		if s.key != 0 {
			t.put(s.key, s.val)
		}
	}
}
