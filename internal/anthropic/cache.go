package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// PromptPart is one block of the prompt in the order the API caches it:
// each tool, then each system block, then each message's content blocks.
// The prompt cache hashes the Keys of a prefix; the token count counts Text
// plus Tokens.
type PromptPart struct {
	// Key is the block's canonical JSON (its cache_control left out, keys
	// sorted, a string content spelled as a text block) after its section
	// and role, so that equal prefixes hash alike and a moved breakpoint
	// changes nothing.
	Key string
	// Text is what the tokenizer counts for the block.
	Text string
	// Tokens is a fixed count added for what has no text to count: images
	// and binary documents (see ImageTokens, DocumentTokens).
	Tokens int
	// Breakpoint reports a cache_control on the block (or the top-level
	// automatic breakpoint placed on it), and TTL its time to live.
	Breakpoint bool
	TTL        time.Duration
}

// Claude's tokenizer is not public, and images and PDFs are counted from
// their pixels and pages, which a fake does not decode. These stand-ins
// are what each counts, whatever its size: about what a 1.15-megapixel
// image costs (Anthropic's documented tokens = width*height/750), and the
// same for a PDF or other binary document, roughly one page.
const (
	ImageTokens    = 1600
	DocumentTokens = 1600
)

// maxBreakpoints is the most cache_control blocks a request may carry.
const maxBreakpoints = 4

// PromptParts lists the request's prompt parts, tools first, with its
// breakpoints; the top-level cache_control puts one on the last part.
// Decode has already refused breakpoints the API refuses.
func (r *MessagesRequest) PromptParts() []PromptPart {
	if r.parts == nil {
		r.parts, _ = r.promptParts()
	}
	return r.parts
}

// promptParts builds the parts and checks the breakpoints as the API does:
// at most four, valid TTL order (1h before 5m), and an automatic
// breakpoint that agrees with an explicit one on the same block.
func (r *MessagesRequest) promptParts() ([]PromptPart, *apierr.Error) {
	n := len(r.Tools) + len(r.System)
	for i := range r.Messages {
		n += len(r.Messages[i].Content)
	}
	parts := make([]PromptPart, 0, n)
	paths := make([]string, 0, n)
	// marks are the paths of every cache_control, in prompt order: a
	// tool_result's own and each of its content blocks' count alike, though
	// the cache sees one breakpoint at the result's end.
	var marks []string
	add := func(p PromptPart, path string) {
		parts = append(parts, p)
		paths = append(paths, path)
	}
	for i := range r.Tools {
		add(toolPart(&r.Tools[i]), fmt.Sprintf("tools.%d", i))
		if r.Tools[i].CacheControl != nil {
			marks = append(marks, fmt.Sprintf("tools.%d", i))
		}
	}
	for i := range r.System {
		add(blockPart("system", &r.System[i]), fmt.Sprintf("system.%d", i))
		if r.System[i].CacheControl != nil {
			marks = append(marks, fmt.Sprintf("system.%d", i))
		}
	}
	for i := range r.Messages {
		if r.ctx != nil {
			if err := stopped(r.ctx); err != nil {
				return nil, err
			}
		}
		m := &r.Messages[i]
		for k := range m.Content {
			b := &m.Content[k]
			path := fmt.Sprintf("messages.%d.content.%d", i, k)
			add(blockPart(m.Role, b), path)
			if b.CacheControl != nil {
				marks = append(marks, path)
			}
			if b.Type != "tool_result" {
				continue
			}
			for j := range b.Content {
				if b.Content[j].CacheControl != nil {
					marks = append(marks, fmt.Sprintf("%s.content.%d", path, j))
				}
			}
		}
	}
	if cc := r.CacheControl; cc != nil && len(parts) > 0 {
		last := len(parts) - 1
		switch {
		case !parts[last].Breakpoint:
			parts[last].Breakpoint, parts[last].TTL = true, cc.TTL
			paths[last] = "cache_control"
			marks = append(marks, "cache_control")
		case parts[last].TTL != cc.TTL:
			// Wording of a real report.
			return nil, invalid("cache_control", "Top-level cache_control has ttl='%s' but the target block already has cache_control with ttl='%s'",
				ttlName(cc.TTL), ttlName(parts[last].TTL))
		}
	}
	if len(marks) > maxBreakpoints {
		// The real API's wording.
		return nil, invalid(marks[maxBreakpoints], "A maximum of %d blocks with cache_control may be provided. Found %d.", maxBreakpoints, len(marks))
	}
	seen5m := false
	for i := range parts {
		if !parts[i].Breakpoint {
			continue
		}
		if parts[i].TTL == TTL1h && seen5m {
			path := paths[i] + ".ttl"
			if paths[i] != "cache_control" {
				path = paths[i] + ".cache_control.ttl"
			}
			// The real API's wording.
			return nil, invalid(path, "%s: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.", path)
		}
		seen5m = seen5m || parts[i].TTL == TTL5m
	}
	return parts, nil
}

