// Package jsonschema validates JSON documents against the subset of JSON
// Schema that OpenAI structured outputs and function parameters use.
//
//	problems, err := jsonschema.Validate(schema, document)
//	// err != nil: the schema itself cannot be used.
//	// problems: one "path: message" line per mismatch, path a JSON pointer
//	// into the document ("/" for the document itself).
//
// Supported keywords: type (a name or an array of names, "null" included),
// properties, required, additionalProperties (a boolean or a schema), items
// (a schema, or an array for tuples), prefixItems, enum, const, anyOf,
// oneOf, allOf, not, $ref to any "#..." pointer in the same document
// (usually "#/$defs/…" or "#/definitions/…", and "#" for recursion),
// minimum, maximum, exclusiveMinimum and exclusiveMaximum (numbers, or the
// draft-4 booleans), multipleOf, minLength, maxLength, pattern (Go RE2
// syntax), minItems, maxItems, uniqueItems, minProperties and maxProperties.
// format, descriptions and other annotations are ignored. Boolean schemas
// (true, false) are accepted anywhere a schema is.
//
// CheckStrict checks a schema itself against the rules of OpenAI's strict
// mode (every property required, additionalProperties false, no keyword
// strict mode refuses), as the API checks a schema sent with strict: true.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// SchemaError reports a schema that cannot be used: invalid JSON, a keyword
// of the wrong type, an unknown type name, a bad pattern, a $ref that leads
// nowhere or only to itself.
type SchemaError struct {
	// Pointer locates the problem in the schema, as a JSON pointer.
	Pointer string
	// Problem says what is wrong.
	Problem string
}

// Error implements error.
func (e *SchemaError) Error() string {
	return fmt.Sprintf("invalid schema at %s: %s", display(e.Pointer), e.Problem)
}

// Schema is a compiled schema, safe for concurrent use.
type Schema struct {
	root *node
}

// maxVisits bounds the work of one validation, so that a schema whose
// anyOf branches recurse cannot make it exponential.
const maxVisits = 1_000_000

// Validate compiles schema and checks document against it. The error is
// non-nil only when the schema cannot be used; a document that is not JSON
// is reported as a problem.
func Validate(schema, document []byte) ([]string, error) {
	s, err := Compile(schema)
	if err != nil {
		return nil, err
	}
	return s.Validate(document), nil
}

