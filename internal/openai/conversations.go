package openai

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// conversationOverhead is what one stored conversation costs beyond its
// items and metadata: the StoredConversation, its map entry and its slot
// in the history's order.
const conversationOverhead = 512

// maxConversationItems bounds the items of one request of the
// Conversations API, as its reference documents it: "You may add up to 20
// items at a time" (on creation and on POST .../items). Its metadata has
// the bounds of checkMetadata.
const maxConversationItems = 20

// conversationIDLength is the length of the hex part of a conversation
// ID: real ones are "conv_" and 48 hex digits
// ("conv_68542dc602388199a30af27d040cefd4087a04b576bfeb24" in the API's
// migration guide).
const conversationIDLength = 48

// StoredConversation is one conversation of the Conversations API, kept in
// the runtime's history beside the stored responses, so that one bound
// (history.capacity and history.max_bytes) covers both and the session's
// reservation prices both. A stored conversation is never changed: adding
// or deleting items stores a new one under the same ID (runtime.Update),
// which shares the unchanged items.
type StoredConversation struct {
	// ID is "conv_" and 48 hex digits.
	ID string
	// CreatedAt is the creation time in Unix seconds, on the runtime's
	// clock.
	CreatedAt int64
	// Metadata is the caller's metadata, never nil.
	Metadata map[string]string
	// Items are the conversation's items, oldest first, each with its ID,
	// detached from the requests that brought them.
	Items []Item
}

// StoredID implements runtime.Stored.
func (c *StoredConversation) StoredID() string { return c.ID }

// PreviousID implements runtime.Stored: a conversation continues nothing.
func (c *StoredConversation) PreviousID() string { return "" }

// Size implements runtime.Stored: an upper bound of the bytes c keeps,
// every item included, so that a growing conversation counts against the
// history's max bytes as it grows.
func (c *StoredConversation) Size() int64 {
	n := int64(conversationOverhead+len(c.ID)) + ItemsSize(c.Items)
	for k, v := range c.Metadata {
		n += int64(metadataOverhead + len(k) + len(v))
	}
	return n
}

// with returns a copy of c with items added at its end; c is unchanged.
func (c *StoredConversation) with(items []Item) *StoredConversation {
	n := *c
	n.Items = append(slices.Clip(c.Items), items...)
	return &n
}

// without returns a copy of c without the item at index i.
func (c *StoredConversation) without(i int) *StoredConversation {
	n := *c
	n.Items = slices.Delete(slices.Clone(c.Items), i, i+1)
	return &n
}

// withMetadata returns a copy of c with its metadata replaced.
func (c *StoredConversation) withMetadata(m map[string]string) *StoredConversation {
	n := *c
	n.Metadata = m
	return &n
}

// only returns a copy of c that holds items and nothing else: what c
// would be at the least once items are added and its older ones dropped.
func (c *StoredConversation) only(items []Item) *StoredConversation {
	n := *c
	n.Items = items
	return &n
}

// trimmedTo drops the oldest items of c until it keeps at most maxBytes.
// The API keeps every item of a conversation; a session keeps at most its
// history's max bytes, and a conversation that outgrows them by itself
// loses its oldest items, as the history loses its oldest records. Input
// that cannot fit even alone is refused before it is added
// (ConversationTooLarge); a response's output is not known then, so a turn
// whose output alone outgrows the bound keeps only its newest items.
func (c *StoredConversation) trimmedTo(maxBytes int64) *StoredConversation {
	size := c.Size()
	drop := 0
	for size > maxBytes && drop < len(c.Items) {
		size -= ItemsSize(c.Items[drop : drop+1])
		drop++
	}
	if drop == 0 {
		return c
	}
	n := *c
	n.Items = slices.Clone(c.Items[drop:])
	return &n
}

// item returns the index of the item id, or -1.
func (c *StoredConversation) item(id string) int {
	return slices.IndexFunc(c.Items, func(it Item) bool { return it.ID == id })
}

// Conversation is the conversation object of the API
// (openai-go conversations.Conversation).
type Conversation struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	CreatedAt int64             `json:"created_at"`
	Metadata  map[string]string `json:"metadata"`
}

// Object renders c as the API's conversation object.
func (c *StoredConversation) Object() *Conversation {
	return &Conversation{ID: c.ID, Object: "conversation", CreatedAt: c.CreatedAt, Metadata: c.Metadata}
}

// ConversationDeleted is the body of DELETE /v1/conversations/{id}
// (openai-go conversations.ConversationDeletedResource).
type ConversationDeleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// ConversationNotFound answers a conversation the session does not keep,
// on the conversations routes and as the conversation of a Responses
// request: 404 with param and code null, as a probe of the live API
// recorded it ("Conversation with id 'conv_x' not found.").
func ConversationNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Conversation with id '%s' not found.", id)
}

// ConversationItemNotFound answers GET and DELETE of an item that the
// conversation does not hold. The wording follows the API's other "not
// found" errors; the real one for this route is inferred, not seen.
func ConversationItemNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Item with id '%s' not found.", id)
}

// ConversationTooLarge answers items that a conversation cannot take
// because they alone would keep more than the session's history may
// (history.max_bytes). The real API has no such bound; the wording is
// this server's, and names the setting to raise.
func ConversationTooLarge(id, param string, maxBytes int64) *Error {
	return invalidRequest(http.StatusBadRequest, "", param,
		"Conversation with id '%s' cannot take these items: they alone keep more than this session's history keeps (history.max_bytes %d). Raise the session's history.max_bytes.", id, maxBytes)
}

// itemsTooLong answers an array with more elements than param takes, in
// the API's words for array bounds (array_above_max_length); seen on other
// arrays, inferred for items.
func itemsTooLong(param string, maximum, got int) *Error {
	return invalidRequest(http.StatusBadRequest, "array_above_max_length", param,
		"Invalid '%s': array too long. Expected an array with maximum length %d, but got an array with length %d instead.", param, maximum, got)
}

// detachMetadata copies m's strings, so that a stored conversation keeps
// nothing of the request body; nil becomes empty, as the API answers {}.
func detachMetadata(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.Clone(k)] = strings.Clone(v)
	}
	return out
}

// StoredKind implements runtime.Described.
func (c *StoredConversation) StoredKind() string { return "conversation" }

// StoredCreated implements runtime.Described.
func (c *StoredConversation) StoredCreated() time.Time { return time.Unix(c.CreatedAt, 0).UTC() }
