package openai

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
)

// jsonWalker reads a JSON document's structure byte by byte: object keys
// and where each value starts and ends, skipping what it does not look
// into without decoding it. The parameter checks use it so that a request
// with a prompt of megabytes is not decoded again for each of them. It does
// not validate: on malformed input its methods report false, and the
// decoder's own errors follow.
type jsonWalker struct {
	b []byte
	i int
}

func (w *jsonWalker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// peek is the next non-space byte, or 0 at the end.
func (w *jsonWalker) peek() byte {
	w.space()
	if w.i < len(w.b) {
		return w.b[w.i]
	}
	return 0
}

// skipString moves past the string that starts at w.i: to the first quote
// not escaped by an odd run of backslashes, found with bytes.IndexByte so
// that a long text is crossed quickly.
func (w *jsonWalker) skipString() bool {
	w.i++ // the opening quote
	start := w.i
	for {
		j := bytes.IndexByte(w.b[w.i:], '"')
		if j < 0 {
			w.i = len(w.b)
			return false
		}
		w.i += j
		escapes := 0
		for k := w.i - 1; k >= start && w.b[k] == '\\'; k-- {
			escapes++
		}
		w.i++
		if escapes%2 == 0 {
			return true
		}
	}
}

// key reads the object key at w.i and the colon after it.
func (w *jsonWalker) key() (string, bool) {
	if w.peek() != '"' {
		return "", false
	}
	start := w.i
	if !w.skipString() {
		return "", false
	}
	raw := w.b[start:w.i]
	k := string(raw[1 : len(raw)-1])
	for _, c := range raw {
		if c == '\\' {
			if u, err := strconv.Unquote(string(raw)); err == nil {
				k = u
			} else if json.Unmarshal(raw, &k) != nil {
				return "", false
			}
			break
		}
	}
	if w.peek() != ':' {
		return "", false
	}
	w.i++
	return k, true
}

// skipValue moves past the value at w.i and returns it.
func (w *jsonWalker) skipValue() ([]byte, bool) {
	c := w.peek()
	start := w.i
	switch c {
	case 0:
		return nil, false
	case '"':
		ok := w.skipString()
		return w.b[start:w.i], ok
	case '{', '[':
		depth := 0
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case '"':
				if !w.skipString() {
					return nil, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					w.i++
					return w.b[start:w.i], true
				}
			}
			w.i++
		}
		return nil, false
	}
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return w.b[start:w.i], w.i > start
		}
		w.i++
	}
	return w.b[start:w.i], w.i > start
}

// members calls visit with each member of the object at w.i, in document
// order, with the walker at the start of the member's value; visit must
// move past the value (or return false to stop). It reports false when the
// value is not an object or is malformed.
func (w *jsonWalker) members(visit func(key string) bool) bool {
	if w.peek() != '{' {
		return false
	}
	w.i++
	if w.peek() == '}' {
		w.i++
		return true
	}
	for {
		k, ok := w.key()
		if !ok || !visit(k) {
			return false
		}
		switch w.peek() {
		case ',':
			w.i++
		case '}':
			w.i++
			return true
		default:
			return false
		}
	}
}

// elements calls visit with the index of each element of the array at
// w.i, with the walker at the start of the element; visit must move past
// it.
func (w *jsonWalker) elements(visit func(i int) bool) bool {
	if w.peek() != '[' {
		return false
	}
	w.i++
	if w.peek() == ']' {
		w.i++
		return true
	}
	for n := 0; ; n++ {
		if !visit(n) {
			return false
		}
		switch w.peek() {
		case ',':
			w.i++
		case ']':
			w.i++
			return true
		default:
			return false
		}
	}
}

// topMembers returns the raw values of the top-level members of body
// named in names (the last one where a name repeats, as encoding/json
// decodes it), or nil when body is not a JSON object.
func topMembers(body []byte, names ...string) map[string]json.RawMessage {
	w := &jsonWalker{b: body}
	out := make(map[string]json.RawMessage)
	ok := w.members(func(k string) bool {
		v, ok := w.skipValue()
		if ok && slices.Contains(names, k) {
			out[k] = v
		}
		return ok
	})
	if !ok {
		return nil
	}
	return out
}
