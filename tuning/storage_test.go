package tuning

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"gauntlet/harness/store"
)

// TestStoreBeforeItsMarkIsRecognised makes a store with every table of the
// tuning storage, then clears its application_id as versions before it
// left it: the store is still opened, for reading without a write, and
// lists its studies (so every table tuning makes is declared to the
// harness, which refuses a database with tables it does not know).
func TestStoreBeforeItsMarkIsRecognised(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	url := "sqlite:" + path
	st, err := OpenStorage(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`PRAGMA application_id = 0`)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	list, err := ListStudies(ctx, url)
	if err != nil || len(list) != 0 {
		t.Fatalf("studies of an unmarked store: %v, %v", list, err)
	}
	st, err = OpenStorage(ctx, url)
	if err != nil {
		t.Fatalf("writing open of an unmarked store: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	hs, err := store.OpenReadOnly(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := hs.Close(); err != nil {
		t.Fatal(err)
	}
}
