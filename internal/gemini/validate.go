package gemini

import (
	"fmt"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// Most candidates a request may ask for. The API documents no bound;
// eight is what its SDKs' docs give as the most (inferred), and it
// bounds the answer's size.
const maxCandidates = 8

// fieldError is the API's wording for a field the request gets wrong:
// "* GenerateContentRequest.<path>: <problem>\n", one line per problem
// (the API lists them all; this server names the first).
func fieldError(request, path, problem string) *apierr.Error {
	return invalid(path, "* %s.%s: %s\n", request, path, problem)
}

// validateContents checks the conversation as the API does: at least one
// content, each with parts, each part with a payload; roles user or model
// (none means user); and every turn of function responses right after a
// turn of as many function calls.
func validateContents(request string, contents []Content, required bool) *apierr.Error {
	if len(contents) == 0 {
		if !required {
			return nil
		}
		return fieldError(request, "contents", "contents is not specified")
	}
	for i := range contents {
		c := &contents[i]
		path := "contents[" + strconv.Itoa(i) + "]"
		switch c.Role {
		case "", "user", "model":
		default:
			return invalid(path+".role", "Please use a valid role: user, model.")
		}
		if len(c.Parts) == 0 {
			return fieldError(request, path+".parts", "contents.parts must not be empty.")
		}
		for j := range c.Parts {
			if err := validatePart(request, path+".parts["+strconv.Itoa(j)+"]", &c.Parts[j]); err != nil {
				return err
			}
		}
		if responses := countParts(c, func(p *Part) bool { return p.FunctionResponse != nil }); responses > 0 {
			calls := 0
			if i > 0 {
				calls = countParts(&contents[i-1], func(p *Part) bool { return p.FunctionCall != nil })
			}
			if calls == 0 {
				return invalid(path, "Please ensure that function response turn comes immediately after a function call turn.")
			}
			if calls != responses {
				return invalid(path, "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.")
			}
		}
	}
	return nil
}

func countParts(c *Content, is func(*Part) bool) int {
	n := 0
	for i := range c.Parts {
		if is(&c.Parts[i]) {
			n++
		}
	}
	return n
}

// validatePart checks that p holds a payload, and its bytes.
func validatePart(request, path string, p *Part) *apierr.Error {
	if p.Text == nil && p.InlineData == nil && p.FileData == nil && p.FunctionCall == nil && p.FunctionResponse == nil && !p.Thought {
		return fieldError(request, path+".data", "required oneof field 'data' must have one initialized field")
	}
	if p.ThoughtSignature != "" {
		if err := checkBytes(path+".thought_signature", p.ThoughtSignature); err != nil {
			return err
		}
	}
	if p.InlineData != nil {
		if err := checkBytes(path+".inline_data.data", p.InlineData.Data); err != nil {
			return err
		}
		if p.InlineData.MimeType == "" {
			return fieldError(request, path+".inline_data.mime_type", "mime_type is not specified")
		}
	}
	if p.FunctionCall != nil && p.FunctionCall.Name == "" {
		return fieldError(request, path+".function_call.name", "Name cannot be empty.")
	}
	if p.FunctionResponse != nil && p.FunctionResponse.Name == "" {
		return fieldError(request, path+".function_response.name", "Name cannot be empty.")
	}
	return nil
}

// validateGenerate checks what a generate request asks beyond its
// conversation, against the model when the catalog knows it.
func validateGenerate(r *GenerateRequest, info *ModelInfo) *apierr.Error {
	const request = "GenerateContentRequest"
	if err := validateContents(request, r.Contents, true); err != nil {
		return err
	}
	if r.SystemInstruction != nil {
		for j := range r.SystemInstruction.Parts {
			if r.SystemInstruction.Parts[j].Text == nil {
				return fieldError(request, "system_instruction.parts["+strconv.Itoa(j)+"]", "system_instruction takes text parts only")
			}
		}
	}
	for i := range r.Tools {
		for j, d := range r.Tools[i].FunctionDeclarations {
			if d.Name == "" {
				return fieldError(request, fmt.Sprintf("tools[%d].function_declarations[%d].name", i, j), "Name cannot be empty.")
			}
			if len(d.Parameters) > 0 && len(d.ParametersJSONSchema) > 0 {
				// Inferred: the declaration holds one schema or the other.
				return fieldError(request, fmt.Sprintf("tools[%d].function_declarations[%d].parameters", i, j),
					"parameters and parameters_json_schema cannot both be set")
			}
		}
	}
	if r.CachedContent != "" && (r.SystemInstruction != nil || len(r.Tools) > 0 || r.ToolConfig != nil) {
		return invalid("cachedContent", "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.\n\nProposed fix: move those values to CachedContent from GenerateContent request.")
	}
	return validateConfig(request, r.GenerationConfig, info)
}

// validateConfig checks generationConfig.
func validateConfig(request string, g *GenerationConfig, info *ModelInfo) *apierr.Error {
	if g == nil {
		return nil
	}
	if n := g.CandidateCount; n != nil && (*n < 1 || *n > maxCandidates) {
		// Inferred wording.
		return fieldError(request, "generation_config.candidate_count", fmt.Sprintf("must be between 1 and %d", maxCandidates))
	}
	if n := g.MaxOutputTokens; n != nil && info != nil && (*n < 1 || *n > info.OutputTokenLimit) {
		return invalid("generationConfig.maxOutputTokens",
			"Unable to submit request because it has a maxOutputTokens value of %d but the supported range is from 1 (inclusive) to %d (exclusive). Update the value and try again.",
			*n, info.OutputTokenLimit+1)
	}
	if t := g.Temperature; t != nil && (*t < 0 || *t > 2) {
		return invalid("generationConfig.temperature",
			"Unable to submit request because it has a temperature value of %g but the supported range is from 0 (inclusive) to 2.0001 (exclusive). Update the value and try again.", *t)
	}
	if len(g.StopSequences) > 5 {
		// The API takes at most five (its docs).
		return fieldError(request, "generation_config.stop_sequences", "at most 5 stop sequences are supported")
	}
	switch g.ResponseMimeType {
	case "", "text/plain", "application/json", "application/xml", "application/yaml", "text/x.enum":
	default:
		return fieldError(request, "generation_config.response_mime_type",
			"allowed mimetypes are `text/plain`, `application/json`, `application/xml`, `application/yaml` and `text/x.enum`.")
	}
	if len(g.ResponseSchema) > 0 && len(g.ResponseJSONSchema) > 0 {
		// Inferred wording: the API takes one schema or the other.
		return fieldError(request, "generation_config.response_schema", "response_schema and response_json_schema cannot both be set")
	}
	if (len(g.ResponseSchema) > 0 || len(g.ResponseJSONSchema) > 0) && g.ResponseMimeType != "application/json" && g.ResponseMimeType != "text/x.enum" {
		// Inferred wording.
		return fieldError(request, "generation_config.response_mime_type",
			"response_mime_type must be application/json or text/x.enum when a response schema is set")
	}
	if tc := g.ThinkingConfig; tc != nil && info != nil {
		if !info.Thinking && (tc.IncludeThoughts || tc.ThinkingBudget != nil && *tc.ThinkingBudget != 0 || tc.ThinkingLevel != "") {
			return fieldError(request, "generation_config.thinking_config", "Thinking is not supported by this model.")
		}
		if tc.ThinkingBudget != nil && tc.ThinkingLevel != "" {
			return fieldError(request, "generation_config.thinking_config",
				"You can only set only one of thinking budget and thinking level.")
		}
	}
	return nil
}
