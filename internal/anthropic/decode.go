package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// knownFields are the top-level fields the server reads or knowingly
// ignores (sampling knobs the v2 SDK no longer sends, and fields whose
// effect a fake has no use for); anything else lands in Unknown.
var knownFields = map[string]bool{
	"model": true, "max_tokens": true, "messages": true, "system": true, "tools": true,
	"tool_choice": true, "stop_sequences": true, "metadata": true, "thinking": true,
	"output_config": true, "service_tier": true, "cache_control": true, "stream": true,
	"temperature": true, "top_p": true, "top_k": true, "speed": true, "container": true,
	"inference_geo": true, "diagnostics": true,
}

// DecodeMessages decodes and validates a POST /v1/messages body as the real
// API does before it looks at the model: the body's JSON and field types,
// model, max_tokens and messages present, roles, content blocks, tools,
// tool_choice, thinking, cache_control breakpoints, and every tool_use
// answered by a tool_result in the next message (and no tool_result
// without its tool_use).
//
// Decoding stops, refused as a request whose client left, once ctx ends:
// a body of many blocks takes a while to read.
func DecodeMessages(ctx context.Context, body []byte) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, true)
}

// DecodeCountTokens decodes and validates a POST /v1/messages/count_tokens
// body: the same checks as DecodeMessages, except that max_tokens is not
// required.
func DecodeCountTokens(ctx context.Context, body []byte) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, false)
}

func decode(ctx context.Context, body []byte, messages bool) (*MessagesRequest, *apierr.Error) {
	if !json.Valid(body) {
		var v any
		return nil, invalidBody(body, json.Unmarshal(body, &v))
	}
	var top map[string]json.RawMessage
	if provider.JSONKind(body) != "object" || json.Unmarshal(body, &top) != nil {
		// Valid JSON that is not an object (inferred wording).
		return nil, invalid("", "Input should be a valid dictionary or object to extract fields from")
	}
	r := &MessagesRequest{ctx: ctx}
	defer func() { r.ctx = nil }() // the request outlives its decoding
	for k := range top {
		if !knownFields[k] {
			r.Unknown = append(r.Unknown, k)
		}
	}
	slices.Sort(r.Unknown)
	steps := []func(map[string]json.RawMessage) *apierr.Error{r.decodeModel}
	if messages {
		steps = append(steps, r.decodeMaxTokens)
	}
	steps = append(steps, r.decodeMessages, r.decodeSystem, r.decodeTools, r.decodeToolChoice,
		r.decodeScalars, r.decodeSampling, r.decodeThinking, r.decodeOutputConfig, r.decodeTopCache)
	for _, step := range steps {
		if err := step(top); err != nil {
			return nil, err
		}
	}
	if err := r.validate(messages); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *MessagesRequest) decodeModel(top map[string]json.RawMessage) *apierr.Error {
	raw, ok := top["model"]
	if !ok {
		return missing("model")
	}
	m, err := str("model", raw)
	r.Model = m
	return err
}

func (r *MessagesRequest) decodeMaxTokens(top map[string]json.RawMessage) *apierr.Error {
	raw, ok := top["max_tokens"]
	if !ok {
		return missing("max_tokens")
	}
	n, err := integer("max_tokens", raw)
	if err != nil {
		return err
	}
	if n < 0 {
		return fieldError("max_tokens", "Input should be greater than or equal to 0")
	}
	r.MaxTokens = &n
	return nil
}

var roles = []string{"user", "assistant", "system"}

func (r *MessagesRequest) decodeMessages(top map[string]json.RawMessage) *apierr.Error {
	raw, ok := top["messages"]
	if !ok {
		return missing("messages")
	}
	items, err := list("messages", raw)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		// Wording of a real report, cut short there; the rest is inferred.
		return invalid("messages", "messages: at least one message is required")
	}
	r.Messages = make([]Message, 0, len(items))
	for i, item := range items {
		if err := stopped(r.ctx); err != nil {
			return err
		}
		path := fmt.Sprintf("messages.%d", i)
		m, err := object(path, item)
		if err != nil {
			return err
		}
		rawRole, ok := m["role"]
		if !ok {
			return missing(path + ".role")
		}
		role, err := str(path+".role", rawRole)
		if err != nil {
			return err
		}
		// The v2 API (2026-10-21) also takes system-role messages; the
		// message lists all three roles (inferred).
		if err := literal(path+".role", role, roles...); err != nil {
			return err
		}
		rawContent, ok := m["content"]
		if !ok {
			return missing(path + ".content")
		}
		msg := Message{Role: role}
		msg.Content, msg.ContentString, err = decodeContent(r.ctx, path+".content", rawContent, nil)
		if err != nil {
			return err
		}
		r.Messages = append(r.Messages, msg)
	}
	return nil
}

