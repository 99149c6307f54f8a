package anthropicsdk_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	catalog "github.com/llmtestserver/llmtestserver/internal/anthropic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// Every field anthropic-sdk-go v2.17.0 can send to /v1/messages and
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

// Every server tool of the SDK's tool unions is known by its dated type,
// with the name its type fixes (a toolset has none), so that the server
// refuses no server tool the SDK sends, and refuses any other name. The
// tool search tools, whose type is an enum the caller picks, are checked by
// name under each of their types.
func TestSDKServerToolsAreKnown(t *testing.T) {
	search := map[string][]string{
		"tool_search_tool_bm25":  {"tool_search_tool_bm25", "tool_search_tool_bm25_20251119"},
		"tool_search_tool_regex": {"tool_search_tool_regex", "tool_search_tool_regex_20251119"},
	}
	for _, c := range []struct {
		beta  bool
		union reflect.Type
	}{
		{false, reflect.TypeFor[anthropic.ToolUnionParam]()},
		{true, reflect.TypeFor[anthropic.BetaToolUnionParam]()},
	} {
		n := 0
		for i := range c.union.NumField() {
			f := c.union.Field(i)
			if f.Type.Kind() != reflect.Pointer || f.Name == "OfTool" {
				continue
			}
			v := f.Type.Elem()
			typ, _ := v.FieldByName("Type")
			want := ""
			if name, ok := v.FieldByName("Name"); ok {
				want = name.Tag.Get("default")
			}
			types := []string{typ.Tag.Get("default")}
			if types[0] == "" {
				types = search[want]
			}
			require.NotEmpty(t, types, "%v: no type", v)
			for _, ty := range types {
				n++
				got, ok := catalog.ServerToolName(c.beta, ty)
				if assert.True(t, ok, "%v: type %q unknown", v, ty) {
					assert.Equal(t, want, got, "%v: name", v)
				}
			}
		}
		assert.Greater(t, n, 15, "%v: too few tools walked", c.union)
	}
	_, ok := catalog.ServerToolName(false, "computer_20250124")
	assert.False(t, ok, "a beta-only tool is not known on the GA route")
}
