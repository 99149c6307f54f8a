// Package plainjson writes JSON as this server writes it everywhere: like
// encoding/json, but with <, > and & left as they are rather than escaped
// as \u003c, \u003e and \u0026. The providers' APIs send them so, and a
// document read back (a configuration, a journal export) must measure what
// it measured when it was written: six bytes for each of those characters
// would make a configuration heavy in them grow past its own size limit.
//
// It imports nothing of this module, so that scenario and journal, which
// import nothing else of it but internal/friend, may import it.
package plainjson

import (
	"bytes"
	"encoding/json"
	"io"
)

// Marshal is json.Marshal without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// NewEncoder is json.NewEncoder without HTML escaping: each value it
// encodes is followed by a newline.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
