package jsonschema

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// weather is a strict structured-output schema as OpenAI documents them.
const weather = `{
	"type": "object",
	"properties": {
		"city": {"type": "string", "minLength": 1, "maxLength": 20},
		"unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
		"temp": {"type": "number", "minimum": -90, "maximum": 60},
		"hours": {"type": "array", "items": {"$ref": "#/$defs/hour"}, "minItems": 1, "maxItems": 3},
		"note": {"type": ["string", "null"], "pattern": "^[A-Z]"}
	},
	"required": ["city", "unit", "temp", "hours", "note"],
	"additionalProperties": false,
	"$defs": {
		"hour": {"type": "object", "properties": {"h": {"type": "integer", "exclusiveMinimum": -1, "exclusiveMaximum": 24}}, "required": ["h"], "additionalProperties": false}
	}
}`

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name, schema, doc string
		want              []string
	}{
		{"valid", weather, `{"city":"Paris","unit":"celsius","temp":18.5,"hours":[{"h":0},{"h":23}],"note":null}`, nil},
		{"wrong types", weather, `{"city":5,"unit":"celsius","temp":"warm","hours":[{"h":1.5}],"note":true}`, []string{
			"/city: expected string, got integer",
			"/hours/0/h: expected integer, got number",
			"/note: expected one of string, null, got boolean",
			"/temp: expected number, got string",
		}},
		{"missing and extra", weather, `{"city":"Paris","unit":"kelvin","temp":1,"hours":[],"extra":1}`, []string{
			"/note: required property is missing",
			"/extra: property is not allowed",
			"/hours: array has 0 items, fewer than 1",
			`/unit: "kelvin" is not one of ["celsius","fahrenheit"]`,
		}},
		{"bounds", weather, `{"city":"","unit":"celsius","temp":61,"hours":[{"h":24},{"h":-1},{"h":2},{"h":3}],"note":"lower"}`, []string{
			"/city: string has 0 characters, fewer than 1",
			"/hours/0/h: 24 is not less than the exclusive maximum 24",
			"/hours/1/h: -1 is not greater than the exclusive minimum -1",
			"/hours: array has 4 items, more than 3",
			`/note: "lower" does not match the pattern "^[A-Z]"`,
			"/temp: 61 is greater than the maximum 60",
		}},
		{"root type", weather, `[1]`, []string{"/: expected object, got array"}},
		{"not JSON", weather, `{"city":`, []string{"/: the document is not valid JSON: unexpected EOF"}},
		{"trailing data", `{}`, `{} {}`, []string{"/: the document is not valid JSON: data after the JSON value"}},
		{"integer with zero fraction", `{"type":"integer"}`, `2.0`, nil},
		{"big numbers", `{"type":"number","maximum":1}`, `1e400`, []string{"/: 1e400 is out of range"}},
		{"character length", `{"type":"string","maxLength":2}`, `"日本"`, nil},
		{"const", `{"const":{"a":[1,2]}}`, `{"a":[1,2.0]}`, nil},
		{"const mismatch", `{"const":"x"}`, `"y"`, []string{`/: "y" is not the constant "x"`}},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer","minimum":3}]}`, `2`, []string{
			"/: matches none of the 2 anyOf alternatives (closest: /: 2 is less than the minimum 3)"}},
		{"anyOf match", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, `null`, nil},
		{"oneOf two", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, []string{"/: matches 2 of the oneOf alternatives, not exactly one"}},
		{"oneOf one", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1.5`, nil},
		{"allOf", `{"allOf":[{"minLength":2},{"maxLength":3}]}`, `"abcd"`, []string{"/: string has 4 characters, more than 3"}},
		{"not", `{"not":{"type":"null"}}`, `null`, []string{`/: matches the schema under "not"`}},
		{"additionalProperties schema", `{"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":"x"}`, []string{"/b: expected integer, got string"}},
		{"definitions and escapes", `{"definitions":{"a/b":{"type":"string"}},"properties":{"x~y":{"$ref":"#/definitions/a~1b"}}}`, `{"x~y":1}`, []string{"/x~0y: expected string, got integer"}},
		{"recursion", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`,
			`{"name":"a","children":[{"name":"b","children":[{"children":[]}]}]}`, []string{"/children/0/children/0/name: required property is missing"}},
		{"tuple items", `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}`, `["a",1,true]`, []string{"/2: no value is allowed here"}},
		{"draft-4 exclusive", `{"minimum":0,"exclusiveMinimum":true}`, `0`, []string{"/: 0 is not greater than the exclusive minimum 0"}},
		{"multipleOf", `{"multipleOf":0.1}`, `0.3`, nil},
		{"multipleOf mismatch", `{"multipleOf":2}`, `3`, []string{"/: 3 is not a multiple of 2"}},
		{"uniqueItems", `{"uniqueItems":true}`, `[1,{"a":1},1.0]`, []string{"/: items 0 and 2 are equal, but items must be unique"}},
		{"property counts", `{"minProperties":2,"maxProperties":2}`, `{"a":1}`, []string{"/: object has 1 properties, fewer than 2"}},
		{"format ignored", `{"type":"string","format":"email","description":"x","title":"y"}`, `"not an email"`, nil},
		{"true schema", `true`, `{"anything":[1]}`, nil},
		{"false schema", `false`, `1`, []string{"/: no value is allowed here"}},
		{"keywords of other types ignored", `{"minLength":5,"minimum":9}`, `[1]`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Validate([]byte(tt.schema), []byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestInvalidSchemas(t *testing.T) {
	for _, tt := range []struct {
		name, schema, pointer, problem string
	}{
		{"not JSON", `{"type":`, "", "not valid JSON"},
		{"not a schema", `[1]`, "", "must be an object or a boolean, not array"},
		{"unknown type", `{"properties":{"a":{"type":"strin"}}}`, "/properties/a/type", `unknown type "strin"`},
		{"type of wrong type", `{"type":5}`, "/type", "type must be"},
		{"required of wrong type", `{"required":"a"}`, "/required", "required must be an array of strings"},
		{"bad pattern", `{"pattern":"(?<=x)"}`, "/pattern", "pattern does not compile"},
		{"negative count", `{"minLength":-1}`, "/minLength", "non-negative integer"},
		{"empty anyOf", `{"anyOf":[]}`, "/anyOf", "non-empty array"},
		{"dangling ref", `{"$ref":"#/$defs/missing"}`, "/$ref", "leads nowhere"},
		{"remote ref", `{"$ref":"https://example.com/s.json"}`, "/$ref", "only references inside the schema"},
		{"anchor ref", `{"$ref":"#anchor"}`, "/$ref", "not a JSON pointer"},
		{"self ref", `{"$ref":"#"}`, "", "circular reference"},
		{"mutual refs", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "", "circular reference"},
		{"broken unused definition", `{"$defs":{"x":{"type":"nope"}}}`, "/$defs/x/type", "unknown type"},
		{"bad multipleOf", `{"multipleOf":0}`, "/multipleOf", "positive number"},
		{"item not a schema", `{"items":[1]}`, "/items/0", "must be an object or a boolean"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate([]byte(tt.schema), []byte(`1`))
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SchemaError", err)
			}
			if tt.pointer != "" && se.Pointer != tt.pointer || !strings.Contains(se.Problem, tt.problem) {
				t.Errorf("got %q at %q, want %q at %q", se.Problem, se.Pointer, tt.problem, tt.pointer)
			}
			if !strings.HasPrefix(err.Error(), "invalid schema at ") {
				t.Errorf("message %q", err)
			}
		})
	}
}

