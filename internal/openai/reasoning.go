package openai

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// This file holds what makes a reasoning model (a catalog model of kind
// KindReasoning: the o-series and the gpt-5 family) answer as one, on both
// APIs: its effective reasoning effort, the reasoning tokens it spends, and
// the opaque strings the Responses API fills in (encrypted_content and
// the obfuscation padding of stream deltas).

// isReasoningModel reports whether model is a catalog reasoning model.
func isReasoningModel(model string) bool {
	info, ok := LookupModel(model)
	return ok && info.Kind == KindReasoning
}

// effortDefaults are the reasoning efforts of model families that do not
// default to medium, by the longest prefix of the model ID that is the
// family's ID followed by nothing, "-" or ".". OpenAI documents that
// gpt-5.1 defaults to none and that gpt-5-pro defaults to (and only
// supports) high, and that every model before gpt-5.1 defaults to medium.
// That later gpt-5.x models and the gpt-6 family default to none too is
// inferred: real 2026 bodies of gpt-5.4 and gpt-5.4-mini echo "none" for
// requests that sent no effort. The pro models after gpt-5-pro are
// inferred to default to high like it.
var effortDefaults = []struct{ family, effort string }{
	{"gpt-5-pro", "high"},
	{"gpt-5.1", "none"}, {"gpt-5.2", "none"}, {"gpt-5.3", "none"}, {"gpt-5.4", "none"},
	{"gpt-5.5", "none"}, {"gpt-5.6", "none"}, {"gpt-6", "none"},
	{"gpt-5.2-pro", "high"}, {"gpt-5.4-pro", "high"}, {"gpt-5.5-pro", "high"},
}

// defaultEffort is the reasoning effort model uses when a request names
// none: its family's (see effortDefaults), else medium.
func defaultEffort(model string) string {
	effort, longest := "medium", 0
	for _, d := range effortDefaults {
		rest, ok := strings.CutPrefix(model, d.family)
		if ok && len(d.family) > longest && (rest == "" || rest[0] == '-' || rest[0] == '.') {
			effort, longest = d.effort, len(d.family)
		}
	}
	return effort
}

// effectiveEffort is the effort a reasoning model answers a request with:
// the one requested, else the model's default.
func effectiveEffort(model, requested string) string {
	if requested != "" {
		return requested
	}
	return defaultEffort(model)
}

// hiddenReasoning is how many reasoning tokens a model spends, beyond a
// scripted Thinking, at each effort: the visible answer's output tokens
// times factor, and at least floor. The rule is this server's, chosen so
// that the counts grow with the effort and the answer and are never zero
// at the efforts models default to; real counts vary from request to
// request. none spends nothing (real bodies at effort none report 0), and
// so does minimal, as a real gpt-5-mini capture at minimal effort reported
// 0. An effort this table does not know counts as medium.
var hiddenReasoning = map[string]struct{ factor, floor int }{
	"none":    {0, 0},
	"minimal": {0, 0},
	"low":     {1, 16},
	"medium":  {4, 64},
	"high":    {8, 256},
	"xhigh":   {16, 512},
	"max":     {32, 1024},
}

// reasoningRule is the answer layer's rule (answer.Spec.Reasoning) for a
// model answering at effort: nil for a model that is no reasoning model,
// which spends no hidden reasoning tokens.
func reasoningRule(model, effort string) func(visible int) int {
	if !isReasoningModel(model) {
		return nil
	}
	r, ok := hiddenReasoning[effectiveEffort(model, effort)]
	if !ok {
		r = hiddenReasoning["medium"]
	}
	return func(visible int) int { return max(visible*r.factor, r.floor) }
}

// summaryParts cuts a reply's Thinking into the parts of a reasoning
// summary: a new part starts at each blank line followed by "**", as each
// part of a real summary opens with a bold title. An empty Thinking has no
// parts.
func summaryParts(thinking string) []string {
	if thinking == "" {
		return nil
	}
	var parts []string
	for {
		i := strings.Index(thinking, "\n\n**")
		if i < 0 {
			return append(parts, thinking)
		}
		parts = append(parts, thinking[:i])
		thinking = thinking[i+2:]
	}
}

// encryptedContent is the encrypted_content of reasoning item id of a
// response: opaque and deterministic. Real ones are Fernet tokens
// ("gAAAAAB" and URL-safe base64, a few hundred bytes and more); this one
// has their look and derives its bytes from the item ID and the
// reasoning's text, so equal answers carry equal content.
func encryptedContent(id, thinking string) string {
	seed := sha256.Sum256([]byte(id + "\x00" + thinking))
	raw := make([]byte, 0, 8*sha256.Size)
	for i := range 8 {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(i))
		block := sha256.Sum256(append(seed[:], n[:]...))
		raw = append(raw, block[:]...)
	}
	return "gAAAAAB" + base64.URLEncoding.EncodeToString(raw)
}