func ttlName(d time.Duration) string {
	if d == TTL1h {
		return "1h"
	}
	return "5m"
}

func toolPart(t *Tool) PromptPart {
	p := PromptPart{Key: "tool:" + canonical(t.Raw)}
	if t.Client() {
		p.Text = t.Name + "\n" + t.Description + "\n" + compactJSON(t.InputSchema)
	} else {
		p.Text = canonical(t.Raw)
	}
	p.setBreakpoint(t.CacheControl)
	return p
}

func (p *PromptPart) setBreakpoint(cc *CacheControl) {
	if cc != nil {
		p.Breakpoint, p.TTL = true, cc.TTL
	}
}

func blockPart(section string, b *Block) PromptPart {
	p := PromptPart{Key: section + ":" + blockKey(b)}
	p.Text, p.Tokens = blockText(b)
	p.setBreakpoint(b.CacheControl)
	if b.Type == "tool_result" && !p.Breakpoint {
		// A breakpoint on a block of the result marks the result's end.
		for i := range b.Content {
			if cc := b.Content[i].CacheControl; cc != nil {
				p.setBreakpoint(cc)
				break
			}
		}
	}
	return p
}

// blockText is what the tokenizer counts for a block, and the fixed count
// added for what has no text (see PromptPart). A tool_result's is that of
// its content blocks, which hold no tool_result (see toolResultContent).
func blockText(b *Block) (text string, tokens int) {
	switch b.Type {
	case "text", "thinking":
		return b.Text, 0
	case "redacted_thinking":
		return "", 0
	case "tool_use":
		return b.Name + "\n" + compactJSON(b.Input), 0
	case "tool_result":
		texts := make([]string, 0, len(b.Content))
		for i := range b.Content {
			t, n := blockText(&b.Content[i])
			texts = append(texts, t)
			tokens += n
		}
		return strings.Join(texts, "\n"), tokens
	case "image":
		return "", ImageTokens
	case "document":
		var src struct {
			Type string `json:"type"`
			Data string `json:"data"`
		}
		if json.Unmarshal(b.Source, &src) == nil && src.Type == "text" {
			return src.Data, 0
		}
		return "", DocumentTokens
	}
	return canonical(b.Raw), 0
}

// blockKey is the canonical JSON of a block; a string content is keyed as
// the text block it stands for.
func blockKey(b *Block) string {
	if b.plain || provider.JSONKind(b.Raw) == "string" {
		return textKey(b.Text)
	}
	return canonical(b.Raw)
}

// textKey is the canonical JSON of a text block of nothing but text, as
// canonical would write it (sorted keys, the encoder's escaping) but
// without decoding the block again.
func textKey(text string) string {
	quoted, _ := json.Marshal(text) // a string always encodes
	return `{"text":` + string(quoted) + `,"type":"text"}`
}

// canonical re-encodes a JSON object with sorted keys and without its
// cache_control (nor those of a tool_result's content blocks).
func canonical(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "cache_control")
		if inner, ok := m["content"].([]any); ok {
			for _, c := range inner {
				if cm, ok := c.(map[string]any); ok {
					delete(cm, "cache_control")
				}
			}
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(out)
}
