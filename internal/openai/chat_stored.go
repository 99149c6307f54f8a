package openai

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// What a stored chat completion costs beyond the bytes of its strings: the
// StoredChat and its answer, one stored message, one part or tool call of
// a message, one metadata entry. Rounded-up sizes of the Go values on
// 64-bit platforms, plus the record's map entry and place in the storing
// order, so that Size is an upper bound of what the history keeps.
const (
	storedChatOverhead  = 768
	storedMsgOverhead   = 256
	storedPartOverhead  = 192
	storedCallOverhead  = 160
	storedChatMetaEntry = metadataOverhead
)

// StoredChat is one chat completion kept in the runtime's history because
// its request said store:true: the answer it rendered, the request's
// messages and its metadata, all copied so that the record references
// nothing of the request or its body. It shares the history, and so the
// history's bounds, with the Responses API's stored responses.
type StoredChat struct {
	// Answer is the answer as it was rendered, detached from the request.
	Answer ChatAnswer
	// RequestModel is the model the request named (the answer's may be a
	// scenario's override).
	RequestModel string
	// Messages are the request's messages, each with its ID.
	Messages []StoredChatMessage
	// Metadata is the request's metadata, or what an update set since.
	Metadata map[string]string
}

// StoredID implements runtime.Stored.
func (c *StoredChat) StoredID() string { return c.Answer.ID }

// PreviousID implements runtime.Stored: a chat completion continues none.
func (c *StoredChat) PreviousID() string { return "" }

// Size implements runtime.Stored: an upper bound of the bytes c keeps, its
// answer, messages and metadata with the values that hold them.
func (c *StoredChat) Size() int64 {
	a := &c.Answer
	n := int64(storedChatOverhead + len(a.ID) + len(a.Model) + len(a.Text) + len(a.Refusal) +
		len(a.FinishReason) + len(c.RequestModel))
	for _, tc := range a.ToolCalls {
		n += int64(storedCallOverhead + len(tc.ID) + len(tc.Name) + len(tc.Arguments))
	}
	for i := range c.Messages {
		n += c.Messages[i].size()
	}
	for k, v := range c.Metadata {
		n += int64(storedChatMetaEntry + len(k) + len(v))
	}
	return n
}

// withMetadata returns a copy of c with metadata in place of its own: the
// history's records are shared, so an update stores a new one.
func (c *StoredChat) withMetadata(metadata map[string]string) *StoredChat {
	u := *c
	u.Metadata = cloneMetadata(metadata)
	return &u
}

// Object renders c as GET /v1/chat/completions/{id} answers it: the
// completion as it was answered, with its metadata. Its logprobs are cut
// into tokens anew until ctx, the retrieval's, ends.
func (c *StoredChat) Object(ctx context.Context) *StoredChatCompletion {
	a := c.Answer
	if a.Logprobs != nil {
		a.Split = tokens.Splitter(ctx, c.RequestModel)
	}
	return &StoredChatCompletion{completion: a.Completion(), metadata: c.Metadata}
}

// newStoredChat keeps what retrieval needs of a completion answered to req:
// the answer, with N choices alike as they were rendered, the messages with
// IDs "<completion id>-<index>" and the metadata. The form of the message
// IDs is inferred (the API reference's example, as remembered, lists the
// messages of chatcmpl-… as chatcmpl-…-0, …; not seen in a real body).
func newStoredChat(req *ChatRequest, a *ChatAnswer) *StoredChat {
	c := &StoredChat{Answer: *a, RequestModel: strings.Clone(req.Model), Metadata: cloneMetadata(req.Metadata)}
	c.Answer.ID, c.Answer.Model = strings.Clone(a.ID), strings.Clone(a.Model)
	c.Answer.Text, c.Answer.Refusal = strings.Clone(a.Text), strings.Clone(a.Refusal)
	c.Answer.FinishReason, c.Answer.ServiceTier = strings.Clone(a.FinishReason), strings.Clone(a.ServiceTier)
	if a.Logprobs != nil {
		lp := *a.Logprobs
		c.Answer.Logprobs = &lp
	}
	// The request's split holds its context and ends with it: a retrieval
	// splits anew, within its own (see Object).
	c.Answer.Split = nil
	c.Answer.ToolCalls = make([]scenario.ToolCall, len(a.ToolCalls))
	for i, tc := range a.ToolCalls {
		c.Answer.ToolCalls[i] = scenario.ToolCall{ID: strings.Clone(tc.ID), Name: strings.Clone(tc.Name),
			Arguments: strings.Clone(tc.Arguments)}
	}
	c.Messages = make([]StoredChatMessage, len(req.Messages))
	for i := range req.Messages {
		c.Messages[i] = storedMessage(c.Answer.ID+"-"+strconv.Itoa(i), &req.Messages[i])
	}
	return c
}

