package openai

import (
	"fmt"
	"net/http"
	"slices"
)

// chatKnobs are the sampling and output knobs of a chat request that only
// validation reads; DecodeChatRequest decodes them apart from ChatRequest.
type chatKnobs struct {
	Temperature      *float64 `json:"temperature"`
	TopP             *float64 `json:"top_p"`
	FrequencyPenalty *float64 `json:"frequency_penalty"`
	PresencePenalty  *float64 `json:"presence_penalty"`
	ReasoningEffort  *string  `json:"reasoning_effort"`
	Modalities       []string `json:"modalities"`
}

// decodeKnobs reads the knobs from the top-level members that carry them,
// without decoding the rest of the body again.
func decodeKnobs(body []byte) (*chatKnobs, *Error) {
	var k chatKnobs
	members := topMembers(body, "temperature", "top_p", "frequency_penalty", "presence_penalty", "reasoning_effort", "modalities")
	for _, f := range []struct {
		name string
		v    any
	}{
		{"temperature", &k.Temperature}, {"top_p", &k.TopP}, {"frequency_penalty", &k.FrequencyPenalty},
		{"presence_penalty", &k.PresencePenalty}, {"reasoning_effort", &k.ReasoningEffort}, {"modalities", &k.Modalities},
	} {
		if raw, ok := members[f.name]; ok {
			if err := decodeField(f.name, raw, f.v); err != nil {
				return nil, err
			}
		}
	}
	return &k, nil
}

