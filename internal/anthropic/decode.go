package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// DecodeOptions are what a decoding needs to know of the request beyond
// its body.
type DecodeOptions struct {
	// AllowUnknown accepts fields the field lists do not know (the session
	// option AllowUnknownParameters), naming them in Unknown, instead of
	// refusing them as the real API does.
	AllowUnknown bool
	// Beta takes the beta field lists and block and tool types: the
	// request came with an anthropic-beta header (the SDK's Beta service
	// sends its Betas there) or on ?beta=true (older SDKs' Beta service). The real API keys beta fields on the betas a
	// request asks for; either sign is taken as asking, so that no request
	// a beta client sends is refused for a field its beta allows.
	Beta bool
	// ResolveThread, when set, joins to a request that continues a
	// message thread the thread's system, tools and messages, before the
	// checks that look across messages run on the whole conversation;
	// it refuses a thread it cannot continue. Without it a continue
	// request is checked as it is.
	ResolveThread func(*MessagesRequest) *apierr.Error
}

// DecodeMessages decodes and validates a POST /v1/messages body with the
// GA field lists, refusing unknown fields (see DecodeMessagesWith).
func DecodeMessages(ctx context.Context, body []byte) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, false, DecodeOptions{})
}

// DecodeMessagesWith decodes and validates a POST /v1/messages body as the
// real API does before it looks at the model: the body's JSON and field
// types, no field the API does not know, model, max_tokens and messages
// present, roles, content blocks and their sources, tools, tool_choice,
// thinking and sampling, cache_control breakpoints, replayed thinking
// signatures, and every tool_use answered by a tool_result at the start of
// the next message (and no tool_result without its tool_use).
//
// Decoding stops, refused as a request whose client left, once ctx ends:
// a body of many blocks takes a while to read.
func DecodeMessagesWith(ctx context.Context, body []byte, opts DecodeOptions) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, false, opts)
}

// DecodeCountTokens decodes and validates a POST /v1/messages/count_tokens
// body with the GA field lists, refusing unknown fields (see
// DecodeCountTokensWith).
func DecodeCountTokens(ctx context.Context, body []byte) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, true, DecodeOptions{})
}

// DecodeCountTokensWith decodes and validates a POST
// /v1/messages/count_tokens body: the checks of DecodeMessagesWith, with
// the fields of MessageCountTokensParams, which has no max_tokens, stream,
// stop_sequences, metadata, service_tier nor sampling knobs.
func DecodeCountTokensWith(ctx context.Context, body []byte, opts DecodeOptions) (*MessagesRequest, *apierr.Error) {
	return decode(ctx, body, true, opts)
}

func decode(ctx context.Context, body []byte, count bool, opts DecodeOptions) (*MessagesRequest, *apierr.Error) {
	if !json.Valid(body) {
		var v any
		return nil, invalidBody(body, json.Unmarshal(body, &v))
	}
	var top map[string]json.RawMessage
	if provider.JSONKind(body) != "object" || json.Unmarshal(body, &top) != nil {
		// Valid JSON that is not an object (inferred wording).
		return nil, invalid("", "Input should be a valid dictionary or object to extract fields from")
	}
	r := &MessagesRequest{ctx: ctx, beta: opts.Beta}
	defer func() { r.ctx = nil }() // the request outlives its decoding
	steps := []func(map[string]json.RawMessage) *apierr.Error{r.decodeModel, r.decodeThread}
	if !count {
		steps = append(steps, r.decodeMaxTokens)
	}
	steps = append(steps, r.decodeMessages, r.decodeSystem, r.decodeTools, r.decodeToolChoice,
		r.decodeScalars, r.decodeSampling, r.decodeThinking, r.decodeOutputConfig, r.decodeTopCache, r.checkThreadFields)
	for _, step := range steps {
		if err := step(top); err != nil {
			return nil, err
		}
	}
	// Unknown fields are looked for once the known ones have decoded, as
	// pydantic reports an object's extra keys after its fields' errors.
	e := &extras{all: opts.AllowUnknown}
	specs[routeOf(opts.Beta, count)].walk(body, "", e)
	if len(e.paths) > 0 && !opts.AllowUnknown {
		return nil, fieldError(e.paths[0], "Extra inputs are not permitted")
	}
	r.Unknown = e.paths
	slices.Sort(r.Unknown)
	if r.Continues() && opts.ResolveThread != nil {
		if err := opts.ResolveThread(r); err != nil {
			return nil, err
		}
	}
	if err := r.validate(!count); err != nil {
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
	if len(items) == 0 && !r.Continues() {
		// A continue request may send no new message (the SDK's
		// planRequest sends an empty list then). Wording of a real report, cut short there; the rest is inferred.
		return invalid("messages", "messages: at least one message is required")
	}
	r.Messages = make([]Message, 0, len(items))
	blocks := r.messageBlocks()
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
		pos := blocks
		if role == "system" {
			pos = systemMessageBlocks // SystemMessageParam.Content is []TextBlockParam
		}
		msg.Content, msg.ContentString, err = decodeContent(r.ctx, path+".content", rawContent, pos)
		if err != nil {
			return err
		}
		r.Messages = append(r.Messages, msg)
	}
	return nil
}

