package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// StrictProblem is why a schema breaks the rules of OpenAI's strict mode
// (structured outputs with strict: true).
type StrictProblem struct {
	// Context is the path to the offending subschema, keyword by keyword
	// (["properties", "user", "items"]); empty for the root.
	Context []string
	// Problem says what is wrong, in the words of the real API's errors.
	Problem string
	// Root is set when the problem is the root's type, which the API's
	// messages state without a context.
	Root bool
}

// ContextString renders Context as the API's messages show it, a Python
// tuple: "()", "('properties', 'user')".
func (p *StrictProblem) ContextString() string {
	q := make([]string, len(p.Context))
	for i, c := range p.Context {
		q[i] = "'" + c + "'"
	}
	if len(q) == 1 {
		return "(" + q[0] + ",)"
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// notPermitted are the keywords strict mode refuses ("'minLength' is not
// permitted."). OpenAI documents as unsupported the composition keywords
// other than anyOf, and the object, array and string keywords below; that
// each is refused with this wording is seen for minimum (since supported)
// and propertyNames, and inferred for the rest. Keywords outside this list
// (annotations such as title, default or examples included) are accepted,
// so that a schema the real API takes is not refused here.
var notPermitted = map[string]bool{
	"allOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentRequired": true, "dependentSchemas": true,
	"patternProperties": true, "propertyNames": true, "unevaluatedProperties": true,
	"minProperties": true, "maxProperties": true,
	"unevaluatedItems": true, "contains": true, "minContains": true, "maxContains": true, "uniqueItems": true,
	"minLength": true, "maxLength": true,
}

// CheckStrict checks a schema against the rules of strict mode and returns
// the first problem found, depth first in document order, or nil. The
// root must be an object schema; every object schema must list all its
// properties in required and set additionalProperties to false; an array
// schema needs items; keywords of notPermitted are refused. A schema that
// is not JSON is the caller's to refuse; CheckStrict reports nothing for it.
func CheckStrict(schema []byte) *StrictProblem {
	var root any
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil
	}
	obj, ok := root.(map[string]any)
	if !ok || !schemaHasType(obj, "object") {
		got := "None"
		if ok {
			if t, isString := obj["type"].(string); isString {
				got = t
			}
		}
		return &StrictProblem{Root: true, Problem: fmt.Sprintf("schema must be a JSON Schema of 'type: \"object\"', got 'type: \"%s\"'.", got)}
	}
	return checkStrictNode(schema, nil, 0)
}

// schemaHasType reports whether a schema's type is name, or a list naming it.
func schemaHasType(s map[string]any, name string) bool {
	switch t := s["type"].(type) {
	case string:
		return t == name
	case []any:
		for _, v := range t {
			if v == name {
				return true
			}
		}
	}
	return false
}

// maxStrictDepth bounds how deep checkStrictNode goes: each level decodes
// its subtree again, so the bound keeps the check linear in the schema's
// size. OpenAI documents at most 10 levels of object nesting for strict
// schemas; subschemas (items, anyOf, $defs) add levels of their own, so
// the bound is far above what the real API takes, and its wording is this
// server's.
const maxStrictDepth = 64

// checkStrictNode checks the subschema raw found at context, depth levels
// below the root, visiting its members in document order.
func checkStrictNode(raw []byte, context []string, depth int) *StrictProblem {
	keys, members, ok := orderedObject(raw)
	if !ok {
		return nil // a boolean schema, or a value the compiler refuses
	}
	if depth > maxStrictDepth {
		return &StrictProblem{Context: append([]string(nil), context...),
			Problem: fmt.Sprintf("schema is nested more than %d levels deep.", maxStrictDepth)}
	}
	var s map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&s) // orderedObject has read the same bytes
	at := func(problem string, args ...any) *StrictProblem {
		return &StrictProblem{Context: append([]string(nil), context...), Problem: fmt.Sprintf(problem, args...)}
	}
	for _, k := range keys {
		if notPermitted[k] {
			return at("'%s' is not permitted.", k)
		}
	}
	_, hasProps := s["properties"]
	if schemaHasType(s, "object") || hasProps {
		if !hasProps {
			return at("object schema missing properties.")
		}
		if ap, ok := s["additionalProperties"].(bool); !ok || ap {
			return at("'additionalProperties' is required to be supplied and to be false.")
		}
		props, _ := s["properties"].(map[string]any)
		required := map[string]bool{}
		list, isList := s["required"].([]any)
		for _, r := range list {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
		propKeys, _, _ := orderedObject(members["properties"])
		var missing []string
		for _, name := range propKeys {
			if !required[name] {
				missing = append(missing, name)
			}
		}
		// An object without properties needs no required list: a
		// function that takes no arguments (inferred: the API's own
		// examples of such functions leave it out).
		if (!isList && len(propKeys) > 0) || len(missing) > 0 {
			return at("'required' is required to be supplied and to be an array including every key in properties. Missing '%s'.", strings.Join(missing, "', '"))
		}
		for _, r := range list {
			if name, _ := r.(string); props[name] == nil {
				return at("'required' is required to be supplied and to be an array including every key in properties. Extra required key '%s' supplied.", name)
			}
		}
	}
	if schemaHasType(s, "array") {
		if _, ok := s["items"]; !ok {
			return at("array schema missing items.")
		}
	}
	for _, k := range keys {
		v := members[k]
		switch k {
		case "properties", "$defs", "definitions":
			names, subs, _ := orderedObject(v)
			for _, name := range names {
				if p := checkStrictNode(subs[name], append(context, k, name), depth+1); p != nil {
					return p
				}
			}
		case "items":
			if p := checkStrictNode(v, append(context, k), depth+1); p != nil {
				return p
			}
		case "anyOf":
			var elems []json.RawMessage
			_ = json.Unmarshal(v, &elems)
			for i, e := range elems {
				if p := checkStrictNode(e, append(context, k, fmt.Sprint(i)), depth+1); p != nil {
					return p
				}
			}
		}
	}
	return nil
}

// orderedObject reads a JSON object's members with their keys in document
// order; ok is false when raw is not an object.
func orderedObject(raw []byte) (keys []string, members map[string]json.RawMessage, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, nil, false
	}
	members = make(map[string]json.RawMessage)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		if _, dup := members[k]; !dup {
			keys = append(keys, k)
		}
		members[k] = v
	}
	return keys, members, true
}
