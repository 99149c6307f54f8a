package runtime

import (
	"fmt"
	"sync"
	"testing"
)

// An updated record becomes the newest: the eviction that follows takes
// the records stored before the update, not the updated one, and each
// update counts the new size only.
func TestHistoryUpdateKeepsTheRecordAsTheNewest(t *testing.T) {
	one := stored("r9", "", 10_000).Size()
	rt := newHistoryRuntime(100, 3*one+one/2)
	for i := range 3 {
		rt.Store(stored(fmt.Sprint("r", i), "", 10_000))
	}
	got, ok := rt.Update("r0", func(old Stored, maxBytes int64) Stored {
		if maxBytes != 3*one+one/2 {
			t.Errorf("update sees max bytes %d, want %d", maxBytes, 3*one+one/2)
		}
		return stored("r0", "", 10_000)
	})
	if !ok || got.StoredID() != "r0" {
		t.Fatalf("Update = %v, %v, want the new r0", got, ok)
	}
	if rt.historyBytes() != 3*one {
		t.Errorf("history bytes = %d, want %d", rt.historyBytes(), 3*one)
	}
	rt.Store(stored("r3", "", 10_000))
	if got, want := fmt.Sprint(keptIDs(rt)), "[r2 r0 r3]"; got != want {
		t.Errorf("kept %s, want %s (r1 is the oldest after r0's update)", got, want)
	}
}

// An update too large for the history by itself keeps the old record;
// nil keeps it too; an unknown ID is not updated.
func TestHistoryUpdateRefusals(t *testing.T) {
	rt := newHistoryRuntime(10, 64<<10)
	old := stored("c", "", 10)
	rt.Store(old)
	if got, ok := rt.Update("c", func(Stored, int64) Stored { return stored("c", "", 64<<10) }); ok || got != old {
		t.Errorf("an oversized update = %v, %v, want the old record and false", got, ok)
	}
	if got, ok := rt.Update("c", func(Stored, int64) Stored { return nil }); ok || got != old {
		t.Errorf("a nil update = %v, %v, want the old record and false", got, ok)
	}
	if got, ok := rt.Update("c", func(Stored, int64) Stored { return stored("other", "", 1) }); ok || got != old {
		t.Errorf("an update under another ID = %v, %v, want the old record and false", got, ok)
	}
	if _, ok := rt.Update("nope", func(Stored, int64) Stored { return stored("nope", "", 1) }); ok {
		t.Error("an unknown record was updated")
	}
	if r, _ := rt.Lookup("c"); r != old {
		t.Errorf("after refused updates c = %v, want the old record", r)
	}
}

// Concurrent updates of one record serialize: none is lost.
func TestHistoryUpdatesDoNotLoseEachOther(t *testing.T) {
	rt := newHistoryRuntime(10, 1<<20)
	rt.Store(stored("c", "", 0))
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			rt.Update("c", func(old Stored, _ int64) Stored {
				return stored("c", "", len(old.(*record).payload)+1)
			})
		})
	}
	wg.Wait()
	if r, _ := rt.Lookup("c"); len(r.(*record).payload) != 50 {
		t.Errorf("after 50 updates the payload has %d bytes, want 50", len(r.(*record).payload))
	}
}

// Many updates of one record keep the storing order within a bound.
func TestHistoryOrderStaysBoundedUnderUpdates(t *testing.T) {
	rt := newHistoryRuntime(10, 1<<20)
	rt.Store(stored("a", "", 0))
	rt.Store(stored("c", "", 0))
	for range 1000 {
		rt.Update("c", func(Stored, int64) Stored { return stored("c", "", 0) })
	}
	rt.mu.Lock()
	n := len(rt.history.order)
	rt.mu.Unlock()
	if n > 2*2+16+1 {
		t.Errorf("order holds %d slots for 2 records", n)
	}
	if got, want := fmt.Sprint(keptIDs(rt)), "[a c]"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}
}

// Find looks at the newest records first.
func TestHistoryFindReturnsTheNewestMatch(t *testing.T) {
	rt := newHistoryRuntime(10, 1<<20)
	rt.Store(stored("a", "", 5))
	rt.Store(stored("b", "", 5))
	rt.Store(stored("c", "", 1))
	r, ok := rt.Find(func(s Stored) bool { return len(s.(*record).payload) == 5 })
	if !ok || r.StoredID() != "b" {
		t.Errorf("Find = %v, %v, want b", r, ok)
	}
	if _, ok := rt.Find(func(Stored) bool { return false }); ok {
		t.Error("Find matched nothing and reported a record")
	}
}
