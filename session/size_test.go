package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Size is the length of the compact JSON encoding without HTML escaping:
// "<", ">" and "&" count one byte each, a literal backslash-u sequence in a
// text is not mistaken for an escape, and the separators of scenarios and
// replies are counted exactly.
func TestSizeIsTheCompactEncodingWithoutHTMLEscaping(t *testing.T) {
	cfg := DefaultConfig()
	cfg.APIKey = "a<b"
	cfg.Scenarios = []scenario.Scenario{
		{Name: "one", Match: scenario.UserContains("x&y"), Replies: []scenario.Reply{scenario.Text(`<>& \u003c "quoted"`), scenario.Refuse("no")}},
		{Name: "two", Replies: []scenario.Reply{scenario.Text("z")}, Repeat: true},
		{Name: "empty"},
	}
	b, err := json.Marshal(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	const htmlChars = 5 // "<" of the token, "&" of the match, "<>&" of the text, none in `\u003c`
	if got, want := cfg.Size(), int64(len(b)-5*htmlChars); got != want {
		t.Errorf("Size() = %d, want %d (encoding %s)", got, want, b)
	}
}

// A configuration holding Go functions is measured: its encodable parts,
// and each function at funcBytes.
func TestSizeCountsGoFunctions(t *testing.T) {
	plain := DefaultConfig()
	plain.Scenarios = []scenario.Scenario{{Name: "f", Match: scenario.All(scenario.Turn(1), scenario.Not(scenario.Turn(2))),
		Replies: []scenario.Reply{scenario.Text(strings.Repeat("x", 1000))}}}
	withFuncs := plain.clone()
	withFuncs.Scenarios[0].Match = scenario.All(scenario.Turn(1), scenario.Not(scenario.Func(func(*scenario.Request) bool { return true })))
	withFuncs.Scenarios[0].Replies = append(withFuncs.Scenarios[0].Replies, scenario.Respond(func(*scenario.Request) scenario.Reply { return scenario.Text("y") }))
	// The predicate replaces Turn(2) ("turn":2, 8 bytes, becomes {}), the
	// responder adds an empty reply and its separator.
	want := plain.Size() - int64(len(`"turn":2`)) + funcBytes + int64(len(`,{}`)) + funcBytes
	if got := withFuncs.Size(); got != want {
		t.Errorf("Size() with two Go functions = %d, want %d", got, want)
	}
}

// A session's builders and scenario posts price each step exactly as the
// whole configuration measures and reserves afterwards.
func TestScriptingPricesLikeTheWholeConfiguration(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Create(WithScenario(scenario.Scenario{Name: "configured", Replies: []scenario.Reply{scenario.Text("c")}}))
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		cfg, err := s.Config()
		if err != nil {
			t.Fatal(err)
		}
		m.mu.RLock()
		e := m.sessions[s.id]
		size, reservation, reserved := e.size, e.reservation, m.reserved-m.def.reservation
		m.mu.RUnlock()
		if size != cfg.Size() || reservation != cfg.Reservation() || reserved != reservation {
			t.Errorf("after %s: priced size %d, reservation %d (manager %d); the configuration measures %d and reserves %d",
				step, size, reservation, reserved, cfg.Size(), cfg.Reservation())
		}
	}
	check("creation")
	s.Chat("greeting").Responds("hello <there>").Then("again").Times(3)
	check("replies")
	s.Chat("greeting").When(scenario.UserRegex("^h.*")).Repeat()
	check("a narrowed match")
	s.Chat("convo").PerConversation()
	check("a scenario without replies, per conversation")
	s.Chat("convo").Reply(scenario.Fail(429, "rate_limit_exceeded", ""), scenario.Vectors([]float32{1, 2}))
	check("replies of a per-conversation scenario")
	if err := m.addScenarios(s.id, []scenario.Scenario{
		{Name: "configured", Match: scenario.Model("gpt-4o"), Replies: []scenario.Reply{scenario.Text("more")}, PerConversation: true},
		{Name: "posted", Replies: []scenario.Reply{scenario.Text("p")}},
	}); err != nil {
		t.Fatal(err)
	}
	check("a post")
	if err := m.addScenarios(s.id, []scenario.Scenario{{Name: "configured", Replies: []scenario.Reply{scenario.Text("flat")}}}); err != nil {
		t.Fatal(err)
	}
	check("a post that turns per_conversation off")
	s.Chat("convo").Responds("last")
	check("more replies")
}

// compactLen, the bound checked before a configuration is decoded, measures
// a document as the server writes it back once decoded, whichever escapes
// its sender chose: HTML escapes, every character escaped, whitespace.
func TestCompactLenMeasuresTheDocumentAsWrittenBack(t *testing.T) {
	texts := []string{
		"plain", `<a href="x">&amp;</a>`, "tab\tnew\nline\r\b\f\x01\x1f", `back\slash "quote"`,
		"é ü 日本 🦜", "\u2028\u2029", `\u003c literally`,
	}
	for _, text := range texts {
		doc := map[string]string{"text": text}
		written, err := plainjson.Marshal(doc)
		require.NoError(t, err)
		htmlEscaped, _ := json.MarshalIndent(doc, "", "  ")
		allEscaped := []byte(`{"text":"` + escapeEveryRune(text) + `"}`)
		for _, sent := range [][]byte{written, htmlEscaped, allEscaped} {
			assert.Equal(t, int64(len(written)), compactLen(sent), "text %q sent as %s", text, sent)
		}
	}
}

// escapeEveryRune writes s as a JSON string's contents with every
// character as \uXXXX, surrogate pairs beyond the basic plane.
func escapeEveryRune(s string) string {
	var b strings.Builder
	for _, r := range s {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}