// toolResultContent are the block types a tool_result's content may hold,
// in the order of anthropic-sdk-go's ToolResultBlockParamContentUnion
// (v2.15.0), which is how the API's discriminated union lists them: no
// tool_result nests in another, so a body can nest blocks two levels deep
// at most, and its decoding stays linear in its size. The refusal's
// wording, pydantic's for a tag outside a union, is inferred.
var toolResultContent = []string{"text", "image", "search_result", "document", "tool_reference", "browser_state"}

// stopped refuses, as a request whose client left, the rest of a body's
// decoding once ctx has ended.
func stopped(ctx context.Context) *apierr.Error {
	if ctx.Err() != nil {
		return apierr.ClientClosed("The client closed the request while its body was decoded.")
	}
	return nil
}

// systemContent are the block types a system prompt may hold.
var systemContent = []string{"text"}

// decodeContent reads a content that is a string or an array of blocks,
// of the types allowed when it names some (any type when nil).
func decodeContent(ctx context.Context, path string, raw json.RawMessage, allowed []string) ([]Block, bool, *apierr.Error) {
	switch provider.JSONKind(raw) {
	case "string":
		s, err := str(path, raw)
		if err != nil {
			return nil, false, err
		}
		return []Block{{Type: "text", Text: s, Raw: raw}}, true, nil
	case "array":
		items, err := list(path, raw)
		if err != nil {
			return nil, false, err
		}
		blocks := make([]Block, 0, len(items))
		for i, item := range items {
			if err := stopped(ctx); err != nil {
				return nil, false, err
			}
			b, err := decodeBlock(ctx, fmt.Sprintf("%s.%d", path, i), item, allowed)
			if err != nil {
				return nil, false, err
			}
			blocks = append(blocks, b)
		}
		return blocks, false, nil
	}
	// Pydantic reports both arms of the union; one line says it (inferred).
	return nil, false, fieldError(path, "Input should be a valid string or a valid list of content blocks")
}

// decodeBlock reads one content block of the types allowed (any when
// nil); types the server does not read are kept raw.
func decodeBlock(ctx context.Context, path string, raw json.RawMessage, allowed []string) (Block, *apierr.Error) {
	m, err := object(path, raw)
	if err != nil {
		return Block{}, err
	}
	t, err := tag(path, m, allowed...)
	if err != nil {
		return Block{}, err
	}
	b := Block{Type: t, Raw: raw}
	if b.CacheControl, err = decodeCacheControl(path+".cache_control", m["cache_control"]); err != nil {
		return Block{}, err
	}
	switch t {
	case "text":
		b.Text, err = requiredStr(path+".text", m)
		b.plain = len(m) == 2 || len(m) == 3 && m["cache_control"] != nil
	case "thinking":
		if b.Text, err = requiredStr(path+".thinking", m); err == nil {
			b.Signature, err = requiredStr(path+".signature", m)
		}
	case "redacted_thinking":
		b.Data, err = requiredStr(path+".data", m)
	case "image", "document":
		src, ok := m["source"]
		if !ok {
			return Block{}, missing(path + ".source")
		}
		if _, err := object(path+".source", src); err != nil {
			return Block{}, err
		}
		b.Source = src
	case "tool_use":
		err = b.decodeToolUse(path, m)
	case "tool_result":
		err = b.decodeToolResult(ctx, path, m)
	}
	if err != nil {
		return Block{}, err
	}
	return b, nil
}

