package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recordIDs(records []Stored) []string {
	var ids []string
	for _, r := range records {
		ids = append(ids, r.StoredID())
	}
	return ids
}

// Records lists the kept records oldest first, without the forgotten.
func TestRecordsListsTheKeptInStoringOrder(t *testing.T) {
	rt := newHistoryRuntime(3, 1<<20)
	for _, id := range []string{"a", "b", "c", "d"} {
		require.True(t, rt.Store(stored(id, "", 10)))
	}
	assert.Equal(t, []string{"b", "c", "d"}, recordIDs(rt.Records()))
	require.True(t, rt.Forget("c"))
	assert.Equal(t, []string{"b", "d"}, recordIDs(rt.Records()))
}

// Replace keeps the record's place, prices the new one, and evicts the
// oldest when the new one outgrows the max bytes, but never the replaced
// record itself: a replacement that cannot fit is refused.
func TestReplaceKeepsThePlaceAndTheBound(t *testing.T) {
	rt := newHistoryRuntime(10, 3000)
	for _, id := range []string{"a", "b", "c"} {
		require.True(t, rt.Store(stored(id, "", 100)))
	}
	before := rt.historyBytes()
	require.True(t, rt.Replace(stored("b", "", 300)))
	assert.Equal(t, before+200, rt.historyBytes())
	assert.Equal(t, []string{"a", "b", "c"}, recordIDs(rt.Records()))
	r, ok := rt.Lookup("b")
	require.True(t, ok)
	assert.Len(t, r.(*record).payload, 300)

	// b grows past what the bound leaves: the oldest, a, goes.
	require.True(t, rt.Replace(stored("b", "", 1500)))
	assert.Equal(t, []string{"b", "c"}, recordIDs(rt.Records()))
	assert.LessOrEqual(t, rt.historyBytes(), int64(3000))

	// c cannot outgrow what the bound leaves beside the records newer
	// than it (none): refused, and c stays as it was.
	size := rt.historyBytes()
	assert.False(t, rt.Replace(stored("c", "", 4000)))
	assert.Equal(t, []string{"b", "c"}, recordIDs(rt.Records()))
	assert.Equal(t, size, rt.historyBytes())
	r, ok = rt.Lookup("c")
	require.True(t, ok)
	assert.Len(t, r.(*record).payload, 100)

	// b grows so that it and c fill the bound: the older records go, but
	// never b; past that, it is refused.
	assert.False(t, rt.Replace(stored("b", "", 3000-int(stored("c", "", 100).Size())+1)))
	assert.Equal(t, []string{"b", "c"}, recordIDs(rt.Records()))

	assert.False(t, rt.Replace(stored("zz", "", 1)), "nothing to replace")
	assert.Equal(t, []string{"b", "c"}, recordIDs(rt.Records()))
}
