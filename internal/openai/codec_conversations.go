package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// conversationsPath is the Conversations API's collection.
const conversationsPath = "/v1/conversations"

// conversationBody is the body of POST /v1/conversations (items and
// metadata, both optional), of POST /v1/conversations/{id} (metadata,
// required) and of POST /v1/conversations/{id}/items (items, required).
type conversationBody struct {
	Items    json.RawMessage   `json:"items"`
	Metadata map[string]string `json:"metadata"`
}

// readConversationBody decodes a conversations body; an empty one counts
// as {} (openai-go sends {} for New without params, other clients send
// nothing).
func readConversationBody(x *provider.Exchange) (*conversationBody, *Error) {
	body, err := x.ReadBody()
	if err != nil {
		return nil, err
	}
	var b conversationBody
	if len(strings.TrimSpace(string(body))) == 0 {
		return &b, nil
	}
	if err := decodeBody(body, &b); err != nil {
		return nil, err
	}
	return &b, checkMetadata(b.Metadata)
}

// decodeItems reads items (an array of at most 20 input items, each
// checked as Responses input items are), resolves their item references
// and gives each item without an ID one, detached from the body.
func decodeItems(x *provider.Exchange, raw json.RawMessage) ([]Item, *Error) {
	if !present(raw) {
		return nil, nil
	}
	var elems []json.RawMessage
	if provider.JSONKind(raw) != "array" || json.Unmarshal(raw, &elems) != nil {
		return nil, InvalidType("items", "an array", describeJSONValue(provider.JSONKind(raw)))
	}
	if len(elems) > maxConversationItems {
		return nil, itemsTooLong("items", maxConversationItems, len(elems))
	}
	r := &ResponsesRequest{items: make([]Item, 0, len(elems))}
	for i, data := range elems {
		it, err := decodeItem(fmt.Sprintf("items[%d]", i), data)
		if err != nil {
			return nil, err
		}
		r.items = append(r.items, it)
	}
	items, err := ResolveReferences(x.Runtime, r.InputItems(func(prefix string) string {
		return x.Runtime.NewHexID(prefix, idLength)
	}), true)
	if err == nil {
		err = checkDuplicates("items", items)
	}
	if err != nil {
		return nil, err
	}
	return CloneItems(items), nil
}

// newConversationID returns "conv_" and 48 hex digits, drawn from the
// runtime's sequence of IDs.
func newConversationID(rt *runtime.Runtime) string {
	return rt.NewHexID("conv_", conversationIDLength)
}

// serveConversations serves POST /v1/conversations: a new conversation of
// the session, with its first items and metadata.
func serveConversations(x *provider.Exchange) provider.Response {
	b, err := readConversationBody(x)
	if err != nil {
		return provider.Response{Err: err}
	}
	items, err := decodeItems(x, b.Items)
	if err != nil {
		return provider.Response{Err: err}
	}
	c := &StoredConversation{ID: newConversationID(x.Runtime), CreatedAt: x.Runtime.Now().Unix(),
		Metadata: detachMetadata(b.Metadata), Items: items}
	if maxBytes := x.Runtime.Settings().HistoryMaxBytes; c.Size() > maxBytes {
		return provider.Response{Err: ConversationTooLarge(c.ID, "items", maxBytes)}
	}
	if !x.Runtime.Store(c) {
		// Only a session whose history.capacity is 0 keeps nothing; the
		// wording is this server's.
		return provider.Response{Err: invalidRequest(http.StatusBadRequest, "", "",
			"Conversations cannot be created: this session keeps no history (history.capacity 0).")}
	}
	return provider.Response{JSON: c.Object()}
}

// serveConversationByID serves the routes under /v1/conversations/{id}:
// retrieve, update and delete the conversation, and list, add, retrieve
// and delete its items.
func serveConversationByID(x *provider.Exchange) provider.Response {
	path := x.Request.URL.Path
	id, sub, _ := strings.Cut(strings.TrimPrefix(path, conversationsPath+"/"), "/")
	method := x.Request.Method
	route := func(allowed string, serve func() provider.Response) provider.Response {
		if !slices.Contains(strings.Split(allowed, ", "), method) {
			return provider.Response{Err: apierr.MethodNotAllowed(method, path, allowed)}
		}
		if _, ok := lookup[*StoredConversation](x.Runtime, id); !ok {
			return provider.Response{Err: ConversationNotFound(id)}
		}
		return serve()
	}
	switch itemID, deeper := strings.CutPrefix(sub, "items/"); {
	case id == "":
		return provider.Response{Err: apierr.RouteNotFound(method, path, "")}
	case sub == "":
		return route("GET, POST, DELETE", func() provider.Response { return serveConversation(x, id) })
	case sub == "items":
		return route("GET, POST", func() provider.Response { return serveConversationItems(x, id) })
	case deeper && itemID != "" && !strings.Contains(itemID, "/"):
		return route("GET, DELETE", func() provider.Response { return serveConversationItem(x, id, itemID) })
	default:
		return provider.Response{Err: apierr.RouteNotFound(method, path, "")}
	}
}

