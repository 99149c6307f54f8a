package jsonschema

import (
	"fmt"
	"strings"
	"testing"
)

// CheckStrict finds the first problem of a schema, depth first in
// document order, with its context as the API's messages show it.
func TestCheckStrict(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`:                                                                                             "",
		`{"type":"object","properties":{},"required":[],"additionalProperties":false}`:                                                                                                                     "",
		`{"type":"object","properties":{},"additionalProperties":false}`:                                                                                                                                   "",
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`:                                                                                                                          "(): 'additionalProperties' is required to be supplied and to be false.",
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}`:                                                                                        "(): 'required' is required to be supplied and to be an array including every key in properties. Missing 'a', 'b'.",
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","z"],"additionalProperties":false}`:                                                                                         "(): 'required' is required to be supplied and to be an array including every key in properties. Extra required key 'z' supplied.",
		`{"type":"object","additionalProperties":false}`:                                                                                                                                                   "(): object schema missing properties.",
		`{"type":"object","properties":{"l":{"type":"array"}},"required":["l"],"additionalProperties":false}`:                                                                                              "('properties', 'l'): array schema missing items.",
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}}},"required":["l"],"additionalProperties":false}`: "('properties', 'l', 'items'): 'required' is required to be supplied and to be an array including every key in properties. Missing 'x'.",
		`{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"string","maxLength":3}]}},"required":["u"],"additionalProperties":false}`:                                                 "('properties', 'u', 'anyOf', '1'): 'maxLength' is not permitted.",
		`{"type":"object","properties":{"p":{"$ref":"#/$defs/P"}},"required":["p"],"additionalProperties":false,"$defs":{"P":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`:    "('$defs', 'P'): 'additionalProperties' is required to be supplied and to be false.",
		`{"type":"object","properties":{"a":{"type":"string","title":"A","default":"x","pattern":"^a","format":"date"}},"required":["a"],"additionalProperties":false}`:                                    "",
		`{"type":"string"}`: `schema must be a JSON Schema of 'type: "object"', got 'type: "string"'.`,
		`{"properties":{}}`: `schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`,
	} {
		got := ""
		if p := CheckStrict([]byte(schema)); p != nil {
			if p.Root {
				got = p.Problem
			} else {
				got = p.ContextString() + ": " + p.Problem
			}
		}
		if got != want {
			t.Errorf("CheckStrict(%s)\n got %q\nwant %q", schema, got, want)
		}
	}
	if p := (&StrictProblem{Context: []string{"items"}}); p.ContextString() != "('items',)" {
		t.Errorf("one-element context %s", p.ContextString())
	}
}

// A schema nested deeper than maxStrictDepth is refused at the level past
// the bound, without the check decoding every level's subtree again.
func TestCheckStrictBoundsTheDepth(t *testing.T) {
	leaf := `{"type":"object","properties":{},"additionalProperties":false}`
	schema := leaf
	for range maxStrictDepth + 1 {
		schema = `{"type":"object","properties":{"a":` + schema + `},"required":["a"],"additionalProperties":false}`
	}
	p := CheckStrict([]byte(schema))
	if p == nil || p.Problem != "schema is nested more than 64 levels deep." || len(p.Context) != 2*(maxStrictDepth+1) {
		t.Errorf("CheckStrict of a deep schema = %+v", p)
	}
	schema = leaf
	for range maxStrictDepth {
		schema = `{"type":"object","properties":{"a":` + schema + `},"required":["a"],"additionalProperties":false}`
	}
	if p := CheckStrict([]byte(schema)); p != nil {
		t.Errorf("CheckStrict at the bound = %+v", p)
	}
}

// The check reads a schema once, however deep it nests: a schema nested
// sixty levels deep costs about what a flat one of the same size does.
// Each level used to decode its whole subtree again, sixty times the work.
func TestCheckStrictReadsTheSchemaOnce(t *testing.T) {
	enum := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"v%d"`, i)
		}
		return `{"type":"string","enum":[` + b.String() + `]}`
	}
	nest := func(depth int, leaf string) []byte {
		return []byte(strings.Repeat(`{"type":"object","properties":{"a":`, depth) + leaf +
			strings.Repeat(`},"required":["a"],"additionalProperties":false}`, depth))
	}
	deep, flat := nest(60, enum(20000)), nest(1, enum(20000))
	cost := func(schema []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if p := CheckStrict(schema); p != nil {
				t.Fatalf("CheckStrict = %+v", p)
			}
		})
	}
	if d, f := cost(deep), cost(flat); d > 2*f {
		t.Errorf("a schema 60 levels deep allocates %.0f times, a flat one of the same size %.0f: each level is read again", d, f)
	}
}