// Validate checks document and returns its problems, in document order, or
// nil when it matches.
func (s *Schema) Validate(document []byte) []string {
	v, err := decode(document)
	if err != nil {
		return []string{"/: the document is not valid JSON: " + err.Error()}
	}
	c := &checker{}
	c.check(s.root, v, "")
	if c.visits > maxVisits {
		c.problems = append(c.problems, "/: validation stopped: the schema is too costly to check against this document")
	}
	return c.problems
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// display writes a JSON pointer for messages, the root as "/".
func display(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func child(ptr, key string) string { return ptr + "/" + pointerEscaper.Replace(key) }

func index(ptr string, i int) string { return ptr + "/" + strconv.Itoa(i) }

// node is one compiled schema.
type node struct {
	ptr      string
	always   *bool // a boolean schema
	types    []string
	ref      string
	target   *node
	allOf    []*node
	anyOf    []*node
	oneOf    []*node
	not      *node
	enum     []any
	hasEnum  bool
	konst    any
	hasConst bool

	properties map[string]*node
	required   []string
	additional *node
	minProps   int
	maxProps   int

	items       *node
	prefixItems []*node
	minItems    int
	maxItems    int
	unique      bool

	minLength int
	maxLength int
	pattern   *regexp.Regexp

	minimum, maximum *float64
	exclMin, exclMax *float64
	multipleOf       *float64
}

// compiler builds nodes, sharing one node per schema location so that
// references (recursive ones included) point at the same node.
type compiler struct {
	root  any
	nodes map[string]*node
}

// Compile checks and compiles a schema.
func Compile(schema []byte) (*Schema, error) {
	v, err := decode(schema)
	if err != nil {
		return nil, &SchemaError{Problem: "not valid JSON: " + err.Error()}
	}
	c := &compiler{root: v, nodes: map[string]*node{}}
	root, err := c.compile(v, "")
	if err != nil {
		return nil, err
	}
	// Resolving a reference may compile schemas with references of their
	// own, so resolve until none is left.
	for {
		var pending []string
		for ptr, n := range c.nodes {
			if n.ref != "" && n.target == nil {
				pending = append(pending, ptr)
			}
		}
		if len(pending) == 0 {
			break
		}
		slices.Sort(pending)
		for _, ptr := range pending {
			n := c.nodes[ptr]
			if n.target, err = c.resolve(n); err != nil {
				return nil, err
			}
		}
	}
	if err := checkCycles(c.nodes); err != nil {
		return nil, err
	}
	return &Schema{root: root}, nil
}

func (c *compiler) compile(v any, ptr string) (*node, error) {
	if n, ok := c.nodes[ptr]; ok {
		return n, nil
	}
	n := &node{ptr: ptr, minLength: 0, maxLength: -1, maxItems: -1, maxProps: -1}
	c.nodes[ptr] = n
	switch s := v.(type) {
	case bool:
		n.always = &s
		return n, nil
	case map[string]any:
		return n, c.keywords(n, s)
	default:
		return nil, &SchemaError{Pointer: ptr, Problem: "a schema must be an object or a boolean, not " + kind(v)}
	}
}

var typeNames = []string{"string", "number", "integer", "boolean", "object", "array", "null"}

func (c *compiler) keywords(n *node, s map[string]any) error {
	ptr := n.ptr
	bad := func(key, want string) error {
		return &SchemaError{Pointer: child(ptr, key), Problem: fmt.Sprintf("%s must be %s, not %s", key, want, kind(s[key]))}
	}
	sub := func(key string) (*node, error) {
		v, ok := s[key]
		if !ok {
			return nil, nil
		}
		return c.compile(v, child(ptr, key))
	}
	list := func(key string) ([]*node, error) {
		v, ok := s[key]
		if !ok {
			return nil, nil
		}
		a, ok := v.([]any)
		if !ok || len(a) == 0 {
			return nil, bad(key, "a non-empty array of schemas")
		}
		out := make([]*node, len(a))
		for i, e := range a {
			var err error
			if out[i], err = c.compile(e, index(child(ptr, key), i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	count := func(key string, dst *int) error {
		v, ok := s[key]
		if !ok {
			return nil
		}
		f, ok := number(v)
		if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
			return bad(key, "a non-negative integer")
		}
		*dst = int(f)
		return nil
	}
	num := func(key string) (*float64, error) {
		v, ok := s[key]
		if !ok {
			return nil, nil
		}
		f, ok := number(v)
		if !ok {
			return nil, bad(key, "a number")
		}
		return &f, nil
	}

	// Definitions are compiled eagerly, so that a broken one is reported
	// even when nothing refers to it.
	for _, key := range []string{"$defs", "definitions"} {
		v, ok := s[key]
		if !ok {
			continue
		}
		defs, ok := v.(map[string]any)
		if !ok {
			return bad(key, "an object")
		}
		for _, name := range sortedKeys(defs) {
			if _, err := c.compile(defs[name], child(child(ptr, key), name)); err != nil {
				return err
			}
		}
	}

	if v, ok := s["type"]; ok {
		switch t := v.(type) {
		case string:
			n.types = []string{t}
		case []any:
			for _, e := range t {
				name, ok := e.(string)
				if !ok {
					return bad("type", "a type name or an array of type names")
				}
				n.types = append(n.types, name)
			}
		default:
			return bad("type", "a type name or an array of type names")
		}
		for _, t := range n.types {
			if !slices.Contains(typeNames, t) {
				return &SchemaError{Pointer: child(ptr, "type"), Problem: fmt.Sprintf("unknown type %q", t)}
			}
		}
	}
	if v, ok := s["$ref"]; ok {
		ref, ok := v.(string)
		if !ok {
			return bad("$ref", "a string")
		}
		n.ref = ref
	}
	var err error
	if n.allOf, err = list("allOf"); err != nil {
		return err
	}
	if n.anyOf, err = list("anyOf"); err != nil {
		return err
	}
	if n.oneOf, err = list("oneOf"); err != nil {
		return err
	}
	if n.not, err = sub("not"); err != nil {
		return err
	}
	if v, ok := s["enum"]; ok {
		a, ok := v.([]any)
		if !ok {
			return bad("enum", "an array")
		}
		n.enum, n.hasEnum = a, true
	}
	if v, ok := s["const"]; ok {
		n.konst, n.hasConst = v, true
	}

	if v, ok := s["properties"]; ok {
		props, ok := v.(map[string]any)
		if !ok {
			return bad("properties", "an object")
		}
		n.properties = make(map[string]*node, len(props))
		for _, name := range sortedKeys(props) {
			if n.properties[name], err = c.compile(props[name], child(child(ptr, "properties"), name)); err != nil {
				return err
			}
		}
	}
	if v, ok := s["required"]; ok {
		a, ok := v.([]any)
		if !ok {
			return bad("required", "an array of strings")
		}
		for _, e := range a {
			name, ok := e.(string)
			if !ok {
				return bad("required", "an array of strings")
			}
			n.required = append(n.required, name)
		}
	}
	if n.additional, err = sub("additionalProperties"); err != nil {
		return err
	}
	if err := count("minProperties", &n.minProps); err != nil {
		return err
	}
	if err := count("maxProperties", &n.maxProps); err != nil {
		return err
	}

	if v, ok := s["items"]; ok {
		if _, tuple := v.([]any); tuple {
			if n.prefixItems, err = list("items"); err != nil {
				return err
			}
		} else if n.items, err = sub("items"); err != nil {
			return err
		}
	}
	if _, ok := s["prefixItems"]; ok {
		if n.prefixItems, err = list("prefixItems"); err != nil {
			return err
		}
	}
	if err := count("minItems", &n.minItems); err != nil {
		return err
	}
	if err := count("maxItems", &n.maxItems); err != nil {
		return err
	}
	if v, ok := s["uniqueItems"]; ok {
		b, ok := v.(bool)
		if !ok {
			return bad("uniqueItems", "a boolean")
		}
		n.unique = b
	}

	if err := count("minLength", &n.minLength); err != nil {
		return err
	}
	if err := count("maxLength", &n.maxLength); err != nil {
		return err
	}
	if v, ok := s["pattern"]; ok {
		p, ok := v.(string)
		if !ok {
			return bad("pattern", "a string")
		}
		if n.pattern, err = regexp.Compile(p); err != nil {
			return &SchemaError{Pointer: child(ptr, "pattern"), Problem: "pattern does not compile: " + err.Error()}
		}
	}

	if n.minimum, err = num("minimum"); err != nil {
		return err
	}
	if n.maximum, err = num("maximum"); err != nil {
		return err
	}
	for _, e := range []struct {
		key   string
		bound **float64
		dst   **float64
	}{{"exclusiveMinimum", &n.minimum, &n.exclMin}, {"exclusiveMaximum", &n.maximum, &n.exclMax}} {
		v, ok := s[e.key]
		if !ok {
			continue
		}
		if b, isBool := v.(bool); isBool { // draft 4: a flag on minimum/maximum
			if b && *e.bound != nil {
				*e.dst, *e.bound = *e.bound, nil
			}
			continue
		}
		if *e.dst, err = num(e.key); err != nil {
			return err
		}
	}
	if n.multipleOf, err = num("multipleOf"); err != nil {
		return err
	}
	if n.multipleOf != nil && *n.multipleOf <= 0 {
		return bad("multipleOf", "a positive number")
	}
	return nil
}

// resolve finds the node a $ref points at.
func (c *compiler) resolve(n *node) (*node, error) {
	fail := func(problem string) error {
		return &SchemaError{Pointer: child(n.ptr, "$ref"), Problem: problem}
	}
	frag, ok := strings.CutPrefix(n.ref, "#")
	if !ok {
		return nil, fail(fmt.Sprintf("only references inside the schema (#...) are supported, not %q", n.ref))
	}
	if frag != "" && frag[0] != '/' {
		return nil, fail(fmt.Sprintf("reference %q is not a JSON pointer", n.ref))
	}
	v, ptr := c.root, ""
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			switch cur := v.(type) {
			case map[string]any:
				next, ok := cur[tok]
				if !ok {
					return nil, fail(fmt.Sprintf("reference %q leads nowhere", n.ref))
				}
				v, ptr = next, child(ptr, tok)
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(cur) {
					return nil, fail(fmt.Sprintf("reference %q leads nowhere", n.ref))
				}
				v, ptr = cur[i], index(ptr, i)
			default:
				return nil, fail(fmt.Sprintf("reference %q leads nowhere", n.ref))
			}
		}
	}
	return c.compile(v, ptr)
}

// checkCycles refuses references that loop without descending into the
// document ({"$ref":"#"} at the root, or two definitions naming each other
// through allOf): validating them would never end.
func checkCycles(nodes map[string]*node) error {
	const (
		unseen = iota
		active
		done
	)
	state := make(map[*node]int, len(nodes))
	var visit func(n *node) error
	visit = func(n *node) error {
		switch state[n] {
		case active:
			return &SchemaError{Pointer: n.ptr, Problem: "circular reference: the schema refers to itself without descending into the document"}
		case done:
			return nil
		}
		state[n] = active
		next := slices.Concat(n.allOf, n.anyOf, n.oneOf)
		if n.target != nil {
			next = append(next, n.target)
		}
		if n.not != nil {
			next = append(next, n.not)
		}
		for _, m := range next {
			if err := visit(m); err != nil {
				return err
			}
		}
		state[n] = done
		return nil
	}
	for _, ptr := range sortedKeys(nodes) {
		if err := visit(nodes[ptr]); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// number reads a JSON number decoded with UseNumber.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// kind names the JSON type of a decoded value; numbers with no fractional
// part are "integer".
func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

func hasType(types []string, v any) bool {
	k := kind(v)
	for _, t := range types {
		if t == k || t == "number" && k == "integer" {
			return true
		}
	}
	return false
}
