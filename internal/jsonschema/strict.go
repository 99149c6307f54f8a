package jsonschema

import (
	"fmt"
	"strconv"
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
//
// The schema is read once, into a tree that keeps each object's keys in
// document order, and the check walks the tree: its work is linear in the
// schema's size, however the schema nests.
func CheckStrict(schema []byte) *StrictProblem {
	root, ok := parseOrdered(schema)
	if !ok {
		return nil
	}
	if root.kind != jsonObject || !root.hasType("object") {
		got := "None"
		if root.kind == jsonObject {
			if t := root.member("type"); t != nil && t.kind == jsonString {
				got = t.str
			}
		}
		return &StrictProblem{Root: true, Problem: fmt.Sprintf("schema must be a JSON Schema of 'type: \"object\"', got 'type: \"%s\"'.", got)}
	}
	return checkStrictNode(root, nil, 0)
}

// maxStrictDepth bounds how deep the check goes, so that its context, which
// the problem copies, stays small. OpenAI documents at most 10 levels of
// object nesting for strict schemas; subschemas (items, anyOf, $defs) add
// levels of their own, so the bound is far above what the real API takes,
// and its wording is this server's.
const maxStrictDepth = 64

// checkStrictNode checks the subschema s found at context, depth levels
// below the root, visiting its members in document order.
func checkStrictNode(s *jnode, context []string, depth int) *StrictProblem {
	if s.kind != jsonObject {
		return nil // a boolean schema, or a value the compiler refuses
	}
	at := func(problem string, args ...any) *StrictProblem {
		return &StrictProblem{Context: append([]string(nil), context...), Problem: fmt.Sprintf(problem, args...)}
	}
	if depth > maxStrictDepth {
		return at("schema is nested more than %d levels deep.", maxStrictDepth)
	}
	for _, k := range s.keys {
		if notPermitted[k] {
			return at("'%s' is not permitted.", k)
		}
	}
	props := s.member("properties")
	if s.hasType("object") || props != nil {
		if props == nil {
			return at("object schema missing properties.")
		}
		if ap := s.member("additionalProperties"); ap == nil || ap.kind != jsonBool || ap.boolean {
			return at("'additionalProperties' is required to be supplied and to be false.")
		}
		required := map[string]bool{}
		list := s.member("required")
		isList := list != nil && list.kind == jsonArray
		if isList {
			for _, r := range list.elems {
				if r.kind == jsonString {
					required[r.str] = true
				}
			}
		}
		var propKeys []string
		if props.kind == jsonObject {
			propKeys = props.keys
		}
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
		if isList {
			for _, r := range list.elems {
				if r.kind != jsonString || props.member(r.str) == nil {
					name := r.str
					if r.kind != jsonString {
						name = ""
					}
					return at("'required' is required to be supplied and to be an array including every key in properties. Extra required key '%s' supplied.", name)
				}
			}
		}
	}
	if s.hasType("array") && s.member("items") == nil {
		return at("array schema missing items.")
	}
	for _, k := range s.keys {
		v := s.member(k)
		switch k {
		case "properties", "$defs", "definitions":
			if v.kind != jsonObject {
				continue
			}
			for _, name := range v.keys {
				if p := checkStrictNode(v.member(name), append(context, k, name), depth+1); p != nil {
					return p
				}
			}
		case "items":
			if p := checkStrictNode(v, append(context, k), depth+1); p != nil {
				return p
			}
		case "anyOf":
			if v.kind != jsonArray {
				continue
			}
			for i, e := range v.elems {
				if p := checkStrictNode(e, append(context, k, strconv.Itoa(i)), depth+1); p != nil {
					return p
				}
			}
		}
	}
	return nil
}
