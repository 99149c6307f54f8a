package openai

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Stores reports whether the completion is to be stored: store defaults
// to false on Chat Completions, unlike the Responses API.
func (r *ChatRequest) Stores() bool { return r.Store != nil && *r.Store }

// ChatCompletionNotFound answers an ID that names no stored completion of
// the session: never stored (no store:true), deleted, or evicted by the
// history's bounds. The wording follows the Responses API's 404 ("Response
// with id '…' not found."); the real one for chat completions was not
// seen, only inferred.
func ChatCompletionNotFound(id string) *Error {
	return invalidRequest(http.StatusNotFound, "", "", "Chat completion with id '%s' not found.", id)
}

// serveChat is POST /v1/chat/completions on the core's pipeline.
var serveChat = answer.Serve(decodeChat)

// serveChatCompletions serves /v1/chat/completions: POST creates a
// completion, GET lists the stored ones. One route takes both methods, as
// the HTTP core routes by path first.
func serveChatCompletions(x *provider.Exchange) provider.Response {
	switch x.Request.Method {
	case http.MethodPost:
		return serveChat(x)
	case http.MethodGet:
		return listStoredChats(x)
	default:
		return provider.Response{Err: apierr.MethodNotAllowed(x.Request.Method, x.Request.URL.Path, "GET, POST")}
	}
}

// serveStoredChat serves GET, POST (update) and DELETE
// /v1/chat/completions/{id} and GET /v1/chat/completions/{id}/messages.
func serveStoredChat(x *provider.Exchange) provider.Response {
	rest := strings.TrimPrefix(x.Request.URL.Path, "/v1/chat/completions/")
	id, sub, _ := strings.Cut(rest, "/")
	method := x.Request.Method
	switch {
	case sub == "messages" && method == http.MethodGet:
		return listStoredMessages(x, id)
	case sub == "messages":
		return provider.Response{Err: apierr.MethodNotAllowed(method, x.Request.URL.Path, http.MethodGet)}
	case sub != "":
		return provider.Response{Err: apierr.RouteNotFound(method, x.Request.URL.Path, "")}
	case method == http.MethodGet:
		c, ok := lookup[*StoredChat](x.Runtime, id)
		if !ok {
			return provider.Response{Err: ChatCompletionNotFound(id)}
		}
		return provider.Response{JSON: c.Object(x.Ctx), Model: c.RequestModel}
	case method == http.MethodPost:
		return updateStoredChat(x, id)
	case method == http.MethodDelete:
		c, ok := lookup[*StoredChat](x.Runtime, id)
		if !ok || !x.Runtime.Forget(id) {
			return provider.Response{Err: ChatCompletionNotFound(id)}
		}
		return provider.Response{JSON: StoredChatDeleted{ID: id, Object: "chat.completion.deleted", Deleted: true}, Model: c.RequestModel}
	default:
		return provider.Response{Err: apierr.MethodNotAllowed(method, x.Request.URL.Path, "GET, POST, DELETE")}
	}
}

// chatUpdate is the body of POST /v1/chat/completions/{id}: metadata is
// all an update may change.
type chatUpdate struct {
	Metadata json.RawMessage `json:"metadata"`
}

// updateStoredChat replaces the metadata of a stored completion, answering
// the updated completion. metadata is required; null clears it (inferred:
// the API documents metadata as required and nullable).
func updateStoredChat(x *provider.Exchange, id string) provider.Response {
	body, err := x.ReadBody()
	if err != nil {
		return provider.Response{Err: err}
	}
	var u chatUpdate
	if err := decodeBody(body, &u); err != nil {
		return provider.Response{Err: err}
	}
	var metadata map[string]string
	switch k := provider.JSONKind(u.Metadata); k {
	case "":
		return provider.Response{Err: MissingParameter("metadata")}
	case "null":
	case "object":
		if err := decodeField("metadata", u.Metadata, &metadata); err != nil {
			return provider.Response{Err: err}
		}
	default:
		return provider.Response{Err: InvalidType("metadata", "an object", describeJSONValue(k))}
	}
	if err := checkMetadata(metadata); err != nil {
		return provider.Response{Err: err}
	}
	c, ok := lookup[*StoredChat](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ChatCompletionNotFound(id)}
	}
	updated := c.withMetadata(metadata)
	if !x.Runtime.Replace(updated) {
		if _, kept := lookup[*StoredChat](x.Runtime, id); kept {
			// The new metadata would not fit the history beside the
			// records stored after it: refused, and nothing changed.
			return provider.Response{Err: invalidRequest(http.StatusBadRequest, "", "metadata",
				"Chat completion '%s' with this metadata would not fit the session's history (history.max_bytes %d); nothing was changed.",
				id, x.Runtime.Settings().HistoryMaxBytes), Model: c.RequestModel}
		}
		return provider.Response{Err: ChatCompletionNotFound(id), Model: c.RequestModel} // deleted meanwhile
	}
	return provider.Response{JSON: updated.Object(x.Ctx), Model: c.RequestModel}
}

// listStoredChats serves GET /v1/chat/completions: the session's stored
// completions, oldest first by default, filtered by model (the one the
// request named, or the one the completion reports) and by every
// metadata[key]=value pair of the query.
func listStoredChats(x *provider.Exchange) provider.Response {
	q := x.Request.URL.Query()
	model := q.Get("model")
	p, err := readPageQuery(x.Request, false)
	if err != nil {
		return provider.Response{Err: err, Model: model}
	}
	want := map[string]string{}
	for key, values := range q {
		if k, ok := strings.CutPrefix(key, "metadata["); ok && strings.HasSuffix(k, "]") && len(values) > 0 {
			want[strings.TrimSuffix(k, "]")] = values[0]
		}
	}
	var list []*StoredChat
	for _, r := range x.Runtime.Records() {
		c, ok := r.(*StoredChat)
		if !ok || (model != "" && model != c.RequestModel && model != c.Answer.Model) || !hasMetadata(c.Metadata, want) {
			continue
		}
		list = append(list, c)
	}
	id := func(c **StoredChat) string { return (*c).Answer.ID }
	page, more, err := pageOf(list, id, p, "Invalid 'after': no chat completion with id '%s'.")
	if err != nil {
		return provider.Response{Err: err, Model: model}
	}
	objects := make([]*StoredChatCompletion, len(page))
	for i, c := range page {
		objects[i] = c.Object(x.Ctx)
	}
	return provider.Response{JSON: newCursorList(objects, more, func(o **StoredChatCompletion) string { return (*o).completion.ID }),
		Model: model}
}

// hasMetadata reports whether m has every pair of want.
func hasMetadata(m, want map[string]string) bool {
	for k, v := range want {
		if got, ok := m[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// listStoredMessages serves GET /v1/chat/completions/{id}/messages: the
// messages of the stored completion's request, in their order by default.
func listStoredMessages(x *provider.Exchange, id string) provider.Response {
	c, ok := lookup[*StoredChat](x.Runtime, id)
	if !ok {
		return provider.Response{Err: ChatCompletionNotFound(id)}
	}
	p, err := readPageQuery(x.Request, false)
	if err != nil {
		return provider.Response{Err: err, Model: c.RequestModel}
	}
	msgID := func(m *StoredChatMessage) string { return m.ID }
	page, more, err := pageOf(c.Messages, msgID, p, "Invalid 'after': no message with id '%s'.")
	if err != nil {
		return provider.Response{Err: err, Model: c.RequestModel}
	}
	return provider.Response{JSON: newCursorList(page, more, msgID), Model: c.RequestModel}
}
