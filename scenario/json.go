package scenario

import (
	"bytes"
	"encoding/json"
)

// decodeStrict decodes one JSON value into v and refuses unknown fields.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
