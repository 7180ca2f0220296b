package owner

import "testing"

func TestParseStat(t *testing.T) {
	st, err := parseStat(7, []byte("7 (a (b) c) S 1 7 7 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 0 0"))
	if err != nil || st.State != 'S' || st.PPID != 1 || st.PGID != 7 || st.SID != 7 || st.Start != "12345" {
		t.Fatalf("%+v, %v", st, err)
	}
	if _, err := parseStat(7, []byte("7 (x) S 1")); err == nil {
		t.Error("short stat accepted")
	}
}