func cloneMetadata(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.Clone(k)] = strings.Clone(v)
	}
	return out
}

// StoredChatCompletion is a stored completion on the wire: the completion
// object with the metadata the API adds to stored ones. It encodes the
// completion as ChatCompletion does, then metadata, so that whatever the
// completion renders the stored one renders too.
type StoredChatCompletion struct {
	completion *ChatCompletion
	metadata   map[string]string
}

// MarshalJSON implements json.Marshaler.
func (s *StoredChatCompletion) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := s.completion.WriteJSON(&buf); err != nil {
		return nil, err
	}
	meta := s.metadata
	if meta == nil {
		meta = map[string]string{}
	}
	m, err := plainjson.Marshal(meta)
	if err != nil {
		return nil, err
	}
	b := bytes.TrimRight(buf.Bytes(), " \n")
	b = append(b[:len(b)-1], `,"metadata":`...)
	return append(append(b, m...), '}'), nil
}

// StoredChatMessage is one message of a stored completion's request, as
// GET /v1/chat/completions/{id}/messages lists it. content_parts is the
// array a content was sent as, or null for a string content (as openai-go's
// ChatCompletionStoreMessage documents); content is the message's text, of
// its text parts for an array content (inferred: not documented).
type StoredChatMessage struct {
	ID           string           `json:"id"`
	Role         string           `json:"role"`
	Content      *string          `json:"content"`
	Name         *string          `json:"name"`
	ContentParts []ContentPart    `json:"content_parts"`
	Refusal      *string          `json:"refusal,omitempty"`
	ToolCalls    []StoredToolCall `json:"tool_calls,omitempty"`
	ToolCallID   string           `json:"tool_call_id,omitempty"`
	FunctionCall *FunctionCall    `json:"function_call,omitempty"`
}

// storedMessage copies m, with id, as a stored message.
func storedMessage(id string, m *ChatMessage) StoredChatMessage {
	s := StoredChatMessage{ID: id, Role: strings.Clone(m.Role), ToolCallID: strings.Clone(m.ToolCallID)}
	if !m.Content.Null {
		text := strings.Clone(m.Content.Text)
		s.Content = &text
	}
	if m.Name != "" {
		name := strings.Clone(m.Name)
		s.Name = &name
	}
	if r := m.Refusal + m.Content.Refusal; r != "" {
		r = strings.Clone(r) // a concatenation with "" is the other string
		s.Refusal = &r
	}
	if m.Content.Parts != nil {
		s.ContentParts = make([]ContentPart, len(m.Content.Parts))
		for i, p := range m.Content.Parts {
			s.ContentParts[i] = clonePart(p)
		}
	}
	for _, tc := range m.ToolCalls {
		c := StoredToolCall{ID: strings.Clone(tc.ID), Type: strings.Clone(tc.Type),
			Function: FunctionCall{Name: strings.Clone(tc.Function.Name), Arguments: strings.Clone(tc.Function.Arguments)}}
		if tc.Custom != nil {
			c.Custom = &CustomToolUse{Name: strings.Clone(tc.Custom.Name), Input: strings.Clone(tc.Custom.Input)}
		}
		s.ToolCalls = append(s.ToolCalls, c)
	}
	if f := m.FunctionCall; f != nil {
		s.FunctionCall = &FunctionCall{Name: strings.Clone(f.Name), Arguments: strings.Clone(f.Arguments)}
	}
	return s
}

