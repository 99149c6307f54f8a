package openai

import (
	"strings"
	"testing"
)

func storedOf(id string, n int) *StoredResponse {
	input := []Item{{Type: "message", ID: "msg_" + id, Role: "user",
		Content: []ItemPart{{Type: "input_text", Text: strings.Repeat("x", n)}}}}
	answer := (&ResponseAnswer{ID: id, Model: "m", MessageID: "msg_out_" + id, Text: "ok"}).Detach()
	return &StoredResponse{ID: id, Input: input, Answer: answer}
}

func TestStoredResponseSizeCountsItsTexts(t *testing.T) {
	small, big := storedOf("a", 0), storedOf("a", 1<<20)
	if d := big.Size() - small.Size(); d != 1<<20 {
		t.Errorf("a 1 MiB input adds %d bytes to the size", d)
	}
	r := storedOf("a", 0)
	r.Answer = (&ResponseAnswer{ID: "a", Text: strings.Repeat("y", 1<<20),
		Request: &ResponsesRequest{Instructions: strings.Repeat("z", 1<<20)}, Instructions: strings.Repeat("z", 1<<20)}).Detach()
	if r.Size() < 3<<20 {
		t.Errorf("an answer of 1 MiB text and 1 MiB instructions (echoed) is sized %d", r.Size())
	}
	r.Before.SetSystem(strings.Repeat("s", 1<<20))
	if len(r.Before.System) != maxSummarySystem {
		t.Errorf("summary system text is %d bytes, want it clipped to %d", len(r.Before.System), maxSummarySystem)
	}
}