// serveConversation serves GET, POST (metadata) and DELETE of conversation id.
func serveConversation(x *provider.Exchange, id string) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		b, err := readConversationBody(x)
		if err != nil {
			return provider.Response{Err: err}
		}
		if b.Metadata == nil {
			return provider.Response{Err: MissingParameter("metadata")}
		}
		m := detachMetadata(b.Metadata)
		return updateConversation(x, id, "metadata", func(c *StoredConversation) *StoredConversation { return c.withMetadata(m) }, nil)
	case http.MethodDelete:
		if !x.Runtime.Forget(id) {
			return provider.Response{Err: ConversationNotFound(id)}
		}
		return provider.Response{JSON: &ConversationDeleted{ID: id, Object: "conversation.deleted", Deleted: true}}
	}
	c, ok := lookup[*StoredConversation](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ConversationNotFound(id)}
	}
	return provider.Response{JSON: c.Object()}
}

// serveConversationItems serves GET (a page of items) and POST (add items) of
// conversation id's items.
func serveConversationItems(x *provider.Exchange, id string) provider.Response {
	if x.Request.Method == http.MethodPost {
		b, err := readConversationBody(x)
		if err != nil {
			return provider.Response{Err: err}
		}
		if !present(b.Items) {
			return provider.Response{Err: MissingParameter("items")}
		}
		items, err := decodeItems(x, b.Items)
		if err != nil {
			return provider.Response{Err: err}
		}
		if c, ok := lookup[*StoredConversation](x.Runtime, id); ok {
			if err := checkDuplicates("items", append(slices.Clip(c.Items), items...)); err != nil {
				return provider.Response{Err: err}
			}
		}
		res := updateConversation(x, id, "items", func(c *StoredConversation) *StoredConversation { return c.with(items) }, items)
		if res.Err != nil {
			return res
		}
		return provider.Response{JSON: NewItemList(items, false)}
	}
	c, ok := lookup[*StoredConversation](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ConversationNotFound(id)}
	}
	return itemPage(x.Request, c.Items, "Invalid 'after': no item with id '%s' in this conversation.")
}

// serveConversationItem serves GET (the item) and DELETE (the conversation
// without it) of item itemID of conversation id.
func serveConversationItem(x *provider.Exchange, id, itemID string) provider.Response {
	c, ok := lookup[*StoredConversation](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ConversationNotFound(id)}
	}
	if x.Request.Method == http.MethodGet {
		i := c.item(itemID)
		if i < 0 {
			return provider.Response{Err: ConversationItemNotFound(itemID)}
		}
		return provider.Response{JSON: c.Items[i]}
	}
	var missing bool
	res := updateConversation(x, id, "", func(c *StoredConversation) *StoredConversation {
		i := c.item(itemID)
		if missing = i < 0; missing {
			return nil
		}
		return c.without(i)
	}, nil)
	if missing {
		return provider.Response{Err: ConversationItemNotFound(itemID)}
	}
	return res
}

// updateConversation stores what change makes of conversation id, atomically, and
// answers the conversation object; change returns nil to change nothing.
// added are the items change adds: when they alone would keep more than
// the history's max bytes they are refused (param names them) and nothing
// changes; when they fit only without the conversation's oldest items,
// those are dropped (trimmedTo).
func updateConversation(x *provider.Exchange, id, param string, change func(*StoredConversation) *StoredConversation, added []Item) provider.Response {
	var tooLarge bool
	var limit int64
	r, ok := x.Runtime.Update(id, func(old runtime.Stored, maxBytes int64) runtime.Stored {
		c, isConv := old.(*StoredConversation)
		if !isConv {
			return nil
		}
		if tooLarge, limit = added != nil && c.only(added).Size() > maxBytes, maxBytes; tooLarge {
			return nil
		}
		n := change(c)
		if n == nil {
			return nil
		}
		return n.trimmedTo(maxBytes)
	})
	c, isConv := r.(*StoredConversation)
	switch {
	case tooLarge:
		return provider.Response{Err: ConversationTooLarge(id, param, limit)}
	case !isConv:
		return provider.Response{Err: ConversationNotFound(id)}
	case !ok:
		return provider.Response{} // change made nothing; the caller answers
	}
	return provider.Response{JSON: c.Object()}
}
