package journal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/journal"
)

func messages(n, textBytes int) []journal.Message {
	out := make([]journal.Message, n)
	for i := range out {
		out[i] = journal.Message{Role: "user", Text: strings.Repeat("x", textBytes)}
	}
	out[n-1].Text = "last"
	return out
}

// An entry keeps the end of a long conversation: its last 128 messages,
// and of those the last that fit 64 KiB, counting what it leaves out.
func TestEntryKeepsTheLastMessages(t *testing.T) {
	for _, tc := range []struct {
		name                string
		n, textBytes        int
		wantKept, wantOmits int
	}{
		{"few and short", 10, 10, 10, 0},
		{"many and short", 200, 10, 128, 72},
		{"long ones", 300, 1 << 10, 64, 236},
		{"one huge one", 1, 1 << 20, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := journal.New(10, 1<<30)
			j.Record(journal.Entry{Request: journal.Request{Messages: messages(tc.n, tc.textBytes), OmittedMessages: 0}})
			e, _ := j.Last()
			require.Len(t, e.Request.Messages, tc.wantKept)
			assert.Equal(t, tc.wantOmits, e.Request.OmittedMessages)
			assert.Equal(t, "last", e.Request.Messages[len(e.Request.Messages)-1].Text, "the newest message is kept")
		})
	}
}

// Of a map larger than the list bound, an entry keeps the same keys every
// time: the first in sorted order.
func TestEntryKeepsTheFirstHeadersInOrder(t *testing.T) {
	headers := map[string]string{}
	for i := range 300 {
		headers[fmt.Sprintf("x-h-%03d", i)] = "v"
	}
	j := journal.New(10, 1<<30)
	j.Record(journal.Entry{Headers: headers})
	e, _ := j.Last()
	require.Len(t, e.Headers, 128)
	assert.Contains(t, e.Headers, "x-h-000")
	assert.Contains(t, e.Headers, "x-h-127")
	assert.NotContains(t, e.Headers, "x-h-128")
}
