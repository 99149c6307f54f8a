package admin

import (
	_ "embed"
	"net/http"
)

// openAPIPath is where the admin API's description is served.
const openAPIPath = "/admin-api/openapi.json"

// openAPIDoc is openapi.json, embedded: the OpenAPI 3.1 description of
// the admin API, every route of Routes with its request and response
// bodies and the error envelope. A test checks it against the routing
// table and the answers of a running server.
//
//go:embed openapi.json
var openAPIDoc []byte

// openAPI serves GET /admin-api/openapi.json, without authorization: it
// describes the API, which is public, and holds nothing of any session.
func (h *Handler) openAPI(w http.ResponseWriter, _ *http.Request, _ call) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(openAPIDoc)
}