// StoredToolCall is a tool call of a stored message: a request's ToolCall
// without the custom member of a function call.
type StoredToolCall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function FunctionCall   `json:"function"`
	Custom   *CustomToolUse `json:"custom,omitempty"`
}

func clonePart(p ContentPart) ContentPart {
	c := ContentPart{Type: strings.Clone(p.Type), Text: strings.Clone(p.Text), Refusal: strings.Clone(p.Refusal)}
	if p.ImageURL != nil {
		c.ImageURL = &ImageURL{URL: strings.Clone(p.ImageURL.URL), Detail: strings.Clone(p.ImageURL.Detail)}
	}
	if p.InputAudio != nil {
		c.InputAudio = &InputAudio{Data: strings.Clone(p.InputAudio.Data), Format: strings.Clone(p.InputAudio.Format)}
	}
	if p.File != nil {
		c.File = &FilePart{FileID: strings.Clone(p.File.FileID), FileData: strings.Clone(p.File.FileData),
			Filename: strings.Clone(p.File.Filename)}
	}
	return c
}

// size is an upper bound of the bytes m keeps.
func (m *StoredChatMessage) size() int64 {
	n := int64(storedMsgOverhead + len(m.ID) + len(m.Role) + len(m.ToolCallID))
	for _, s := range []*string{m.Content, m.Name, m.Refusal} {
		if s != nil {
			n += int64(len(*s))
		}
	}
	for _, p := range m.ContentParts {
		n += int64(storedPartOverhead + len(p.Type) + len(p.Text) + len(p.Refusal))
		if p.ImageURL != nil {
			n += int64(len(p.ImageURL.URL) + len(p.ImageURL.Detail))
		}
		if p.InputAudio != nil {
			n += int64(len(p.InputAudio.Data) + len(p.InputAudio.Format))
		}
		if p.File != nil {
			n += int64(len(p.File.FileID) + len(p.File.FileData) + len(p.File.Filename))
		}
	}
	for _, tc := range m.ToolCalls {
		n += int64(storedCallOverhead + len(tc.ID) + len(tc.Type) + len(tc.Function.Name) + len(tc.Function.Arguments))
		if tc.Custom != nil {
			n += int64(len(tc.Custom.Name) + len(tc.Custom.Input))
		}
	}
	if f := m.FunctionCall; f != nil {
		n += int64(storedCallOverhead + len(f.Name) + len(f.Arguments))
	}
	return n
}

// StoredChatDeleted answers DELETE /v1/chat/completions/{id}.
type StoredChatDeleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// CursorList is the list envelope of the stored chat completions and
// their messages: openai-go's CursorPage reads data and has_more, and
// asks for the next page after the last element's id.
type CursorList[T any] struct {
	Object  string  `json:"object"`
	Data    []T     `json:"data"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
	HasMore bool    `json:"has_more"`
}

// newCursorList wraps one page in the list envelope.
func newCursorList[T any](page []T, more bool, id func(*T) string) *CursorList[T] {
	l := &CursorList[T]{Object: "list", Data: page, HasMore: more}
	if l.Data == nil {
		l.Data = []T{}
	}
	if len(page) > 0 {
		l.FirstID, l.LastID = nullable(id(&page[0])), nullable(id(&page[len(page)-1]))
	}
	return l
}

// StoredKind implements runtime.Described.
func (c *StoredChat) StoredKind() string { return "chat.completion" }

// StoredCreated implements runtime.Described.
func (c *StoredChat) StoredCreated() time.Time { return time.Unix(c.Answer.Created, 0).UTC() }
