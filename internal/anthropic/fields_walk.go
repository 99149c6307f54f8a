package anthropic

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// maxUnknown bounds the unknown fields a tolerant decoding names (see
// DecodeOptions.AllowUnknown): a body of many blocks, each with an extra
// field, must not grow the journal without end.
const maxUnknown = 64

// extras collects the paths of the fields a body carries that its spec
// does not list, in document order: the first only, unless all is set (and
// then at most maxUnknown).
type extras struct {
	all   bool
	paths []string
}

func (e *extras) full() bool {
	return len(e.paths) > 0 && !e.all || len(e.paths) >= maxUnknown
}

// member is one member of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// members decodes an object's members in document order, or nil when raw
// is no object. Each level of a body is read once per level of the spec
// that looks into it, so the walk stays linear in the body's size.
func members(raw json.RawMessage) []member {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return out
		}
		out = append(out, member{key: key, val: v})
	}
	return out
}

// walk checks the value at path (an object, or an array of objects)
// against s, adding the paths of unknown fields to e.
func (s *objectSpec) walk(raw json.RawMessage, path string, e *extras) {
	if s == nil || e.full() {
		return
	}
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) > 0 && raw[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			if e.full() {
				return
			}
			if provider.JSONKind(item) != "object" {
				continue // an array in an array is the decoder's to refuse, not to walk
			}
			s.walk(item, join(path, strconv.Itoa(i)), e)
		}
		return
	}
	ms := members(raw)
	if ms == nil {
		return
	}
	spec := s
	if s.byType != nil {
		typ := s.defaultType
		for _, m := range ms {
			if m.key == "type" {
				_ = json.Unmarshal(m.val, &typ) // a type of the wrong kind is the decoder's to refuse
			}
		}
		if spec = s.byType[typ]; spec == nil {
			return
		}
		path = join(path, typ)
	}
	for _, m := range ms {
		child, known := spec.fields[m.key]
		p := join(path, m.key)
		if !known {
			e.paths = append(e.paths, p)
			if e.full() {
				return
			}
			continue
		}
		child.walk(m.val, p, e)
	}
}

func join(path, step string) string {
	if path == "" {
		return step
	}
	return path + "." + step
}