// position is where a block sits, which decides the types it may have:
// the tags of its union, in the SDK's order, and whether the tag is part
// of the paths inside it (as in a discriminated union's errors,
// messages.1.content.0.thinking.cache_control; not in the system prompt's
// list of text blocks, system.1.cache_control.ephemeral.scope).
type position struct {
	tags   []string
	tagged bool
}

// The block types of each position, from the SDK's unions:
// ContentBlockParamUnion (and BetaContentBlockParamUnion) for a user or
// assistant message, ToolResultBlockParamContentUnion for a tool_result's
// content (no tool_result nests in another, so a body nests blocks two
// levels deep at most, and its decoding stays linear in its size), and
// text only in the system prompt and system-role messages. The refusal's
// wording, pydantic's for a tag outside a union, is inferred.
var (
	messageBlocks = position{tagged: true, tags: append([]string{"text", "image", "document", "thinking",
		"redacted_thinking", "tool_use", "tool_result"}, opaqueBlocks...)}
	betaMessageBlocks = position{tagged: true, tags: append(append([]string(nil), messageBlocks.tags...),
		betaOpaqueBlocks...)}
	toolResultBlocks    = position{tagged: true, tags: toolResultContent}
	systemBlocks        = position{tags: []string{"text"}}
	systemMessageBlocks = position{tagged: true, tags: []string{"text"}}
)

// toolResultContent are the block types a tool_result's content may hold.
var toolResultContent = []string{"text", "image", "search_result", "document", "tool_reference", "browser_state"}

func (r *MessagesRequest) messageBlocks() position {
	if r.beta {
		return betaMessageBlocks
	}
	return messageBlocks
}

// stopped refuses, as a request whose client left, the rest of a body's
// decoding once ctx has ended.
func stopped(ctx context.Context) *apierr.Error {
	if ctx.Err() != nil {
		return apierr.ClientClosed("The client closed the request while its body was decoded.")
	}
	return nil
}

// decodeContent reads a content that is a string or an array of blocks of
// pos's types. It stops at the first block of a type outside them, so a
// body of many unknown blocks costs one block's work past its parsing.
func decodeContent(ctx context.Context, path string, raw json.RawMessage, pos position) ([]Block, bool, *apierr.Error) {
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
			b, err := decodeBlock(ctx, fmt.Sprintf("%s.%d", path, i), item, pos)
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

// decodeBlock reads one content block of pos's types; types the server
// does not read are kept raw.
func decodeBlock(ctx context.Context, path string, raw json.RawMessage, pos position) (Block, *apierr.Error) {
	m, err := object(path, raw)
	if err != nil {
		return Block{}, err
	}
	t, err := tag(path, m, pos.tags...)
	if err != nil {
		return Block{}, err
	}
	in := path // the path of the block's fields
	if pos.tagged {
		in = path + "." + t
	}
	b := Block{Type: t, Raw: raw}
	if b.CacheControl, err = decodeCacheControl(in+".cache_control", m["cache_control"]); err != nil {
		return Block{}, err
	}
	switch t {
	case "text":
		b.Text, err = requiredStr(in+".text", m)
		b.plain = len(m) == 2 || len(m) == 3 && m["cache_control"] != nil
	case "thinking":
		if b.Text, err = requiredStr(in+".thinking", m); err == nil {
			b.Signature, err = requiredStr(in+".signature", m)
		}
	case "redacted_thinking":
		b.Data, err = requiredStr(in+".data", m)
	case "image":
		b.Source, err = decodeImageSource(in+".source", m)
	case "document":
		b.Source, err = decodeDocumentSource(in+".source", m)
	case "tool_use":
		err = b.decodeToolUse(in, m)
	case "tool_result":
		err = b.decodeToolResult(ctx, in, m)
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
		b.Content, b.ContentString, err = decodeContent(ctx, path+".content", c, toolResultBlocks)
	}
	return err
}

// decodeCacheControl reads an optional cache_control object, a union of
// one tag (ephemeral), which its fields' paths name.
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
		p := path + ".ephemeral.ttl"
		ttl, err := str(p, t)
		if err != nil {
			return nil, err
		}
		if err := literal(p, ttl, "5m", "1h"); err != nil {
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
		r.systemString = true
		return nil
	case "array":
		items, _ := list("system", raw)
		for i, item := range items {
			b, err := decodeBlock(r.ctx, fmt.Sprintf("system.%d", i), item, systemBlocks)
			if err != nil {
				return err
			}
			r.System = append(r.System, b)
		}
		return nil
	}
	return fieldError("system", "Input should be a valid string or a valid list of text blocks") // inferred
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
	// The SDK's ThinkingConfigParamUnion, in its order.
	t, err := tag("thinking", m, "enabled", "disabled", "between_tools", "adaptive")
	if err != nil {
		return err
	}
	r.Thinking = &Thinking{Type: t}
	if t == "enabled" || t == "adaptive" {
		// ThinkingConfigEnabledParam.Display and its adaptive twin.
		p := "thinking." + t + ".display"
		if r.Thinking.Display, err = optStr(p, m["display"]); err != nil {
			return err
		}
		if r.Thinking.Display != "" {
			if err := literal(p, r.Thinking.Display, "summarized", "omitted"); err != nil {
				return err
			}
		}
	}
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
