package anthropicsdk_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	catalog "github.com/llmtestserver/llmtestserver/internal/anthropic"
)

// sdkFields walks a params type of anthropic-sdk-go by reflection and calls
// visit with the path of every JSON field it can send. The variants of a
// union (fields tagged inline) are walked in place; the type member of
// each object is its Type field's default tag, as the SDK fills it in (""
// for an object whose type the caller sets or leaves out).
func sdkFields(t reflect.Type, path []catalog.FieldStep, seen map[reflect.Type]bool, visit func([]catalog.FieldStep)) {
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
		typ = f.Tag.Get("default")
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
		p := append(append([]catalog.FieldStep(nil), path...), catalog.FieldStep{Type: typ, Name: name})
		visit(p)
		sdkFields(f.Type, p, seen, visit)
	}
}

// Every field anthropic-sdk-go v2.16.0 can send to /v1/messages and
// /v1/messages/count_tokens, nested ones included, is one the server's
// field lists know (or lies in an object it does not look into), so that
// refusing unknown fields never refuses a valid SDK request: the GA params
// against the GA lists, the beta params against the beta lists.
func TestSDKParamsAreKnownFields(t *testing.T) {
	for _, c := range []struct {
		route catalog.Route
		root  reflect.Type
	}{
		{catalog.RouteMessages, reflect.TypeFor[anthropic.MessageNewParams]()},
		{catalog.RouteCountTokens, reflect.TypeFor[anthropic.MessageCountTokensParams]()},
		{catalog.RouteBetaMessages, reflect.TypeFor[anthropic.BetaMessageNewParams]()},
		{catalog.RouteBetaCountTokens, reflect.TypeFor[anthropic.BetaMessageCountTokensParams]()},
	} {
		n := 0
		sdkFields(c.root, nil, map[reflect.Type]bool{}, func(p []catalog.FieldStep) {
			n++
			if !catalog.KnownField(c.route, p) {
				t.Errorf("%v: the SDK sends %v, which the server does not know", c.root, p)
			}
		})
		if n == 0 {
			t.Errorf("%v: no field walked", c.root)
		}
	}
}
