package openai

import (
	"strings"
	"testing"
)

func textItem(id string, n int) Item {
	return Item{Type: "message", ID: id, Role: "user", Content: []ItemPart{{Type: "input_text", Text: strings.Repeat("x", n)}}}
}

// A conversation's size counts every item and metadata entry it keeps.
func TestStoredConversationSizeCountsEveryItem(t *testing.T) {
	empty := &StoredConversation{ID: "conv_1", Metadata: map[string]string{}}
	one := empty.with([]Item{textItem("msg_1", 1000)})
	two := one.with([]Item{textItem("msg_2", 1000)})
	if d := two.Size() - one.Size(); d != one.Size()-empty.Size() || d < 1000 {
		t.Errorf("the second item adds %d bytes, the first %d; want the same, at least 1000", d, one.Size()-empty.Size())
	}
	tagged := two.withMetadata(map[string]string{"k": strings.Repeat("v", 500)})
	if d := tagged.Size() - two.Size(); d < 501 {
		t.Errorf("metadata of 501 bytes adds %d", d)
	}
}

// Changes make new conversations and leave the old one as it was: the
// history may still hand the old one to a reader.
func TestStoredConversationIsNeverChanged(t *testing.T) {
	items := make([]Item, 3, 4) // room to append in place
	items[0], items[1], items[2] = textItem("msg_1", 1), textItem("msg_2", 1), textItem("msg_3", 1)
	c := &StoredConversation{ID: "conv_1", Items: items}
	c.with([]Item{textItem("msg_4", 1)})
	c.without(0)
	c.withMetadata(map[string]string{"a": "b"})
	c.trimmedTo(0)
	if len(c.Items) != 3 || c.Items[0].ID != "msg_1" || c.Items[2].ID != "msg_3" || c.Metadata != nil {
		t.Errorf("the old conversation changed: %+v", c)
	}
	if w := c.with([]Item{textItem("msg_4", 1)}); &w.Items[0] == &c.Items[0] {
		t.Error("with appended into the old conversation's array")
	}
}

// trimmedTo drops the oldest items only, until the conversation fits.
func TestStoredConversationTrimsItsOldestItems(t *testing.T) {
	c := &StoredConversation{ID: "conv_1"}
	for _, id := range []string{"msg_1", "msg_2", "msg_3"} {
		c = c.with([]Item{textItem(id, 1000)})
	}
	fit := c.only(c.Items[1:]).Size()
	got := c.trimmedTo(fit)
	if len(got.Items) != 2 || got.Items[0].ID != "msg_2" || got.Size() > fit {
		t.Errorf("trimmed to %d bytes: %d items from %q, size %d", fit, len(got.Items), got.Items[0].ID, got.Size())
	}
	if c.trimmedTo(c.Size()) != c {
		t.Error("a conversation that fits was copied")
	}
}

// An input item without a type is an item reference when it carries an id
// and nothing of a message, and a message otherwise.
func TestUntypedInputItems(t *testing.T) {
	for body, want := range map[string]string{
		`{"id":"msg_1"}`: "item_reference",
		`{"id":"msg_1","role":"user","content":"Hi"}`: "message",
		`{"role":"user","content":"Hi"}`:              "message",
	} {
		it, err := decodeItem("input[0]", []byte(body))
		if err != nil || it.Type != want || (want == "item_reference" && it.ID != "msg_1") {
			t.Errorf("%s: %+v, %v; want type %s", body, it, err, want)
		}
	}
	if _, err := decodeItem("input[0]", []byte(`{"content":"Hi"}`)); err == nil {
		t.Error("a message without role was accepted")
	}
}

// The conversation errors in the API's words.
func TestConversationMessages(t *testing.T) {
	if e := ConversationNotFound("conv_x"); e.Status != 404 || e.Message != "Conversation with id 'conv_x' not found." || e.Param != "" || e.Code != "" {
		t.Errorf("ConversationNotFound = %+v", e)
	}
	if e := conversationExclusive(); e.Code != "mutually_exclusive_parameters" || e.Param != "" {
		t.Errorf("conversationExclusive = %+v", e)
	}
}
