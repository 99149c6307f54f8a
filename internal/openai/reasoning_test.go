package openai

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each family's default effort: medium before gpt-5.1, none from gpt-5.1
// on, high for the pro models; snapshots take their family's.
func TestDefaultEffort(t *testing.T) {
	for model, want := range map[string]string{
		"o3": "medium", "o4-mini": "medium", "o1": "medium", "gpt-5": "medium", "gpt-5-mini": "medium",
		"gpt-5-2025-08-07": "medium", "gpt-5-pro": "high", "gpt-5-pro-2025-10-06": "high",
		"gpt-5.1": "none", "gpt-5.1-2025-11-13": "none", "gpt-5.4-mini": "none", "gpt-6-sol": "none",
		"gpt-5.2-pro": "high", "gpt-5.10": "medium",
	} {
		assert.Equal(t, want, defaultEffort(model), model)
	}
	assert.Equal(t, "low", effectiveEffort("gpt-5.1", "low"), "a requested effort wins")
}

// The hidden reasoning rule: nothing for chat models and at effort none,
// and growing with the effort and the answer otherwise.
func TestReasoningRule(t *testing.T) {
	assert.Nil(t, reasoningRule("gpt-4.1-mini", ""), "a chat model")
	assert.Nil(t, reasoningRule("no-such-model", "high"))
	medium := reasoningRule("o3", "")
	require.NotNil(t, medium)
	assert.Equal(t, 64, medium(3))
	assert.Equal(t, 400, medium(100))
	assert.Equal(t, 800, reasoningRule("o3", "high")(100))
	assert.Zero(t, reasoningRule("o3", "none")(100))
	assert.Zero(t, reasoningRule("gpt-5", "minimal")(100))
	assert.Equal(t, 400, reasoningRule("o3", "extreme")(100), "an unknown effort counts as medium")
}

// Summary parts start at each blank line followed by a bold title.
func TestSummaryParts(t *testing.T) {
	assert.Nil(t, summaryParts(""))
	assert.Equal(t, []string{"just one\n\nparagraph"}, summaryParts("just one\n\nparagraph"))
	assert.Equal(t, []string{"**A**\n\nfirst", "**B**\n\nsecond **bold**"},
		summaryParts("**A**\n\nfirst\n\n**B**\n\nsecond **bold**"))
}

// Obfuscation pads a delta to 16 characters (to the next multiple of 16
// past that), from the alphabet of real ones, the same every time.
func TestObfuscation(t *testing.T) {
	for _, delta := range []string{"", "a", "Greetings", "执行", strings.Repeat("x", 16), strings.Repeat("y", 20)} {
		o := obfuscation("msg_1", 4, delta)
		n := utf8.RuneCountInString(delta + o)
		assert.Zero(t, n%16, "%q + %q", delta, o)
		assert.Greater(t, len(o), 0)
		assert.Empty(t, strings.Trim(o, obfuscationAlphabet))
		assert.Equal(t, o, obfuscation("msg_1", 4, delta))
	}
	assert.NotEqual(t, obfuscation("msg_1", 4, "a"), obfuscation("msg_1", 5, "a"))
}

// encrypted_content looks like a Fernet token and is deterministic.
func TestEncryptedContent(t *testing.T) {
	a := encryptedContent("rs_1", "thought")
	assert.True(t, strings.HasPrefix(a, "gAAAAAB"))
	assert.Equal(t, a, encryptedContent("rs_1", "thought"))
	assert.NotEqual(t, a, encryptedContent("rs_2", "thought"))
}

// The reasoning item: only for reasoning models at an effort other than
// none; summary parts only when a summary is asked for; encrypted_content
// only when include asks for it.
func TestNewResponseReasoning(t *testing.T) {
	ids := seqIDs()
	req := func(body string) *ResponsesRequest { return mustDecodeResponses(t, []byte(body)) }
	assert.Nil(t, newResponseReasoning(req(`{"model":"gpt-4.1","input":"x"}`), "gpt-4.1", "t", ids))
	assert.Nil(t, newResponseReasoning(req(`{"model":"gpt-5.1","input":"x","reasoning":{"effort":"none"}}`), "gpt-5.1", "t", ids))

	plain := newResponseReasoning(req(`{"model":"o3","input":"x"}`), "o3", "**A**\n\nthought", ids)
	require.NotNil(t, plain)
	assert.True(t, strings.HasPrefix(plain.ID, "rs_"))
	assert.Empty(t, plain.Summary)
	assert.Empty(t, plain.EncryptedContent)
	jsonEqual(t, "item", plain.item(false).Raw, `{"id":"`+plain.ID+`","type":"reasoning","content":[],"summary":[]}`)

	full := newResponseReasoning(req(`{"model":"o3","input":"x","store":false,"include":["reasoning.encrypted_content"],
		"reasoning":{"summary":"concise"}}`), "o3", "**A**\n\nthought", ids)
	require.NotNil(t, full)
	assert.Equal(t, []string{"**A**\n\nthought"}, full.Summary)
	jsonEqual(t, "item", full.item(false).Raw, `{"id":"`+full.ID+`","type":"reasoning","content":[],"encrypted_content":"`+
		full.EncryptedContent+`","summary":[{"type":"summary_text","text":"**A**\n\nthought"}]}`)
	jsonEqual(t, "added", full.item(true).Raw, `{"id":"`+full.ID+`","type":"reasoning","content":[],"encrypted_content":"`+
		full.EncryptedContent+`","summary":[]}`)
}

// stream_options.include_obfuscation false leaves the padding out; an
// explicit service tier shows in the snapshots as sent; a detached answer
// streams as the original did.
func TestResponsesStreamOptions(t *testing.T) {
	req := mustDecodeResponses(t, []byte(`{"model":"o3","input":"x","stream":true,"stream_options":{"include_obfuscation":false},
		"service_tier":"flex","reasoning":{"summary":"auto"}}`))
	a := testAnswer(req)
	a.Text, a.NoObfuscation, a.Effort = "one two", req.noObfuscation(), "medium"
	a.Reasoning = &ResponseReasoning{ID: "rs_1", Summary: []string{"thought"}}
	sse := a.Stream(words, 1)
	assert.NotContains(t, string(sse.Body), "obfuscation")
	evs := responseEvents(t, sse)
	assert.Contains(t, string(evs[0].raw), `"service_tier":"flex"`)
	assert.Contains(t, string(evs[len(evs)-1].raw), `"service_tier":"flex"`)
	assert.Contains(t, string(evs[len(evs)-1].raw), `"reasoning":{"effort":"medium","summary":"auto"}`)
	stored := a.Detach()
	stored.NoObfuscation = true // as a GET with include_obfuscation=false asks
	assert.Equal(t, string(sse.Body), string(stored.Stream(words, 1).Body), "the stored answer replays the same stream")

	auto := testAnswer(mustDecodeResponses(t, []byte(`{"model":"o3","input":"x"}`)))
	auto.Text = "hi"
	assert.Contains(t, string(auto.Stream(nil, 1).Event(0)), `"service_tier":"auto"`)
	assert.Contains(t, string(auto.Detach().Stream(nil, 1).Event(0)), `"service_tier":"auto"`)
	assert.Contains(t, string(auto.Stream(nil, 1).Body), `"obfuscation":"`)
}
