package gemini

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// The API reads its JSON bodies as protocol buffers do (proto3 JSON):
// every field by its camelCase or its snake_case name, an unknown one
// refused, numbers also as strings, enums by name, null as the field's
// default. fields.go checks a decoded body against the messages it may
// hold (the message type below) and rewrites it into the one form the
// typed decoding reads: camelCase names, numbers as numbers, no nulls.

// kind is a field's JSON kind.
type kind int

const (
	kindString kind = iota
	kindFloat
	kindInt
	kindBool
	kindEnum
	kindBytes   // standard base64, as a string
	kindMessage // an object of known fields
	kindStruct  // any JSON object (google.protobuf.Struct: args, schemas)
	kindValue   // any JSON value (google.protobuf.Value)
	kindMap     // an object with string keys and string values (labels)
	kindDuration
)

// field is one field of a message.
type field struct {
	kind     kind
	repeated bool
	// msg is the message of a kindMessage field.
	msg *message
	// enum lists a kindEnum field's values, and typeName names the
	// field's type in the transcoder's errors.
	enum     []string
	typeName string
}

// message is a protocol buffer message: its fields by camelCase name.
type message struct {
	name   string
	fields map[string]*field
}

const protoPackage = "type.googleapis.com/google.ai.generativelanguage.v1beta."

func msg(name string, fields map[string]*field) *message { return &message{name: name, fields: fields} }

// with returns a copy of m that has more fields too: the same message as
// another API version or backend knows it.
func (m *message) with(more map[string]*field) *message {
	fields := maps.Clone(m.fields)
	maps.Copy(fields, more)
	return &message{name: m.name, fields: fields}
}

func str() *field          { return &field{kind: kindString} }
func float() *field        { return &field{kind: kindFloat} }
func integer() *field      { return &field{kind: kindInt} }
func boolean() *field      { return &field{kind: kindBool} }
func bytesField() *field   { return &field{kind: kindBytes} }
func structField() *field  { return &field{kind: kindStruct} }
func value() *field        { return &field{kind: kindValue} }
func labels() *field       { return &field{kind: kindMap} }
func duration() *field     { return &field{kind: kindDuration} }
func of(m *message) *field { return &field{kind: kindMessage, msg: m} }
func list(f *field) *field { g := *f; g.repeated = true; return &g }
func enum(name string, values ...string) *field {
	return &field{kind: kindEnum, enum: values, typeName: protoPackage + name}
}

// normalize checks v, the decoded value of a field f at path, and returns
// it rewritten, or the API's error for what it refuses.
func normalize(v any, f *field, path string) (any, *apierr.Error) {
	if f.repeated {
		items, ok := v.([]any)
		if !ok {
			return nil, wrongType(path, typeOf(f), shown(v))
		}
		one := *f
		one.repeated = false
		for i, item := range items {
			out, err := normalize(item, &one, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			items[i] = out
		}
		return items, nil
	}
	switch f.kind {
	case kindString, kindBytes, kindDuration:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(path, typeOf(f), shown(v))
		}
		return s, nil
	case kindFloat, kindInt:
		return number(v, f, path)
	case kindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, wrongType(path, typeOf(f), shown(v))
	case kindEnum:
		return enumValue(v, f, path)
	case kindMessage:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, wrongType(path, protoPackage+f.msg.name, shown(v))
		}
		return normalizeMessage(obj, f.msg, path)
	case kindStruct:
		if _, ok := v.(map[string]any); !ok {
			return nil, wrongType(path, "type.googleapis.com/google.protobuf.Struct", shown(v))
		}
		return v, nil
	case kindMap:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, wrongType(path, "TYPE_MESSAGE", shown(v))
		}
		for k, item := range obj {
			if _, ok := item.(string); !ok {
				return nil, wrongType(path+"["+strconv.Quote(k)+"]", "TYPE_STRING", shown(item))
			}
		}
		return obj, nil
	}
	return v, nil
}

// normalizeMessage checks obj as a message m at path, renaming its
// fields to camelCase and dropping nulls.
func normalizeMessage(obj map[string]any, m *message, path string) (map[string]any, *apierr.Error) {
	var renamed map[string]any
	// In order, so that of several wrong fields the same one is named.
	names := slices.Sorted(maps.Keys(obj))
	for _, name := range names {
		v := obj[name]
		camel := camelCase(name)
		if _, known := m.fields[camel]; !known || camel != name && snakeCase(camel) != name {
			return nil, unknownField(path, name)
		}
		if camel != name {
			if _, both := obj[camel]; both {
				return nil, invalidJSON("Duplicate field " + strconv.Quote(name) + " at '" + path + "'.")
			}
			if renamed == nil {
				renamed = map[string]any{}
			}
			renamed[camel] = v
			delete(obj, name)
		}
	}
	for k, v := range renamed {
		obj[k] = v
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		v := obj[name]
		if v == nil {
			delete(obj, name)
			continue
		}
		out, err := normalize(v, m.fields[name], join(path, snakeCase(name)))
		if err != nil {
			return nil, err
		}
		obj[name] = out
	}
	return obj, nil
}

// number reads a number, or a string holding one, as proto3 JSON allows.
func number(v any, f *field, path string) (any, *apierr.Error) {
	var n json.Number
	switch v := v.(type) {
	case json.Number:
		n = v
	case string:
		n = json.Number(strings.TrimSpace(v))
	default:
		return nil, wrongType(path, typeOf(f), shown(v))
	}
	if f.kind == kindInt {
		if _, err := strconv.ParseInt(string(n), 10, 32); err != nil || !json.Valid([]byte(n)) {
			return nil, wrongType(path, typeOf(f), shown(v))
		}
		return n, nil
	}
	if _, err := strconv.ParseFloat(string(n), 64); err != nil || !json.Valid([]byte(n)) {
		return nil, wrongType(path, typeOf(f), shown(v))
	}
	return n, nil
}

// enumValue reads an enum by its name or its number.
func enumValue(v any, f *field, path string) (any, *apierr.Error) {
	switch v := v.(type) {
	case string:
		for _, e := range f.enum {
			if e == v {
				return v, nil
			}
		}
	case json.Number:
		if i, err := strconv.Atoi(string(v)); err == nil && i >= 0 && i < len(f.enum) {
			return f.enum[i], nil
		}
	}
	return nil, wrongType(path, f.typeName, shown(v))
}

func typeOf(f *field) string {
	switch f.kind {
	case kindFloat:
		return "TYPE_FLOAT"
	case kindInt:
		return "TYPE_INT32"
	case kindBool:
		return "TYPE_BOOL"
	case kindBytes:
		return "TYPE_BYTES"
	case kindEnum:
		return f.typeName
	case kindDuration:
		return "type.googleapis.com/google.protobuf.Duration"
	}
	return "TYPE_STRING"
}

// shown is v as the transcoder's errors quote it.
func shown(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "{...}"
	case []any:
		return "[...]"
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// camelCase is a snake_case name in lowerCamelCase; a name already in
// camelCase is unchanged.
func camelCase(name string) string {
	if !strings.Contains(name, "_") {
		return name
	}
	var b strings.Builder
	up := false
	for _, r := range name {
		switch {
		case r == '_':
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// snakeCase is a lowerCamelCase name in snake_case, as the API's error
// paths write field names.
func snakeCase(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
