package openai

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// POST /v1/responses/compact (openai-go's Responses.Compact) shrinks a
// conversation, given as input or as a previous_response_id chain, into
// the window a later request sends instead: the conversation's user
// messages, kept as they were, then one compaction item whose opaque
// encrypted_content stands for the rest (what compaction clients store,
// partment/opencode-openai-compact's v1.3.0 notes: "retained user
// messages followed by the encrypted compaction item"). The body is the
// Responses API's (ResponseCompactParams is a subset of it) and is
// checked as it is. Compaction is not a model turn that a scenario
// scripts: it takes no reply, and is journaled as a count is, with no
// endpoint. Its usage counts the conversation as input and the summary
// as output.

// compactTurn is one compaction request: the Responses turn of its body,
// whose count it renders as a CompactedResponse (answer.CountRenderer).
type compactTurn struct {
	*responsesTurn
}

var _ answer.CountRenderer = compactTurn{}

// decodeCompact is the answer.Decoder of POST /v1/responses/compact. Its
// items get IDs, as the compacted window's items have them.
func decodeCompact(x *provider.Exchange, body []byte) (answer.Turn, *apierr.Error) {
	turn, err := decodeResponsesTurn(x, body, func(prefix string) string { return x.Runtime.NewHexID(prefix, idLength) })
	if turn == nil {
		return nil, err
	}
	return compactTurn{turn.(*responsesTurn)}, err
}

// compactSummaryTokens is what the summary counts as output: the
// encrypted summary is not shown, so its size is the server's choice.
const compactSummaryTokens = 64

// compactedResponse is openai-go's CompactedResponse.
type compactedResponse struct {
	ID        string         `json:"id"`
	Object    string         `json:"object"`
	CreatedAt int64          `json:"created_at"`
	Output    []any          `json:"output"`
	Usage     ResponsesUsage `json:"usage"`
	Model     string         `json:"model,omitempty"`
}

// compactionItem is openai-go's ResponseCompactionItem.
type compactionItem struct {
	Type             string `json:"type"`
	ID               string `json:"id"`
	EncryptedContent string `json:"encrypted_content"`
}

// CountBody implements answer.CountRenderer: the compacted window of the
// conversation, n its input tokens.
func (t compactTurn) CountBody(n int) any {
	items := append(append([]Item(nil), t.chain.prior...), t.input...)
	out := make([]any, 0, len(items)+1)
	var summarized []string
	for _, it := range items {
		if it.Type == "message" && it.Role == "user" {
			out = append(out, it)
			continue
		}
		summarized = append(summarized, it.ID)
	}
	rt := t.x.Runtime
	out = append(out, compactionItem{Type: "compaction", ID: rt.NewHexID("cmp_", idLength),
		EncryptedContent: compactionContent(strings.Join(summarized, "\x00"))})
	return compactedResponse{ID: rt.NewHexID("resp_", idLength), Object: "response.compaction", CreatedAt: rt.Now().Unix(),
		Output: out, Model: t.req.Model,
		Usage: ResponsesUsage{InputTokens: n, OutputTokens: compactSummaryTokens, TotalTokens: n + compactSummaryTokens}}
}

// compactionContent is the encrypted_content of a compaction item: opaque
// to clients, and marked so that validCompaction knows it for the
// server's own when a later request sends it back.
func compactionContent(of string) string {
	sum := sha256.Sum256([]byte("llmtestserver compaction\x00" + of))
	return compactionPrefix + base64.RawURLEncoding.EncodeToString(append(compactionTag(sum[:]), sum[:]...))
}

// compactionPrefix starts every encrypted_content the server makes.
const compactionPrefix = "llmtest_cmp_"

func compactionTag(digest []byte) []byte {
	tag := sha256.Sum256(append([]byte("llmtestserver compaction tag\x00"), digest...))
	return tag[:16]
}

// validCompaction reports whether content is the encrypted_content of a
// compaction item the server made. The real API can read only its own
// ("Only the provider that produced a compaction item can read it",
// OpenRouter's compaction docs); that it answers another with 400
// invalid_request_error is inferred.
func validCompaction(content string) bool {
	rest, ok := strings.CutPrefix(content, compactionPrefix)
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(b) != 16+sha256.Size {
		return false
	}
	return string(b[:16]) == string(compactionTag(b[16:]))
}

// checkCompactions refuses an input compaction item whose encrypted_content
// the server did not make, naming it as the API names an input field.
func checkCompactions(items []Item) *Error {
	for i, it := range items {
		if it.Type != "compaction" {
			continue
		}
		var c struct {
			EncryptedContent string `json:"encrypted_content"`
		}
		if json.Unmarshal(it.Raw, &c) != nil || !validCompaction(c.EncryptedContent) {
			return invalidRequest(400, "invalid_encrypted_content", "input["+strconv.Itoa(i)+"].encrypted_content",
				"The encrypted content of the compaction item could not be verified.")
		}
	}
	return nil
}
