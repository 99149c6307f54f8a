package goopenai_test

import (
	"reflect"
	"strings"
	"testing"

	catalog "github.com/llmtestserver/llmtestserver/internal/openai"
	goopenai "github.com/sashabaranov/go-openai"
)

// goFields walks a go-openai request type by reflection and calls visit
// with the path of every JSON field it can send; typ is the type member of
// the objects of t.
func goFields(t reflect.Type, typ string, path []catalog.ParamStep, seen map[reflect.Type]bool, visit func([]catalog.ParamStep)) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			// An untagged embedded struct's fields are the outer
			// object's, as encoding/json sends them.
			goFields(f.Type, typ, path, seen, visit)
			continue
		}
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		p := append(append([]catalog.ParamStep(nil), path...), catalog.ParamStep{Type: typ, Name: name})
		visit(p)
		goFields(f.Type, "", p, seen, visit)
	}
}

// Every field go-openai v1.43.0 can send in a chat completion or Responses
// request is a known parameter, nested ones included: messages (and the
// parts of MultiContent, which it sends as content), tool calls, tools,
// response formats, and the input items and parts of the Responses API,
// which CreateResponseRequest takes as any.
func TestGoOpenAIParamsAreKnown(t *testing.T) {
	step := func(typ, name string) []catalog.ParamStep { return []catalog.ParamStep{{Type: typ, Name: name}} }
	then := func(p []catalog.ParamStep, name string) []catalog.ParamStep {
		return append(append([]catalog.ParamStep(nil), p...), catalog.ParamStep{Name: name})
	}
	for _, c := range []struct {
		api  string
		at   []catalog.ParamStep
		typ  string
		root reflect.Type
	}{
		{"chat", nil, "", reflect.TypeFor[goopenai.ChatCompletionRequest]()},
		{"chat", then(step("", "messages"), "content"), "", reflect.TypeFor[goopenai.ChatMessagePart]()},
		{"responses", nil, "", reflect.TypeFor[goopenai.CreateResponseRequest]()},
		{"responses", step("", "input"), "message", reflect.TypeFor[goopenai.ResponseInputMessage]()},
		{"responses", step("", "input"), "function_call_output", reflect.TypeFor[goopenai.ResponseFunctionCallOutput]()},
		{"responses", then(step("", "input"), "content"), "input_text", reflect.TypeFor[goopenai.ResponseInputText]()},
		{"responses", then(step("", "input"), "content"), "input_image", reflect.TypeFor[goopenai.ResponseInputImage]()},
		{"responses", then(step("", "input"), "content"), "input_file", reflect.TypeFor[goopenai.ResponseInputFile]()},
	} {
		n := 0
		goFields(c.root, c.typ, c.at, map[reflect.Type]bool{}, func(p []catalog.ParamStep) {
			n++
			// A Responses tool is go-openai's chat Tool: its function
			// member is the chat shape, which the real Responses API does
			// not take (NewResponseFunctionTool sends the flat one).
			if c.api == "responses" && len(p) >= 2 && p[0].Name == "tools" && p[1].Name == "function" {
				return
			}
			if !catalog.KnownParam(c.api, p) {
				t.Errorf("%s: go-openai sends %v, which is not a known parameter", c.api, p)
			}
		})
		if n == 0 {
			t.Errorf("%s %v: no field walked", c.api, c.root)
		}
	}
}
