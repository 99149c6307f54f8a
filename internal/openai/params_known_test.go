package openai

import (
	"reflect"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// sdkFields walks a request type of openai-go by reflection and calls visit
// with the path of every JSON field it can send. The variants of a union
// (fields tagged inline) are walked in place; the type member of each
// object comes from its Type field's default tag, as openai-go fills it in.
func sdkFields(t reflect.Type, path []ParamStep, seen map[reflect.Type]bool, visit func([]ParamStep)) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || strings.Contains(t.PkgPath(), "/packages/") || seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	typ := ""
	if f, ok := t.FieldByName("Type"); ok {
		// A Type without a default is an enum the caller sets: the message
		// items' ("message", or absent), or another item's, which the
		// lists do not look into.
		if typ = f.Tag.Get("default"); typ == "" {
			typ = untypedItems[t.Name()]
		}
		if typ == "" {
			typ = "?" + t.Name()
		}
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if strings.Contains(tag, "inline") {
			sdkFields(f.Type, path, seen, visit)
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			continue
		}
		p := append(append([]ParamStep(nil), path...), ParamStep{Type: typ, Name: name})
		visit(p)
		sdkFields(f.Type, p, seen, visit)
	}
}

// untypedItems are the openai-go types whose Type has no default, by the
// type member they send.
var untypedItems = map[string]string{
	"EasyInputMessageParam":         "message",
	"ResponseInputItemMessageParam": "message",
}

func pathString(p []ParamStep) string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Name)
		if s.Type != "" {
			b.WriteString("(" + s.Type + ")")
		}
	}
	return b.String()
}

// Every field openai-go v3.102.0 can send in a chat completion, Responses
// or compact request, nested ones included (messages and their parts and tool calls,
// tools, input items and their parts, text.format…), is a known
// parameter, so that no SDK call is refused as unknown.
func TestOpenAIGoParamsAreKnown(t *testing.T) {
	for api, typ := range map[string]reflect.Type{
		"chat":      reflect.TypeFor[oai.ChatCompletionNewParams](),
		"responses": reflect.TypeFor[responses.ResponseNewParams](),
		"compact":   reflect.TypeFor[responses.ResponseCompactParams](),
	} {
		n := 0
		sdkFields(typ, nil, map[reflect.Type]bool{}, func(p []ParamStep) {
			n++
			if !KnownParam(api, p) {
				t.Errorf("%s: openai-go sends %s, which is not a known parameter", api, pathString(p))
			}
		})
		if n < 100 {
			t.Errorf("%s: only %d fields walked", api, n)
		}
	}
}

// The lists refuse what they do not name, at the top level and nested.
func TestKnownParamRefusesOthers(t *testing.T) {
	for _, c := range []struct {
		api  string
		path []ParamStep
	}{
		{"chat", []ParamStep{{Name: "temprature"}}},
		{"chat", []ParamStep{{Name: "messages"}, {Name: "foo"}}},
		{"chat", []ParamStep{{Name: "tools"}, {Name: "function"}, {Name: "strictt"}}},
		{"responses", []ParamStep{{Name: "input"}, {Type: "function_call_output", Name: "arguments"}}},
		{"responses", []ParamStep{{Name: "text"}, {Name: "format"}, {Name: "foo"}}},
		{"responses", []ParamStep{{Name: "tools"}, {Type: "function", Name: "function"}}},
	} {
		if KnownParam(c.api, c.path) {
			t.Errorf("%s: %s is known", c.api, pathString(c.path))
		}
	}
}
