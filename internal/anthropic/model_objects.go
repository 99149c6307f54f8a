package anthropic

import (
	"time"
)

// Lifecycle stages of the models API (ModelInfo.Lifecycle).
const (
	lifecycleActive     = "active"
	lifecycleDeprecated = "deprecated"
	lifecycleRetired    = "retired"
)

// LifecycleAt is m's lifecycle stage at now, the session's clock: retired
// once Retires has passed, deprecated once Deprecated has.
func (m ModelInfo) LifecycleAt(now time.Time) string {
	switch {
	case !m.Retires.IsZero() && !now.Before(m.Retires):
		return lifecycleRetired
	case !m.Deprecated.IsZero() && !now.Before(m.Deprecated):
		return lifecycleDeprecated
	}
	return lifecycleActive
}

// RetiredAt reports whether the model id names is retired at now, when
// requests naming it answer 404 as the real API answers a retired model
// ("model: <id>", anthropics/anthropic-sdk-python#1597).
func RetiredAt(id string, now time.Time) bool {
	m, ok := Lookup(id)
	return ok && m.LifecycleAt(now) == lifecycleRetired
}

// modelObject is one element of the models API's data, with every field
// anthropic-sdk-go v2.17.0's ModelInfo requires.
type modelObject struct {
	Type           string        `json:"type"`
	ID             string        `json:"id"`
	DisplayName    string        `json:"display_name"`
	CreatedAt      string        `json:"created_at"`
	MaxInputTokens int           `json:"max_input_tokens"`
	MaxTokens      int           `json:"max_tokens"`
	Capabilities   *capabilities `json:"capabilities"`
	Lifecycle      string        `json:"lifecycle"`
	Line           *string       `json:"line"`
	DeprecatedAt   *string       `json:"deprecated_at"`
	RetiresAt      *string       `json:"retires_at"`
}

type support struct {
	Supported bool `json:"supported"`
}

// capabilities is ModelCapabilities. Which capabilities a model has is
// inferred from the model pages where the SDK does not say it: every
// current model takes batches, citations, code execution, context
// management, images, PDFs, server tools and structured outputs; effort
// came with Opus 4.5 and the 4.6 models (xhigh and max with Opus 4.7);
// thinking types follow the model's generation (model_rules.go).
type capabilities struct {
	Batch             support           `json:"batch"`
	Citations         support           `json:"citations"`
	CodeExecution     support           `json:"code_execution"`
	ContextManagement contextManagement `json:"context_management"`
	Effort            effort            `json:"effort"`
	ImageInput        support           `json:"image_input"`
	PDFInput          support           `json:"pdf_input"`
	ServerTools       serverTools       `json:"server_tools"`
	StructuredOutputs support           `json:"structured_outputs"`
	Thinking          thinkingSupport   `json:"thinking"`
}

type contextManagement struct {
	ClearThinking20251015 support `json:"clear_thinking_20251015"`
	ClearToolUses20250919 support `json:"clear_tool_uses_20250919"`
	Compact20260112       support `json:"compact_20260112"`
	Supported             bool    `json:"supported"`
}

type effort struct {
	High      support `json:"high"`
	Low       support `json:"low"`
	Max       support `json:"max"`
	Medium    support `json:"medium"`
	Supported bool    `json:"supported"`
	Xhigh     support `json:"xhigh"`
}

type serverTools struct {
	CodeExecution support `json:"code_execution"`
	Supported     bool    `json:"supported"`
	WebSearch     support `json:"web_search"`
}

type thinkingSupport struct {
	Supported bool          `json:"supported"`
	Types     thinkingTypes `json:"types"`
}

type thinkingTypes struct {
	Adaptive     support `json:"adaptive"`
	BetweenTools support `json:"between_tools"`
	Disabled     support `json:"disabled"`
	Enabled      support `json:"enabled"`
}

func capabilitiesOf(m ModelInfo) *capabilities {
	yes := support{true}
	enabled, adaptive := m.Generation.thinkingTypes()
	hasEffort := m.Generation != gen45 || m.Line == "opus"
	topEffort := m.Generation == genAdaptiveOnly || m.Generation == gen5
	return &capabilities{
		Batch: yes, Citations: yes, CodeExecution: yes, ImageInput: yes, PDFInput: yes, StructuredOutputs: yes,
		ContextManagement: contextManagement{ClearThinking20251015: yes, ClearToolUses20250919: yes,
			Compact20260112: support{m.Generation != gen45}, Supported: true},
		Effort: effort{High: support{hasEffort}, Low: support{hasEffort}, Medium: support{hasEffort},
			Max: support{hasEffort && m.Generation != gen45}, Xhigh: support{topEffort}, Supported: hasEffort},
		ServerTools: serverTools{CodeExecution: yes, WebSearch: yes, Supported: true},
		Thinking: thinkingSupport{Supported: true, Types: thinkingTypes{Adaptive: support{adaptive},
			BetweenTools: support{adaptive}, Disabled: yes, Enabled: support{enabled}}},
	}
}

func rfc3339(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.Format(time.RFC3339)
	return &s
}

// modelFor is the object of the model id names at now.
func modelFor(id string, now time.Time) modelObject {
	m, ok := Lookup(id)
	if !ok {
		// An allow-listed model the catalog does not know: listed under its
		// own name, with the epoch the API uses for unknown dates, and
		// nothing said of its capabilities.
		return modelObject{Type: "model", ID: id, DisplayName: id, CreatedAt: time.Unix(0, 0).UTC().Format(time.RFC3339),
			Capabilities: &capabilities{}, Lifecycle: lifecycleActive}
	}
	o := modelObject{Type: "model", ID: m.ID, DisplayName: m.DisplayName, CreatedAt: m.Created.Format(time.RFC3339),
		MaxInputTokens: m.ContextWindow, MaxTokens: m.MaxOutput, Capabilities: capabilitiesOf(m),
		Lifecycle: m.LifecycleAt(now), Line: &m.Line}
	// deprecated_at and retires_at are null while the model is active.
	if o.Lifecycle != lifecycleActive {
		o.DeprecatedAt, o.RetiresAt = rfc3339(m.Deprecated), rfc3339(m.Retires)
	}
	return o
}

// ModelObject is GET /v1/models/{id} at now: an alias resolves to its
// dated model.
func ModelObject(id string, now time.Time) any { return modelFor(id, now) }
