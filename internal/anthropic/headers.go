package anthropic

import (
	"net/http"
	"strconv"
)

// RequestID is the request ID of the runtime's serial-th request: "req_"
// and 24 base-36 digits, the length of the API's own IDs, reproducible
// from the serial.
func RequestID(serial uint64) string {
	// Spread consecutive serials over the digits (splitmix64), so IDs do
	// not look like a counter yet stay unique: the mix is a bijection.
	z := serial + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	s := strconv.FormatUint(z, 36)
	const width = 24
	pad := make([]byte, 0, 4+width)
	pad = append(pad, "req_011C"...)
	for i := len(s); i < width-4; i++ {
		pad = append(pad, '0')
	}
	return string(append(pad, s...))
}

// SetHeaders sets the headers the API sends with every response: its
// request-id.
func SetHeaders(h http.Header, serial uint64) {
	h.Set("request-id", RequestID(serial))
}