func requiredStr(path string, m map[string]json.RawMessage) (string, *apierr.Error) {
	key := path[lastDot(path)+1:]
	raw, ok := m[key]
	if !ok {
		return "", missing(path)
	}
	return str(path, raw)
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

func (b *Block) decodeToolUse(path string, m map[string]json.RawMessage) *apierr.Error {
	var err *apierr.Error
	if b.ID, err = requiredStr(path+".id", m); err != nil {
		return err
	}
	if b.Name, err = requiredStr(path+".name", m); err != nil {
		return err
	}
	in, ok := m["input"]
	if !ok {
		return missing(path + ".input")
	}
	if _, err := object(path+".input", in); err != nil {
		return err
	}
	b.Input = in
	return nil
}

func (b *Block) decodeToolResult(ctx context.Context, path string, m map[string]json.RawMessage) *apierr.Error {
	var err *apierr.Error
	if b.ToolUseID, err = requiredStr(path+".tool_use_id", m); err != nil {
		return err
	}
	if b.IsError, err = optBool(path+".is_error", m["is_error"]); err != nil {
		return err
	}
	if c := m["content"]; !absent(c) {
		b.Content, b.ContentString, err = decodeContent(ctx, path+".content", c, toolResultContent)
	}
	return err
}

// decodeCacheControl reads an optional cache_control object.
func decodeCacheControl(path string, raw json.RawMessage) (*CacheControl, *apierr.Error) {
	if absent(raw) {
		return nil, nil
	}
	m, err := object(path, raw)
	if err != nil {
		return nil, err
	}
	if _, err := tag(path, m, "ephemeral"); err != nil {
		return nil, err
	}
	cc := &CacheControl{TTL: TTL5m}
	if t := m["ttl"]; !absent(t) {
		ttl, err := str(path+".ttl", t)
		if err != nil {
			return nil, err
		}
		if err := literal(path+".ttl", ttl, "5m", "1h"); err != nil {
			return nil, err
		}
		if ttl == "1h" {
			cc.TTL = TTL1h
		}
	}
	return cc, nil
}

func (r *MessagesRequest) decodeSystem(top map[string]json.RawMessage) *apierr.Error {
	raw := top["system"]
	switch provider.JSONKind(raw) {
	case "", "null":
		return nil
	case "string":
		s, _ := str("system", raw)
		r.System = []Block{{Type: "text", Text: s, Raw: raw}}
		return nil
	case "array":
		items, _ := list("system", raw)
		for i, item := range items {
			b, err := decodeBlock(r.ctx, fmt.Sprintf("system.%d", i), item, systemContent)
			if err != nil {
				return err
			}
			r.System = append(r.System, b)
		}
		return nil
	}
	return fieldError("system", "Input should be a valid string or a valid list of text blocks") // inferred
}

func (r *MessagesRequest) decodeTools(top map[string]json.RawMessage) *apierr.Error {
	raw := top["tools"]
	if absent(raw) {
		return nil
	}
	items, err := list("tools", raw)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("tools.%d", i)
		t, err := decodeTool(path, item)
		if err != nil {
			return err
		}
		if seen[t.Name] {
			return invalid("tools", "tools: Tool names must be unique.")
		}
		seen[t.Name] = true
		r.Tools = append(r.Tools, t)
	}
	return nil
}

func decodeTool(path string, raw json.RawMessage) (Tool, *apierr.Error) {
	m, err := object(path, raw)
	if err != nil {
		return Tool{}, err
	}
	t := Tool{Raw: raw}
	if t.Type, err = optStr(path+".type", m["type"]); err != nil {
		return Tool{}, err
	}
	if t.CacheControl, err = decodeCacheControl(path+".cache_control", m["cache_control"]); err != nil {
		return Tool{}, err
	}
	if t.Name, err = requiredStr(path+".name", m); err != nil {
		return Tool{}, err
	}
	if !t.Client() {
		return t, nil // a server tool: its other fields are the API's business
	}
	if !validToolName(t.Name) {
		return Tool{}, fieldError(path+".name", "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'")
	}
	if t.Description, err = optStr(path+".description", m["description"]); err != nil {
		return Tool{}, err
	}
	schema, ok := m["input_schema"]
	if !ok {
		return Tool{}, missing(path + ".input_schema")
	}
	if _, err := object(path+".input_schema", schema); err != nil {
		return Tool{}, err
	}
	t.InputSchema = schema
	return t, nil
}

