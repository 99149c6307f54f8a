package anthropic

import "net/http"

// RequestID is the request ID of the runtime's serial-th request: "req_011C"
// and 20 base-58 characters, the shape of the API's 2026 IDs
// (req_011CfNVcnRg3KH9QGyJ5yp1U), reproducible from the serial.
func RequestID(serial uint64) string {
	// Spread consecutive serials over the characters (splitmix64), so IDs
	// do not look like a counter yet stay unique: the mix is a bijection,
	// and its 11 base-58 digits come first; 9 more, of a second mix,
	// fill the length.
	z := mix64(serial)
	b := make([]byte, 0, len("req_011C")+20)
	b = append(b, "req_011C"...)
	b = appendBase58(b, z, 11)
	return string(appendBase58(b, mix64(z), 9))
}

// base58 is the base-58 alphabet: no 0, O, I or l.
const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// appendBase58 appends the n low base-58 digits of v, most significant
// first (58^11 > 2^64: 11 digits hold any v).
func appendBase58(b []byte, v uint64, n int) []byte {
	at := len(b)
	b = append(b, make([]byte, n)...)
	for i := n - 1; i >= 0; i-- {
		b[at+i] = base58[v%58]
		v /= 58
	}
	return b
}

// mix64 is splitmix64's finalizer, a bijection of the 64-bit integers.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// SetHeaders sets the headers the API sends with every response: its
// request-id.
func SetHeaders(h http.Header, serial uint64) {
	h.Set("request-id", RequestID(serial))
}
