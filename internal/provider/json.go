package provider

import "bytes"

// JSONKind names the JSON type of a raw value, as the codecs' validation
// messages name what a field held: "object", "array", "string", "number",
// "bool" or "null"; "" when absent (empty or only whitespace). The value
// is taken to be valid JSON, so its first byte tells its type.
func JSONKind(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}