func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (r *MessagesRequest) decodeToolChoice(top map[string]json.RawMessage) *apierr.Error {
	raw := top["tool_choice"]
	if absent(raw) {
		return nil
	}
	m, err := object("tool_choice", raw)
	if err != nil {
		return err
	}
	t, err := tag("tool_choice", m, "auto", "any", "tool", "none")
	if err != nil {
		return err
	}
	tc := &ToolChoice{Type: t}
	if t == "tool" {
		if tc.Name, err = requiredStr("tool_choice.tool.name", m); err != nil {
			return err
		}
	}
	if t != "none" {
		if tc.DisableParallelToolUse, err = optBool("tool_choice."+t+".disable_parallel_tool_use", m["disable_parallel_tool_use"]); err != nil {
			return err
		}
	}
	r.ToolChoice = tc
	return nil
}

func (r *MessagesRequest) decodeScalars(top map[string]json.RawMessage) *apierr.Error {
	var err *apierr.Error
	if r.Stream, err = optBool("stream", top["stream"]); err != nil {
		return err
	}
	if raw := top["stop_sequences"]; !absent(raw) {
		items, err := list("stop_sequences", raw)
		if err != nil {
			return err
		}
		r.StopSequences = make([]string, 0, len(items))
		for i, item := range items {
			s, err := str(fmt.Sprintf("stop_sequences.%d", i), item)
			if err != nil {
				return err
			}
			r.StopSequences = append(r.StopSequences, s)
		}
	}
	if raw := top["metadata"]; !absent(raw) {
		m, err := object("metadata", raw)
		if err != nil {
			return err
		}
		r.HasMetadata = true
		if r.UserID, err = optStr("metadata.user_id", m["user_id"]); err != nil {
			return err
		}
	}
	if raw := top["service_tier"]; !absent(raw) {
		if r.ServiceTier, err = str("service_tier", raw); err != nil {
			return err
		}
		if err := literal("service_tier", r.ServiceTier, "auto", "standard_only"); err != nil {
			return err
		}
	}
	return nil
}

func (r *MessagesRequest) decodeThinking(top map[string]json.RawMessage) *apierr.Error {
	raw := top["thinking"]
	if absent(raw) {
		return nil
	}
	m, err := object("thinking", raw)
	if err != nil {
		return err
	}
	t, err := tag("thinking", m, "enabled", "disabled", "adaptive")
	if err != nil {
		return err
	}
	r.Thinking = &Thinking{Type: t}
	if t != "enabled" {
		return nil
	}
	b, ok := m["budget_tokens"]
	if !ok {
		return missing("thinking.enabled.budget_tokens")
	}
	if r.Thinking.BudgetTokens, err = integer("thinking.enabled.budget_tokens", b); err != nil {
		return err
	}
	if r.Thinking.BudgetTokens < 1024 {
		return fieldError("thinking.enabled.budget_tokens", "Input should be greater than or equal to 1024")
	}
	return nil
}

func (r *MessagesRequest) decodeOutputConfig(top map[string]json.RawMessage) *apierr.Error {
	raw := top["output_config"]
	if absent(raw) {
		return nil
	}
	m, err := object("output_config", raw)
	if err != nil {
		return err
	}
	r.OutputConfig = raw
	f := m["format"]
	if absent(f) {
		return nil
	}
	fm, err := object("output_config.format", f)
	if err != nil {
		return err
	}
	if _, err := tag("output_config.format", fm, "json_schema"); err != nil {
		return err
	}
	s, ok := fm["schema"]
	if !ok {
		return missing("output_config.format.schema")
	}
	if _, err := object("output_config.format.schema", s); err != nil {
		return err
	}
	r.Format = s
	return nil
}

func (r *MessagesRequest) decodeTopCache(top map[string]json.RawMessage) *apierr.Error {
	cc, err := decodeCacheControl("cache_control", top["cache_control"])
	r.CacheControl = cc
	return err
}
