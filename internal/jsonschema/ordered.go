package jsonschema

import (
	"bytes"
	"encoding/json"
)

// jnode is one JSON value read once, for checks that walk a document: an
// object keeps its keys in document order (a key given twice keeps its
// first place and its last value, as decoders read it).
type jnode struct {
	kind    jnodeKind
	keys    []string          // jsonObject, in document order
	members map[string]*jnode // jsonObject
	elems   []*jnode          // jsonArray
	str     string            // jsonString
	boolean bool              // jsonBool
}

type jnodeKind uint8

const (
	jsonNull jnodeKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// member is the value of an object's key, or nil.
func (n *jnode) member(key string) *jnode {
	if n.kind != jsonObject {
		return nil
	}
	return n.members[key]
}

// hasType reports whether a schema's type is name, or a list naming it.
func (n *jnode) hasType(name string) bool {
	t := n.member("type")
	switch {
	case t == nil:
		return false
	case t.kind == jsonString:
		return t.str == name
	case t.kind == jsonArray:
		for _, e := range t.elems {
			if e.kind == jsonString && e.str == name {
				return true
			}
		}
	}
	return false
}

// parseOrdered reads data, one JSON value, into a tree; ok is false when
// data is not JSON. Each byte is read once.
func parseOrdered(data []byte) (root *jnode, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := readNode(dec)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // more than one value
	}
	return root, true
}

// readNode reads the next value of dec.
func readNode(dec *json.Decoder) (*jnode, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &jnode{kind: jsonObject, members: map[string]*jnode{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				val, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := n.members[k]; !dup {
					n.keys = append(n.keys, k)
				}
				n.members[k] = val
			}
			_, err := dec.Token() // '}'
			return n, err
		case '[':
			n := &jnode{kind: jsonArray}
			for dec.More() {
				e, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			_, err := dec.Token() // ']'
			return n, err
		}
	case string:
		return &jnode{kind: jsonString, str: v}, nil
	case bool:
		return &jnode{kind: jsonBool, boolean: v}, nil
	case json.Number:
		return &jnode{kind: jsonNumber}, nil
	}
	return &jnode{kind: jsonNull}, nil
}