// validateChatRules checks what DecodeChatRequest's other checks leave: the
// sampling knobs' ranges and the model's own rules, the output token
// limits, stream_options without stream, content part types and image
// URLs, structured outputs (strict schemas, the word json for json_object).
func (r *ChatRequest) validateChatRules(body []byte) *Error {
	k, err := decodeKnobs(body)
	if err != nil {
		return err
	}
	if k.ReasoningEffort != nil {
		r.reasoningEffort = *k.ReasoningEffort
	}
	r.temperature, r.topP = k.Temperature, k.TopP
	if r.StreamOptions != nil && !r.Stream {
		return invalidRequest(http.StatusBadRequest, "", "stream_options",
			"The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	for _, check := range []func() *Error{
		func() *Error { return decimalBounds("temperature", k.Temperature, 0, 2) },
		func() *Error { return decimalBounds("top_p", k.TopP, 0, 1) },
		func() *Error { return decimalBounds("frequency_penalty", k.FrequencyPenalty, -2, 2) },
		func() *Error { return decimalBounds("presence_penalty", k.PresencePenalty, -2, 2) },
		func() *Error { return integerAtLeast("max_tokens", r.MaxTokens, 1) },
		func() *Error { return integerAtLeast("max_completion_tokens", r.MaxCompletionTokens, 1) },
		func() *Error { return chatModelRules(r.Model, k, r.StopSequences()) },
		r.validateContentParts,
		r.validateStrictSchemas,
		r.validateJSONWord,
		func() *Error { return checkMetadata(r.Metadata) },
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// decimalBounds checks a number against the API's inclusive range, in its
// words: "Invalid 'temperature': decimal above maximum value. Expected a
// value <= 2, but got 3 instead." (the Responses API's wording; Chat
// Completions' is inferred to be the same).
func decimalBounds(param string, v *float64, lo, hi float64) *Error {
	switch {
	case v == nil:
		return nil
	case *v < lo:
		return invalidRequest(http.StatusBadRequest, "decimal_below_min_value", param,
			"Invalid '%s': decimal below minimum value. Expected a value >= %s, but got %s instead.", param, formatNumber(lo), formatNumber(*v))
	case *v > hi:
		return invalidRequest(http.StatusBadRequest, "decimal_above_max_value", param,
			"Invalid '%s': decimal above maximum value. Expected a value <= %s, but got %s instead.", param, formatNumber(hi), formatNumber(*v))
	}
	return nil
}

// integerAtLeast checks an optional integer's minimum (1 for max_tokens and
// max_completion_tokens, inferred from the API reference's "at least 1").
func integerAtLeast(param string, v *int64, minimum int64) *Error {
	if v != nil && *v < minimum {
		return integerBelow(param, minimum, *v)
	}
	return nil
}

// chatPartTypes are the content part types each role takes, in the order
// the API lists them. The real 2024 error listed 'text' and 'image_url' for
// a user message; that the list grew with input_audio and file, and the
// lists of the other roles, are inferred from the API reference.
var chatPartTypes = map[string][]string{
	"user":      {"text", "image_url", "input_audio", "file"},
	"assistant": {"text", "refusal"},
	"system":    {"text"},
	"developer": {"text"},
	"tool":      {"text"},
}

// validateContentParts checks each content part's type against its role,
// and each image_url's url.
func (r *ChatRequest) validateContentParts() *Error {
	for i, m := range r.Messages {
		allowed, ok := chatPartTypes[m.Role]
		if !ok {
			continue // function messages take a string; the decoder says so
		}
		for j, p := range m.Content.Parts {
			at := fmt.Sprintf("messages[%d].content[%d]", i, j)
			if !slices.Contains(allowed, p.Type) {
				return invalidValue(at+".type", p.Type, allowed)
			}
			switch p.Type {
			case "image_url":
				if p.ImageURL == nil {
					return MissingParameter(at + ".image_url")
				}
				if reason := badImageURL(p.ImageURL.URL); reason != "" {
					param := at + ".image_url.url"
					return invalidRequest(http.StatusBadRequest, "invalid_value", param,
						"Invalid image URL: '%s'. %s", param, reason)
				}
			case "text":
				// text is required; an empty one is allowed.
			}
		}
	}
	return nil
}

// validateJSONWord refuses json_object without the word "json" in any
// message, as the real API does (seen).
func (r *ChatRequest) validateJSONWord() *Error {
	if r.responseFormat == nil || r.responseFormat.Type != "json_object" {
		return nil
	}
	for _, m := range r.Messages {
		if mentionsJSON(m.Content.Text) {
			return nil
		}
	}
	return invalidRequest(http.StatusBadRequest, "", "messages",
		"'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")
}

// chatModelRules applies the model's rules to a chat request's sampling
// knobs:
//   - reasoning models take only the default temperature and top_p (1),
//     unless they answer at effort none (gpt-5.1 on, by default), where
//     OpenAI documents that sampling works as for other models:
//     "Unsupported value: 'temperature' does not support 0.5 with this
//     model. Only the default (1) value is supported.", code
//     unsupported_value (seen for temperature; top_p worded the same is
//     inferred);
//   - other models do not know reasoning_effort: the real API answers it
//     as an unknown argument (seen for gpt-4o-mini), unless it is null;
//   - audio in modalities needs an audio model (the wording is inferred);
//   - reasoning models before gpt-5.5 take no stop sequences (see
//     takesStop), nor an effort they do not take (checkEffort).
func chatModelRules(model string, k *chatKnobs, stops []string) *Error {
	info, ok := familyOf(model)
	if !ok {
		return nil
	}
	kind := info.Kind
	if len(stops) > 0 && !takesStop(info) {
		return unsupportedWithModel("stop")
	}
	requested := ""
	if k.ReasoningEffort != nil {
		requested = *k.ReasoningEffort
	}
	if kind == KindReasoning {
		if err := checkEffort(info, model, requested, false); err != nil {
			return err
		}
	}
	if kind == KindReasoning && effectiveEffort(info.ID, requested) != "none" {
		for _, p := range []struct {
			name string
			v    *float64
		}{{"temperature", k.Temperature}, {"top_p", k.TopP}} {
			if p.v != nil && *p.v != 1 {
				return invalidRequest(http.StatusBadRequest, "unsupported_value", p.name,
					"Unsupported value: '%s' does not support %s with this model. Only the default (1) value is supported.", p.name, formatNumber(*p.v))
			}
		}
	}
	if kind != KindReasoning && k.ReasoningEffort != nil {
		return invalidRequest(http.StatusBadRequest, "", "", "Unrecognized request argument supplied: reasoning_effort")
	}
	for _, m := range k.Modalities {
		if m == "audio" && !supportsAudio(model) {
			return invalidRequest(http.StatusBadRequest, "invalid_value", "modalities",
				"Invalid value: 'audio'. This model does not support audio output.")
		}
	}
	return nil
}

// validateStrictSchemas checks the strict response format and the strict
// function tools of a chat request.
func (r *ChatRequest) validateStrictSchemas() *Error {
	if rf := r.responseFormat; rf != nil && rf.Type == "json_schema" && rf.Strict && len(rf.Schema) > 0 {
		if err := strictSchemaError("response_format", rf.Name, "response_format", "", rf.Schema); err != nil {
			return err
		}
	}
	for i, t := range r.Tools {
		if f := t.Function; t.Type == "function" && f != nil {
			if err := strictToolError(f.Name, fmt.Sprintf("tools[%d].function.parameters", i), f.Strict, f.Parameters); err != nil {
				return err
			}
		}
	}
	return nil
}