// Branching recursion cannot make validation exponential: the work budget
// stops it with a problem.
func TestCostlySchemaStops(t *testing.T) {
	schema := `{"anyOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}, "minItems":0}, {"type":"null"}]}`
	doc := strings.Repeat("[", 40) + "true" + strings.Repeat("]", 40)
	got, err := Validate([]byte(schema), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || !strings.Contains(got[len(got)-1], "validation stopped") {
		t.Errorf("problems %q", got)
	}
}

func TestCompiledSchemaIsReusable(t *testing.T) {
	s, err := Compile([]byte(weather))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if p := s.Validate([]byte(`{"city":"Rome","unit":"celsius","temp":20,"hours":[{"h":1}],"note":"Sunny"}`)); p != nil {
			t.Fatalf("problems %q", p)
		}
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(weather, `{"city":"Paris","unit":"celsius","temp":18.5,"hours":[{"h":0}],"note":null}`)
	f.Add(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`, `[[[]]]`)
	f.Add(`{"anyOf":[{"$ref":"#/anyOf/1"},{"type":"string","pattern":"^a+$"}]}`, `"aaa"`)
	f.Add(`{"oneOf":[true,false],"not":{"const":null},"uniqueItems":true}`, `[1,1]`)
	f.Fuzz(func(t *testing.T, schema, doc string) {
		s, err := Compile([]byte(schema))
		if err != nil {
			var se *SchemaError
			if !errors.As(err, &se) || se.Problem == "" {
				t.Fatalf("error %v is not a described SchemaError", err)
			}
			return
		}
		for _, p := range s.Validate([]byte(doc)) {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("problem %q does not start with a pointer", p)
			}
		}
	})
}
