package gemini

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// GenerateRequest is the body of generateContent and
// streamGenerateContent, normalized to camelCase (see fields.go).
type GenerateRequest struct {
	Contents          []Content         `json:"contents"`
	SystemInstruction *Content          `json:"systemInstruction"`
	Tools             []Tool            `json:"tools"`
	ToolConfig        *ToolConfig       `json:"toolConfig"`
	GenerationConfig  *GenerationConfig `json:"generationConfig"`
	CachedContent     string            `json:"cachedContent"`
	Labels            map[string]string `json:"labels"`
}

// Content is one turn of the conversation.
type Content struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one part of a content; it holds one payload.
type Part struct {
	Text             *string           `json:"text"`
	Thought          bool              `json:"thought"`
	ThoughtSignature string            `json:"thoughtSignature"`
	InlineData       *Blob             `json:"inlineData"`
	FileData         *FileData         `json:"fileData"`
	FunctionCall     *FunctionCall     `json:"functionCall"`
	FunctionResponse *FunctionResponse `json:"functionResponse"`
}

// Blob is inline media.
type Blob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

// FileData is a reference to uploaded media.
type FileData struct {
	MimeType string `json:"mimeType"`
	FileURI  string `json:"fileUri"`
}

// FunctionCall is a call the model made, as the history sends it back.
type FunctionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// FunctionResponse is the result of a call.
type FunctionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// Tool is one tool entry: function declarations, or a built-in tool.
type Tool struct {
	FunctionDeclarations []FunctionDeclaration `json:"functionDeclarations"`
	GoogleSearch         json.RawMessage       `json:"googleSearch"`
	CodeExecution        json.RawMessage       `json:"codeExecution"`
	URLContext           json.RawMessage       `json:"urlContext"`
}

// FunctionDeclaration is a function offered to the model.
type FunctionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	Parameters           json.RawMessage `json:"parameters"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

// ToolConfig says how the model may call functions.
type ToolConfig struct {
	FunctionCallingConfig *struct {
		Mode                 string   `json:"mode"`
		AllowedFunctionNames []string `json:"allowedFunctionNames"`
	} `json:"functionCallingConfig"`
}

// GenerationConfig is the request's generationConfig.
type GenerationConfig struct {
	Temperature        *float64        `json:"temperature"`
	TopP               *float64        `json:"topP"`
	TopK               *int            `json:"topK"`
	CandidateCount     *int            `json:"candidateCount"`
	MaxOutputTokens    *int            `json:"maxOutputTokens"`
	StopSequences      []string        `json:"stopSequences"`
	ResponseMimeType   string          `json:"responseMimeType"`
	ResponseSchema     json.RawMessage `json:"responseSchema"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	ThinkingConfig     *ThinkingConfig `json:"thinkingConfig"`
}

// ThinkingConfig is generationConfig.thinkingConfig.
type ThinkingConfig struct {
	IncludeThoughts bool   `json:"includeThoughts"`
	ThinkingBudget  *int   `json:"thinkingBudget"`
	ThinkingLevel   string `json:"thinkingLevel"`
}

// decodeBody reads body as the message m into out: an empty body is the
// empty message (genai sends none for a call without contents or
// config), anything else must be one JSON object of m's fields.
func decodeBody(ctx context.Context, body []byte, m *message, out any) *apierr.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return invalidJSON(jsonProblem(err))
	}
	if dec.More() {
		return invalidJSON("Unexpected token after the end of the JSON object.")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return invalidJSON(fmt.Sprintf("Unknown name %s: Root element must be a message.", shown(v)))
	}
	if ctx.Err() != nil {
		return apierr.ClientClosed("The client closed the request before its body was read.")
	}
	norm, err := normalizeMessage(obj, m, "")
	if err != nil {
		return err
	}
	raw, merr := json.Marshal(norm)
	if merr == nil {
		merr = json.Unmarshal(raw, out)
	}
	if merr != nil {
		// normalize checked every typed field's kind: nothing should be
		// left to refuse here.
		return invalidJSON(merr.Error())
	}
	return nil
}

// jsonProblem words a syntax error as the transcoder does, roughly: it
// names what it met and where.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("Unexpected token at byte %d.", syntax.Offset)
	}
	return "Unexpected end of string."
}

// checkBytes refuses a bytes field that is not base64, as the transcoder
// does; both alphabets are accepted, as proto3 JSON parsers accept them.
func checkBytes(path, s string) *apierr.Error {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if _, err := enc.DecodeString(s); err == nil {
			return nil
		}
	}
	return invalid(path, "Invalid value at '%s' (TYPE_BYTES), Base64 decoding failed for %q", path, truncated(s))
}

func truncated(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// textOf joins the text parts of c that are not thoughts.
func textOf(c *Content) string {
	var texts []string
	for i := range c.Parts {
		p := &c.Parts[i]
		if p.Text != nil && !p.Thought {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n")
}
