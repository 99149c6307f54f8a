package anthropic

import (
	"bytes"
	"encoding/json"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// message is a Message as the API sends it, fields in the order of a
// direct-API capture (R3 of the December 2026 audit): container and
// stop_details are null unless set, and diagnostics, which only
// message_start carries (R2), is left out elsewhere.
type message struct {
	Model        string          `json:"model"`
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Role         string          `json:"role"`
	Content      []any           `json:"content"`
	Container    *struct{}       `json:"container"`
	StopReason   *string         `json:"stop_reason"`
	StopSequence *string         `json:"stop_sequence"`
	StopDetails  *stopDetails    `json:"stop_details"`
	Diagnostics  json.RawMessage `json:"diagnostics,omitempty"`
	// ContextManagement is the beta API's only (see response_beta.go).
	ContextManagement json.RawMessage `json:"context_management,omitempty"`
	Usage             usage           `json:"usage"`
}

// stopDetails is a refusal's RefusalStopDetails: its policy category
// (null unless scripted) and an explanation, the scripted refusal text.
type stopDetails struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation string  `json:"explanation"`
}

// refusalDetails is the stop_details of a refused answer, nil otherwise.
func refusalDetails(a *provider.Answer, category string) *stopDetails {
	if a.Refusal == "" {
		return nil
	}
	d := &stopDetails{Type: "refusal", Explanation: a.Refusal}
	if category != "" {
		d.Category = &category
	}
	return d
}

// outputDetails is usage.output_tokens_details: the thinking tokens among
// the output tokens (R2: message_delta's usage).
type outputDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

// outputDetailsOf is the output_tokens_details of u, sent when the answer
// reasoned (thinking shown, or reasoning tokens scripted).
func outputDetailsOf(u provider.Usage) *outputDetails {
	if u.Reasoning <= 0 {
		return nil
	}
	return &outputDetails{ThinkingTokens: u.Reasoning}
}

type usage struct {
	InputTokens              int            `json:"input_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	CacheCreation            cacheCreation  `json:"cache_creation"`
	OutputTokens             int            `json:"output_tokens"`
	OutputTokensDetails      *outputDetails `json:"output_tokens_details,omitempty"`
	ServerToolUse            *serverToolUse `json:"server_tool_use,omitempty"`
	ServiceTier              string         `json:"service_tier"`
	InferenceGeo             string         `json:"inference_geo"`
	// Iterations and FallbackCredit are the beta API's only (see
	// response_beta.go).
	Iterations     json.RawMessage `json:"iterations,omitempty"`
	FallbackCredit json.RawMessage `json:"fallback_credit,omitempty"`
}

type cacheCreation struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type toolUseBlock struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Caller caller          `json:"caller"`
}

// caller is a tool_use block's caller: the model itself (R2).
type caller struct {
	Type string `json:"type"`
}

var direct = caller{Type: "direct"}

// usageOf names the neutral counts Anthropic's way: input_tokens are only
// the uncached tokens after the last breakpoint.
func usageOf(u provider.Usage) usage {
	out := usage{
		InputTokens:              max(u.Input-u.CacheRead-u.CacheWrite, 0),
		CacheCreationInputTokens: u.CacheWrite,
		CacheReadInputTokens:     u.CacheRead,
		CacheCreation:            cacheCreation{Ephemeral5m: max(u.CacheWrite-u.CacheWrite1h, 0), Ephemeral1h: u.CacheWrite1h},
		OutputTokens:             u.Output,
		OutputTokensDetails:      outputDetailsOf(u),
		ServiceTier:              "standard",
		InferenceGeo:             "global", // R2, R3
	}
	return out
}

// stopReason is the finish kind in Anthropic's words, with the stop
// sequence the answer stopped at: a stop on one of the request's
// stop_sequences is "stop_sequence", and a refusal or a filtered answer is
// "refusal".
func stopReason(a *provider.Answer) (reason string, seq *string) {
	switch {
	case a.Refusal != "" || a.Finish == scenario.FinishRefusal || a.Finish == scenario.FinishContentFilter:
		return "refusal", nil
	case a.Finish == scenario.FinishLength:
		return "max_tokens", nil
	case a.Finish == scenario.FinishToolCalls:
		return "tool_use", nil
	case a.Finish == scenario.FinishPauseTurn:
		return "pause_turn", nil
	case a.Finish == scenario.FinishContextWindow:
		return "model_context_window_exceeded", nil
	case a.StopSequence != "":
		return "stop_sequence", &a.StopSequence
	case a.Finish == scenario.FinishStopSequence:
		// Scripted with no stop sequence in the request: none to name.
		return "stop_sequence", nil
	}
	return "end_turn", nil
}

// shownThinking is the thinking block's text: none when the request
// asked for thinking.display "omitted", whose blocks carry only their
// signature (the SDK's ThinkingConfigEnabledParam.Display doc).
func shownThinking(a *provider.Answer) string {
	if a.ThinkingOmitted {
		return ""
	}
	return a.Thinking
}

// visibleText is the text block's text: the answer's. A refusal shows no
// text of its own (public fixtures show content [] and the refusal in
// stop_details), only what was written before it.
func visibleText(a *provider.Answer) string { return a.Text }

// toolInput is a call's arguments as the input object: compact, and {}
// when empty or not an object.
func toolInput(args string) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) != nil || provider.JSONKind(b.Bytes()) != "object" {
		return json.RawMessage("{}")
	}
	return b.Bytes()
}

// NewMessage renders a as the JSON body of a non-streamed reply; category
// is a refusal's policy category ("" for none).
func NewMessage(a *provider.Answer, category string) any { return newMessage(a, category) }

func newMessage(a *provider.Answer, category string) message {
	reason, seq := stopReason(a)
	m := message{ID: a.ID, Type: "message", Role: "assistant", Model: a.Model, Content: []any{},
		StopReason: &reason, StopSequence: seq, StopDetails: refusalDetails(a, category), Usage: usageOf(a.Usage)}
	m.Usage.ServerToolUse = serverToolUseOf(a)
	if a.Thinking != "" {
		m.Content = append(m.Content, thinkingBlock{Type: "thinking", Thinking: shownThinking(a), Signature: a.ThinkingSignature})
	}
	m.Content = append(m.Content, leadingBlocks(a)...)
	if t := visibleText(a); t != "" && len(a.Citations) > 0 {
		m.Content = append(m.Content, citedTextBlock{Type: "text", Text: t, Citations: citationsOf(a)})
	} else if t != "" {
		m.Content = append(m.Content, textBlock{Type: "text", Text: t})
	}
	if a.Refusal == "" {
		for _, c := range a.ToolCalls {
			m.Content = append(m.Content, toolUseBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: toolInput(c.Arguments), Caller: direct})
		}
	}
	return m
}
