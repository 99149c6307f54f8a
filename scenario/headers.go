package scenario

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// framingHeaders are the response headers a scripted error may not set:
// they frame the response (its length, encoding and type, which the server
// writes for the envelope it sends) or the connection, and a wrong value
// corrupts what the client reads.
var framingHeaders = map[string]bool{
	"Content-Length":    true,
	"Content-Type":      true,
	"Content-Encoding":  true,
	"Transfer-Encoding": true,
	"Connection":        true,
	"Keep-Alive":        true,
	"Proxy-Connection":  true,
	"Te":                true,
	"Trailer":           true,
	"Upgrade":           true,
}

// validateHeaders reports the first scripted header that is not a valid
// header or that would frame the response.
func validateHeaders(headers map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		value := headers[name]
		field := fmt.Sprintf("error.headers.%s", name)
		switch {
		case !validHeaderName(name):
			return fmt.Errorf("error.headers: %q is not a valid header name", name)
		case framingHeaders[http.CanonicalHeaderKey(name)]:
			return fmt.Errorf("%s: frames the response, which the server writes itself; it cannot be scripted", field)
		case strings.ContainsAny(value, "\r\n\x00"):
			return fmt.Errorf("%s: a header value cannot hold CR, LF or NUL", field)
		}
	}
	return nil
}

// validHeaderName reports whether name is a token (RFC 9110, section 5.1).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
